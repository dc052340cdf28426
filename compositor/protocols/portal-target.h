/* SPDX-License-Identifier: MIT */
/* The buffer a cast's copy writes into: a wl_shm buffer, or (from garnet_portal_v1 version 5)
 * a buffer of a garnet.ko object that the backend hands on to consumers as a dma-buf. */
#ifndef GARNET_PORTAL_TARGET_H
#define GARNET_PORTAL_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_gem_buffer;

/* The first version of garnet_portal_capture_v1 whose copies may go into garnet.ko objects. */
#define CAST_TARGET_GEM_SINCE_VERSION 5

struct cast_target {
	struct wl_shm_buffer *shm;
	struct garnet_gem_buffer *gem;
	int32_t width, height, stride;
	void *pixels; /* between cast_target_begin and cast_target_end */
};

/* buffer as a target: an xrgb8888 or argb8888 wl_shm buffer, or a writable one of garnet.ko
 * when version allows it. false: a buffer a cast cannot write. */
bool cast_target_get(struct wl_resource *buffer, int version, struct cast_target *t);
/* The pixels, ready for the CPU to write; false when the GPU still uses the object (garnet
 * does not wait for it: the copy fails and the backend asks again). */
bool cast_target_begin(struct cast_target *t);
void cast_target_end(struct cast_target *t);

#endif
