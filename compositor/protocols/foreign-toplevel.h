// SPDX-License-Identifier: MIT
// zwlr_foreign_toplevel_management_v1 (foreign-toplevel.c) as the rest of libgarnet sees it: the
// global, and the news of a window it publishes.
#ifndef GARNET_PROTOCOLS_FOREIGN_TOPLEVEL_H
#define GARNET_PROTOCOLS_FOREIGN_TOPLEVEL_H

#include "../core/compositor.h"

bool garnet_foreign_toplevel_init(struct garnet_compositor *c);

/* toplevel mapped, unmapped, or changed its title, app id, states, outputs or parent: every
 * task bar hears what changed (the protocol hook toplevel_changed). */
void garnet_foreign_toplevel_changed(struct garnet_toplevel *toplevel);
/* The protocol hooks surface_outputs_changed and output_bound: a task bar hears which outputs
 * a window is on when it moves, and on a wl_output it binds after it heard of the window. */
void garnet_foreign_toplevel_surface_outputs_changed(struct garnet_surface *surface);
void garnet_foreign_toplevel_output_bound(struct garnet_output *output,
					  struct wl_resource *resource);

#endif
