/* SPDX-License-Identifier: MIT */
/* _NET_WM_STATE fullscreen and maximize of managed X windows (wm-state.c). */
#ifndef GARNET_XWAYLAND_WM_STATE_H
#define GARNET_XWAYLAND_WM_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#include "../core/compositor.h"
#include "../protocols/toplevel.h"

struct xwm_state_atoms {
	xcb_atom_t state, fullscreen, maximized_vert, maximized_horz;
};

bool xwm_state_atoms_init(struct xwm_state_atoms *atoms, xcb_connection_t *conn);
/* A _NET_WM_STATE client message (its data) for tl, a shown managed window of server's
 * domain: fullscreen and maximize go to the shell, which configures tl. */
void xwm_state_request(const struct xwm_state_atoms *atoms, struct garnet_compositor *c,
		       struct wl_client *server, struct garnet_toplevel *tl,
		       const uint32_t data[5]);
/* Adds the states to the root's _NET_SUPPORTED: clients (xterm) ask only what is listed. */
void xwm_state_announce(const struct xwm_state_atoms *atoms, xcb_connection_t *conn,
			xcb_window_t root);
/* What a window's _NET_WM_STATE property (a GetProperty reply of XCB_ATOM_ATOM, or NULL) asks
 * for: XWM_STATE_* bits. It is read when the window asks to be mapped, before garnet's own
 * answers (xwm_state_publish) replace it. */
enum { XWM_STATE_FULLSCREEN = 1, XWM_STATE_MAXIMIZED = 2 };
unsigned int xwm_state_parse(const struct xwm_state_atoms *atoms,
			     const xcb_get_property_reply_t *reply);
/* wanted (XWM_STATE_* bits) after a _NET_WM_STATE client message (its data) of a window not
 * shown yet: X clients (xterm -fullscreen) send it right after mapping. */
unsigned int xwm_state_update(const struct xwm_state_atoms *atoms, unsigned int wanted,
			      const uint32_t data[5]);
/* The states (XWM_STATE_* bits) a window asked for before it was shown, once it is. */
void xwm_state_initial(const struct xwm_state_atoms *atoms, struct garnet_compositor *c,
		       struct wl_client *server, struct garnet_toplevel *tl, unsigned int wanted);
/* Sets window's _NET_WM_STATE to what garnet made of tl. */
void xwm_state_publish(const struct xwm_state_atoms *atoms, xcb_connection_t *conn,
		       xcb_window_t window, const struct garnet_toplevel *tl);

#endif
