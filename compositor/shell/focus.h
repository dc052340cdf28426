/* SPDX-License-Identifier: MIT */
/* The focus authority (shell layer, shell/focus.c): the only code that moves the keyboard
 * between windows, starts popup grabs and decides the stacking of windows and popups. */
#ifndef GARNET_FOCUS_H
#define GARNET_FOCUS_H

#include "../core/compositor.h"
#include "../core/shell-hooks.h"

struct garnet_toplevel;

/* A toplevel mapped: it takes the keyboard if its client holds it already or nothing holds
 * it; from another client only with the raise-focus permission and either a valid token shown
 * shortly before or a focused window the user has pressed nothing in since it got the
 * keyboard. Otherwise it maps unfocused and demands attention. */
void garnet_focus_toplevel_mapped(struct garnet_shell *shell, struct garnet_toplevel *tl);
/* tl was unmapped or minimized: if it had the keyboard, the next window takes it. */
void garnet_focus_toplevel_hidden(struct garnet_shell *shell, struct garnet_toplevel *tl);
/* The next mapped, unminimized window in focus order other than except, or none. */
void garnet_focus_next(struct garnet_shell *shell, struct garnet_toplevel *except);
/* A valid activation token, held by client, was shown for tl: it takes the keyboard (at its
 * map, if within timeout_ms, when it is not mapped yet). False when raise-focus is denied. */
bool garnet_focus_activate(struct garnet_shell *shell, struct garnet_toplevel *tl,
			   struct wl_client *client, uint32_t timeout_ms);
/* Does client hold the keyboard focus now? */
bool garnet_focus_client_holds_keyboard(struct garnet_compositor *c, struct wl_client *client);
/* A task bar's request for toplevel, as the user's choice (shell/taskbar.c); refused while
 * the lock, garnet's lock screen or the consent dialog is up. */
bool garnet_focus_taskbar_request(struct garnet_shell *shell, struct garnet_toplevel *tl,
				  enum garnet_taskbar_request request, struct garnet_output *output,
				  struct wl_client *client);
/* Does the lock, garnet's lock screen or its consent dialog hold the keyboard? */
bool garnet_focus_lock_or_dialog_holds_keyboard(struct garnet_compositor *c);
/* May client set this toplevel fullscreen (libwmac's fullscreen permission)? */
bool garnet_focus_may_fullscreen(struct garnet_compositor *c, struct wl_client *client,
				 struct garnet_output *output);

/* May client's popup grab with serial, on a popup whose parent is parent (mapped or not)?
 * Only with a press garnet sent to client, while client holds the keyboard and the parent is
 * mapped; a refusal is logged. */
bool garnet_focus_popup_grab_allowed(struct garnet_compositor *c, struct wl_client *client,
				     uint32_t serial, struct garnet_surface *parent,
				     bool parent_mapped);
/* A grabbing popup mapped: it takes the keyboard if its client still holds it. */
void garnet_focus_popup_mapped(struct garnet_compositor *c, struct garnet_surface *popup);
/* A grabbing popup went away: the keyboard, if it was on the popup (or nowhere), returns to
 * its parent. */
void garnet_focus_popup_gone(struct garnet_compositor *c, struct garnet_surface *popup,
			     struct garnet_surface *parent);
/* The layer a popup of this parent is drawn in: its window's, never above another
 * client's fullscreen window or the lock. */
enum garnet_layer_id garnet_focus_popup_layer(struct garnet_compositor *c,
					      struct garnet_surface *parent);

/* A layer surface was shown or hidden, or changed what it wants of the keyboard: the topmost
 * one holding it exclusively (top and overlay layers, allowed by the policy) takes it; one that
 * loses it gives it back to the focused window. Never while the lock, garnet's lock screen or
 * the consent dialog has the keyboard: they give it back when they end. */
void garnet_focus_layer_keyboard_changed(struct garnet_shell *shell,
					 struct garnet_surface *surface);

/* garnet's own lock screen or consent dialog let the keyboard go: the focused window gets it
 * back, entered anew. */
void garnet_focus_return_keyboard(struct garnet_shell *shell);
/* The first lock surface shown takes the keyboard: the user types the password there. */
void garnet_focus_lock_surface(struct garnet_shell *shell, struct garnet_surface *surface);
/* The test protocol's focus request: a window as a click would, any other surface directly. */
void garnet_focus_surface(struct garnet_shell *shell, struct garnet_surface *surface);

#endif
