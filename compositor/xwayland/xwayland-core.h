/* SPDX-License-Identifier: MIT */
/* What core, the shell and the spawner ask of X11 support (xwayland/): X windows' toplevels,
 * which client is an X server, the display a launched program gets. */
#ifndef GARNET_XWAYLAND_CORE_H
#define GARNET_XWAYLAND_CORE_H

#include <stdbool.h>
#include <stddef.h>

struct wl_client;
struct garnet_compositor;
struct garnet_surface;
struct garnet_toplevel;

/* The toplevel of a managed X window's surface; NULL for any other surface, and for
 * override-redirect windows (menus, tooltips), which are no toplevels. */
struct garnet_toplevel *garnet_xwayland_toplevel_from_surface(struct garnet_surface *surface);

/* Is client the Xwayland of a domain? Such a client is never trusted with a privileged
 * global, whatever the policy says. */
bool garnet_xwayland_is_server(const struct wl_client *client);

/* "DISPLAY=..." and "XAUTHORITY=..." for garnet's own launch of command (bindings, panel,
 * autostart): those of the domain garnet.ini puts its program in. False, with nothing set,
 * when X11 support is off or no domain lists the program. */
bool garnet_xwayland_launch_env(struct garnet_compositor *c, const char *command, char *display_var,
				size_t display_size, char *auth_var, size_t auth_size);

#endif
