// SPDX-License-Identifier: MIT
/* SET_TILING / GET_TILING: garnet objects are linear, and say so. */
#include "garnet_test.h"

#include <sys/ioctl.h>
#include <unistd.h>

static void get_tiling_reports_linear(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_get_tiling gt = { .handle = gt_create(fd, 4096), .tiling_mode = 7 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt));
	gt_assert_eq(gt.tiling_mode, I915_TILING_NONE);
	gt_assert_eq(gt.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
	close(fd);
}

static void set_tiling_accepts_only_linear(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 16384);
	struct drm_i915_gem_set_tiling st = { .handle = h, .tiling_mode = I915_TILING_X,
					      .stride = 512 };

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), EINVAL);
	st = (struct drm_i915_gem_set_tiling){ .handle = h, .tiling_mode = I915_TILING_Y };
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), EINVAL);
	st = (struct drm_i915_gem_set_tiling){ .handle = h, .tiling_mode = I915_TILING_NONE };
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	gt_assert_eq(st.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
	close(fd);
}

static void tiling_bad_handle_is_enoent(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_get_tiling gt = { .handle = 0x10101010 };
	struct drm_i915_gem_set_tiling st = { .handle = 0x10101010 };

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt), ENOENT);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st), ENOENT);
	close(fd);
}

/* The DRM core copies every argument struct: a bad pointer is -EFAULT before garnet runs. */
static void bad_argument_pointer_is_efault(void)
{
	int fd = gt_open_render();

	gt_assert_errno(ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, (void *)8), EFAULT);
	gt_assert_errno(ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, (void *)8), EFAULT);
	gt_assert_errno(ioctl(fd, DRM_IOCTL_GARNET_SHARE, (void *)8), EFAULT);
	close(fd);
	fd = gt_open_card();
	gt_assert_errno(ioctl(fd, DRM_IOCTL_GEM_OPEN, (void *)8), EFAULT);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(get_tiling_reports_linear, "get-tiling-reports-linear"),
	GT_SUBTEST(set_tiling_accepts_only_linear, "set-tiling-accepts-only-linear"),
	GT_SUBTEST(tiling_bad_handle_is_enoent, "tiling-bad-handle-is-enoent"),
	GT_SUBTEST(bad_argument_pointer_is_efault, "bad-argument-pointer-is-efault"),
)
