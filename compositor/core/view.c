// SPDX-License-Identifier: MIT
// Views and layers: where root surfaces sit in the scene, and walking the scene in order.
#include "coords.h"
#include "compositor.h"
#include "surface.h"
#include "subsurface.h"
#include "view.h"
#include "seat.h"

void garnet_view_init(struct garnet_view *view, struct garnet_surface *surface)
{
	*view = (struct garnet_view){.compositor = surface->compositor, .surface = surface};
	wl_list_init(&view->layer_link);
}

void garnet_view_finish(struct garnet_view *view)
{
	garnet_view_remove(view);
}

void garnet_view_raise(struct garnet_view *view, enum garnet_layer_id layer)
{
	if (view->in_layer)
		wl_list_remove(&view->layer_link);
	view->layer = layer;
	view->in_layer = true;
	wl_list_insert(&view->compositor->layers[layer], &view->layer_link);
	garnet_surface_damage_tree(view->surface);
	garnet_surface_update_outputs(view->surface);
	garnet_seat_repick(view->compositor->seat);
}

void garnet_view_remove(struct garnet_view *view)
{
	if (!view->in_layer)
		return;
	garnet_surface_damage_tree(view->surface);
	garnet_list_unlink(&view->layer_link);
	view->in_layer = false;
	garnet_surface_update_outputs(view->surface);
	garnet_seat_repick(view->compositor->seat);
}

void garnet_view_move(struct garnet_view *view, int32_t x, int32_t y)
{
	/* Offsets add up commit after commit: the window stays inside the coordinate range. */
	x = garnet_coord_clamp(x);
	y = garnet_coord_clamp(y);
	if (view->x == x && view->y == y)
		return;
	garnet_surface_damage_tree(view->surface);
	view->x = x;
	view->y = y;
	garnet_surface_damage_tree(view->surface);
	garnet_surface_update_outputs(view->surface);
	garnet_seat_repick(view->compositor->seat);
}

void garnet_surface_for_each_in_tree(struct garnet_surface *surface, int32_t x, int32_t y,
				     garnet_scene_iter_fn fn, void *data)
{
	struct garnet_subsurface *sub;

	if (!garnet_surface_is_mapped(surface))
		return;
	if (wl_list_empty(&surface->children)) {
		fn(surface, x, y, data);
		return;
	}
	/* The stacking list runs bottom to top and holds the surface's own node. */
	wl_list_for_each_reverse(sub, &surface->children, parent_link) {
		if (sub->surface == surface)
			fn(surface, x, y, data);
		else
			garnet_surface_for_each_in_tree(
				sub->surface, garnet_coord_clamp((int64_t)x + sub->x),
				garnet_coord_clamp((int64_t)y + sub->y), fn, data);
	}
}

struct stop_wrapper {
	garnet_scene_iter_fn fn;
	void *data;
	bool stopped;
};

static bool stop_aware(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct stop_wrapper *w = data;

	if (w->stopped)
		return false;
	if (!w->fn(surface, x, y, w->data))
		w->stopped = true;
	return !w->stopped;
}

void garnet_scene_for_each_surface(struct garnet_compositor *c, garnet_scene_iter_fn fn,
				   void *data)
{
	struct stop_wrapper w = {fn, data, false};
	struct garnet_view *view;

	/* While the session is locked the scene is the lock layer alone: nothing else is drawn,
	 * picked for input or sent frame events. */
	int bottom = c->locked ? GARNET_LAYER_LOCK : 0;

	for (int layer = GARNET_LAYER_COUNT - 1; layer >= bottom && !w.stopped; layer--) {
		wl_list_for_each(view, &c->layers[layer], layer_link) {
			int32_t x = view->x, y = view->y;

			/* The role knows where its surface is (a popup follows its parent). */
			garnet_surface_position(view->surface, &x, &y);
			garnet_surface_for_each_in_tree(view->surface, x, y, stop_aware, &w);
			if (w.stopped)
				break;
		}
	}
}

struct pick {
	double x, y, sx, sy;
	struct garnet_surface *found;
};

static bool pick_surface(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct pick *p = data;

	if (!garnet_surface_accepts_input(surface, p->x - x, p->y - y))
		return true;
	p->found = surface;
	p->sx = p->x - x;
	p->sy = p->y - y;
	return false;
}

struct garnet_surface *garnet_scene_surface_at(struct garnet_compositor *c, double x, double y,
					       double *sx, double *sy)
{
	struct pick p = {.x = x, .y = y};

	garnet_scene_for_each_surface(c, pick_surface, &p);
	if (p.found) {
		*sx = p.sx;
		*sy = p.sy;
	}
	return p.found;
}
