/* SPDX-License-Identifier: MIT */
/* The renderer (render layer, part of core): paints the scene of an output into the image its
 * backend gives, and garnet's own arrow cursor. */
#ifndef GARNET_RENDER_RENDERER_H
#define GARNET_RENDER_RENDERER_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>

struct garnet_output;
struct garnet_surface;

/* Paints region (global) of the scene into image for output; returns pixels painted. */
uint32_t garnet_render_output(struct garnet_output *output, pixman_image_t *image,
			      const pixman_region32_t *buffer_damage);
/* The whole of output as the user sees it, into image (the output's buffer size), with the
 * pointer or without, wherever the backend shows it (a cursor plane is not in the frame
 * garnet_render_output paints). For a screen cast; no counter of the output's changes. */
void garnet_render_output_picture(struct garnet_output *output, pixman_image_t *image,
				  bool pointer);
pixman_image_t *garnet_builtin_cursor_create(void);
/* The surface whose buffer alone, unscaled and without alpha, would make the whole frame of
 * output (what a backend may show as it is, with no composition); NULL when there is none. */
struct garnet_surface *garnet_render_sole_surface(struct garnet_output *output);

/* A window's surface tree alone (subsurfaces included; whatever covers it on screen, and
 * garnet's own images, left out), its origin at 0,0 of image, over black; above it, the
 * surfaces of the scene for which belongs says yes (its popups), where they are relative to it
 * (belongs NULL: none). */
bool garnet_render_surface_tree(struct garnet_surface *root, pixman_image_t *image,
				bool (*belongs)(struct garnet_surface *surface, void *data),
				void *data);

/* The pointer's image alone (transparent around it), at most max either way, and its hotspot
 * in it; NULL when no pointer is shown. Unref the image when done. */
struct garnet_seat;
pixman_image_t *garnet_render_pointer_image(struct garnet_seat *seat, int32_t max,
					    int32_t *hot_x, int32_t *hot_y);

#endif
