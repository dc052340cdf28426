// SPDX-License-Identifier: MIT
/* GEM_CREATE and GEM_CLOSE: sizes, handles, zeroed contents, concurrency. */
#include "garnet_test.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int create(int fd, uint64_t size, struct drm_i915_gem_create *out)
{
	*out = (struct drm_i915_gem_create){ .size = size };
	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, out);
}

static void size_is_rounded_up_to_pages(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_create c;

	gt_assert_ok(create(fd, 15, &c));
	gt_assert(c.handle != 0);
	gt_assert_eq(c.size, 4096);
	gt_assert_ok(create(fd, 4097, &c));
	gt_assert_eq(c.size, 8192);
	gt_assert_ok(create(fd, 1 << 20, &c));
	gt_assert_eq(c.size, 1 << 20);
	close(fd);
}

static void size_zero_is_einval(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_create c;

	gt_assert_errno(create(fd, 0, &c), EINVAL);
	gt_assert_eq(c.handle, 0);
	close(fd);
}

/* Rounding ~0 up to a page would wrap around to zero. */
static void size_that_wraps_is_einval(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_create c;

	gt_assert_errno(create(fd, ~0ull, &c), EINVAL);
	gt_assert_errno(create(fd, ~0ull - 4094, &c), EINVAL);
	gt_assert_eq(c.handle, 0);
	close(fd);
}

static void size_too_large_is_e2big(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_create c;

	gt_assert_errno(create(fd, ~0ull << 32, &c), E2BIG);
	gt_assert_errno(create(fd, 1ull << 48, &c), E2BIG);
	gt_assert_eq(c.handle, 0);
	close(fd);
}

static void handles_are_distinct_and_nonzero(void)
{
	int fd = gt_open_render();
	uint32_t a = gt_create(fd, 4096), b = gt_create(fd, 4096);

	gt_assert(a != 0 && b != 0 && a != b);
	close(fd);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void new_object_reads_zero(void)
{
	const size_t size = 1 << 20;
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, size);
	uint8_t *buf = malloc(size);
	uint8_t *map;

	memset(buf, 0xa5, size);
	gt_pread(fd, handle, 0, buf, size);
	gt_assert(all_zero(buf, size));
	map = gt_mmap_cpu(fd, handle, 0, size);
	gt_assert(all_zero(map, size));
	munmap(map, size);
	map = gt_mmap_offset(fd, handle, size);
	gt_assert(all_zero(map, size));
	munmap(map, size);
	free(buf);
	close(fd);
}

/* A half-page request still gets a whole page, and all of it is usable. */
static void half_page_object_is_writable_past_the_request(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_create c;
	uint32_t in = 0xdeadbeef, out = 0;

	gt_assert_ok(create(fd, 2048, &c));
	gt_assert(c.size >= 4096);
	gt_pwrite(fd, c.handle, 2048, &in, sizeof(in));
	gt_pread(fd, c.handle, 2048, &out, sizeof(out));
	gt_assert_eq(out, in);
	close(fd);
}

static void close_of_never_valid_handle_is_einval(void)
{
	int fd = gt_open_render();
	struct drm_gem_close cl = { .handle = 0x10101010 };

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), EINVAL);
	cl.handle = 0;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), EINVAL);
	close(fd);
}

static void double_close_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	struct drm_gem_close cl = { .handle = handle };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl));
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl), EINVAL);
	close(fd);
}

static void closed_handle_is_enoent_for_i915_ioctls(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 4096);
	struct drm_i915_gem_busy busy = { .handle = handle };
	uint32_t word;
	struct drm_i915_gem_pread pr = {
		.handle = handle, .size = 4, .data_ptr = (uintptr_t)&word,
	};

	gt_close(fd, handle);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy), ENOENT);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), ENOENT);
	close(fd);
}

