/* SPDX-License-Identifier: MIT */
/* A subsurface (core layer): wl_subsurface, the stacking node of a surface's children and the
 * cached state of a synchronized child. wl_subcompositor's global is made in subsurface.c. */
#ifndef GARNET_CORE_SUBSURFACE_H
#define GARNET_CORE_SUBSURFACE_H

#include "surface.h"

struct garnet_subsurface {
	struct wl_resource *resource; /* NULL for a surface's own node */
	struct garnet_surface *surface, *parent;
	struct wl_list parent_link, parent_link_pending;
	struct wl_listener parent_destroy, surface_destroy;
	int32_t x, y;
	bool position_pending;
	int32_t pending_x, pending_y;
	bool synchronized;
	bool has_cache;
	struct garnet_surface_state cached;
};
bool garnet_subsurface_is_synchronized(struct garnet_subsurface *sub);
/* The parent committed: apply cached state of synchronized children, restack. */
void garnet_subsurface_parent_commit(struct garnet_surface *parent);
void garnet_subsurface_destroy_node(struct garnet_subsurface *sub);
bool garnet_subcompositor_init(struct garnet_compositor *c);

#endif
