/* SPDX-License-Identifier: MIT */
/* libgarnet's own view of its objects while they move into a header each (being taken apart). */
#ifndef GARNET_INTERNAL_H
#define GARNET_INTERNAL_H

#include <xkbcommon/xkbcommon.h>

#include "garnet/headless.h"
#include "garnet/output.h"
#include "garnet/seat.h"
#include "coords.h"
#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "subsurface.h"
#include "region.h"
#include "transform.h"
#include "view.h"
#include "seat.h"
#include "data-source.h"
#include "consent.h"
#include "lock-prompt.h"
#include "client-budget.h"
#include "buffer.h"
#include "../render/damage-ring.h"
#include "../render/renderer.h"
#include "../render/consent-dialog.h"

void garnet_capture_complete(struct garnet_output *output);
/* protocols/xdg-activation.c: a token garnet gives a program it starts (XDG_ACTIVATION_TOKEN),
 * in name; false when none can be made. */
bool garnet_activation_mint(struct garnet_compositor *c, char *name, size_t size);
void garnet_seat_set_primary_selection(struct garnet_seat *seat,
				       struct garnet_data_source *source);
void garnet_primary_selection_focus(struct garnet_seat *seat, struct wl_client *client);
/* ---- shell ---- */
struct garnet_shell *garnet_shell_create(struct garnet_compositor *c);
void garnet_shell_destroy(struct garnet_shell *shell);
bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed);
/* The key that triggers a shortcut action (its keysym name in out), or NULL when none does. */
const char *garnet_shell_shortcut_trigger(struct garnet_shell *shell, const char *action,
					  char *out, size_t size);
/* The action's holder (protocols/shortcuts.c) is told; false when nobody holds it. */
bool garnet_shortcut_fire(struct garnet_compositor *c, const char *action, uint32_t time_msec);
void garnet_shell_handle_click(struct garnet_shell *shell, struct garnet_surface *surface);

/* Toplevel window as the shell manages it; xdg-shell fills it in. */
struct garnet_toplevel;
struct garnet_toplevel_impl {
	/* Ask the client for a new size and states (0 size: client decides). */
	void (*configure)(struct garnet_toplevel *toplevel);
	void (*close)(struct garnet_toplevel *toplevel);
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
/* Gives the keyboard back to the focused window (after the session was unlocked). */
void garnet_shell_refocus(struct garnet_shell *shell);
struct garnet_toplevel *garnet_shell_toplevel_for_surface(struct garnet_shell *shell,
							 struct garnet_surface *surface);
void garnet_shell_move_toplevel(struct garnet_shell *shell, struct garnet_surface *surface,
				int32_t x, int32_t y);
/* What an input method composed, for the text input being typed into. NULL strings and zero
 * lengths leave that part out. */
struct garnet_text_edit {
	const char *preedit;
	int32_t preedit_begin, preedit_end;
	const char *commit;
	uint32_t delete_before, delete_after;
};
/* What the input method is told of the text input enabled on the focused surface. */
struct garnet_text_input_info {
	const void *id; /* the same while it is the same text input */
	struct garnet_surface *surface;
	const char *surrounding; /* NULL when the client sent none */
	int32_t cursor, anchor;
	uint32_t change_cause, hint, purpose;
	int32_t rect[4]; /* cursor rectangle, surface-local */
};
/* false when no text input is enabled on the focused surface. */
bool garnet_text_input_current(struct garnet_compositor *c, struct garnet_text_input_info *out);
/* Emitted (data: the compositor) when the enabled text input or its state changes. */
struct wl_signal *garnet_text_input_changed(struct garnet_compositor *c);
/* Sends the edit, then done, to the text input enabled on the surface with the keyboard
 * focus; false when there is none (nothing is sent). */
bool garnet_text_input_deliver(struct garnet_compositor *c, const struct garnet_text_edit *edit);
bool garnet_shm_init(struct garnet_compositor *c);
bool garnet_test_protocol_init(struct garnet_compositor *c);
bool garnet_presentation_init(struct garnet_compositor *c);
bool garnet_viewporter_init(struct garnet_compositor *c);
bool garnet_xdg_shell_init(struct garnet_compositor *c);
void garnet_xdg_ping(struct garnet_surface *surface);
/* The surface a subsurface or popup ultimately belongs to. */
struct garnet_surface *garnet_xdg_root_surface(struct garnet_surface *surface);
/* Raises the shown popups of surface (and theirs) into layer, above it, after the window itself
 * was raised. */
void garnet_xdg_raise_popups(struct garnet_surface *surface, enum garnet_layer_id layer);
struct garnet_toplevel *garnet_xdg_toplevel_from_surface(struct garnet_surface *surface);
struct garnet_toplevel *garnet_xdg_toplevel_from_resource(struct wl_resource *toplevel);
bool garnet_xdg_decoration_init(struct garnet_compositor *c);
bool garnet_xdg_output_init(struct garnet_compositor *c);
bool garnet_primary_selection_init(struct garnet_compositor *c);
bool garnet_single_pixel_buffer_init(struct garnet_compositor *c);
bool garnet_screencopy_init(struct garnet_compositor *c);
bool garnet_session_lock_init(struct garnet_compositor *c);
/* Ends the lock (garnet's own lock screen accepted the password): the session shows again. */
void garnet_session_lock_release(struct garnet_compositor *c);
bool garnet_virtual_keyboard_init(struct garnet_compositor *c);
bool garnet_data_control_init(struct garnet_compositor *c);
bool garnet_security_context_init(struct garnet_compositor *c);
/* Closes every sandbox listener (before the loop goes). */
void garnet_security_context_finish(struct garnet_compositor *c);
/* True for clients accepted on a sandbox engine's socket (security-context-v1). */
bool garnet_client_is_sandboxed(const struct wl_client *client);
/* The clipboard (or primary selection) changed: clipboard managers hear of it. */
void garnet_data_control_selection_changed(struct garnet_seat *seat,
					   enum garnet_selection_kind kind);
/* True for the surfaces of ext-session-lock: the only ones shown while locked. */
bool garnet_session_lock_owns(struct garnet_surface *surface);
bool garnet_single_pixel_buffer_get(struct wl_resource *buffer, uint32_t rgba[4]);

#endif
