// SPDX-License-Identifier: MIT
// Showing a framebuffer: one atomic commit (connector, CRTC and primary plane together), or
// the legacy SetCrtc/PageFlip calls on drivers and kernels without atomic.
#include <errno.h>
#include <string.h>
#include <xf86drm.h>

#include "drm.h"

static uint32_t find_prop(int fd, uint32_t object, uint32_t type, const char *name,
			  uint64_t *value)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(fd, object, type);
	uint32_t id = 0;

	if (!props)
		return 0;
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(fd, props->props[i]);

		if (!prop)
			continue;
		if (strcmp(prop->name, name) == 0) {
			id = prop->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return id;
}

uint32_t drm_kms_find_plane(int fd, int crtc_index, uint64_t wanted)
{
	drmModePlaneRes *planes = drmModeGetPlaneResources(fd);
	uint32_t found = 0;

	if (!planes)
		return 0;
	for (uint32_t i = 0; i < planes->count_planes && !found; i++) {
		drmModePlane *plane = drmModeGetPlane(fd, planes->planes[i]);
		uint64_t type = 0;

		if (!plane)
			continue;
		if ((plane->possible_crtcs & (1u << crtc_index)) &&
		    find_prop(fd, plane->plane_id, DRM_MODE_OBJECT_PLANE, "type", &type) &&
		    type == wanted)
			found = plane->plane_id;
		drmModeFreePlane(plane);
	}
	drmModeFreePlaneResources(planes);
	return found;
}

bool drm_kms_plane_props(int fd, uint32_t plane, struct drm_plane_props *props)
{
	props->fb_id = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", NULL);
	props->crtc_id = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", NULL);
	props->src_x = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", NULL);
	props->src_y = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", NULL);
	props->src_w = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", NULL);
	props->src_h = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", NULL);
	props->crtc_x = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", NULL);
	props->crtc_y = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", NULL);
	props->crtc_w = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", NULL);
	props->crtc_h = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", NULL);
	props->fb_damage_clips = find_prop(fd, plane, DRM_MODE_OBJECT_PLANE, "FB_DAMAGE_CLIPS", NULL);
	return props->fb_id && props->crtc_id && props->src_x && props->src_y && props->src_w &&
	       props->src_h && props->crtc_x && props->crtc_y && props->crtc_w && props->crtc_h;
}

void drm_kms_set_plane(drmModeAtomicReq *req, uint32_t plane, const struct drm_plane_props *props,
		       uint32_t crtc_id, uint32_t fb_id, int32_t x, int32_t y, uint32_t width,
		       uint32_t height)
{
	if (!fb_id) {
		drmModeAtomicAddProperty(req, plane, props->fb_id, 0);
		drmModeAtomicAddProperty(req, plane, props->crtc_id, 0);
		return;
	}
	drmModeAtomicAddProperty(req, plane, props->fb_id, fb_id);
	drmModeAtomicAddProperty(req, plane, props->crtc_id, crtc_id);
	drmModeAtomicAddProperty(req, plane, props->src_x, 0);
	drmModeAtomicAddProperty(req, plane, props->src_y, 0);
	drmModeAtomicAddProperty(req, plane, props->src_w, (uint64_t)width << 16);
	drmModeAtomicAddProperty(req, plane, props->src_h, (uint64_t)height << 16);
	/* CRTC_X and CRTC_Y are signed: a cursor may hang off the top or left edge. */
	drmModeAtomicAddProperty(req, plane, props->crtc_x, (uint64_t)(int64_t)x);
	drmModeAtomicAddProperty(req, plane, props->crtc_y, (uint64_t)(int64_t)y);
	drmModeAtomicAddProperty(req, plane, props->crtc_w, width);
	drmModeAtomicAddProperty(req, plane, props->crtc_h, height);
}

