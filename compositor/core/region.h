/* SPDX-License-Identifier: MIT */
/* A region (core layer): wl_region, and rectangle helpers on pixman regions. */
#ifndef GARNET_CORE_REGION_H
#define GARNET_CORE_REGION_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_compositor;

/* Everywhere a surface can be: the input region of a surface that set none. */
extern const pixman_box32_t garnet_region_everywhere;

/* Adds the rectangle (x, y, width, height) to region, clamped to garnet_region_everywhere;
 * an empty or negative rectangle adds nothing. */
void garnet_region_add_rect(pixman_region32_t *region, int32_t x, int32_t y, int32_t width,
			    int32_t height);
/* Makes the wl_region of request id of client, at version; false when out of memory (the
 * caller posts the error, on the object whose request it was). */
bool garnet_region_create(struct garnet_compositor *c, struct wl_client *client, uint32_t version,
			  uint32_t id);

/* The rectangles of a wl_region resource; NULL when resource is not a wl_region. */
pixman_region32_t *garnet_region_from_resource(struct wl_resource *resource);

/*
 * What a set_*_region request does: dst becomes a copy of the wl_region region_resource, or,
 * when the client passed none, the box unset (NULL for empty).
 */
void garnet_region_set_from_resource(pixman_region32_t *dst, struct wl_resource *region_resource,
				     const pixman_box32_t *unset);

#endif
