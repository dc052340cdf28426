// SPDX-License-Identifier: MIT
// The focus authority: who gets the keyboard, which popup may grab, what is stacked where.
// Focus moves on user input (a click, a binding), on a new window only when its client holds
// the keyboard already or shows a valid activation token, and to a popup only with the serial
// of a press its client was sent. Everything else maps unfocused and asks for attention.
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "../core/seat.h"
#include "../core/consent.h"
#include "../core/lock-prompt.h"
#include "../protocols/toplevel.h"
#include "../protocols/xdg-shell.h"
#include "focus.h"
#include "../protocols/layer-shell.h"
#include "shell-private.h"

static struct wl_client *client_of(struct garnet_surface *surface)
{
	return surface ? wl_resource_get_client(surface->resource) : NULL;
}

static void describe(struct wl_client *client, char *buf, size_t size)
{
	pid_t pid = 0;

	wl_client_get_credentials(client, &pid, NULL, NULL);
	snprintf(buf, size, "pid %d", (int)pid);
}

/* libwmac's raise-focus: taking the keyboard without the user pointing at the window. */
static bool may_raise_focus(struct garnet_compositor *c, struct wl_client *client)
{
	return !c->hooks.raise_focus || c->hooks.raise_focus(c->hooks.data, client);
}

bool garnet_focus_client_holds_keyboard(struct garnet_compositor *c, struct wl_client *client)
{
	return client && client_of(c->seat->keyboard_focus) == client;
}

bool garnet_focus_may_fullscreen(struct garnet_compositor *c, struct wl_client *client,
				 struct garnet_output *output)
{
	return !c->hooks.fullscreen ||
	       c->hooks.fullscreen(c->hooks.data, client, output ? output->name : NULL);
}

static void set_activated(struct garnet_toplevel *tl, bool activated)
{
	if (tl->activated == activated)
		return;
	tl->activated = activated;
	if (tl->mapped)
		garnet_shell_configure(tl);
}

/* The lock, garnet's lock screen or its consent dialog holds the keyboard: nothing else may
 * take it, and each gives it back (return_keyboard) when it ends. */
static bool lock_or_dialog_holds_keyboard(struct garnet_compositor *c)
{
	return c->locked || garnet_lock_prompt_active(c) || garnet_consent_active(c);
}

/* Where the keyboard goes when the window focus says surface: to a layer surface that holds
 * it exclusively, if one is shown. */
static struct garnet_surface *keyboard_target(struct garnet_compositor *c,
					      struct garnet_surface *surface)
{
	struct garnet_surface *exclusive = garnet_layer_shell_exclusive(c);

	return exclusive ? exclusive : surface;
}

static enum garnet_layer_id toplevel_layer(struct garnet_toplevel *tl)
{
	return tl->fullscreen ? GARNET_LAYER_FULLSCREEN : GARNET_LAYER_NORMAL;
}

void garnet_shell_focus(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_seat *seat = shell->compositor->seat;

	/* An unmapped toplevel is on no list and in no layer; it waits for its map. */
	if (tl && !tl->mapped)
		return;
	/* tinywl's order: deactivate the old, raise and activate the new, then keyboard enter
	 * (which carries the held keys and modifiers). */
	if (shell->focused && shell->focused != tl)
		set_activated(shell->focused, false);
	if (shell->focused != tl)
		shell->presses_at_focus = seat->input_serial_next;
	shell->focused = tl;
	if (!tl) {
		garnet_seat_set_keyboard_focus(seat, keyboard_target(shell->compositor, NULL));
		return;
	}
	tl->demands_attention = false;
	tl->activate_on_map = false;
	wl_list_remove(&tl->link);
	wl_list_insert(&shell->toplevels, &tl->link);
	if (tl->minimized) {
		tl->minimized = false;
		garnet_view_raise(&tl->view, toplevel_layer(tl));
	} else if (tl->view.in_layer) {
		garnet_view_raise(&tl->view, tl->view.layer);
	}
	/* Popups stay with their window, in its layer. */
	garnet_xdg_raise_popups(tl->surface, tl->view.layer);
	set_activated(tl, true);
	garnet_seat_set_keyboard_focus(seat, keyboard_target(shell->compositor, tl->surface));
	garnet_xdg_ping(tl->surface);
}

static void shell_refocus(struct garnet_shell *shell)
{
	garnet_shell_focus(shell, shell->focused);
}

