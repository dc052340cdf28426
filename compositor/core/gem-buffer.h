/* SPDX-License-Identifier: MIT */
/* GEM buffers (core layer): wl_buffers made of garnet.ko GEM objects (garnet_buffer_v1): what
 * the protocol file (protocols/garnet-buffer.c) and the import path (core/gem-import.c) share. */
#ifndef GARNET_GEM_BUFFER_H
#define GARNET_GEM_BUFFER_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_compositor;
struct garnet_surface;
struct garnet_gem_client;

/* One wl_buffer: the compositor's own handle to the object (accepted on the client's DRM
 * file of the compositor) and a CPU mapping of it, both kept for the wl_buffer's life. */
struct garnet_gem_buffer {
	struct wl_resource *resource;
	struct garnet_gem_client *client;
	int drm_fd; /* the compositor's DRM file for this client (owned by client) */
	uint32_t handle;
	uint64_t size;
	void *map;
	void *pixels; /* map plus the offset of the first pixel */
	/* map may be written: a garnet.ko object (another driver's dma-buf maps read-only). */
	bool writable;
	/* A garnet.ko object on a device whose engine writes reach CPU mappings as they are: once
	 * the GPU is done, map is read without moving the object to the CPU domain. */
	bool coherent;
	int32_t width, height, stride;
	pixman_format_code_t format;
	struct wl_list imports; /* garnet_gem_import.buffer_link: surfaces waiting for it */
};

struct garnet_gem_manager;

/* The compositor's DRM file for one client (protocols/garnet-buffer.c), counted: the one it
 * has, or a new one. NULL on failure (logged). */
struct garnet_gem_client *garnet_gem_client_get(struct garnet_gem_manager *m,
						struct wl_client *client);
struct garnet_gem_client *garnet_gem_client_ref(struct garnet_gem_client *gc);
void garnet_gem_client_unref(struct garnet_gem_client *gc);
int garnet_gem_client_fd(struct garnet_gem_client *gc);
struct garnet_compositor *garnet_gem_client_compositor(struct garnet_gem_client *gc);
/* The GARNET_GET_CLIENT_ID of that file: the recipient the client shares with. */
uint64_t garnet_gem_client_id(struct garnet_gem_client *gc);
/* What the client holds of garnet_buffer_broker_v1, counted there against its limits. */
struct garnet_gem_broker_counts {
	int offers, receivers;
	int unknown_tokens; /* offers naming no live receiver, counted while they are logged */
};
struct garnet_gem_broker_counts *garnet_gem_client_broker_counts(struct garnet_gem_client *gc);

/* Where the pixels are in an object. */
struct garnet_gem_buffer_layout {
	int32_t width, height, stride;
	uint64_t offset;
	pixman_format_code_t format;
};

enum garnet_gem_buffer_result {
	GARNET_GEM_BUFFER_OK,
	GARNET_GEM_BUFFER_BAD_SIZE,    /* non-positive, too large, or beyond the object */
	GARNET_GEM_BUFFER_TOO_MANY,    /* the client has too many buffers already */
	GARNET_GEM_BUFFER_UNMAPPABLE,  /* the object has no pages to map (errno says why) */
	GARNET_GEM_BUFFER_NO_MEMORY,
};

/* Makes wl_buffer id of client from an object of size bytes that handle names on gc's file;
 * the buffer owns the handle from then on, and on failure it is closed. */
enum garnet_gem_buffer_result garnet_gem_buffer_create(struct garnet_gem_client *gc,
							struct wl_client *client, uint32_t id,
							uint32_t handle, uint64_t size,
							const struct garnet_gem_buffer_layout *l,
							struct wl_resource **out);
/* The DRM formats garnet buffers may have, and their pixman twins. */
size_t garnet_gem_format_count(void);
uint32_t garnet_gem_format(size_t index);
bool garnet_gem_format_for(uint32_t fourcc, pixman_format_code_t *out);
uint32_t garnet_gem_fourcc_of(pixman_format_code_t format); /* 0: none */

/* zwp_linux_dmabuf_v1 on the same device: dma-bufs become garnet buffers by importing them
 * into the client's file of the compositor (protocols/linux-dmabuf.c). */
bool garnet_linux_dmabuf_init(struct garnet_compositor *c, struct garnet_gem_manager *m,
			      const char *device_path);

/* garnet_buffer_v1.capture_output (protocols/garnet-buffer-capture.c). */
void garnet_gem_capture_output(struct garnet_gem_client *gc, struct wl_resource *factory,
			       uint32_t id, struct wl_resource *output, uint64_t client_id);

/* garnet_buffer_broker_v1: client-to-client objects under a decision
 * (protocols/garnet-buffer-broker.c). */
bool garnet_buffer_broker_init(struct garnet_compositor *c, struct garnet_gem_manager *m);

/* Finds garnet.ko's render node in /dev/dri (by driver name); a malloc'ed path or NULL. */
char *garnet_drm_find_render_node(void);

/* garnet_buffer_v1; no global when garnet.ko is absent. */
bool garnet_gem_buffer_init(struct garnet_compositor *c);

/* The garnet buffer behind a wl_buffer, NULL for any other kind. */
struct garnet_gem_buffer *garnet_gem_buffer_from_resource(struct wl_resource *resource);

/* Makes the surface show the buffer's mapping: at once when the GPU is not writing it, else
 * once its pending work is done (the surface keeps showing its
 * old pixels meanwhile). false: out of memory (error posted). */
bool garnet_gem_buffer_upload(struct garnet_surface *surface, struct garnet_gem_buffer *buffer,
			      const pixman_region32_t *damage, bool *full_damage);
/* Is the compositor still waiting to read this buffer (so release comes later)? */
bool garnet_gem_buffer_is_held(struct garnet_gem_buffer *buffer);
/* A new buffer (or none) was attached and committed: a read still waiting for the previous
 * one is abandoned and that buffer released. Called for every kind of buffer. */
void garnet_gem_import_surface_attach(struct garnet_surface *surface,
				      struct wl_resource *new_buffer);
/* Whether the surface waits for a committed buffer's GPU writes before showing it. */
bool garnet_gem_import_pending(struct garnet_surface *surface);
/* The buffer is going away: forget every wait for it (nothing is released). */
void garnet_gem_import_buffer_destroyed(struct garnet_gem_buffer *buffer);

#endif
