/* SPDX-License-Identifier: MIT */
/* A toplevel window (protocols layer): what xdg-shell fills in and the shell manages (places,
 * stacks, focuses) through its impl. */
#ifndef GARNET_PROTOCOLS_TOPLEVEL_H
#define GARNET_PROTOCOLS_TOPLEVEL_H

#include "../core/view.h"

/* Toplevel window as the shell manages it; xdg-shell fills it in. */
struct garnet_toplevel;
struct garnet_toplevel_impl {
	/* Ask the client for a new size and states (0 size: client decides). */
	void (*configure)(struct garnet_toplevel *toplevel);
	void (*close)(struct garnet_toplevel *toplevel);
	/* What task bars show; NULL for xdg-shell's, which keeps its own (xdg-toplevel.c). */
	const char *(*title)(struct garnet_toplevel *toplevel);
	const char *(*app_id)(struct garnet_toplevel *toplevel);
};
struct garnet_toplevel {
	const struct garnet_toplevel_impl *impl;
	struct garnet_surface *surface;
	struct garnet_view view;
	struct wl_list link; /* shell toplevels, most recently focused first */
	bool mapped, placed;
	bool maximized, fullscreen, minimized, activated, resizing;
	bool configured_once; /* the initial configure has been sent */
	int32_t pending_width, pending_height; /* what the next configure asks for */
	int32_t geometry_x, geometry_y, geometry_width, geometry_height;
	int32_t saved_x, saved_y, saved_width, saved_height;
	int32_t min_width, min_height, max_width, max_height;
	struct garnet_toplevel *parent;
	struct wl_listener parent_destroy;
	struct wl_resource *decoration; /* zxdg_toplevel_decoration_v1, if any */
	/* shell/focus.c: mapped without the keyboard, it waits for the user; activated (with a
	 * valid token) before it mapped, it takes the keyboard if it maps before the deadline. */
	bool demands_attention, activate_on_map;
	uint32_t activate_deadline_msec;
	struct {
		struct wl_signal destroy;
	} events;
};

#endif
