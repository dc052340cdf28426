/* SPDX-License-Identifier: MIT */
/* Clients garnet made itself to be X servers (an Xwayland for each X11 domain,
 * xwayland/server.c), marked when made: such a client speaks for every X client of its domain,
 * so core never lets it see or bind a privileged global, whatever the policy says. */
#ifndef GARNET_CORE_X_SERVER_CLIENT_H
#define GARNET_CORE_X_SERVER_CLIENT_H

#include <stdbool.h>

struct wl_client;

/* false when out of memory: the caller must not let the client run. */
bool garnet_client_mark_x_server(struct wl_client *client);
bool garnet_client_is_x_server(const struct wl_client *client);

#endif
