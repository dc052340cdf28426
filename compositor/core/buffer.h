/* SPDX-License-Identifier: MIT */
/* Buffers (core layer): the interface the buffer protocols implement, and what a surface shows
 * (core/texture.c). */
#ifndef GARNET_CORE_BUFFER_H
#define GARNET_CORE_BUFFER_H

#include "surface.h"

/* Buffers: shm, single-pixel or garnet's GEM, read through the interface their protocols set
 * (protocols/shm.c). A committed buffer is shown in place (core/texture.c): the renderer reads
 * the client's memory at each repaint, and the buffer is released once no surface shows it. */
/* A buffer as KMS can take it: an object on one of garnet's DRM files. */
struct garnet_scanout_buffer {
	int drm_fd; /* the compositor's file the handle is on (not the backend's) */
	uint32_t handle;
	uint32_t fourcc;
	int32_t width, height, stride;
	uint64_t offset;
};

struct garnet_buffer_impl {
	/* Makes the surface show buffer (garnet_surface_show_buffer, or garnet_surface_show_own
	 * for what is copied); *full_damage when its size or format changed. false: it cannot be
	 * shown (error already posted). */
	bool (*upload)(struct garnet_surface *surface, struct wl_resource *buffer,
		       const pixman_region32_t *damage, bool *full_damage);
	/* Is garnet still to read this committed buffer (a GPU wait), so it is released later? */
	bool (*is_held)(struct wl_resource *buffer);
	/* Every read of a buffer shown in place is between these (an shm pool can be truncated
	 * under garnet); begin gives the buffer's first pixel as it is mapped now (a pool that
	 * grew may have moved), NULL when it cannot be read. Never nested for two buffers. */
	void *(*begin_read)(struct wl_resource *buffer);
	void (*end_read)(struct wl_resource *buffer);
	/* Optional: the GEM object behind buffer, for a backend to show it as it is (direct
	 * scanout); false for buffers that are not GEM objects. */
	bool (*scanout_info)(struct wl_resource *buffer, struct garnet_scanout_buffer *out);
};
void garnet_compositor_set_buffer_impl(struct garnet_compositor *c,
				       const struct garnet_buffer_impl *impl);
/* The interface's operations as core calls them (core/texture.c). */
bool garnet_buffer_upload(struct garnet_surface *surface, struct wl_resource *buffer,
			  const pixman_region32_t *damage, bool *full_damage);
/* Shown by a surface, or still to be read: not the client's to write yet. */
bool garnet_buffer_is_held(struct garnet_compositor *c, struct wl_resource *buffer);
/* Releases the buffer unless it is held (garnet_buffer_release_soon). */
void garnet_buffer_release_if_unused(struct garnet_compositor *c, struct wl_resource *buffer);
/* Sends wl_buffer.release for buffer soon (core/buffer-release.c): with the frame events of the
 * next frame any output completes, when one is on its way, so that a client hears of its
 * buffer and its next frame in one message; otherwise at the end of this turn of the loop. */
void garnet_buffer_release_soon(struct garnet_compositor *c, struct wl_resource *buffer);
/* Sends the releases waiting for a frame (of buffers still unused): a frame completed, or an
 * output will complete none (turned off, disabled, gone). */
void garnet_buffer_send_pending_releases(struct garnet_compositor *c);
/* The surface shows buffer (width x height pixels of format, rows stride bytes apart) in
 * place from now on; the buffer it showed before is released when no other surface shows it.
 * false: out of memory (nothing changed). */
bool garnet_surface_show_buffer(struct garnet_surface *surface, struct wl_resource *buffer,
				pixman_format_code_t format, int32_t width, int32_t height,
				int32_t stride, bool *full_damage);
/* The surface shows a new image of garnet's, charged to its client, for the caller to fill;
 * NULL with the client's error posted when over budget or out of memory. */
pixman_image_t *garnet_surface_show_own(struct garnet_surface *surface, pixman_format_code_t format,
					int32_t width, int32_t height, bool *full_damage);
/* The content changed outside a commit (a GPU wait ended): size and damage follow it. */
void garnet_surface_content_resized(struct garnet_surface *surface);
/* A wait for a committed buffer ended (shown, abandoned or its buffer gone): the commit's
 * frame callbacks go with the next frame. */
void garnet_surface_wait_ended(struct garnet_surface *surface);
/* The wl_buffer the surface shows in place, NULL for none or garnet's own pixels. */
struct wl_resource *garnet_surface_shown_buffer(struct garnet_surface *surface);
/* Unmaps: the surface shows nothing (its buffer released when no other surface shows it). */
void garnet_surface_drop_content(struct garnet_surface *surface);
/* The surface's pixels, readable until garnet_surface_end_read (called even after NULL):
 * NULL when it shows nothing or its buffer cannot be read. No two surfaces at once. */
pixman_image_t *garnet_surface_begin_read(struct garnet_surface *surface);
void garnet_surface_end_read(struct garnet_surface *surface);

/* Direct scanout: the GEM object the surface shows (false: none, or not a GEM buffer), and a
 * hold on what it shows, which keeps its wl_buffer from being released while a display reads
 * it. The hold's image is what is shown (the client's pixels, or garnet's copy of them once
 * the buffer is destroyed); it stays valid until the hold is dropped. */
bool garnet_surface_scanout_info(struct garnet_surface *surface, struct garnet_scanout_buffer *out);
struct garnet_content *garnet_surface_hold_content(struct garnet_surface *surface);
pixman_image_t *garnet_content_held_image(struct garnet_content *content);
void garnet_content_drop_hold(struct garnet_content *content);

#endif