bool drm_kms_init_atomic(struct drm_output *output)
{
	int fd = output->backend->fd;

	output->plane_id = drm_kms_find_plane(fd, output->crtc_index, DRM_PLANE_TYPE_PRIMARY);
	if (!output->plane_id)
		return false;
	output->props.connector_crtc_id =
		find_prop(fd, output->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL);
	output->props.crtc_mode_id =
		find_prop(fd, output->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", NULL);
	output->props.crtc_active =
		find_prop(fd, output->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", NULL);
	return output->props.connector_crtc_id && output->props.crtc_mode_id &&
	       output->props.crtc_active &&
	       drm_kms_plane_props(fd, output->plane_id, &output->props.primary);
}

/* More rectangles than this are sent as their bounding box. */
#define MAX_DAMAGE_CLIPS 32

/* A blob of the damage's rectangles for FB_DAMAGE_CLIPS; 0 when there is nothing to send
 * (the plane then counts as changed everywhere). */
static uint32_t damage_blob(int fd, const pixman_region32_t *damage)
{
	struct drm_mode_rect rects[MAX_DAMAGE_CLIPS];
	const pixman_box32_t *boxes;
	pixman_box32_t *extents;
	uint32_t blob = 0;
	int n;

	boxes = pixman_region32_rectangles((pixman_region32_t *)damage, &n);
	if (n > MAX_DAMAGE_CLIPS) {
		extents = pixman_region32_extents((pixman_region32_t *)damage);
		boxes = extents;
		n = 1;
	}
	for (int i = 0; i < n; i++)
		rects[i] = (struct drm_mode_rect){boxes[i].x1, boxes[i].y1, boxes[i].x2, boxes[i].y2};
	if (n > 0 && drmModeCreatePropertyBlob(fd, rects, sizeof(rects[0]) * (size_t)n, &blob))
		blob = 0;
	return blob;
}

static int atomic_show(struct drm_output *output, uint32_t fb_id, uint32_t flags,
		       const pixman_region32_t *damage)
{
	struct drm_backend *b = output->backend;
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	/* Shown again with only the cursor moved: the primary plane stays out of the commit,
	 * so a driver that copies it to the display copies nothing of it. */
	bool primary = output->needs_modeset || damage;
	uint32_t clips = 0;
	uint32_t w = output->mode.hdisplay, h = output->mode.vdisplay;
	int ret;

	if (!req)
		return -1;
	if (output->needs_modeset) {
		if (!output->mode_blob &&
		    drmModeCreatePropertyBlob(b->fd, &output->mode, sizeof(output->mode),
					      &output->mode_blob) != 0) {
			drmModeAtomicFree(req);
			return -1;
		}
		drmModeAtomicAddProperty(req, output->connector_id,
					 output->props.connector_crtc_id, output->crtc_id);
		drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_mode_id,
					 output->mode_blob);
		drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_active, 1);
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	}
	if (primary)
		drm_kms_set_plane(req, output->plane_id, &output->props.primary, output->crtc_id,
				  fb_id, 0, 0, w, h);
	if (primary && damage && !output->needs_modeset && output->props.primary.fb_damage_clips &&
	    (clips = damage_blob(b->fd, damage)))
		drmModeAtomicAddProperty(req, output->plane_id,
					 output->props.primary.fb_damage_clips, clips);
	if (output->cursor.plane_id)
		drm_kms_set_plane(req, output->cursor.plane_id, &output->cursor.props,
				  output->crtc_id, output->cursor.fb_id, output->cursor.x,
				  output->cursor.y, output->cursor.width, output->cursor.height);
	ret = drmModeAtomicCommit(b->fd, req, flags, b);
	drmModeAtomicFree(req);
	/* The committed state holds the blob for as long as it needs it. */
	if (clips)
		drmModeDestroyPropertyBlob(b->fd, clips);
	return ret == 0 ? 0 : -1;
}

/* The connector's legacy DPMS property; 0 when it has none. */
static uint32_t dpms_prop(struct drm_output *output)
{
	return find_prop(output->backend->fd, output->connector_id, DRM_MODE_OBJECT_CONNECTOR,
			 "DPMS", NULL);
}

