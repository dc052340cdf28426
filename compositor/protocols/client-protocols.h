// SPDX-License-Identifier: MIT
// The protocol files' inits (protocols layer), for globals.c: protocols that common clients
// expect beyond the core; each file sets up its globals and the state they share, freed with
// the compositor.
#ifndef GARNET_CLIENT_PROTOCOLS_H
#define GARNET_CLIENT_PROTOCOLS_H

#include <stdbool.h>

#include "../core/gem-buffer.h"

struct garnet_compositor;

bool garnet_idle_init(struct garnet_compositor *c);
bool garnet_fractional_scale_init(struct garnet_compositor *c);
bool garnet_xdg_activation_init(struct garnet_compositor *c);
bool garnet_relative_pointer_init(struct garnet_compositor *c);
bool garnet_pointer_constraints_init(struct garnet_compositor *c);
bool garnet_text_input_init(struct garnet_compositor *c);
bool garnet_input_method_init(struct garnet_compositor *c);
bool garnet_shortcuts_init(struct garnet_compositor *c);
bool garnet_panel_init(struct garnet_compositor *c);
bool garnet_content_type_init(struct garnet_compositor *c);
bool garnet_tearing_control_init(struct garnet_compositor *c);
bool garnet_cursor_shape_init(struct garnet_compositor *c);
bool garnet_xdg_foreign_init(struct garnet_compositor *c);
bool garnet_keyboard_shortcuts_inhibit_init(struct garnet_compositor *c);
bool garnet_pointer_gestures_init(struct garnet_compositor *c);

/* All of the above; called once the seat exists. */
static inline bool garnet_client_protocols_init(struct garnet_compositor *c)
{
	return garnet_idle_init(c) && garnet_fractional_scale_init(c) &&
	       garnet_xdg_activation_init(c) && garnet_gem_buffer_init(c) &&
	       garnet_relative_pointer_init(c) && garnet_pointer_constraints_init(c) &&
	       garnet_text_input_init(c) && garnet_input_method_init(c) && garnet_shortcuts_init(c) &&
	       garnet_panel_init(c) && garnet_content_type_init(c) &&
	       garnet_tearing_control_init(c) && garnet_cursor_shape_init(c) &&
	       garnet_xdg_foreign_init(c) && garnet_keyboard_shortcuts_inhibit_init(c) &&
	       garnet_pointer_gestures_init(c);
}

/* Not in garnet_client_protocols_init: globals.c sets these up one by one, as the options ask. */
bool garnet_shm_init(struct garnet_compositor *c);
bool garnet_presentation_init(struct garnet_compositor *c);
bool garnet_viewporter_init(struct garnet_compositor *c);
bool garnet_xdg_decoration_init(struct garnet_compositor *c);
bool garnet_xdg_output_init(struct garnet_compositor *c);
bool garnet_screencopy_init(struct garnet_compositor *c);
bool garnet_virtual_keyboard_init(struct garnet_compositor *c);

#endif
