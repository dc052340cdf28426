/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * garnet's display: one CRTC with a primary and a cursor plane, one encoder and connector.
 * Framebuffers are shmem GEM objects; every commit composes the damaged rectangles of the
 * primary plane and the cursor into the scanout memory, which is the VRAM BAR of QEMU's
 * bochs-display when that device is present, or a kernel buffer (the virtual output) when not.
 * The virtual output shows an XRGB8888 or ARGB8888 primary plane in place instead, composing
 * only when the screen is read (garnet_compose.c).
 */
#ifndef GARNET_KMS_H
#define GARNET_KMS_H

#include <linux/hrtimer.h>
#include <linux/iosys-map.h>
#include <linux/mutex.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_encoder.h>
#include <drm/drm_plane.h>
#include <drm/drm_rect.h>

struct garnet_device;
struct garnet_bochs;

/* Largest mode the connector offers; the virtual output's buffer is sized for it. */
#define GARNET_MAX_WIDTH	1920
#define GARNET_MAX_HEIGHT	1200
#define GARNET_CURSOR_SIZE	64
/* Scanout is always XRGB8888, packed: pitch = width * 4. */
#define GARNET_SCANOUT_CPP	4

struct garnet_kms_counters {
	atomic64_t commits;		/* CRTC flushes that changed something on screen */
	atomic64_t full_repaints;	/* of those, repaints of the whole screen */
	atomic64_t rects;		/* screen rectangles they changed */
	atomic64_t damage_bytes;	/* bytes of screen in those rectangles */
	atomic64_t bytes_copied;	/* of those, bytes written into the scanout memory */
	atomic64_t vblanks;		/* vblank timer expiries delivered to DRM */
	atomic64_t modesets;		/* scanout (re)programmed for a mode */
	atomic64_t compose_ns;		/* time spent composing, for the benchmark */
	atomic64_t in_place_commits;	/* of the commits, those shown in place: nothing copied */
};

struct garnet_kms {
	struct garnet_device *gdev;
	struct drm_crtc crtc;
	struct drm_plane primary;
	struct drm_plane cursor;
	struct drm_encoder encoder;
	struct drm_connector connector;

	/*
	 * bochs-display when bound (garnet_bochs.c), NULL for the virtual output. When the
	 * device is removed, both bochs and the scanout map are cleared under scanout_lock and
	 * unplugged is set: from then on the display composes nothing.
	 */
	struct garnet_bochs *bochs;
	bool unplugged;

	/*
	 * The scanout memory: VRAM (I/O memory) or the virtual output's vmalloc buffer.
	 * scanout_lock serialises composition, mode programming and debugfs readback, so
	 * a reader never sees a half-programmed mode.
	 */
	struct mutex scanout_lock;
	struct iosys_map scanout;
	size_t scanout_size;
	unsigned int width, height;	/* current mode; 0 x 0 while the CRTC is off */
	u32 *line;			/* one composed row, GARNET_MAX_WIDTH pixels */
	void *virtual_scanout;		/* the virtual output's memory (vmalloc) */
	/* The virtual output shows its primary plane in place: the scanout memory is stale. */
	bool in_place;

	/* Software vblank: bochs-display has no interrupt, the virtual output no hardware. */
	struct hrtimer vblank_timer;
	ktime_t frame_period;
	bool vblank_on;		/* the timer restarts itself only while this is set */

	struct garnet_kms_counters counters;
};

/* garnet_kms.c */
int garnet_kms_init(struct garnet_device *gdev);
void garnet_kms_register(struct garnet_device *gdev);
void garnet_kms_fini(struct garnet_device *gdev);
void garnet_kms_default_mode(unsigned int *width, unsigned int *height);

/* garnet_output.c: connector and encoder */
int garnet_output_init(struct garnet_kms *kms);

/* garnet_plane.c */
int garnet_planes_init(struct garnet_kms *kms);

/* garnet_crtc.c */
int garnet_crtc_init(struct garnet_kms *kms);

/* garnet_vblank.c */
void garnet_vblank_init(struct garnet_kms *kms);
void garnet_vblank_stop(struct garnet_kms *kms);
int garnet_vblank_enable(struct drm_crtc *crtc);
void garnet_vblank_disable(struct drm_crtc *crtc);
bool garnet_vblank_timestamp(struct drm_crtc *crtc, int *max_error, ktime_t *vblank_time,
			     bool in_vblank_irq);

/* garnet_compose.c: primary + cursor into the scanout */
void garnet_compose_commit(struct garnet_kms *kms, struct drm_atomic_state *state);
void garnet_scanout_set_mode(struct garnet_kms *kms, unsigned int width, unsigned int height);
bool garnet_compose_read(struct garnet_kms *kms, size_t offset, u8 *dst, size_t len, u32 *line);
void garnet_scanout_unplug(struct garnet_kms *kms);

/* garnet_bochs.c: the PCI driver for bochs-display */
int garnet_bochs_register(void);
void garnet_bochs_unregister(void);
struct garnet_bochs *garnet_bochs_attach(struct garnet_kms *kms);
void garnet_bochs_detach(struct garnet_kms *kms);
void garnet_bochs_get_vram(struct garnet_bochs *bochs, struct iosys_map *map, size_t *size);
void garnet_bochs_set_mode(struct garnet_bochs *bochs, unsigned int width, unsigned int height);
void garnet_bochs_disable(struct garnet_bochs *bochs);

/* garnet_kms_debugfs.c */
void garnet_kms_debugfs_init(struct drm_minor *minor);

static inline struct garnet_kms *crtc_to_kms(struct drm_crtc *crtc)
{
	return container_of(crtc, struct garnet_kms, crtc);
}

static inline struct garnet_kms *connector_to_kms(struct drm_connector *connector)
{
	return container_of(connector, struct garnet_kms, connector);
}

#endif /* GARNET_KMS_H */