static int legacy_show(struct drm_output *output, uint32_t fb_id)
{
	int fd = output->backend->fd;
	uint32_t dpms;

	if (output->needs_modeset) {
		if (drmModeSetCrtc(fd, output->crtc_id, fb_id, 0, 0, &output->connector_id, 1,
				   &output->mode) != 0)
			return -1;
		/* Lit with the new frame already on the CRTC: the old one is never seen. */
		if (output->crtc_dark && (dpms = dpms_prop(output)))
			drmModeConnectorSetProperty(fd, output->connector_id, dpms,
						    DRM_MODE_DPMS_ON);
		/* SetCrtc sends no event: the frame is up when it returns. */
		return 1;
	}
	return drmModePageFlip(fd, output->crtc_id, fb_id, DRM_MODE_PAGE_FLIP_EVENT,
			       output->backend) == 0 ? 0 : -1;
}

int drm_kms_show(struct drm_output *output, int index, const pixman_region32_t *damage)
{
	return drm_kms_show_fb(output, output->fbs[index].fb_id, damage);
}

bool drm_kms_can_show(struct drm_output *output, uint32_t fb_id)
{
	pixman_region32_t whole;
	bool can;

	if (!output->backend->atomic)
		return false;
	pixman_region32_init_rect(&whole, 0, 0, output->mode.hdisplay, output->mode.vdisplay);
	can = atomic_show(output, fb_id, DRM_MODE_ATOMIC_TEST_ONLY, &whole) == 0;
	pixman_region32_fini(&whole);
	return can;
}

bool drm_kms_test_mode(struct drm_output *output, const drmModeModeInfo *m, uint32_t fb_id)
{
	struct drm_backend *b = output->backend;
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t blob = 0;
	int ret = -1;

	if (!req)
		return false;
	if (drmModeCreatePropertyBlob(b->fd, m, sizeof(*m), &blob) != 0)
		goto out;
	drmModeAtomicAddProperty(req, output->connector_id, output->props.connector_crtc_id,
				 output->crtc_id);
	drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_mode_id, blob);
	drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_active, 1);
	drm_kms_set_plane(req, output->plane_id, &output->props.primary, output->crtc_id, fb_id, 0,
			  0, m->hdisplay, m->vdisplay);
	ret = drmModeAtomicCommit(b->fd, req,
				  DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeDestroyPropertyBlob(b->fd, blob);
out:
	drmModeAtomicFree(req);
	return ret == 0;
}

int drm_kms_show_fb(struct drm_output *output, uint32_t fb_id, const pixman_region32_t *damage)
{
	int ret = output->backend->atomic
			  ? atomic_show(output, fb_id,
					DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK,
					damage)
			  : legacy_show(output, fb_id);

	if (ret >= 0) {
		output->needs_modeset = false;
		output->crtc_dark = false;
	}
	return ret;
}

bool drm_kms_darken(struct drm_output *output)
{
	struct drm_backend *b = output->backend;
	drmModeAtomicReq *req;
	uint32_t dpms;
	int ret;

	if (!b->atomic) {
		dpms = dpms_prop(output);
		ret = dpms ? drmModeConnectorSetProperty(b->fd, output->connector_id, dpms,
							 DRM_MODE_DPMS_OFF)
			   : -1;
	} else {
		req = drmModeAtomicAlloc();
		if (!req)
			return false;
		drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_active, 0);
		ret = drmModeAtomicCommit(b->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
		drmModeAtomicFree(req);
	}
	if (ret != 0)
		return false;
	output->crtc_dark = true;
	output->needs_modeset = true;
	return true;
}

void drm_kms_disable(struct drm_output *output)
{
	struct drm_backend *b = output->backend;
	drmModeAtomicReq *req;

	if (!b->atomic) {
		drmModeSetCrtc(b->fd, output->crtc_id, 0, 0, 0, NULL, 0, NULL);
		return;
	}
	req = drmModeAtomicAlloc();
	if (!req)
		return;
	drmModeAtomicAddProperty(req, output->connector_id, output->props.connector_crtc_id, 0);
	drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_mode_id, 0);
	drmModeAtomicAddProperty(req, output->crtc_id, output->props.crtc_active, 0);
	drm_kms_set_plane(req, output->plane_id, &output->props.primary, 0, 0, 0, 0, 0, 0);
	if (output->cursor.plane_id)
		drm_kms_set_plane(req, output->cursor.plane_id, &output->cursor.props, 0, 0, 0, 0,
				  0, 0);
	drmModeAtomicCommit(b->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(req);
}
