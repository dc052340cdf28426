/* SPDX-License-Identifier: MIT */
/* A view (core layer): a root surface placed in one of the compositor's layers, and the scene
 * those layers make, walked top to bottom. */
#ifndef GARNET_CORE_VIEW_H
#define GARNET_CORE_VIEW_H

#include "compositor.h"

struct garnet_view {
	struct garnet_compositor *compositor;
	struct garnet_surface *surface;
	struct wl_list layer_link;
	enum garnet_layer_id layer;
	int32_t x, y;
	bool in_layer;
};
void garnet_view_init(struct garnet_view *view, struct garnet_surface *surface);
void garnet_view_finish(struct garnet_view *view);
/* Puts the view on top of layer (or moves it there) and damages what changed. */
void garnet_view_raise(struct garnet_view *view, enum garnet_layer_id layer);
void garnet_view_remove(struct garnet_view *view);
void garnet_view_move(struct garnet_view *view, int32_t x, int32_t y);

/* Visits the scene top to bottom: every mapped surface with its global position. Return false
 * from the callback to stop. */
typedef bool (*garnet_scene_iter_fn)(struct garnet_surface *surface, int32_t x, int32_t y,
				     void *data);
void garnet_scene_for_each_surface(struct garnet_compositor *c, garnet_scene_iter_fn fn,
				   void *data);
void garnet_surface_for_each_in_tree(struct garnet_surface *surface, int32_t x, int32_t y,
				     garnet_scene_iter_fn fn, void *data);
/* Topmost surface accepting input at a global point, and the surface-local point. */
struct garnet_surface *garnet_scene_surface_at(struct garnet_compositor *c, double x, double y,
					       double *sx, double *sy);

#endif
