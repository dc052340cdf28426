/* SPDX-License-Identifier: MIT */
/* The shell hooks (core layer): what core and the protocols ask of the shell above them: window
 * management, bindings and the focus authority. The shell installs its answers when it is
 * created (garnet_shell_create), before any client or input, and they stay until the last
 * client is gone; core and the protocols reach the shell only through them, never by naming a
 * file of shell/. */
#ifndef GARNET_CORE_SHELL_HOOKS_H
#define GARNET_CORE_SHELL_HOOKS_H

#include "compositor.h"

struct garnet_toplevel;

/* What a task bar (foreign-toplevel.c) asks of a window for the user. */
enum garnet_taskbar_request {
	GARNET_TASKBAR_ACTIVATE, /* take the keyboard, raised (and shown, if minimized) */
	GARNET_TASKBAR_CLOSE,
	GARNET_TASKBAR_MINIMIZE,
	GARNET_TASKBAR_MAXIMIZE,
	GARNET_TASKBAR_UNMAXIMIZE,
	GARNET_TASKBAR_FULLSCREEN, /* on the output given, or the window's */
	GARNET_TASKBAR_UNFULLSCREEN,
};

struct garnet_shell_hooks {
	/* ---- input (core/seat*.c) ---- */
	/* A key for the compositor's bindings first: true when one took it. */
	bool (*handle_key)(struct garnet_shell *shell, uint32_t key, bool pressed);
	/* A press or touch went down on surface (or on nothing). */
	void (*handle_click)(struct garnet_shell *shell, struct garnet_surface *surface);
	/* The key that triggers a shortcut action (its keysym name in out), or NULL. */
	const char *(*shortcut_trigger)(struct garnet_shell *shell, const char *action, char *out,
					size_t size);

	/* ---- the focus authority (shell/focus.c): the only code that moves the keyboard ---- */
	/* garnet's lock screen or consent dialog let the keyboard go: back to the focused window. */
	void (*return_keyboard)(struct garnet_shell *shell);
	/* A lock surface was shown: the first one takes the keyboard. */
	void (*focus_lock_surface)(struct garnet_shell *shell, struct garnet_surface *surface);
	/* The test protocol asks for surface to have the keyboard (NULL: nobody). */
	void (*focus_surface)(struct garnet_shell *shell, struct garnet_surface *surface);
	/* A valid activation token of client was shown for toplevel; false when refused. */
	bool (*activate)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			 struct wl_client *client, uint32_t timeout_ms);
	bool (*client_holds_keyboard)(struct garnet_compositor *c, struct wl_client *client);
	bool (*may_fullscreen)(struct garnet_compositor *c, struct wl_client *client,
			       struct garnet_output *output);
	/* A task bar of client asks this of toplevel; refused (false, logged) while the lock,
	 * garnet's lock screen or the consent dialog is up. */
	bool (*taskbar_request)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				enum garnet_taskbar_request request, struct garnet_output *output,
				struct wl_client *client);
	/* May a popup of client, on parent, grab with serial? A refusal is logged. */
	bool (*popup_grab_allowed)(struct garnet_compositor *c, struct wl_client *client,
				   uint32_t serial, struct garnet_surface *parent,
				   bool parent_mapped);
	void (*popup_mapped)(struct garnet_compositor *c, struct garnet_surface *popup);
	void (*popup_gone)(struct garnet_compositor *c, struct garnet_surface *popup,
			   struct garnet_surface *parent);
	enum garnet_layer_id (*popup_layer)(struct garnet_compositor *c,
					    struct garnet_surface *parent);

	/* ---- windows (protocols/xdg-*.c, core/placement.c, core/output.c) ---- */
	/* An output went away: windows left outside every output come back onto one. */
	void (*output_removed)(struct garnet_shell *shell);
	void (*toplevel_map)(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
	void (*toplevel_unmap)(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
	void (*toplevel_commit)(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
	void (*request_move)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			     uint32_t serial);
	void (*request_resize)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			       uint32_t serial, uint32_t edges);
	void (*set_maximized)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			      bool maximized);
	void (*set_fullscreen)(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			       bool fullscreen, struct garnet_output *output);
	void (*set_minimized)(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
	struct garnet_toplevel *(*toplevel_for_surface)(struct garnet_shell *shell,
							struct garnet_surface *surface);
	void (*move_toplevel)(struct garnet_shell *shell, struct garnet_surface *surface, int32_t x,
			      int32_t y);

	/* ---- layer surfaces (protocols/layer-shell.c) ---- */
	/* Exclusive zones changed what output leaves for windows: maximized ones fit again. */
	void (*usable_area_changed)(struct garnet_shell *shell, struct garnet_output *output);
	/* A layer surface was shown or hidden, or changed what it wants of the keyboard. */
	void (*layer_keyboard_changed)(struct garnet_shell *shell, struct garnet_surface *surface);
};

#endif
