// SPDX-License-Identifier: MIT
/* The module creates one DRM device with a primary and a render node, and answers GETPARAM. */
#include "garnet_test.h"

#include <stdlib.h>
#include <unistd.h>

static void has_primary_and_render_node(void)
{
	int card = gt_open_card();
	int render = gt_open_render();
	drmVersionPtr version = drmGetVersion(render);

	gt_assert(version);
	gt_assert(strcmp(version->name, "garnet") == 0);
	gt_assert_eq(drmGetNodeTypeFromFd(card), DRM_NODE_PRIMARY);
	gt_assert_eq(drmGetNodeTypeFromFd(render), DRM_NODE_RENDER);
	drmFreeVersion(version);
	close(render);
	close(card);
}

static int getparam(int fd, int param, int *value)
{
	struct drm_i915_getparam gp = { .param = param, .value = value };

	return gt_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static void getparam_chipset_id_is_gen3(void)
{
	int fd = gt_open_render();
	int value = 0;

	gt_assert_ok(getparam(fd, I915_PARAM_CHIPSET_ID, &value));
	/* G33, a gen3 part: the generation libdrm_intel drives with the 2008 ioctls. */
	gt_assert_eq(value, 0x29c2);
	gt_assert_ok(getparam(fd, I915_PARAM_HAS_GEM, &value));
	gt_assert_eq(value, 1);
	/* The engine is the CPU, coherent with every mapping: userspace must not clflush. */
	value = 0;
	gt_assert_ok(getparam(fd, I915_PARAM_HAS_LLC, &value));
	gt_assert_eq(value, 1);
	close(fd);
}

static void getparam_unknown_param_is_einval(void)
{
	int fd = gt_open_render();
	int value = 0;

	gt_assert_errno(getparam(fd, 0x7fff, &value), EINVAL);
	gt_assert_errno(getparam(fd, -1, &value), EINVAL);
	close(fd);
}

static void getparam_bad_pointer_is_efault(void)
{
	int fd = gt_open_render();

	gt_assert_errno(getparam(fd, I915_PARAM_CHIPSET_ID, (int *)8), EFAULT);
	close(fd);
}

/* Features garnet lacks that consumers read by value are answered 0. */
static void getparam_absent_features_are_zero(void)
{
	static const int absent[] = {
		I915_PARAM_HAS_VEBOX, I915_PARAM_HAS_EXEC_SOFTPIN,
		I915_PARAM_NUM_FENCES_AVAIL, I915_PARAM_MMAP_VERSION,
	};
	int fd = gt_open_render();

	for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++) {
		int value = -1;

		gt_assert_ok(getparam(fd, absent[i], &value));
		gt_assert_eq(value, 0);
	}
	close(fd);
}

/* libdrm_intel reads a successful query of these as "present": garnet does not know them. */
static void getparam_features_probed_by_success_are_einval(void)
{
	static const int probed[] = {
		I915_PARAM_HAS_BSD, I915_PARAM_HAS_BLT, I915_PARAM_HAS_RELAXED_FENCING,
		I915_PARAM_HAS_EXEC_ASYNC,
	};
	int fd = gt_open_render();

	for (size_t i = 0; i < sizeof(probed) / sizeof(probed[0]); i++) {
		int value = -1;

		gt_assert_errno(getparam(fd, probed[i], &value), EINVAL);
	}
	close(fd);
}

/* Answered from the ioctl table: 1 when the driver has WAIT, unknown (-EINVAL) without. */
static void getparam_has_wait_timeout_matches_the_driver(void)
{
	struct drm_i915_gem_wait wait = { 0 };
	int fd = gt_open_render();
	int value = -1, ret, err;

	ret = getparam(fd, I915_PARAM_HAS_WAIT_TIMEOUT, &value);
	err = errno;
	/* Handle 0 names no object: -ENOENT from WAIT, -EINVAL from the core without it. */
	if (gt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &wait) == -1 && errno == ENOENT) {
		gt_assert_eq(ret, 0);
		gt_assert_eq(value, 1);
	} else {
		gt_assert(ret == -1 && err == EINVAL);
	}
	close(fd);
}

/* Answered from the ioctl table: 1 exactly when the driver has EXECBUFFER2. */
static void getparam_has_execbuf2_matches_the_driver(void)
{
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	int fd = gt_open_render();
	int value = -1, ret;

	gt_assert_ok(getparam(fd, I915_PARAM_HAS_EXECBUF2, &value));
	ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	/* Without the ioctl the DRM core answers -EINVAL for the unknown driver number. */
	if (value == 0)
		gt_assert(ret == -1 && errno == EINVAL);
	else
		gt_assert_eq(value, 1);
	close(fd);
}

static void get_aperture_reports_256_mib(void)
{
	struct drm_i915_gem_get_aperture ap = { 0 };
	int fd = gt_open_render();

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
	gt_assert_eq(ap.aper_size, 256ull << 20);
	gt_assert(ap.aper_available_size <= ap.aper_size);
	gt_assert(ap.aper_available_size > 0);
	close(fd);
}

/* Every debugfs file of the device reads back (IGT's vgem debugfs test). */
static void debugfs_files_are_readable(void)
{
	static const char *const files[] = { "garnet_objects", "garnet_counters", "garnet_names" };
	int fd = gt_open_card();

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = gt_debugfs_read(fd, files[i]);

		gt_assert(strlen(text) > 0);
		free(text);
	}
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(has_primary_and_render_node, "has-primary-and-render-node"),
	GT_SUBTEST(getparam_chipset_id_is_gen3, "getparam-chipset-id-is-gen3"),
	GT_SUBTEST(getparam_unknown_param_is_einval, "getparam-unknown-param-is-einval"),
	GT_SUBTEST(getparam_bad_pointer_is_efault, "getparam-bad-pointer-is-efault"),
	GT_SUBTEST(getparam_absent_features_are_zero, "getparam-absent-features-are-zero"),
	GT_SUBTEST(getparam_features_probed_by_success_are_einval,
		   "getparam-features-probed-by-success-are-einval"),
	GT_SUBTEST(getparam_has_execbuf2_matches_the_driver,
		   "getparam-has-execbuf2-matches-the-driver"),
	GT_SUBTEST(getparam_has_wait_timeout_matches_the_driver,
		   "getparam-has-wait-timeout-matches-the-driver"),
	GT_SUBTEST(get_aperture_reports_256_mib, "get-aperture-reports-256-mib"),
	GT_SUBTEST(debugfs_files_are_readable, "debugfs-files-are-readable"),
)
