// SPDX-License-Identifier: MIT
// wl_subcompositor and wl_subsurface: stacking, position, synchronized and desynchronized commits.
#include <stdlib.h>

#include "coords.h"
#include "compositor.h"
#include "surface.h"
#include "subsurface.h"
#include "client-budget.h"

static void subsurface_commit_role(struct garnet_surface *surface)
{
}

static bool subsurface_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct garnet_subsurface *sub = surface->role_data;
	int32_t px, py;

	if (!sub || !sub->parent || !garnet_surface_is_mapped(sub->parent) ||
	    !garnet_surface_position(sub->parent, &px, &py))
		return false;
	/* Nesting adds one clamped position per level: the sum is clamped again. */
	*x = garnet_coord_clamp((int64_t)px + sub->x);
	*y = garnet_coord_clamp((int64_t)py + sub->y);
	return true;
}

static const struct garnet_surface_role subsurface_role = {
	.name = "wl_subsurface",
	.commit = subsurface_commit_role,
	.position = subsurface_position,
};

bool garnet_subsurface_is_synchronized(struct garnet_subsurface *sub)
{
	/* A child of a synchronized subsurface is synchronized whatever its own mode. */
	while (sub) {
		if (sub->synchronized)
			return true;
		if (!sub->parent)
			return false;
		sub = sub->parent->subsurface;
	}
	return false;
}

static struct garnet_subsurface *self_node(struct garnet_surface *surface)
{
	struct garnet_subsurface *node;

	if (surface->self_node)
		return surface->self_node;
	node = calloc(1, sizeof(*node));
	if (!node)
		return NULL;
	node->surface = node->parent = surface;
	wl_list_insert(&surface->children, &node->parent_link);
	wl_list_insert(&surface->children_pending, &node->parent_link_pending);
	wl_list_init(&node->parent_destroy.link);
	surface->self_node = node;
	return node;
}

void garnet_subsurface_parent_commit(struct garnet_surface *parent)
{
	struct garnet_subsurface *sub;
	bool restacked = false;

	/* The pending stacking order becomes current. */
	wl_list_for_each(sub, &parent->children_pending, parent_link_pending) {
		wl_list_remove(&sub->parent_link);
		wl_list_insert(parent->children.prev, &sub->parent_link);
		restacked = true;
	}
	wl_list_for_each(sub, &parent->children, parent_link) {
		if (sub->surface == parent)
			continue;
		if (sub->position_pending) {
			garnet_surface_damage_tree(sub->surface);
			sub->x = sub->pending_x;
			sub->y = sub->pending_y;
			sub->position_pending = false;
			garnet_surface_damage_tree(sub->surface);
		}
		if (garnet_subsurface_is_synchronized(sub))
			garnet_surface_commit_cached(sub->surface);
	}
	if (restacked && garnet_surface_is_mapped(parent))
		garnet_surface_damage_tree(parent);
}

static void subsurface_unlink(struct garnet_subsurface *sub)
{
	if (!sub->parent)
		return;
	garnet_surface_damage_tree(sub->surface);
	wl_list_remove(&sub->parent_link);
	wl_list_remove(&sub->parent_link_pending);
	garnet_list_unlink(&sub->parent_destroy.link);
	sub->parent = NULL;
}

void garnet_subsurface_destroy_node(struct garnet_subsurface *node)
{
	struct garnet_subsurface *child, *tmp;
	struct garnet_surface *surface;

	if (!node)
		return;
	surface = node->surface;
	/* Children lose their parent (they become inert until it is set again). */
	wl_list_for_each_safe(child, tmp, &surface->children, parent_link) {
		if (child != node)
			subsurface_unlink(child);
	}
	wl_list_remove(&node->parent_link);
	wl_list_remove(&node->parent_link_pending);
	surface->self_node = NULL;
	free(node);
}

static void subsurface_parent_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_subsurface *sub = wl_container_of(listener, sub, parent_destroy);

	subsurface_unlink(sub);
}

static void subsurface_resource_destroy(struct wl_resource *resource)
{
	struct garnet_subsurface *sub = wl_resource_get_user_data(resource);

	garnet_client_uncharge(wl_resource_get_client(resource), GARNET_LIMIT_SUBSURFACES, 1);
	if (!sub)
		return;
	subsurface_unlink(sub);
	wl_list_remove(&sub->surface_destroy.link);
	if (sub->surface) {
		garnet_surface_update_outputs(sub->surface);
		sub->surface->subsurface = NULL;
		sub->surface->role_data = NULL;
	}
	garnet_surface_state_finish(&sub->cached);
	free(sub);
}

static void subsurface_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_subsurface *sub = wl_container_of(listener, sub, surface_destroy);

	/* The wl_subsurface outlives its surface only as an inert object: its user data is
	 * NULL, so every later request finds nothing to act on. */
	subsurface_unlink(sub);
	garnet_list_unlink(&sub->surface_destroy.link);
	sub->surface->subsurface = NULL;
	sub->surface->role_data = NULL;
	wl_resource_set_user_data(sub->resource, NULL);
	garnet_surface_state_finish(&sub->cached);
	free(sub);
}

static struct garnet_subsurface *sub_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void subsurface_set_position(struct wl_client *client, struct wl_resource *resource,
				    int32_t x, int32_t y)
{
	struct garnet_subsurface *sub = sub_from(resource);

	if (!sub)
		return;
	sub->position_pending = true;
	sub->pending_x = garnet_coord_clamp(x);
	sub->pending_y = garnet_coord_clamp(y);
}

