/* SPDX-License-Identifier: MIT */
/* The DRM backend (backends, beside the protocols layer), private: its device, outputs,
 * framebuffers and the two ways (atomic and legacy) of putting a framebuffer on screen. */
#ifndef GARNET_BACKEND_DRM_H
#define GARNET_BACKEND_DRM_H

#include <libudev.h>
#include <xf86drmMode.h>

#include "../core/compositor.h"
#include "../core/output.h"
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

bool drm_fb_init(struct drm_fb *fb, int fd, uint32_t width, uint32_t height, bool alpha);
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
	uint32_t crtcs_in_use; /* bit per CRTC index */
	struct garnet_drm_output_config *configs;
	int config_count;
	struct wl_listener session_active;
};

struct drm_plane_props {
	uint32_t fb_id, crtc_id, src_x, src_y, src_w, src_h, crtc_x, crtc_y, crtc_w, crtc_h;
	uint32_t fb_damage_clips; /* 0: the plane takes no damage (every flip is whole) */
};

/* The CRTC's cursor plane, when it has one and the device takes atomic commits. */
struct drm_cursor {
	uint32_t plane_id; /* 0: none; the renderer draws the cursor into the frame */
	uint32_t width, height;
	struct drm_fb fbs[2]; /* one shown, one to fill */
	int next;
	uint32_t fb_id; /* what the next commit shows; 0 hides the plane */
	int32_t x, y;
	struct drm_plane_props props;
};

/* A client's buffer as a framebuffer of the backend's file, and the hold that keeps it the
 * display's (backend/drm-scanout.c). */
struct drm_scanout {
	uint32_t fb_id; /* 0: none */
	struct garnet_content *hold;
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
	/* A new mode's framebuffers, waiting for the flip pending; the old mode's, waiting for
	 * the modeset that stops showing them (backend/drm-mode.c). */
	struct drm_fb next_fbs[2], old_fbs[2];
	/* The connector's modes, and the same as garnet_output.modes (size and refresh). */
	drmModeModeInfo *kms_modes;
	struct garnet_output_mode *modes;
	size_t mode_count;
	int ages[2];
	int front;
	bool flip_pending, needs_modeset, stalled;
	bool reshowing; /* the flip pending shows the front buffer again, nothing new */
	/* Powered off (DPMS): dark is what garnet asked, crtc_dark what KMS was told (after the
	 * flip pending, if any); lit again, the next frame comes with a modeset. */
	bool dark, crtc_dark;
	struct wl_event_source *idle_frame; /* frames that showed nothing new */
	struct drm_cursor cursor;
	/* Direct scanout: next is the frame being presented (none when it is painted), shown
	 * the one on screen (none when a dumb buffer is). */
	struct drm_scanout scanout_next, scanout_shown;
	bool presenting_scanout;
	struct {
		uint32_t connector_crtc_id;
		uint32_t crtc_mode_id, crtc_active;
		struct drm_plane_props primary;
	} props;
};

/* Finds the primary plane of the output's CRTC and the property ids atomic commits need. */
bool drm_kms_init_atomic(struct drm_output *output);
/* Puts framebuffer fbs[index] on screen, with a modeset when needs_modeset. Returns 0 when a
 * page-flip event will follow, 1 when the frame is on screen already (legacy modeset), or -1. */
/* damage: what changed since the frame on screen (output buffer pixels), for drivers that copy
 * framebuffers to the display; NULL with the frame on screen shown again (only the cursor
 * plane moved). */
int drm_kms_show(struct drm_output *output, int index, const pixman_region32_t *damage);
int drm_kms_show_fb(struct drm_output *output, uint32_t fb_id, const pixman_region32_t *damage);
/* Would the primary plane take fb_id as the next frame? (an atomic test commit) */
bool drm_kms_can_show(struct drm_output *output, uint32_t fb_id);
/* Darkens the screen keeping the mode and connector (atomic: CRTC ACTIVE=0; legacy: the
 * connector's DPMS property). The next drm_kms_show with needs_modeset lights it. */
bool drm_kms_darken(struct drm_output *output);
/* Turns the CRTC off (the output went away). */
void drm_kms_disable(struct drm_output *output);
/* The plane of that DRM_PLANE_TYPE_* usable on the CRTC, 0 when there is none. */
uint32_t drm_kms_find_plane(int fd, int crtc_index, uint64_t type);
/* The property ids of a plane an atomic commit sets; false if one is missing. */
bool drm_kms_plane_props(int fd, uint32_t plane, struct drm_plane_props *props);
/* Sets a plane to show fb_id (0: nothing) at x, y of the CRTC, unscaled. */
void drm_kms_set_plane(drmModeAtomicReq *req, uint32_t plane, const struct drm_plane_props *props,
		       uint32_t crtc_id, uint32_t fb_id, int32_t x, int32_t y, uint32_t width,
		       uint32_t height);

/* Would the display take mode m with fb_id on the primary plane? (an atomic test commit) */
bool drm_kms_test_mode(struct drm_output *output, const drmModeModeInfo *m, uint32_t fb_id);

/* The connector's modes (backend/drm-mode.c). */
int32_t drm_mode_refresh_mhz(const drmModeModeInfo *mode);
bool drm_mode_list_init(struct drm_output *output, const drmModeConnector *conn);
void drm_mode_list_finish(struct drm_output *output);
/* garnet_output_impl.set_mode */
bool drm_set_mode(struct garnet_output *base, const struct garnet_output_mode *mode, bool test);
/* The flip pending is done: a new mode's framebuffers take over (before the next frame). */
void drm_mode_flip_done(struct drm_output *output);
/* A modeset was committed: the old mode's framebuffers are no longer on screen. */
void drm_mode_modeset_done(struct drm_output *output);

/* Finds the cursor plane (atomic only) and its buffers; without one the cursor is drawn by the
 * renderer. */
void drm_cursor_init(struct drm_output *output);
void drm_cursor_finish(struct drm_output *output);
/* garnet_output_impl.show_cursor */
bool drm_cursor_show(struct garnet_output *base, pixman_image_t *image, int32_t x, int32_t y);

/* garnet_output_impl.scanout */
bool drm_scanout(struct garnet_output *base, const struct garnet_scanout_buffer *buffer,
		 struct garnet_content *hold);
void drm_scanout_release(struct drm_output *output, struct drm_scanout *s);

#endif
