/* SPDX-License-Identifier: MIT */
/* Outputs: a rectangle of the global space that a backend shows, repainted by the renderer. */
#ifndef GARNET_OUTPUT_H
#define GARNET_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include "garnet/compositor.h"

struct garnet_output_mode {
	int32_t width, height; /* pixels of the framebuffer, before the transform */
	int32_t refresh_mhz;   /* 0: no vblank; repaint as soon as something changes */
	int32_t scale;
	int32_t transform; /* enum wl_output_transform */
};

/* The output's name (its connector, "HEADLESS-1"...), owned by the output. */
GARNET_EXPORT const char *garnet_output_get_name(struct garnet_output *output);
/* Removes the output (unplugged): surfaces on it get leave, windows left outside every output
 * are moved onto the first one, clients' wl_output objects become inert. NULL is a no-op. */
GARNET_EXPORT void garnet_output_destroy(struct garnet_output *output);
/* Writes what the output shows now (its framebuffer) as a PNG file. */
GARNET_EXPORT bool garnet_output_write_png(struct garnet_output *output, const char *path);
/* Asks for a repaint of the whole output. */
GARNET_EXPORT void garnet_output_damage_whole(struct garnet_output *output);
/* Whether something changed since the frame now on screen was painted (a repaint will follow). */
GARNET_EXPORT bool garnet_output_repaint_pending(struct garnet_output *output);
/* Powers the output off (the screen goes dark, nothing is painted, clients' frame callbacks
 * wait) or on (the whole output is repainted before the screen shows anything). false when
 * the backend cannot. */
GARNET_EXPORT bool garnet_output_set_power(struct garnet_output *output, bool on);
GARNET_EXPORT bool garnet_output_is_powered(struct garnet_output *output);
/* Emitted after each finished repaint cycle (data: the output). */
GARNET_EXPORT struct wl_signal *garnet_output_get_frame_signal(struct garnet_output *output);

#endif
