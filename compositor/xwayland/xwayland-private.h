/* SPDX-License-Identifier: MIT */
/* What the X display sockets and server (server.c), the window manager (xwm.c) and the domain
 * protocol (domain-protocol.c) share. */
#ifndef GARNET_XWAYLAND_PRIVATE_H
#define GARNET_XWAYLAND_PRIVATE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <wayland-server-core.h>

#include "garnet/xwayland.h"
#include "../core/compositor.h"

struct xwm;

struct shared_domain {
	char *name;
	char **programs; /* basenames, NULL-terminated */
	struct wl_list link;
};

struct garnet_xwayland {
	struct garnet_compositor *compositor;
	char *xwayland_path;
	char runtime_dir[PATH_MAX]; /* where the cookie files are */
	struct wl_list domains; /* garnet_xwayland_domain.link */
	struct wl_list shared; /* shared_domain.link, from garnet.ini */
	unsigned int next_private;
	int idle_timeout_ms; /* 0: private domains live until garnet exits */
	struct wl_global *global; /* garnet_xwayland_v1 */
	struct wl_listener new_surface;
};

struct garnet_xwayland_domain {
	struct garnet_xwayland *xwl;
	struct wl_list link;
	char *name;
	int number; /* the display's */
	char display[16];
	char lock_path[64], socket_path[64];
	char auth_path[PATH_MAX];
	int listen_fd[2]; /* abstract and path sockets; Xwayland accepts on both */
	struct wl_event_source *listen_source[2]; /* while no server runs */

	/* The running server: its Wayland connection (made by garnet, so this is exactly that
	 * Xwayland), the readiness pipe and the window manager's connection. */
	struct wl_client *client;
	struct wl_listener client_destroy;
	int display_fd;
	struct wl_event_source *ready_source;
	int wm_fd;
	struct xwm *xwm;
	struct timespec started;
	int quick_deaths; /* servers that died within seconds of starting, in a row */

	/* A private domain closes once idle (server.c's idle check); shared ones never. */
	bool private_domain;
	struct wl_event_source *idle_timer;
	struct timespec active; /* when the domain last had an X client, or was made */
	/* The Wayland client that asked for it, while connected: one client gets few. */
	struct wl_client *creator;
	struct wl_listener creator_destroy;
};

/* server.c */
/* The domain whose Xwayland is client, or NULL. */
struct garnet_xwayland_domain *xwayland_domain_of_client(const struct wl_client *client);
/* Is name a shared domain garnet.ini declares? Only those may be joined by name. */
bool xwayland_is_shared_domain(struct garnet_xwayland *xwl, const char *name);
/* The window manager's connection ended while the server runs: the server goes too. */
void xwayland_domain_lost_wm(struct garnet_xwayland_domain *d);
/* The answer to xwm_count_clients: the server's X clients, the manager not counted. */
void xwayland_domain_clients(struct garnet_xwayland_domain *d, int count);
/* Remembers client as the one that asked for d (the per-client limit). */
void xwayland_domain_set_creator(struct garnet_xwayland_domain *d, struct wl_client *client);
/* How many domains client asked for and still has. */
int xwayland_domains_of_creator(struct garnet_xwayland *xwl, struct wl_client *client);

/* xwm.c: the window manager on the server's -wm connection (fd taken). */
struct xwm *xwm_create(struct garnet_xwayland_domain *d, int fd);
void xwm_destroy(struct xwm *xwm);
/* A surface of the domain's Xwayland was created: pair it with its X window if the
 * WL_SURFACE_ID message came first. */
void xwm_new_surface(struct xwm *xwm, struct garnet_surface *surface);
/* Asks the server how many X clients it has; xwayland_domain_clients gets the answer later. */
void xwm_count_clients(struct xwm *xwm);
/* Something read the connection outside the manager's dispatch (a reply awaited): events it
 * read are in xcb's queue, and the socket will not wake the manager for them. */
void xwm_take_queued_events_soon(struct xwm *xwm);

/* domain-protocol.c */
bool xwayland_domain_protocol_init(struct garnet_xwayland *xwl);

#endif
