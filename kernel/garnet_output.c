// SPDX-License-Identifier: GPL-2.0-only
/*
 * The connector and its encoder. The display is always connected; its modes are the standard
 * (DMT) ones up to 1920x1200 that fit the scanout memory, and the preferred one is the
 * module's `mode` parameter (1280x800 unless it says otherwise).
 */
#include <drm/drm_atomic_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_edid.h>
#include <drm/drm_modes.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_simple_kms_helper.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static bool has_mode(struct drm_connector *connector, unsigned int width, unsigned int height)
{
	struct drm_display_mode *mode;

	list_for_each_entry(mode, &connector->probed_modes, head)
		if (mode->hdisplay == width && mode->vdisplay == height)
			return true;
	return false;
}

static int garnet_connector_get_modes(struct drm_connector *connector)
{
	struct drm_device *drm = connector->dev;
	unsigned int width, height;
	int count;

	count = drm_add_modes_noedid(connector, GARNET_MAX_WIDTH, GARNET_MAX_HEIGHT);

	/* A default mode outside the standard list gets a CVT mode of its own at 60 Hz. */
	garnet_kms_default_mode(&width, &height);
	if (!has_mode(connector, width, height)) {
		struct drm_display_mode *mode = drm_cvt_mode(drm, width, height, 60, false, false,
							     false);

		if (mode) {
			drm_mode_probed_add(connector, mode);
			count++;
		}
	}
	drm_set_preferred_mode(connector, width, height);
	return count;
}

static const struct drm_connector_helper_funcs garnet_connector_helper_funcs = {
	.get_modes	= garnet_connector_get_modes,
};

static const struct drm_connector_funcs garnet_connector_funcs = {
	.fill_modes		= drm_helper_probe_single_connector_modes,
	.destroy		= drm_connector_cleanup,
	.reset			= drm_atomic_helper_connector_reset,
	.atomic_duplicate_state	= drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state	= drm_atomic_helper_connector_destroy_state,
};

int garnet_output_init(struct garnet_kms *kms)
{
	struct drm_device *drm = &kms->gdev->drm;
	struct drm_connector *connector = &kms->connector;
	int ret;

	ret = drm_simple_encoder_init(drm, &kms->encoder, DRM_MODE_ENCODER_VIRTUAL);
	if (ret)
		return ret;
	kms->encoder.possible_crtcs = drm_crtc_mask(&kms->crtc);

	ret = drm_connector_init(drm, connector, &garnet_connector_funcs,
				 DRM_MODE_CONNECTOR_VIRTUAL);
	if (ret)
		return ret;
	drm_connector_helper_add(connector, &garnet_connector_helper_funcs);
	connector->interlace_allowed = false;
	connector->doublescan_allowed = false;
	return drm_connector_attach_encoder(connector, &kms->encoder);
}
