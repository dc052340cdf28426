/* SPDX-License-Identifier: MIT */
/* The clipboard and primary selection between one domain's X server and Wayland
 * (selection.c), under the focus rule Wayland clients have. */
#ifndef GARNET_XWAYLAND_SELECTION_H
#define GARNET_XWAYLAND_SELECTION_H

#include <stdbool.h>
#include <xcb/xcb.h>

struct garnet_xwayland_domain;
struct xwm_selections;

/* Starts bridging on the window manager's connection; NULL (logged) when the server lacks
 * XFixes, and then no selection passes either way. */
struct xwm_selections *xwm_selections_create(struct garnet_xwayland_domain *d,
					     xcb_connection_t *conn, xcb_screen_t *screen);
/* Ends every transfer; an X selection offered to Wayland goes with it. NULL is a no-op. */
void xwm_selections_destroy(struct xwm_selections *s);
/* True when ev was a selection event (taken): the window manager then ignores it. */
bool xwm_selections_handle_event(struct xwm_selections *s, xcb_generic_event_t *ev);

#endif
