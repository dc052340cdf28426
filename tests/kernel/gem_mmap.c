// SPDX-License-Identifier: MIT
/* GEM_MMAP (CPU mapping returned in addr_ptr) and GEM_MMAP_OFFSET (mmap through the DRM fd). */
#include "garnet_test.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int legacy_mmap(int fd, uint32_t handle, uint64_t offset, uint64_t size, uint64_t flags)
{
	struct drm_i915_gem_mmap mm = {
		.handle = handle, .offset = offset, .size = size, .flags = flags,
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm);
}

static int mmap_offset(int fd, uint32_t handle, uint64_t flags, uint64_t *offset)
{
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = flags };
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo);

	if (offset)
		*offset = mo.offset;
	return ret;
}

/* IGT gem_mmap basic: zero at first, pwrite shows through, the map outlives the handle. */
static void cpu_map_sees_pwrite_and_outlives_close(void)
{
	const size_t size = 16384;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *map = gt_mmap_cpu(fd, handle, 0, size);
	uint8_t pattern[64];

	for (size_t i = 0; i < size; i++)
		gt_assert_eq(map[i], 0);
	memset(pattern, 0xc3, sizeof(pattern));
	gt_pwrite(fd, handle, 8192, pattern, sizeof(pattern));
	gt_assert(memcmp(map + 8192, pattern, sizeof(pattern)) == 0);

	gt_close(fd, handle);
	/* Every page stays usable through the mapping after GEM_CLOSE. */
	for (size_t i = 0; i < size; i += 4096)
		map[i] = 1;
	gt_assert(memcmp(map + 8192 + 1, pattern + 1, sizeof(pattern) - 1) == 0);
	munmap(map, size);
	close(fd);
}

static void cpu_map_of_a_range_starts_at_its_offset(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 3 * 4096);
	uint32_t word = 0x12345678;
	uint32_t *map;

	gt_pwrite(fd, handle, 4096, &word, sizeof(word));
	map = gt_mmap_cpu(fd, handle, 4096, 4096);
	gt_assert_eq(map[0], 0x12345678);
	munmap(map, 4096);
	close(fd);
}

static void cpu_map_bad_handle_is_enoent(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);

	gt_assert_errno(legacy_mmap(fd, 0xdeadbeef, 0, 4096, 0), ENOENT);
	gt_assert_errno(legacy_mmap(fd, handle + 1, 0, 4096, 0), ENOENT);
	gt_assert_errno(legacy_mmap(fd, handle | 1 << 16, 0, 4096, 0), ENOENT);
	close(fd);
}

/* IGT gem_mmap bad-offset and bad-size pairs on a one-page object. */
static void cpu_map_bad_range_is_einval(void)
{
	static const struct { uint64_t offset, size; } bad[] = {
		{ 0, 0 }, { 0, -4096ull }, { 0, 4097 }, { 0, 8192 }, { 0, ~0ull },
		{ 4096, 4096 }, { 4096, 0 }, { -4096ull, 4096 }, { 8192, -4096ull },
		{ ~0ull, 4096 }, { 1, 4095 },
	};
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		gt_assert_errno(legacy_mmap(fd, handle, bad[i].offset, bad[i].size, 0), EINVAL);
	close(fd);
}

static void cpu_map_flags(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	struct drm_i915_gem_mmap mm = { .handle = handle, .size = 4096, .pad = 1 };

	/* Objects are CPU-cached: no write-combined view exists. */
	gt_assert_errno(legacy_mmap(fd, handle, 0, 4096, I915_MMAP_WC), ENODEV);
	gt_assert_errno(legacy_mmap(fd, handle, 0, 4096, 2), EINVAL);
	gt_assert_errno(legacy_mmap(fd, handle, 0, 4096, 1ull << 63), EINVAL);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm), EINVAL);
	close(fd);
}

static void offset_map_reads_and_writes_the_object(void)
{
	const size_t size = 8192;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *map = gt_mmap_offset(fd, handle, size);
	uint8_t out[16];

	memcpy(map + 4090, "garnet-objects", 15);
	gt_pread(fd, handle, 4090, out, 15);
	gt_assert(memcmp(out, "garnet-objects", 15) == 0);
	gt_close(fd, handle);
	/* The mapping holds the object after its last handle is gone. */
	gt_assert(memcmp(map + 4090, "garnet-objects", 15) == 0);
	munmap(map, size);
	close(fd);
}

