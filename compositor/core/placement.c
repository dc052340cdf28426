// SPDX-License-Identifier: MIT
// Placing surfaces from outside the protocol (test harness, wlcs): a toplevel is moved, a surface
// without a role gets a plain one and is shown where asked.
#include <stdlib.h>

#include "compositor.h"
#include "surface.h"
#include "view.h"
#include "shell-hooks.h"

/* A surface placed from outside without a shell role. */
struct placed_surface {
	struct garnet_view view;
	struct wl_listener surface_destroy;
};

static void placed_surface_commit(struct garnet_surface *surface)
{
	struct placed_surface *ps = surface->role_data;

	if (ps && (surface->current.dx || surface->current.dy))
		garnet_view_move(&ps->view, ps->view.x + surface->current.dx,
				 ps->view.y + surface->current.dy);
	if (ps && garnet_surface_is_mapped(surface) && !ps->view.in_layer)
		garnet_view_raise(&ps->view, GARNET_LAYER_NORMAL);
	else if (ps && !garnet_surface_is_mapped(surface))
		garnet_view_remove(&ps->view);
}

static bool placed_surface_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct placed_surface *ps = surface->role_data;

	if (!ps || !ps->view.in_layer)
		return false;
	*x = ps->view.x;
	*y = ps->view.y;
	return true;
}

static const struct garnet_surface_role placed_surface_role = {
	.name = "garnet_placed_surface",
	.commit = placed_surface_commit,
	.position = placed_surface_position,
};

static void placed_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct placed_surface *ps = wl_container_of(listener, ps, surface_destroy);

	wl_list_remove(&ps->surface_destroy.link);
	garnet_view_finish(&ps->view);
	ps->view.surface->role_data = NULL;
	free(ps);
}

bool garnet_compositor_place_surface(struct garnet_compositor *c, struct wl_resource *resource,
				     int32_t x, int32_t y)
{
	struct garnet_surface *surface = garnet_surface_from_resource(resource);
	struct placed_surface *ps;

	if (!surface)
		return false;
	if (surface->role && surface->role->place)
		return surface->role->place(surface, x, y);
	if (surface->role && surface->role != &placed_surface_role) {
		if (!c->shell_hooks->toplevel_for_surface(c->shell, surface))
			return false;
		c->shell_hooks->move_toplevel(c->shell, surface, x, y);
		return true;
	}
	ps = surface->role_data;
	if (ps) {
		garnet_view_move(&ps->view, x, y);
		return true;
	}
	ps = calloc(1, sizeof(*ps));
	if (!ps)
		return false;
	garnet_view_init(&ps->view, surface);
	ps->surface_destroy.notify = placed_surface_destroyed;
	wl_signal_add(&surface->events.destroy, &ps->surface_destroy);
	surface->role = &placed_surface_role;
	surface->role_data = ps;
	ps->view.x = x;
	ps->view.y = y;
	placed_surface_commit(surface);
	return true;
}

void garnet_compositor_focus_surface(struct garnet_compositor *c, struct wl_resource *resource)
{
	struct garnet_surface *surface = resource ? garnet_surface_from_resource(resource) : NULL;

	c->shell_hooks->focus_surface(c->shell, surface);
}
