// SPDX-License-Identifier: MIT
// The connector's modes offered to output configuration clients (zwlr_output_manager_v1), and
// a change of mode at runtime: new framebuffers of the new size, tried by an atomic TEST_ONLY
// commit before anything of the output changes, put in place after the flip pending (if any)
// and shown by the next frame's modeset; the old ones go once that modeset replaced them.
#include <stdlib.h>
#include <string.h>
#include <xf86drm.h>

#include "drm.h"
#include "session.h"

int32_t drm_mode_refresh_mhz(const drmModeModeInfo *mode)
{
	int64_t total = (int64_t)mode->htotal * mode->vtotal;

	if (total <= 0)
		return 0;
	return (int32_t)(((int64_t)mode->clock * 1000000 + total / 2) / total);
}

static void to_output_mode(const drmModeModeInfo *m, struct garnet_output_mode *out)
{
	*out = (struct garnet_output_mode){
		.width = m->hdisplay,
		.height = m->vdisplay,
		.refresh_mhz = drm_mode_refresh_mhz(m),
		.scale = 1,
	};
}

/* The connector's modes, the preferred one first, each size and refresh once (interlaced
 * and double-scanned modes left out: garnet paints progressive frames). */
bool drm_mode_list_init(struct drm_output *output, const drmModeConnector *conn)
{
	size_t n = 0;

	output->kms_modes = calloc((size_t)conn->count_modes, sizeof(*output->kms_modes));
	output->modes = calloc((size_t)conn->count_modes, sizeof(*output->modes));
	if (!output->kms_modes || !output->modes)
		return false;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < conn->count_modes; i++) {
			const drmModeModeInfo *m = &conn->modes[i];
			struct garnet_output_mode om;
			bool seen = false;

			if (!!(m->type & DRM_MODE_TYPE_PREFERRED) != (pass == 0) ||
			    (m->flags & (DRM_MODE_FLAG_INTERLACE | DRM_MODE_FLAG_DBLSCAN)))
				continue;
			to_output_mode(m, &om);
			for (size_t j = 0; j < n && !seen; j++)
				seen = output->modes[j].width == om.width &&
				       output->modes[j].height == om.height &&
				       output->modes[j].refresh_mhz == om.refresh_mhz;
			if (seen)
				continue;
			output->kms_modes[n] = *m;
			output->modes[n++] = om;
		}
	}
	output->mode_count = n;
	return true;
}

static void free_fbs(struct drm_output *output, struct drm_fb fbs[2])
{
	for (int i = 0; i < 2; i++)
		drm_fb_finish(&fbs[i], output->backend->fd);
}

void drm_mode_list_finish(struct drm_output *output)
{
	free_fbs(output, output->next_fbs);
	free_fbs(output, output->old_fbs);
	free(output->kms_modes);
	free(output->modes);
}

/* The connector's mode for size and refresh: the same size, the refresh within half a hertz
 * (clients round it), the highest when refresh is 0. NULL: not a mode the connector offers;
 * garnet makes up no timings for a display that did not ask for them. */
static const drmModeModeInfo *find_mode(struct drm_output *output,
					const struct garnet_output_mode *mode)
{
	const drmModeModeInfo *best = NULL;

	for (size_t i = 0; i < output->mode_count; i++) {
		const struct garnet_output_mode *m = &output->modes[i];

		if (m->width != mode->width || m->height != mode->height)
			continue;
		if (mode->refresh_mhz > 0 && abs(m->refresh_mhz - mode->refresh_mhz) > 500)
			continue;
		if (!best || m->refresh_mhz > drm_mode_refresh_mhz(best))
			best = &output->kms_modes[i];
	}
	return best;
}

static bool alloc_fbs(struct drm_output *output, const drmModeModeInfo *m, struct drm_fb fbs[2],
		      int count)
{
	for (int i = 0; i < count; i++) {
		if (!drm_fb_init(&fbs[i], output->backend->fd, m->hdisplay, m->vdisplay, false)) {
			free_fbs(output, fbs);
			return false;
		}
	}
	return true;
}

/* The new framebuffers become the output's: the next frame is painted whole into one and
 * shown with a modeset; the old ones stay until that modeset no longer shows them (freeing a
 * framebuffer on screen turns the plane off). Old ones still waiting mean the present ones
 * never reached the screen: they go at once. */
static void swap_in(struct drm_output *output)
{
	if (output->old_fbs[0].handle) {
		free_fbs(output, output->fbs);
	} else {
		memcpy(output->old_fbs, output->fbs, sizeof(output->fbs));
	}
	memcpy(output->fbs, output->next_fbs, sizeof(output->fbs));
	memset(output->next_fbs, 0, sizeof(output->next_fbs));
	output->front = 0;
	output->ages[0] = output->ages[1] = 0;
	output->needs_modeset = true;
}

void drm_mode_flip_done(struct drm_output *output)
{
	if (output->next_fbs[0].handle)
		swap_in(output);
}

void drm_mode_modeset_done(struct drm_output *output)
{
	free_fbs(output, output->old_fbs);
}

bool drm_set_mode(struct garnet_output *base, const struct garnet_output_mode *mode, bool test)
{
	struct drm_output *output = wl_container_of(base, output, base);
	struct drm_backend *b = output->backend;
	const drmModeModeInfo *m = find_mode(output, mode);
	struct drm_fb fbs[2] = {0};
	uint32_t blob;

	/* Another VT owns the display: garnet may not even test a commit. */
	if (!m || !garnet_session_is_active(b->session))
		return false;
	if (!alloc_fbs(output, m, fbs, test ? 1 : 2))
		return false;
	if (b->atomic && !drm_kms_test_mode(output, m, fbs[0].fb_id)) {
		garnet_log(base->compositor, GARNET_LOG_WARNING, "drm",
			   "%s: the display refuses %ux%u (a test commit failed)", base->name,
			   m->hdisplay, m->vdisplay);
		free_fbs(output, fbs);
		return false;
	}
	if (test) {
		free_fbs(output, fbs);
		return true;
	}
	/* The committed state holds the old blob for as long as it shows it. */
	blob = output->mode_blob;
	output->mode_blob = 0;
	if (blob)
		drmModeDestroyPropertyBlob(b->fd, blob);
	output->mode = *m;
	free_fbs(output, output->next_fbs);
	memcpy(output->next_fbs, fbs, sizeof(fbs));
	/* The flip pending shows one of the present framebuffers: they change after it. */
	if (!output->flip_pending)
		swap_in(output);
	garnet_log(base->compositor, GARNET_LOG_INFO, "drm", "%s: mode %ux%u@%d mHz%s", base->name,
		   m->hdisplay, m->vdisplay, drm_mode_refresh_mhz(m),
		   output->flip_pending ? " after the flip pending" : "");
	return true;
}