/* Handles are per file: the same number in another file names nothing there. */
static void handle_numbers_belong_to_their_file(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint32_t handle = gt_create(a, 4096);
	uint32_t word;
	struct drm_i915_gem_pread pr = {
		.handle = handle, .size = 4, .data_ptr = (uintptr_t)&word,
	};
	struct drm_gem_close cl = { .handle = handle };

	gt_assert_errno(gt_ioctl(b, DRM_IOCTL_I915_GEM_PREAD, &pr), ENOENT);
	gt_assert_errno(gt_ioctl(b, DRM_IOCTL_GEM_CLOSE, &cl), EINVAL);
	gt_assert_ok(gt_ioctl(a, DRM_IOCTL_I915_GEM_PREAD, &pr));
	close(a);
	close(b);
}

struct worker {
	int fd;
	int failures;
};

static void *create_close_loop(void *data)
{
	struct worker *w = data;

	for (int i = 0; i < 500; i++) {
		struct drm_i915_gem_create c = { .size = 4096 * (1 + i % 7) };
		struct drm_gem_close cl;
		uint32_t word = i;

		if (gt_ioctl(w->fd, DRM_IOCTL_I915_GEM_CREATE, &c)) {
			w->failures++;
			continue;
		}
		struct drm_i915_gem_pwrite pw = {
			.handle = c.handle, .size = 4, .data_ptr = (uintptr_t)&word,
		};
		if (gt_ioctl(w->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw))
			w->failures++;
		cl = (struct drm_gem_close){ .handle = c.handle };
		if (gt_ioctl(w->fd, DRM_IOCTL_GEM_CLOSE, &cl))
			w->failures++;
	}
	return NULL;
}

static void ten_threads_create_and_close_at_once(void)
{
	int fd = gt_open_render();
	int other = gt_open_render();
	long long before = gt_counter(fd, "objects");
	struct worker workers[10];
	pthread_t threads[10];

	/* Half the threads share one file, half another: both handle tables are raced. */
	for (int i = 0; i < 10; i++) {
		workers[i] = (struct worker){ .fd = i % 2 ? other : fd };
		gt_assert_ok(pthread_create(&threads[i], NULL, create_close_loop, &workers[i]));
	}
	for (int i = 0; i < 10; i++) {
		gt_assert_ok(pthread_join(threads[i], NULL));
		gt_assert_eq(workers[i].failures, 0);
	}
	gt_assert_eq(gt_counter(fd, "objects"), before);
	close(other);
	close(fd);
}

/* Closing the file releases every object it held. */
static void closing_the_file_frees_its_objects(void)
{
	int probe = gt_open_render();
	long long before = gt_counter(probe, "objects");
	int fd = gt_open_render();

	for (int i = 0; i < 16; i++)
		gt_create(fd, 8192);
	gt_assert_eq(gt_counter(probe, "objects"), before + 16);
	close(fd);
	gt_assert_eq(gt_counter(probe, "objects"), before);
	close(probe);
}

GT_MAIN(
	GT_SUBTEST(size_is_rounded_up_to_pages, "size-is-rounded-up-to-pages"),
	GT_SUBTEST(size_zero_is_einval, "size-zero-is-einval"),
	GT_SUBTEST(size_that_wraps_is_einval, "size-that-wraps-is-einval"),
	GT_SUBTEST(size_too_large_is_e2big, "size-too-large-is-e2big"),
	GT_SUBTEST(handles_are_distinct_and_nonzero, "handles-are-distinct-and-nonzero"),
	GT_SUBTEST(new_object_reads_zero, "new-object-reads-zero"),
	GT_SUBTEST(half_page_object_is_writable_past_the_request,
		   "half-page-object-is-writable-past-the-request"),
	GT_SUBTEST(close_of_never_valid_handle_is_einval, "close-of-never-valid-handle-is-einval"),
	GT_SUBTEST(double_close_is_einval, "double-close-is-einval"),
	GT_SUBTEST(closed_handle_is_enoent_for_i915_ioctls,
		   "closed-handle-is-enoent-for-i915-ioctls"),
	GT_SUBTEST(handle_numbers_belong_to_their_file, "handle-numbers-belong-to-their-file"),
	GT_SUBTEST(ten_threads_create_and_close_at_once, "ten-threads-create-and-close-at-once"),
	GT_SUBTEST(closing_the_file_frees_its_objects, "closing-the-file-frees-its-objects"),
)
