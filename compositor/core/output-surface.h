/* SPDX-License-Identifier: MIT */
/* An output surface (core layer): a surface that a role shows on one output, in the scene
 * (layer-shell's layer surfaces, session-lock's lock surfaces): the surface, its view and the
 * output, each let go of when it goes. The role's object embeds it and names its listeners. */
#ifndef GARNET_CORE_OUTPUT_SURFACE_H
#define GARNET_CORE_OUTPUT_SURFACE_H

#include "compositor.h"
#include "view.h"

struct garnet_output_surface {
	struct garnet_surface *surface; /* NULL once detached */
	struct garnet_output *output; /* NULL when none, gone or dropped */
	struct garnet_view view;
	struct wl_listener surface_destroy, output_destroy;
};

/* Follows surface (whose role the caller gives it) with a view, and no output yet;
 * surface_destroyed runs when the surface goes. */
void garnet_output_surface_init(struct garnet_output_surface *os, struct garnet_surface *surface,
				wl_notify_func_t surface_destroyed);
/* Shows it on output; output_destroyed runs when the output goes, with the output still set
 * (it calls garnet_output_surface_drop_output). */
void garnet_output_surface_set_output(struct garnet_output_surface *os,
				      struct garnet_output *output,
				      wl_notify_func_t output_destroyed);
/* Lets go of the output, if any. */
void garnet_output_surface_drop_output(struct garnet_output_surface *os);
/* Lets go of the surface (out of the scene, its role_data cleared) and of the output; the
 * role's object stays, inert, until its resource goes. */
void garnet_output_surface_detach(struct garnet_output_surface *os);

#endif
