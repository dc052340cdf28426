/* SPDX-License-Identifier: MIT */
/* Private to the DRM backend: its device, outputs, framebuffers and the two ways (atomic and
 * legacy) of putting a framebuffer on screen. */
#ifndef GARNET_BACKEND_DRM_H
#define GARNET_BACKEND_DRM_H

#include <libudev.h>
#include <xf86drmMode.h>

#include "../core/internal.h"
#include "garnet/drm.h"

struct garnet_session;
struct garnet_libinput;

/* A dumb buffer mapped for the renderer, registered as an XRGB8888 framebuffer. */
struct drm_fb {
	uint32_t handle, fb_id, stride;
	uint64_t size;
	void *map;
	pixman_image_t *image;
};

bool drm_fb_init(struct drm_fb *fb, int fd, uint32_t width, uint32_t height);
void drm_fb_finish(struct drm_fb *fb, int fd);

struct drm_backend {
	struct garnet_backend base;
	struct garnet_compositor *compositor;
	struct garnet_session *session;
	struct garnet_libinput *input;
	int fd;
	char *path;
	dev_t devnum;
	bool atomic;
	struct udev *udev;
	struct udev_monitor *monitor;
	struct wl_event_source *drm_source, *udev_source;
	struct wl_list outputs; /* drm_output.link */
	uint32_t crtcs_in_use;   /* bit per CRTC index */
	struct garnet_drm_output_config *configs;
	int config_count;
	struct wl_listener session_active;
};

struct drm_output {
	struct garnet_output base;
	struct drm_backend *backend;
	struct wl_list link;
	uint32_t connector_id, crtc_id, plane_id;
	int crtc_index;
	drmModeModeInfo mode;
	uint32_t mode_blob;
	struct drm_fb fbs[2];
	int ages[2];
	int front;
	bool flip_pending, needs_modeset, stalled;
	struct wl_event_source *idle_frame; /* frames that showed nothing new */
	struct {
		uint32_t connector_crtc_id;
		uint32_t crtc_mode_id, crtc_active;
		uint32_t fb_id, crtc_id, src_x, src_y, src_w, src_h, crtc_x, crtc_y, crtc_w, crtc_h;
	} props;
};

/* Finds the primary plane of the output's CRTC and the property ids atomic commits need. */
bool drm_kms_init_atomic(struct drm_output *output);
/* Puts framebuffer fbs[index] on screen, with a modeset when needs_modeset. Returns 0 when a
 * page-flip event will follow, 1 when the frame is on screen already (legacy modeset), or -1. */
int drm_kms_show(struct drm_output *output, int index);
/* Turns the CRTC off (the output went away). */
void drm_kms_disable(struct drm_output *output);

#endif
