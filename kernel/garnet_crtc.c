// SPDX-License-Identifier: GPL-2.0-only
/*
 * The CRTC: programs the scanout for the mode on enable, composes the planes into it at the
 * end of every commit (atomic_flush) and arms the commit's event for the next vblank, when
 * the new picture is what the display shows.
 */
#include <drm/drm_print.h>
#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_crtc.h>
#include <drm/drm_modeset_helper_vtables.h>
#include <drm/drm_vblank.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static enum drm_mode_status garnet_crtc_mode_valid(struct drm_crtc *crtc,
						   const struct drm_display_mode *mode)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);

	if (mode->hdisplay > GARNET_MAX_WIDTH || mode->vdisplay > GARNET_MAX_HEIGHT)
		return MODE_BAD;
	if (mode->flags & (DRM_MODE_FLAG_INTERLACE | DRM_MODE_FLAG_DBLSCAN))
		return MODE_NO_INTERLACE;
	/* scanout_size is set once, at init: VRAM's size, or the virtual output's. */
	if ((size_t)mode->hdisplay * mode->vdisplay * GARNET_SCANOUT_CPP > kms->scanout_size)
		return MODE_MEM;
	/* Vblank runs off the mode's timings, so they must describe a real refresh rate. */
	if (!mode->clock || mode->htotal < mode->hdisplay || mode->vtotal < mode->vdisplay)
		return MODE_BAD;
	return MODE_OK;
}

/* A CRTC that scans out must have a primary plane that covers it (see garnet_plane.c). */
static int garnet_crtc_atomic_check(struct drm_crtc *crtc, struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state = drm_atomic_get_new_crtc_state(state, crtc);

	if (crtc_state->enable && !(crtc_state->plane_mask & drm_plane_mask(crtc->primary))) {
		drm_dbg_kms(crtc->dev, "CRTC enabled without its primary plane\n");
		return -EINVAL;
	}
	return 0;
}

static void garnet_crtc_atomic_enable(struct drm_crtc *crtc, struct drm_atomic_state *state)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);
	const struct drm_display_mode *mode = &crtc->state->adjusted_mode;

	garnet_scanout_set_mode(kms, mode->hdisplay, mode->vdisplay);
	drm_crtc_vblank_on(crtc);
}

static void garnet_crtc_send_event_now(struct drm_crtc *crtc)
{
	spin_lock_irq(&crtc->dev->event_lock);
	if (crtc->state->event) {
		drm_crtc_send_vblank_event(crtc, crtc->state->event);
		crtc->state->event = NULL;
	}
	spin_unlock_irq(&crtc->dev->event_lock);
}

static void garnet_crtc_atomic_disable(struct drm_crtc *crtc, struct drm_atomic_state *state)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);

	drm_crtc_vblank_off(crtc);
	garnet_scanout_set_mode(kms, 0, 0);
	/* Planes of an inactive CRTC are not flushed, so a disabling commit's event goes now. */
	garnet_crtc_send_event_now(crtc);
}

static void garnet_crtc_atomic_flush(struct drm_crtc *crtc, struct drm_atomic_state *state)
{
	struct garnet_kms *kms = crtc_to_kms(crtc);
	struct drm_pending_vblank_event *event;

	if (crtc->state->active)
		garnet_compose_commit(kms, state);

	spin_lock_irq(&crtc->dev->event_lock);
	event = crtc->state->event;
	if (event) {
		crtc->state->event = NULL;
		if (crtc->state->active && drm_crtc_vblank_get(crtc) == 0)
			drm_crtc_arm_vblank_event(crtc, event);
		else
			drm_crtc_send_vblank_event(crtc, event);
	}
	spin_unlock_irq(&crtc->dev->event_lock);
}

static const struct drm_crtc_helper_funcs garnet_crtc_helper_funcs = {
	.mode_valid	= garnet_crtc_mode_valid,
	.atomic_check	= garnet_crtc_atomic_check,
	.atomic_flush	= garnet_crtc_atomic_flush,
	.atomic_enable	= garnet_crtc_atomic_enable,
	.atomic_disable	= garnet_crtc_atomic_disable,
};

static const struct drm_crtc_funcs garnet_crtc_funcs = {
	.reset			= drm_atomic_helper_crtc_reset,
	.destroy		= drm_crtc_cleanup,
	.set_config		= drm_atomic_helper_set_config,
	.page_flip		= drm_atomic_helper_page_flip,
	.atomic_duplicate_state	= drm_atomic_helper_crtc_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_crtc_destroy_state,
	.enable_vblank		= garnet_vblank_enable,
	.disable_vblank		= garnet_vblank_disable,
	.get_vblank_timestamp	= garnet_vblank_timestamp,
};

int garnet_crtc_init(struct garnet_kms *kms)
{
	struct drm_crtc *crtc = &kms->crtc;
	int ret;

	ret = drm_crtc_init_with_planes(&kms->gdev->drm, crtc, &kms->primary, &kms->cursor,
					&garnet_crtc_funcs, NULL);
	if (ret)
		return ret;
	drm_crtc_helper_add(crtc, &garnet_crtc_helper_funcs);
	garnet_vblank_init(kms);
	return 0;
}
