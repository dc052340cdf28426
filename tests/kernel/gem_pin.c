// SPDX-License-Identifier: MIT
/*
 * The 2008 ioctls modern i915 stubs out, implemented: GEM_INIT (master and root), PIN and
 * UNPIN (root), with GET_APERTURE reporting what pinning takes.
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t available(int fd)
{
	struct drm_i915_gem_get_aperture ap = { 0 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
	return ap.aper_available_size;
}

static int gem_init(int fd, uint64_t start, uint64_t end)
{
	struct drm_i915_gem_init init = { .gtt_start = start, .gtt_end = end };

	return gt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init);
}

static void pin_gives_an_aligned_offset_inside_the_aperture(void)
{
	int fd = gt_open_card();
	uint32_t a = gt_create(fd, 8192), b = gt_create(fd, 4096);
	uint64_t oa, ob;

	gt_assert_ok(gt_pin(fd, a, 0, &oa));
	gt_assert_ok(gt_pin(fd, b, 1 << 20, &ob));
	gt_assert(oa + 8192 <= 256ull << 20);
	gt_assert_eq(ob % (1 << 20), 0);
	/* Two pinned objects never overlap. */
	gt_assert(ob >= oa + 8192 || ob + 4096 <= oa);
	close(fd);
}

static void pin_twice_keeps_the_offset_until_the_last_unpin(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 4096);
	uint64_t first, second, before = available(fd);

	gt_assert_ok(gt_pin(fd, h, 0, &first));
	gt_assert_ok(gt_pin(fd, h, 0, &second));
	gt_assert_eq(first, second);
	gt_assert_eq(available(fd), before - 4096);
	gt_assert_ok(gt_unpin(fd, h));
	gt_assert_eq(available(fd), before - 4096);
	gt_assert_ok(gt_unpin(fd, h));
	gt_assert_eq(available(fd), before);
	gt_assert_errno(gt_unpin(fd, h), EINVAL);
	close(fd);
}

static void pin_argument_errors(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 4096);
	struct drm_i915_gem_pin p = { .handle = h, .pad = 1 };

	gt_assert_errno(gt_pin(fd, 0x10101010, 0, NULL), ENOENT);
	gt_assert_errno(gt_unpin(fd, 0x10101010), ENOENT);
	gt_assert_errno(gt_pin(fd, h, 3, NULL), EINVAL);
	gt_assert_errno(gt_pin(fd, h, 1ull << 40, NULL), EINVAL);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &p), EINVAL);
	gt_assert_errno(gt_unpin(fd, h), EINVAL);	/* not pinned */
	close(fd);
}

static void pin_by_another_file_is_einval(void)
{
	int master = gt_open_card(), other = gt_open_card();
	uint32_t h = gt_create(master, 4096);
	struct drm_gem_open op = { .name = gt_flink(master, h) };

	gt_assert_ok(gt_ioctl(master, DRM_IOCTL_GEM_OPEN, &op));
	gt_assert_ok(gt_pin(master, h, 0, NULL));
	gt_share(master, h, gt_client_id(other), 0);
	gt_assert_ok(gt_ioctl(other, DRM_IOCTL_GEM_OPEN, &op));
	gt_assert_errno(gt_pin(other, op.handle, 0, NULL), EINVAL);
	gt_assert_errno(gt_unpin(other, op.handle), EINVAL);
	close(other);
	close(master);
}

static void pin_on_render_node_is_eacces(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(gt_pin(fd, h, 0, NULL), EACCES);
	gt_assert_errno(gt_unpin(fd, h), EACCES);
	gt_assert_errno(gem_init(fd, 0, 1 << 20), EACCES);
	close(fd);
}

/* Root only: a file of an unprivileged process gets -EACCES. */
static void pin_needs_root(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 4096);
	pid_t pid = fork();
	int status;

	gt_assert(pid >= 0);
	if (pid == 0) {
		if (setgid(65534) || setuid(65534))
			_exit(2);
		_exit(gt_pin(fd, h, 0, NULL) == -1 && errno == EACCES ? 0 : 1);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status));
	gt_assert_eq(WEXITSTATUS(status), 0);
	close(fd);
}

/* Pins do not outlive their owner: closing the handle (or the file) releases them. */
static void closing_the_handle_releases_the_pin(void)
{
	int fd = gt_open_card();
	uint64_t before = available(fd);
	uint32_t h = gt_create(fd, 1 << 20);

	gt_assert_ok(gt_pin(fd, h, 0, NULL));
	gt_assert_eq(available(fd), before - (1 << 20));
	gt_close(fd, h);
	gt_assert_eq(available(fd), before);
	h = gt_create(fd, 1 << 20);
	gt_assert_ok(gt_pin(fd, h, 0, NULL));
	close(fd);
	fd = gt_open_card();
	gt_assert_eq(available(fd), before);
	close(fd);
}