static struct garnet_subsurface *sibling_node(struct garnet_subsurface *sub,
					      struct wl_resource *sibling_resource)
{
	struct garnet_surface *sibling = garnet_surface_from_resource(sibling_resource);
	struct garnet_subsurface *node;

	if (!sub->parent || !sibling)
		return NULL;
	if (sibling == sub->parent)
		return self_node(sub->parent);
	wl_list_for_each(node, &sub->parent->children_pending, parent_link_pending) {
		if (node->surface == sibling && node != sub)
			return node;
	}
	return NULL;
}

static void restack(struct wl_resource *resource, struct wl_resource *sibling_resource, bool above)
{
	struct garnet_subsurface *sub = sub_from(resource), *sibling;

	if (!sub || !sub->parent)
		return;
	sibling = sibling_node(sub, sibling_resource);
	if (!sibling) {
		wl_resource_post_error(resource, WL_SUBSURFACE_ERROR_BAD_SURFACE,
				       "%s: wl_surface@%u is neither the parent nor a sibling",
				       above ? "place_above" : "place_below",
				       wl_resource_get_id(sibling_resource));
		return;
	}
	wl_list_remove(&sub->parent_link_pending);
	wl_list_insert(above ? &sibling->parent_link_pending : sibling->parent_link_pending.prev,
		       &sub->parent_link_pending);
}

static void subsurface_place_above(struct wl_client *client, struct wl_resource *resource,
				   struct wl_resource *sibling)
{
	restack(resource, sibling, true);
}

static void subsurface_place_below(struct wl_client *client, struct wl_resource *resource,
				   struct wl_resource *sibling)
{
	restack(resource, sibling, false);
}

static void subsurface_set_sync(struct wl_client *client, struct wl_resource *resource)
{
	struct garnet_subsurface *sub = sub_from(resource);

	if (sub)
		sub->synchronized = true;
}

static void subsurface_set_desync(struct wl_client *client, struct wl_resource *resource)
{
	struct garnet_subsurface *sub = sub_from(resource);

	if (!sub || !sub->synchronized)
		return;
	sub->synchronized = false;
	/* Leaving sync mode applies what was cached, unless an ancestor still holds it. */
	if (!garnet_subsurface_is_synchronized(sub))
		garnet_surface_commit_cached(sub->surface);
}

static const struct wl_subsurface_interface subsurface_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_position = subsurface_set_position,
	.place_above = subsurface_place_above,
	.place_below = subsurface_place_below,
	.set_sync = subsurface_set_sync,
	.set_desync = subsurface_set_desync,
};

static bool is_ancestor(struct garnet_surface *candidate, struct garnet_surface *surface)
{
	for (struct garnet_surface *s = candidate; s;
	     s = s->subsurface ? s->subsurface->parent : NULL) {
		if (s == surface)
			return true;
	}
	return false;
}

static void subcompositor_get_subsurface(struct wl_client *client, struct wl_resource *resource,
					 uint32_t id, struct wl_resource *surface_resource,
					 struct wl_resource *parent_resource)
{
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_surface *parent = garnet_surface_from_resource(parent_resource);
	struct garnet_subsurface *sub;

	if (surface == parent || is_ancestor(parent, surface)) {
		wl_resource_post_error(resource, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
				       "wl_surface@%u cannot be a subsurface of itself or of its "
				       "own descendant", wl_resource_get_id(surface_resource));
		return;
	}
	if (surface->subsurface || (surface->role && surface->role != &subsurface_role)) {
		wl_resource_post_error(resource, WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE,
				       "wl_surface@%u already has a role",
				       wl_resource_get_id(surface_resource));
		return;
	}
	if (!garnet_client_charge(client, GARNET_LIMIT_SUBSURFACES, 1))
		return;
	sub = calloc(1, sizeof(*sub));
	if (!sub || !self_node(parent)) {
		free(sub);
		goto err_charge;
	}
	sub->resource = wl_resource_create(client, &wl_subsurface_interface, 1, id);
	if (!sub->resource) {
		free(sub);
		goto err_charge;
	}
	garnet_surface_state_init(&sub->cached);
	sub->surface = surface;
	sub->parent = parent;
	sub->synchronized = true;
	wl_list_insert(parent->children.prev, &sub->parent_link);
	wl_list_insert(parent->children_pending.prev, &sub->parent_link_pending);
	sub->parent_destroy.notify = subsurface_parent_destroyed;
	wl_signal_add(&parent->events.destroy, &sub->parent_destroy);
	sub->surface_destroy.notify = subsurface_surface_destroyed;
	wl_signal_add(&surface->events.destroy, &sub->surface_destroy);
	surface->subsurface = sub;
	garnet_surface_set_role(surface, &subsurface_role, sub, resource,
				WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);
	wl_resource_set_implementation(sub->resource, &subsurface_impl, sub,
				       subsurface_resource_destroy);
	return;

err_charge:
	garnet_client_uncharge(client, GARNET_LIMIT_SUBSURFACES, 1);
	wl_resource_post_no_memory(resource);
}

static const struct wl_subcompositor_interface subcompositor_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_subsurface = subcompositor_get_subsurface,
};

static void subcompositor_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wl_subcompositor_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &subcompositor_impl, data, NULL);
}

bool garnet_subcompositor_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wl_subcompositor_interface, 1, c, subcompositor_bind,
				    false) != NULL;
}
