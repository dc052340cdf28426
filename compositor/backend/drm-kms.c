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

static uint32_t find_primary_plane(int fd, int crtc_index)
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
		    type == DRM_PLANE_TYPE_PRIMARY)
			found = plane->plane_id;
		drmModeFreePlane(plane);
	}
	drmModeFreePlaneResources(planes);
	return found;
}

bool drm_kms_init_atomic(struct drm_output *output)
{
	int fd = output->backend->fd;
	uint32_t p;

	output->plane_id = find_primary_plane(fd, output->crtc_index);
	if (!output->plane_id)
		return false;
	output->props.connector_crtc_id =
		find_prop(fd, output->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", NULL);
	output->props.crtc_mode_id =
		find_prop(fd, output->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", NULL);
	output->props.crtc_active =
		find_prop(fd, output->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", NULL);
	p = output->plane_id;
	output->props.fb_id = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "FB_ID", NULL);
	output->props.crtc_id = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_ID", NULL);
	output->props.src_x = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "SRC_X", NULL);
	output->props.src_y = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "SRC_Y", NULL);
	output->props.src_w = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "SRC_W", NULL);
	output->props.src_h = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "SRC_H", NULL);
	output->props.crtc_x = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_X", NULL);
	output->props.crtc_y = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_Y", NULL);
	output->props.crtc_w = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_W", NULL);
	output->props.crtc_h = find_prop(fd, p, DRM_MODE_OBJECT_PLANE, "CRTC_H", NULL);
	return output->props.connector_crtc_id && output->props.crtc_mode_id &&
	       output->props.crtc_active && output->props.fb_id && output->props.crtc_id &&
	       output->props.src_x && output->props.src_y && output->props.src_w &&
	       output->props.src_h && output->props.crtc_x && output->props.crtc_y &&
	       output->props.crtc_w && output->props.crtc_h;
}

static int atomic_show(struct drm_output *output, uint32_t fb_id)
{
	struct drm_backend *b = output->backend;
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK;
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
	drmModeAtomicAddProperty(req, output->plane_id, output->props.fb_id, fb_id);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_id, output->crtc_id);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.src_x, 0);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.src_y, 0);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.src_w, (uint64_t)w << 16);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.src_h, (uint64_t)h << 16);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_x, 0);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_y, 0);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_w, w);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_h, h);
	ret = drmModeAtomicCommit(b->fd, req, flags, b);
	drmModeAtomicFree(req);
	return ret == 0 ? 0 : -1;
}

static int legacy_show(struct drm_output *output, uint32_t fb_id)
{
	int fd = output->backend->fd;

	if (output->needs_modeset) {
		if (drmModeSetCrtc(fd, output->crtc_id, fb_id, 0, 0, &output->connector_id, 1,
				   &output->mode) != 0)
			return -1;
		/* SetCrtc sends no event: the frame is up when it returns. */
		return 1;
	}
	return drmModePageFlip(fd, output->crtc_id, fb_id, DRM_MODE_PAGE_FLIP_EVENT,
			       output->backend) == 0 ? 0 : -1;
}

int drm_kms_show(struct drm_output *output, int index)
{
	uint32_t fb_id = output->fbs[index].fb_id;
	int ret = output->backend->atomic ? atomic_show(output, fb_id)
					  : legacy_show(output, fb_id);

	if (ret >= 0)
		output->needs_modeset = false;
	return ret;
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
	drmModeAtomicAddProperty(req, output->plane_id, output->props.fb_id, 0);
	drmModeAtomicAddProperty(req, output->plane_id, output->props.crtc_id, 0);
	drmModeAtomicCommit(b->fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL);
	drmModeAtomicFree(req);
}