void garnet_focus_next(struct garnet_shell *shell, struct garnet_toplevel *except)
{
	struct garnet_toplevel *tl;

	wl_list_for_each(tl, &shell->toplevels, link) {
		if (tl != except && tl->mapped && !tl->minimized) {
			garnet_shell_focus(shell, tl);
			return;
		}
	}
	garnet_shell_focus(shell, NULL);
}

void garnet_focus_toplevel_hidden(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	if (shell->focused != tl)
		return;
	set_activated(tl, false);
	shell->focused = NULL;
	garnet_focus_next(shell, tl);
}

/* A click or touch: the user chose the window, or a layer surface that takes the keyboard on
 * demand (a launcher's search field). A window clicked while such a surface has the keyboard
 * takes it back. */
void garnet_shell_handle_click(struct garnet_shell *shell, struct garnet_surface *surface)
{
	struct garnet_compositor *c = shell->compositor;
	struct garnet_surface *root = surface ? garnet_xdg_root_surface(surface) : NULL;
	struct garnet_surface *focus_root = c->seat->keyboard_focus
						    ? garnet_xdg_root_surface(c->seat->keyboard_focus)
						    : NULL;
	struct garnet_toplevel *tl = surface ? garnet_shell_toplevel_for_surface(shell, surface)
					     : NULL;
	enum garnet_layer_keyboard keyboard;
	enum garnet_layer_id layer;

	if (root && garnet_layer_surface_info(root, &layer, &keyboard)) {
		if (keyboard != GARNET_LAYER_KEYBOARD_NONE && !lock_or_dialog_holds_keyboard(c) &&
		    focus_root != root)
			garnet_seat_set_keyboard_focus(c->seat, keyboard_target(c, root));
		return;
	}
	if (tl && (tl != shell->focused ||
		   (focus_root && garnet_layer_surface_info(focus_root, &layer, &keyboard))))
		garnet_shell_focus(shell, tl);
}

/* The rule a new window follows, for a layer surface that takes the keyboard on demand: at
 * once when nothing has it or its own client has it; from another client only with
 * raise-focus and while nobody has pressed anything in the focused window since it got the
 * keyboard (nobody is typing into it). */
static bool may_take_keyboard(struct garnet_shell *shell, struct wl_client *client)
{
	struct garnet_compositor *c = shell->compositor;
	struct garnet_surface *focus = c->seat->keyboard_focus;

	if ((!focus && !shell->focused) || garnet_focus_client_holds_keyboard(c, client))
		return true;
	return may_raise_focus(c, client) && shell->focused && focus == shell->focused->surface &&
	       c->seat->input_serial_next == shell->presses_at_focus;
}

void garnet_focus_layer_keyboard_changed(struct garnet_shell *shell,
					 struct garnet_surface *surface)
{
	struct garnet_compositor *c = shell->compositor;
	struct garnet_surface *exclusive = garnet_layer_shell_exclusive(c);
	struct garnet_surface *focus = c->seat->keyboard_focus;
	struct garnet_surface *focus_root = focus ? garnet_xdg_root_surface(focus) : NULL;
	enum garnet_layer_keyboard keyboard;
	enum garnet_layer_id layer;

	if (lock_or_dialog_holds_keyboard(c))
		return;
	if (exclusive) {
		if (focus_root != exclusive)
			garnet_seat_set_keyboard_focus(c->seat, exclusive);
		return;
	}
	if (!garnet_layer_surface_info(surface, &layer, &keyboard) ||
	    keyboard == GARNET_LAYER_KEYBOARD_NONE) {
		/* The keyboard was on a layer surface that may no longer have it: back to the
		 * window. */
		if (focus_root == surface)
			shell_refocus(shell);
		return;
	}
	/* Shown above the windows and wanting the keyboard on demand (a launcher): as a new
	 * window would take it. */
	if (layer >= GARNET_LAYER_TOP && focus_root != surface &&
	    may_take_keyboard(shell, client_of(surface)))
		garnet_seat_set_keyboard_focus(c->seat, surface);
}

void garnet_focus_toplevel_mapped(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_compositor *c = shell->compositor;
	struct wl_client *client = client_of(tl->surface);
	struct garnet_surface *focus = c->seat->keyboard_focus;
	bool activated = tl->activate_on_map &&
			 (int32_t)(tl->activate_deadline_msec - garnet_now_msec(c)) >= 0;
	bool take;
	char who[64];

	tl->activate_on_map = false;
	garnet_view_raise(&tl->view, toplevel_layer(tl));
	/* Nothing to take away when no window has the keyboard or the client's own window has
	 * it (a dialog, a second window follows the one the user is typing into). */
	if ((!focus && !shell->focused) || garnet_focus_client_holds_keyboard(c, client)) {
		garnet_shell_focus(shell, tl);
		return;
	}
	/* Taking it from another client needs raise-focus, and either a token shown shortly
	 * before, or a focused window the user has not pressed a key or button in since it got
	 * the keyboard (nobody is typing into it). */
	take = activated || (shell->focused && focus == shell->focused->surface &&
			     c->seat->input_serial_next == shell->presses_at_focus);
	if (take && may_raise_focus(c, client)) {
		garnet_shell_focus(shell, tl);
		return;
	}
	tl->demands_attention = true;
	describe(client, who, sizeof(who));
	garnet_log(c, GARNET_LOG_INFO, "focus",
		   "%s mapped a window without the keyboard: it demands attention", who);
}

