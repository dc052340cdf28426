/* SPDX-License-Identifier: MIT */
/*
 * Helpers for garnet's display tests: the KMS objects of the garnet device, dumb framebuffers
 * with known patterns, atomic commits and their events, and two independent views of what is
 * on screen: the scanout memory through debugfs, and QEMU's own screendump of bochs-display,
 * which the host takes on request (screendump-server.py).
 */
#ifndef KMS_UTIL_H
#define KMS_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

struct kms_plane_props {
	uint32_t fb_id, crtc_id, src_x, src_y, src_w, src_h, crtc_x, crtc_y, crtc_w, crtc_h;
	uint32_t damage_clips;
};

struct kms {
	int fd;
	uint32_t crtc_id, connector_id, primary_id, cursor_id;
	drmModeConnector *connector;
	struct kms_plane_props primary, cursor;
	uint32_t crtc_active, crtc_mode_id, connector_crtc_id;
	char debugfs[64];	/* the device's debugfs directory, usable after fd is closed */
};

struct kms_fb {
	uint32_t handle, fb_id, width, height, pitch, format;
	uint64_t size;
	void *map;
};

/* What a test expects on screen: XRGB8888, the X byte ignored. */
struct kms_screen {
	int width, height;
	uint32_t *pixels;
};

void kms_open(struct kms *k);
void kms_close(struct kms *k);
/* The connector's mode of that size (the 60 Hz one if there are several); fails if none. */
const drmModeModeInfo *kms_mode(struct kms *k, int width, int height);

void kms_fb_create(struct kms *k, struct kms_fb *fb, int width, int height, uint32_t format);
void kms_fb_destroy(struct kms *k, struct kms_fb *fb);
/* Fills the framebuffer with pattern(seed) and renders the same into screen at (0, 0). */
void kms_fb_fill_pattern(struct kms_fb *fb, unsigned int seed);
uint32_t kms_pattern(int x, int y, unsigned int seed);

/* Adds the plane's properties to req: fb at (x, y) on the CRTC, unscaled. fb NULL disables. */
void kms_req_plane(struct kms *k, drmModeAtomicReq *req, uint32_t plane_id,
		   const struct kms_plane_props *props, const struct kms_fb *fb, int x, int y);
/* Commits; returns 0 or -errno (does not fail the test). */
int kms_commit(struct kms *k, drmModeAtomicReq *req, uint32_t flags);
/* Sets mode with fb on the primary plane, cursor off, and waits for the event. */
void kms_set_mode(struct kms *k, const drmModeModeInfo *mode, struct kms_fb *fb);
/* Turns the CRTC off (blocking). */
void kms_disable(struct kms *k);
/* Waits for one flip/vblank event; false on timeout. */
bool kms_wait_event(struct kms *k, int timeout_ms, unsigned int *sequence, uint64_t *time_ns);

/* A value of debugfs garnet_display ("NAME value" lines); -1 if absent. */
long long kms_display_value(struct kms *k, const char *name);
bool kms_is_bochs(struct kms *k);

void kms_screen_init(struct kms_screen *s, int width, int height);
void kms_screen_free(struct kms_screen *s);
/* Renders fb (as the display would show it) into s at (x, y), blending ARGB8888 if blend. */
void kms_screen_draw(struct kms_screen *s, const struct kms_fb *fb, int x, int y, bool blend);
/*
 * The screen must show exactly s: checked in the scanout memory (debugfs) and, on
 * bochs-display, in QEMU's screendump.
 */
void kms_check_screen(struct kms *k, const struct kms_screen *s);
void kms_check_scanout(struct kms *k, const struct kms_screen *s);

/* Reads the scanout memory; returns malloc'ed XRGB8888 pixels, sets width and height. */
/* debugfs garnet_scanout, opened for reading (-1 and errno on failure). */
int kms_open_scanout(struct kms *k);
uint32_t *kms_read_scanout(struct kms *k, int *width, int *height);
/* Asks the host for a screendump; returns malloc'ed RGB triplets, or NULL without bochs. */
uint8_t *kms_screendump(struct kms *k, int *width, int *height);

#endif /* KMS_UTIL_H */
