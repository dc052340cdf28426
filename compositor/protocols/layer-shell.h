// SPDX-License-Identifier: MIT
// zwlr_layer_shell_v1 (protocols layer, layer-shell.c) as the rest of libgarnet sees it: the
// global, and what the shell asks of a layer surface when it decides who has the keyboard and where
// popups go.
#ifndef GARNET_PROTOCOLS_LAYER_SHELL_H
#define GARNET_PROTOCOLS_LAYER_SHELL_H

#include "../core/compositor.h"

/* zwlr_layer_surface_v1.keyboard_interactivity, as garnet applies it. */
enum garnet_layer_keyboard {
	GARNET_LAYER_KEYBOARD_NONE = 0,
	GARNET_LAYER_KEYBOARD_EXCLUSIVE = 1,
	GARNET_LAYER_KEYBOARD_ON_DEMAND = 2,
};

bool garnet_layer_shell_init(struct garnet_compositor *c);
void garnet_layer_shell_output_changed(struct garnet_output *output);

/* When surface is a shown layer surface: its scene layer and what it may have of the keyboard
 * (exclusive only where the policy allows it and in the top and overlay layers; elsewhere
 * on_demand). false for any other surface. */
bool garnet_layer_surface_info(struct garnet_surface *surface, enum garnet_layer_id *layer,
			       enum garnet_layer_keyboard *keyboard);

/* The topmost shown layer surface that holds the keyboard exclusively, or NULL. */
struct garnet_surface *garnet_layer_shell_exclusive(struct garnet_compositor *c);

#endif
