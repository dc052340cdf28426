/* SPDX-License-Identifier: MIT */
/* The shell's state and calls (shell layer), shared by the files of shell/ only: what the rest
 * of libgarnet may use of the shell is in shell.h and core/shell-hooks.h. */
#ifndef GARNET_SHELL_PRIVATE_H
#define GARNET_SHELL_PRIVATE_H

#include "../core/compositor.h"
#include "../core/seat.h"
#include "shell.h"

struct garnet_toplevel;

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

/* bindings.c: frees the bindings read from garnet.ini. */
void garnet_shell_bindings_finish(struct garnet_shell *shell);
bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed);
/* The key that triggers a shortcut action (its keysym name in out), or NULL when none does. */
const char *garnet_shell_shortcut_trigger(struct garnet_shell *shell, const char *action, char *out,
					  size_t size);
void garnet_shell_handle_click(struct garnet_shell *shell, struct garnet_surface *surface);
/* An output went away: windows left outside every output come back onto one. */
void garnet_shell_output_removed(struct garnet_shell *shell);
void garnet_shell_toplevel_map(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_toplevel_unmap(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_toplevel_commit(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_request_move(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			       uint32_t serial);
void garnet_shell_request_resize(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				 uint32_t serial, uint32_t edges);
void garnet_shell_set_maximized(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				bool maximized);
void garnet_shell_set_fullscreen(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				 bool fullscreen, struct garnet_output *output);
void garnet_shell_set_minimized(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_focus(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
struct garnet_toplevel *garnet_shell_toplevel_for_surface(struct garnet_shell *shell,
							  struct garnet_surface *surface);
void garnet_shell_move_toplevel(struct garnet_shell *shell, struct garnet_surface *surface,
				int32_t x, int32_t y);

#endif
