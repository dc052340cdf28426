/* SPDX-License-Identifier: MIT */
/* Protocol objects of which a surface has at most one (fractional scale, content type, tearing
 * control), made by a manager global's get request: the manager's own error for a second one,
 * told of the surface's commits, inert once the surface is destroyed. Each protocol file keeps
 * only its own requests and state. */
#ifndef GARNET_PROTOCOLS_SURFACE_ADDON_H
#define GARNET_PROTOCOLS_SURFACE_ADDON_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_compositor;
struct garnet_surface;
struct garnet_surface_addon;

struct garnet_surface_addon_kind {
	const struct wl_interface *manager_interface;
	const void *manager_impl;
	const struct wl_interface *interface; /* the per-surface object's */
	const void *impl;
	uint32_t exists_error; /* the manager's error for a surface that has one already */
	size_t size;	       /* of the protocol's struct, which begins with the addon */
	/* Optional: the surface was committed (the addon's pending state becomes current). */
	void (*committed)(struct garnet_surface_addon *addon);
};

struct garnet_surface_addon {
	struct wl_resource *resource;
	struct garnet_surface *surface; /* NULL once the surface is destroyed: inert */
	struct wl_listener surface_destroy, surface_commit;
	struct wl_list link; /* the manager's addons */
	const struct garnet_surface_addon_kind *kind;
};

/* The manager global, its user data the list of live addons, for the compositor's life. */
bool garnet_surface_addon_manager_init(struct garnet_compositor *c,
				       const struct garnet_surface_addon_kind *kind);
/* The manager's get request: the new addon (zeroed beyond its head), or NULL with the
 * protocol's error or no_memory posted. */
struct garnet_surface_addon *garnet_surface_addon_create(struct wl_resource *manager, uint32_t id,
							  struct wl_resource *surface_resource);
#endif
