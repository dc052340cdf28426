// SPDX-License-Identifier: MIT
/* GEM_PREAD and GEM_PWRITE: data, ranges, pointers and padding. */
#include "garnet_test.h"

#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int pread_raw(int fd, uint32_t handle, uint64_t offset, uint64_t size, uint64_t ptr)
{
	struct drm_i915_gem_pread pr = {
		.handle = handle, .offset = offset, .size = size, .data_ptr = ptr,
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr);
}

static int pwrite_raw(int fd, uint32_t handle, uint64_t offset, uint64_t size, uint64_t ptr)
{
	struct drm_i915_gem_pwrite pw = {
		.handle = handle, .offset = offset, .size = size, .data_ptr = ptr,
	};

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
}

static void pwrite_then_pread_returns_the_data(void)
{
	const size_t size = 3 * 4096;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *in = malloc(size), *out = malloc(size);

	for (size_t i = 0; i < size; i++)
		in[i] = (uint8_t)(i * 7 + 3);
	gt_pwrite(fd, handle, 0, in, size);
	memset(out, 0, size);
	gt_pread(fd, handle, 0, out, size);
	gt_assert(memcmp(in, out, size) == 0);
	/* A range that crosses a page boundary at an odd offset. */
	memset(out, 0, size);
	gt_pread(fd, handle, 4093, out, 9);
	gt_assert(memcmp(in + 4093, out, 9) == 0);
	free(in);
	free(out);
	close(fd);
}

/* IGT basic-random: small writes at random offsets, checked through a mapping. */
static void random_small_writes_land_where_asked(void)
{
	const size_t size = 64 * 1024;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *shadow = calloc(1, size);
	uint8_t *map;

	srand(1234);
	for (int i = 0; i < 2000; i++) {
		uint64_t value = ((uint64_t)rand() << 32) | (unsigned int)rand();
		size_t offset = (size_t)rand() % (size - 8);

		gt_pwrite(fd, handle, offset, &value, 8);
		memcpy(shadow + offset, &value, 8);
	}
	map = gt_mmap_cpu(fd, handle, 0, size);
	gt_assert(memcmp(map, shadow, size) == 0);
	munmap(map, size);
	free(shadow);
	close(fd);
}

static void bad_handle_is_enoent(void)
{
	int fd = gt_open_render();
	uint32_t word = 0;

	gt_assert_errno(pread_raw(fd, 0x10101010, 0, 4, (uintptr_t)&word), ENOENT);
	gt_assert_errno(pwrite_raw(fd, 0x10101010, 0, 4, (uintptr_t)&word), ENOENT);
	gt_assert_errno(pread_raw(fd, 0, 0, 4, (uintptr_t)&word), ENOENT);
	close(fd);
}

static void out_of_range_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	static uint8_t buf[8192];
	const uint64_t p = (uintptr_t)buf;

	gt_assert_errno(pread_raw(fd, handle, 4096, 1, p), EINVAL);
	gt_assert_errno(pread_raw(fd, handle, 0, 4097, p), EINVAL);
	gt_assert_errno(pread_raw(fd, handle, 4095, 2, p), EINVAL);
	gt_assert_errno(pwrite_raw(fd, handle, 1ull << 63, 1, p), EINVAL);
	/* offset + size wraps around: must not pass a naive end check. */
	gt_assert_errno(pwrite_raw(fd, handle, ~0ull - 1, 4, p), EINVAL);
	gt_assert_errno(pwrite_raw(fd, handle, 8, ~0ull - 7, p), EFAULT);
	close(fd);
}

static void bad_user_pointer_is_efault(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 8192);
	void *unmapped = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			      -1, 0);

	gt_assert(unmapped != MAP_FAILED);
	munmap(unmapped, 8192);
	gt_assert_errno(pread_raw(fd, handle, 0, 4096, (uintptr_t)unmapped), EFAULT);
	gt_assert_errno(pwrite_raw(fd, handle, 0, 4096, (uintptr_t)unmapped), EFAULT);
	/* Kernel addresses are refused before any copy. */
	gt_assert_errno(pread_raw(fd, handle, 0, 4096, 0xffff888000000000ull), EFAULT);
	close(fd);
}

/* A read-only page cannot be the destination of a pread. */
static void pread_into_read_only_memory_is_efault(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	void *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	gt_assert(ro != MAP_FAILED);
	gt_assert_errno(pread_raw(fd, handle, 0, 4096, (uintptr_t)ro), EFAULT);
	munmap(ro, 4096);
	close(fd);
}

static void size_zero_is_a_no_op(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);

	gt_assert_ok(pread_raw(fd, handle, 0, 0, 0));
	gt_assert_ok(pwrite_raw(fd, handle, 0, 0, 0));
	close(fd);
}

static void nonzero_pad_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096), word = 0;
	struct drm_i915_gem_pread pr = {
		.handle = handle, .pad = 1, .size = 4, .data_ptr = (uintptr_t)&word,
	};
	struct drm_i915_gem_pwrite pw = {
		.handle = handle, .pad = 1, .size = 4, .data_ptr = (uintptr_t)&word,
	};

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), EINVAL);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw), EINVAL);
	close(fd);
}

/* IGT basic-self: the source of a pwrite is a mapping of the same object. */
static void pwrite_from_own_mapping(void)
{
	const size_t size = 4 * 4096;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *map = gt_mmap_offset(fd, handle, size);
	uint8_t check[4096];

	memset(map, 0x5a, 4096);
	gt_pwrite(fd, handle, 2 * 4096, map, 4096);
	gt_pread(fd, handle, 2 * 4096, check, sizeof(check));
	for (size_t i = 0; i < sizeof(check); i++)
		gt_assert_eq(check[i], 0x5a);
	/* And a pread into the mapping of the object itself. */
	gt_pread(fd, handle, 0, map + 3 * 4096, 4096);
	gt_assert_eq(map[3 * 4096 + 100], 0x5a);
	munmap(map, size);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(pwrite_then_pread_returns_the_data, "pwrite-then-pread-returns-the-data"),
	GT_SUBTEST(random_small_writes_land_where_asked, "random-small-writes-land-where-asked"),
	GT_SUBTEST(bad_handle_is_enoent, "bad-handle-is-enoent"),
	GT_SUBTEST(out_of_range_is_einval, "out-of-range-is-einval"),
	GT_SUBTEST(bad_user_pointer_is_efault, "bad-user-pointer-is-efault"),
	GT_SUBTEST(pread_into_read_only_memory_is_efault, "pread-into-read-only-memory-is-efault"),
	GT_SUBTEST(size_zero_is_a_no_op, "size-zero-is-a-no-op"),
	GT_SUBTEST(nonzero_pad_is_einval, "nonzero-pad-is-einval"),
	GT_SUBTEST(pwrite_from_own_mapping, "pwrite-from-own-mapping"),
)
