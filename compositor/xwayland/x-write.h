/* SPDX-License-Identifier: MIT */
/*
 * Writing to an X server with a bound (x-write.c). xcb writes block: a server that stops
 * reading (stopped with SIGSTOP by any process of the user, or hung) fills its socket, and the
 * next write would hold garnet, and every other client with it, for as long as the server
 * sleeps. Each write garnet makes is guarded instead: one blocked for XWL_WRITE_WAIT_MS cuts
 * the connection (its socket is shut down), xcb sees it broken, and the domain ends as if its
 * server had crashed.
 */
#ifndef GARNET_XWAYLAND_X_WRITE_H
#define GARNET_XWAYLAND_X_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <xcb/xcb.h>

#define XWL_WRITE_WAIT_MS 2000

/* Between these, a write on conn that takes longer than XWL_WRITE_WAIT_MS cuts conn: around
 * a request that may be written at once (one larger than xcb's buffer), or around work that
 * makes many requests. They nest; each begin, and each end of an inner pair, restarts the
 * deadline. Called from one thread only. */
void xwl_write_begin(xcb_connection_t *conn);
void xwl_write_end(void);
/* xcb_flush under the guard: false when conn is broken (cut now or before). */
bool xwl_flush(xcb_connection_t *conn);
/* Whether conn is the connection the guard cut last (for the log: why a domain ended). */
bool xwl_write_was_cut(xcb_connection_t *conn);
/* Connections cut so far (for tests). */
uint64_t xwl_write_cuts(void);

#endif
