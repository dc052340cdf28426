/* SPDX-License-Identifier: MIT */
/* X11 applications through Xwayland, one X server per security domain (doc/xwayland.md). */
#ifndef GARNET_XWAYLAND_H
#define GARNET_XWAYLAND_H

#include <stdbool.h>
#include "garnet/compositor.h"

struct garnet_xwayland;
struct garnet_xwayland_domain;

/* Turns X11 support on: domains can be made, each with its own display, and the
 * garnet_xwayland_v1 global lets a client (garnet-x11) ask for one. xwayland_path is the
 * Xwayland executable. NULL on failure (logged). */
GARNET_EXPORT struct garnet_xwayland *garnet_xwayland_create(struct garnet_compositor *c,
							     const char *xwayland_path);
/* Declares a shared domain from garnet.ini: programs (basenames, NULL-terminated) launched by
 * garnet share its X server. Only garnet's own launches and clients the security layer
 * allows (garnet.xwayland-domain) may join it. */
GARNET_EXPORT bool garnet_xwayland_declare_domain(struct garnet_xwayland *xwl, const char *name,
						  const char *const *programs);
/* The domain for name (made, with its display, if it does not exist yet); name NULL or
 * empty: a new private domain named after program. NULL on failure (logged). */
GARNET_EXPORT struct garnet_xwayland_domain *
garnet_xwayland_domain_get(struct garnet_xwayland *xwl, const char *name, const char *program);
/* A private domain whose server has had no X client for this long (and one whose display was
 * never used) is closed: its server stopped, its display number and cookie freed. 0: never.
 * Shared domains are never closed. The default is 60 seconds. */
GARNET_EXPORT void garnet_xwayland_set_idle_timeout(struct garnet_xwayland *xwl, int seconds);
/* ":N" */
GARNET_EXPORT const char *garnet_xwayland_domain_display(struct garnet_xwayland_domain *d);
/* The XAUTHORITY file holding the domain's cookie. */
GARNET_EXPORT const char *garnet_xwayland_domain_authority(struct garnet_xwayland_domain *d);
GARNET_EXPORT const char *garnet_xwayland_domain_name(struct garnet_xwayland_domain *d);

/* Stops every X server and removes the sockets, lock and cookie files. NULL is a no-op. */
GARNET_EXPORT void garnet_xwayland_destroy(struct garnet_xwayland *xwl);

#endif
