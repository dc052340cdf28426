/* SPDX-License-Identifier: MIT */
/*
 * Waiting for an X server's replies with a bound (x-reply.c). Any X client of a domain may
 * grab its server (XGrabServer), which then answers no one else, garnet's window manager
 * included: garnet must go on serving every other client, so it never waits for a reply
 * without a deadline.
 */
#ifndef GARNET_XWAYLAND_X_REPLY_H
#define GARNET_XWAYLAND_X_REPLY_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

/* How long the window manager's set-up waits for its server in all. */
#define XWL_SETUP_WAIT_MS 2000

/* CLOCK_MONOTONIC, in milliseconds. */
int64_t xwl_now_ms(void);
/* The reply to the request of sequence (free it), or NULL on an error, a broken connection or
 * when deadline (xwl_now_ms) passed first; then the reply is discarded when it comes. Events
 * read meanwhile wait in xcb's queue. */
void *xwl_reply_by(xcb_connection_t *conn, unsigned int sequence, int64_t deadline);
/* Whether the server answered every request sent so far within ms: then the replies to all of
 * them are in, and xcb's blocking *_reply calls (and xcb_get_extension_data for extensions
 * prefetched before) return at once. */
bool xwl_replies_arrived(xcb_connection_t *conn, int ms);

#endif
