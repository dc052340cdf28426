/* SPDX-License-Identifier: MIT */
/* The pointer of a screen cast carried beside its picture (garnet_portal_capture_v1's
 * pointer_metadata copies): where it is in the picture and its image, told to the backend only
 * when they changed. */
#ifndef GARNET_PROTOCOLS_PORTAL_POINTER_H
#define GARNET_PROTOCOLS_PORTAL_POINTER_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_compositor;
struct garnet_output;
struct garnet_surface;

/* Images larger than this either way are cut (the backend sizes its metadata for this). */
#define CAST_POINTER_MAX 256

/* What one cast last told its backend. */
struct cast_pointer {
	bool told, visible;
	int32_t x, y;
	int32_t width, height, hot_x, hot_y;
	uint32_t *pixels; /* the image last sent, width * height */
};

/* The pointer as a cast would show it now. */
struct cast_pointer_look {
	bool visible;
	int32_t x, y;		/* the hotspot in the picture's pixels */
	pixman_image_t *image; /* NULL when not visible */
	int32_t hot_x, hot_y;
};

/* For the cast of output's picture from region's corner on (width x height), or of window
 * (then output is NULL). */
void cast_pointer_look(struct garnet_compositor *c, struct garnet_output *output,
		       const pixman_box32_t *region, int32_t width, int32_t height,
		       struct garnet_surface *window, struct cast_pointer_look *look);
void cast_pointer_look_fini(struct cast_pointer_look *look);
bool cast_pointer_changed(const struct cast_pointer *told, const struct cast_pointer_look *look);
/* Sends pointer_image (when the image changed) and pointer or pointer_hidden. */
void cast_pointer_tell(struct wl_resource *capture, struct cast_pointer *told,
		       const struct cast_pointer_look *look);
void cast_pointer_fini(struct cast_pointer *told);

#endif
