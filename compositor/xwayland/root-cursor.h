/* SPDX-License-Identifier: MIT */
/* The cursor X shows over windows that define none of their own (root-cursor.c). */
#ifndef GARNET_XWAYLAND_ROOT_CURSOR_H
#define GARNET_XWAYLAND_ROOT_CURSOR_H

#include <xcb/xcb.h>

/* Gives the root window the arrow of X's cursor font. Windows inherit the root's cursor, and
 * X's own default for the root is a large "X": without this, that is what Xwayland hands garnet
 * as the pointer's image over xeyes, xclock or any client that never sets one. */
void xwm_set_root_cursor(xcb_connection_t *conn, const xcb_screen_t *screen);

#endif
