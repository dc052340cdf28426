// SPDX-License-Identifier: GPL-2.0-only
/*
 * KMS setup: the mode configuration, the scanout (bochs-display VRAM or the virtual output's
 * buffer), the display objects, vblank and the fbdev console. Modesetting ioctls are the DRM
 * core's, which allow them to the DRM master only.
 */
#include <linux/moduleparam.h>
#include <linux/vmalloc.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_fb_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static unsigned int default_width = 1280, default_height = 800;

/* "WIDTHxHEIGHT", within what the connector can offer; anything else fails the load. */
static int mode_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int width, height;
	char tail;

	if (sscanf(val, "%ux%u%c", &width, &height, &tail) < 2 ||
	    (sscanf(val, "%ux%u%c", &width, &height, &tail) == 3 && tail != '\n')) {
		pr_err("garnet: mode=%s: expected WIDTHxHEIGHT, e.g. 1280x800\n", val);
		return -EINVAL;
	}
	if (width < 320 || height < 200 || width > GARNET_MAX_WIDTH ||
	    height > GARNET_MAX_HEIGHT) {
		pr_err("garnet: mode=%ux%u: outside 320x200 .. %ux%u\n", width, height,
		       GARNET_MAX_WIDTH, GARNET_MAX_HEIGHT);
		return -EINVAL;
	}
	default_width = width;
	default_height = height;
	return 0;
}

static int mode_param_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%ux%u\n", default_width, default_height);
}

static const struct kernel_param_ops mode_param_ops = {
	.set = mode_param_set,
	.get = mode_param_get,
};
module_param_cb(mode, &mode_param_ops, NULL, 0444);
MODULE_PARM_DESC(mode, "Preferred display mode, WIDTHxHEIGHT (default 1280x800)");

void garnet_kms_default_mode(unsigned int *width, unsigned int *height)
{
	*width = default_width;
	*height = default_height;
}

static const struct drm_mode_config_funcs garnet_mode_config_funcs = {
	.fb_create	= drm_gem_fb_create_with_dirty,
	.atomic_check	= drm_atomic_helper_check,
	.atomic_commit	= drm_atomic_helper_commit,
};

/*
 * Modeset enables come before plane updates, so the scanout is programmed for the new mode
 * before anything is composed into it. Composition is finished when the planes are committed,
 * so the old framebuffers may go as soon as the flip is done: the commit waits for its event
 * (flip_done), not for a further vblank as the default tail does.
 */
static void garnet_atomic_commit_tail(struct drm_atomic_state *state)
{
	struct drm_device *drm = state->dev;

	drm_atomic_helper_commit_modeset_disables(drm, state);
	drm_atomic_helper_commit_modeset_enables(drm, state);
	drm_atomic_helper_commit_planes(drm, state, DRM_PLANE_COMMIT_ACTIVE_ONLY);
	drm_atomic_helper_commit_hw_done(state);
	drm_atomic_helper_wait_for_flip_done(drm, state);
	drm_atomic_helper_cleanup_planes(drm, state);
}

static const struct drm_mode_config_helper_funcs garnet_mode_config_helpers = {
	.atomic_commit_tail = garnet_atomic_commit_tail,
};

static int garnet_scanout_init(struct garnet_kms *kms)
{
	kms->bochs = garnet_bochs_attach(kms);
	if (kms->bochs) {
		garnet_bochs_get_vram(kms->bochs, &kms->scanout, &kms->scanout_size);
		return 0;
	}
	kms->scanout_size = (size_t)GARNET_MAX_WIDTH * GARNET_MAX_HEIGHT * GARNET_SCANOUT_CPP;
	kms->virtual_scanout = vzalloc(kms->scanout_size);
	if (!kms->virtual_scanout)
		return -ENOMEM;
	iosys_map_set_vaddr(&kms->scanout, kms->virtual_scanout);
	return 0;
}

static void garnet_scanout_release(struct drm_device *drm, void *data)
{
	struct garnet_kms *kms = data;

	garnet_bochs_detach(kms);
	vfree(kms->virtual_scanout);
}

int garnet_kms_init(struct garnet_device *gdev)
{
	struct drm_device *drm = &gdev->drm;
	struct garnet_kms *kms;
	int ret;

	kms = drmm_kzalloc(drm, sizeof(*kms), GFP_KERNEL);
	if (!kms)
		return -ENOMEM;
	kms->gdev = gdev;
	gdev->kms = kms;
	ret = drmm_mutex_init(drm, &kms->scanout_lock);
	if (ret)
		return ret;
	kms->line = drmm_kmalloc(drm, GARNET_MAX_WIDTH * GARNET_SCANOUT_CPP, GFP_KERNEL);
	if (!kms->line)
		return -ENOMEM;
	ret = garnet_scanout_init(kms);
	if (ret)
		return ret;
	ret = drmm_add_action_or_reset(drm, garnet_scanout_release, kms);
	if (ret)
		return ret;

	ret = drmm_mode_config_init(drm);
	if (ret)
		return ret;
	drm->mode_config.min_width = 1;
	drm->mode_config.min_height = 1;
	drm->mode_config.max_width = 8192;
	drm->mode_config.max_height = 8192;
	drm->mode_config.cursor_width = GARNET_CURSOR_SIZE;
	drm->mode_config.cursor_height = GARNET_CURSOR_SIZE;
	drm->mode_config.preferred_depth = 24;
	drm->mode_config.funcs = &garnet_mode_config_funcs;
	drm->mode_config.helper_private = &garnet_mode_config_helpers;

	ret = garnet_planes_init(kms);
	if (ret)
		return ret;
	ret = garnet_crtc_init(kms);
	if (ret)
		return ret;
	ret = garnet_output_init(kms);
	if (ret)
		return ret;
	ret = drm_vblank_init(drm, 1);
	if (ret)
		return ret;
	drm_mode_config_reset(drm);

	drm_info(drm, "display: %s, default mode %ux%u\n",
		 kms->bochs ? "bochs-display" : "virtual output", default_width, default_height);
	return 0;
}

/* After drm_dev_register(): the fbdev console is a client of the registered device. */
void garnet_kms_register(struct garnet_device *gdev)
{
	drm_fbdev_generic_setup(&gdev->drm, 32);
}

/* After drm_dev_unregister(): turn the display off so no timer or copy outlives the device. */
void garnet_kms_fini(struct garnet_device *gdev)
{
	drm_atomic_helper_shutdown(&gdev->drm);
	garnet_vblank_stop(gdev->kms);
}
