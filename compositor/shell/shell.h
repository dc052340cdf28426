/* SPDX-License-Identifier: MIT */
/* The shell's state, shared by the files of shell/ only. */
#ifndef GARNET_SHELL_PRIVATE_H
#define GARNET_SHELL_PRIVATE_H

#include "../core/internal.h"

struct move_grab {
	struct garnet_pointer_grab base;
	struct garnet_shell *shell;
	struct garnet_toplevel *toplevel;
	double start_x, start_y;
	int32_t view_x, view_y;
	int32_t width, height;
	uint32_t edges; /* 0: a move */
};

struct garnet_shell {
	struct garnet_compositor *compositor;
	struct wl_list toplevels; /* garnet_toplevel.link, most recently focused first */
	struct wl_list bindings;
	struct garnet_toplevel *focused; /* changed in focus.c only */
	unsigned int presses_at_focus; /* the seat's input_serial_next when focused took it */
	int placed_count;
	uint32_t swallowed_keys[8]; /* pressed keys whose release must not reach clients */
	struct move_grab grab;
	bool grabbing;
};

/* hooks.c: what core and the protocols call, installed while the shell exists. */
extern const struct garnet_shell_hooks garnet_shell_hooks_impl;

/* Layer surfaces' exclusive zones changed what output leaves for windows: maximized windows
 * on it are fitted into the rest. */
void garnet_shell_usable_area_changed(struct garnet_shell *shell, struct garnet_output *output);

/* Sends the toplevel its pending state, once its initial configure went out. */
void garnet_shell_configure(struct garnet_toplevel *tl);

#endif