static void pinned_object_is_never_purged(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 1 << 20);
	struct drm_i915_gem_madvise m = { .handle = h, .madv = I915_MADV_DONTNEED };
	int dc;

	gt_pwrite(fd, h, 0, "pinned", 7);
	gt_assert_ok(gt_pin(fd, h, 0, NULL));
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m));
	dc = open("/proc/sys/vm/drop_caches", O_WRONLY);
	gt_assert(dc >= 0);
	gt_assert_eq(write(dc, "3\n", 2), 2);
	close(dc);
	m.madv = I915_MADV_WILLNEED;
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m));
	gt_assert_eq(m.retained, 1);
	close(fd);
}

/* SW_FINISH on a pinned object (one the display may scan out) flushes the CPU writes. */
static void sw_finish_of_pinned_object_flushes_cpu_writes(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 4096);
	struct drm_i915_gem_sw_finish sw = { .handle = h };
	long long flushes;

	gt_assert_ok(gt_pin(fd, h, 0, NULL));
	gt_assert_ok(gt_set_domain(fd, h, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU));
	flushes = gt_counter(fd, "flush_cpu");
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &sw));
	gt_assert_eq(gt_counter(fd, "flush_cpu"), flushes + 1);
	/* Flushed: a second SW_FINISH has nothing left to do. */
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &sw));
	gt_assert_eq(gt_counter(fd, "flush_cpu"), flushes + 1);
	close(fd);
}

static void gem_init_sets_the_managed_range(void)
{
	int fd = gt_open_card();
	uint32_t small = gt_create(fd, 4096), big = gt_create(fd, 2 << 20);
	struct drm_i915_gem_get_aperture ap = { 0 };
	uint64_t offset;

	gt_assert_ok(gem_init(fd, 1 << 20, 2 << 20));
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
	gt_assert_eq(ap.aper_size, 1 << 20);
	gt_assert_ok(gt_pin(fd, small, 0, &offset));
	gt_assert(offset >= 1 << 20 && offset + 4096 <= 2 << 20);
	/* Larger than the whole range: no space. */
	gt_assert_errno(gt_pin(fd, big, 0, NULL), ENOSPC);
	/* The range cannot move under a pinned object. */
	gt_assert_errno(gem_init(fd, 0, 256 << 20), EBUSY);
	gt_assert_ok(gt_unpin(fd, small));
	gt_assert_ok(gem_init(fd, 0, 256 << 20));
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
	gt_assert_eq(ap.aper_size, 256 << 20);
	close(fd);
}

static void gem_init_bad_range_is_einval(void)
{
	int fd = gt_open_card();

	gt_assert_errno(gem_init(fd, 4096, 4096), EINVAL);
	gt_assert_errno(gem_init(fd, 8192, 4096), EINVAL);
	gt_assert_errno(gem_init(fd, 1, 1 << 20), EINVAL);
	gt_assert_errno(gem_init(fd, 0, (1ull << 32) + 4096), EINVAL);
	close(fd);
}

static void gem_init_needs_master(void)
{
	int master = gt_open_card(), other = gt_open_card();

	gt_assert(!drmIsMaster(other));
	gt_assert_errno(gem_init(other, 0, 256 << 20), EACCES);
	close(other);
	close(master);
}

GT_MAIN(
	GT_SUBTEST(pin_gives_an_aligned_offset_inside_the_aperture,
		   "pin-gives-an-aligned-offset-inside-the-aperture"),
	GT_SUBTEST(pin_twice_keeps_the_offset_until_the_last_unpin,
		   "pin-twice-keeps-the-offset-until-the-last-unpin"),
	GT_SUBTEST(pin_argument_errors, "pin-argument-errors"),
	GT_SUBTEST(pin_by_another_file_is_einval, "pin-by-another-file-is-einval"),
	GT_SUBTEST(pin_on_render_node_is_eacces, "pin-on-render-node-is-eacces"),
	GT_SUBTEST(pin_needs_root, "pin-needs-root"),
	GT_SUBTEST(closing_the_handle_releases_the_pin, "closing-the-handle-releases-the-pin"),
	GT_SUBTEST(pinned_object_is_never_purged, "pinned-object-is-never-purged"),
	GT_SUBTEST(sw_finish_of_pinned_object_flushes_cpu_writes,
		   "sw-finish-of-pinned-object-flushes-cpu-writes"),
	GT_SUBTEST(gem_init_sets_the_managed_range, "gem-init-sets-the-managed-range"),
	GT_SUBTEST(gem_init_bad_range_is_einval, "gem-init-bad-range-is-einval"),
	GT_SUBTEST(gem_init_needs_master, "gem-init-needs-master"),
)