/* GTT is accepted (libdrm_intel's map_gtt); WB too; other caching modes do not exist. */
static void offset_map_flags(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	struct drm_i915_gem_mmap_offset mo = { .handle = handle, .flags = I915_MMAP_OFFSET_WB };

	gt_assert_ok(mmap_offset(fd, handle, I915_MMAP_OFFSET_GTT, NULL));
	gt_assert_ok(mmap_offset(fd, handle, I915_MMAP_OFFSET_WB, NULL));
	gt_assert_errno(mmap_offset(fd, handle, I915_MMAP_OFFSET_WC, NULL), ENODEV);
	gt_assert_errno(mmap_offset(fd, handle, I915_MMAP_OFFSET_UC, NULL), ENODEV);
	gt_assert_errno(mmap_offset(fd, handle, I915_MMAP_OFFSET_FIXED, NULL), ENODEV);
	gt_assert_errno(mmap_offset(fd, handle, 99, NULL), EINVAL);
	mo.pad = 1;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), EINVAL);
	mo.pad = 0;
	mo.extensions = 1;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &mo), EINVAL);
	gt_assert_errno(mmap_offset(fd, 0xdeadbeef, I915_MMAP_OFFSET_WB, NULL), ENOENT);
	close(fd);
}

/* An offset is only good in a file that holds a handle to the object. */
static void offset_map_from_another_file_is_refused(void)
{
	int owner = gt_open_render(), other = gt_open_render();
	uint32_t handle = gt_create(owner, 4096);
	uint64_t offset;
	void *map;

	gt_assert_ok(mmap_offset(owner, handle, I915_MMAP_OFFSET_WB, &offset));
	map = mmap(NULL, 4096, PROT_READ, MAP_SHARED, other, (off_t)offset);
	gt_assert(map == MAP_FAILED);
	gt_assert(errno == EACCES || errno == EINVAL);
	close(owner);
	close(other);
}

/* Copy-on-write mappings would let writes escape the object's domain tracking. */
static void offset_map_private_is_refused(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	uint64_t offset;
	void *map;

	gt_assert_ok(mmap_offset(fd, handle, I915_MMAP_OFFSET_WB, &offset));
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, (off_t)offset);
	gt_assert(map == MAP_FAILED);
	gt_assert_eq(errno, EINVAL);
	close(fd);
}

/* A mapping larger than the object is refused, so nothing past its end is reachable. */
static void offset_map_larger_than_object_is_refused(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	uint64_t offset;
	void *map;

	gt_assert_ok(mmap_offset(fd, handle, I915_MMAP_OFFSET_WB, &offset));
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, (off_t)offset);
	gt_assert(map == MAP_FAILED);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(cpu_map_sees_pwrite_and_outlives_close, "cpu-map-sees-pwrite-and-outlives-close"),
	GT_SUBTEST(cpu_map_of_a_range_starts_at_its_offset,
		   "cpu-map-of-a-range-starts-at-its-offset"),
	GT_SUBTEST(cpu_map_bad_handle_is_enoent, "cpu-map-bad-handle-is-enoent"),
	GT_SUBTEST(cpu_map_bad_range_is_einval, "cpu-map-bad-range-is-einval"),
	GT_SUBTEST(cpu_map_flags, "cpu-map-wc-is-enodev-unknown-flags-einval"),
	GT_SUBTEST(offset_map_reads_and_writes_the_object, "offset-map-reads-and-writes-the-object"),
	GT_SUBTEST(offset_map_flags, "offset-map-flags-pad-and-extensions"),
	GT_SUBTEST(offset_map_from_another_file_is_refused,
		   "offset-map-from-another-file-is-refused"),
	GT_SUBTEST(offset_map_private_is_refused, "offset-map-private-is-refused"),
	GT_SUBTEST(offset_map_larger_than_object_is_refused,
		   "offset-map-larger-than-object-is-refused"),
)