bool garnet_focus_activate(struct garnet_shell *shell, struct garnet_toplevel *tl,
			   struct wl_client *client, uint32_t timeout_ms)
{
	struct garnet_compositor *c = shell->compositor;

	if (!may_raise_focus(c, client_of(tl->surface)))
		return false;
	if (!tl->mapped) {
		tl->activate_on_map = true;
		tl->activate_deadline_msec = garnet_now_msec(c) + timeout_ms;
		return true;
	}
	garnet_shell_focus(shell, tl);
	return true;
}

bool garnet_focus_popup_grab_allowed(struct garnet_compositor *c, struct wl_client *client,
				     uint32_t serial, struct garnet_surface *parent,
				     bool parent_mapped)
{
	const char *why = NULL;
	char who[64];

	if (!parent || !parent_mapped)
		why = "its parent is not mapped";
	else if (!garnet_focus_client_holds_keyboard(c, client))
		why = "its client does not have the keyboard";
	else if (!garnet_seat_input_serial_valid(c->seat, client, serial))
		why = "the serial is not that of a recent press sent to its client";
	if (!why)
		return true;
	describe(client, who, sizeof(who));
	garnet_log(c, GARNET_LOG_INFO, "focus", "denied: popup grab by %s (serial %u): %s", who,
		   serial, why);
	return false;
}

void garnet_focus_popup_mapped(struct garnet_compositor *c, struct garnet_surface *popup)
{
	/* The user may have clicked elsewhere between the grab and the popup's first frame. */
	if (garnet_focus_client_holds_keyboard(c, client_of(popup)))
		garnet_seat_set_keyboard_focus(c->seat, popup);
}

void garnet_focus_popup_gone(struct garnet_compositor *c, struct garnet_surface *popup,
			     struct garnet_surface *parent)
{
	struct garnet_surface *focus = c->seat->keyboard_focus;

	if (parent && (focus == popup || (!focus && c->shell->focused &&
					  client_of(c->shell->focused->surface) ==
						  client_of(parent))))
		garnet_seat_set_keyboard_focus(c->seat, parent);
}

enum garnet_layer_id garnet_focus_popup_layer(struct garnet_compositor *c,
					      struct garnet_surface *parent)
{
	struct garnet_toplevel *tl = parent ? garnet_shell_toplevel_for_surface(c->shell, parent)
					    : NULL;
	struct garnet_surface *root = parent ? garnet_xdg_root_surface(parent) : NULL;
	enum garnet_layer_keyboard keyboard;
	enum garnet_layer_id layer;

	/* A panel's menu opens over the windows even when the panel is below them. */
	if (root && garnet_layer_surface_info(root, &layer, &keyboard))
		return layer < GARNET_LAYER_TOP ? GARNET_LAYER_TOP : layer;
	return tl && tl->view.in_layer ? tl->view.layer : GARNET_LAYER_NORMAL;
}

void garnet_focus_return_keyboard(struct garnet_shell *shell)
{
	/* Cleared first, so that the window is entered anew even if the keyboard was on it. */
	garnet_seat_set_keyboard_focus(shell->compositor->seat, NULL);
	shell_refocus(shell);
}

void garnet_focus_lock_surface(struct garnet_shell *shell, struct garnet_surface *surface)
{
	garnet_seat_set_keyboard_focus(shell->compositor->seat, surface);
}

void garnet_focus_surface(struct garnet_shell *shell, struct garnet_surface *surface)
{
	struct garnet_toplevel *toplevel =
		surface ? garnet_shell_toplevel_for_surface(shell, surface) : NULL;

	if (toplevel)
		garnet_shell_focus(shell, toplevel);
	else
		garnet_seat_set_keyboard_focus(shell->compositor->seat, surface);
}

bool garnet_focus_lock_or_dialog_holds_keyboard(struct garnet_compositor *c)
{
	return lock_or_dialog_holds_keyboard(c);
}
