// SPDX-License-Identifier: MIT
// xdg_popup: placement against its parent and the output, map, dismissal, raising with the parent.
#include <stdlib.h>

#include "xdg-shell-server-protocol.h"
#include "../core/coords.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "xdg-shell.h"
#include "xdg-shell-private.h"

struct garnet_surface *xdg_popup_parent_surface(struct xdg_popup_data *popup)
{
	return popup->parent ? popup->parent->surface : popup->foreign_parent;
}

bool xdg_popup_parent_mapped(struct xdg_popup_data *popup)
{
	if (popup->parent)
		return popup->parent->mapped;
	return popup->foreign_parent && garnet_surface_is_mapped(popup->foreign_parent);
}

/* Where the parent's window geometry starts, in the global space. */
static bool parent_origin(struct xdg_popup_data *popup, int32_t *x, int32_t *y)
{
	struct xdg_surface_data *parent = popup->parent;
	struct garnet_surface *surface = xdg_popup_parent_surface(popup);

	if (!surface || !garnet_surface_position(surface, x, y))
		return false;
	if (parent && parent->has_geometry) {
		*x += parent->geometry[0];
		*y += parent->geometry[1];
	}
	return true;
}

static void popup_compute_geometry(struct xdg_popup_data *popup)
{
	struct garnet_compositor *c = popup->xs->surface->compositor;
	struct garnet_output *output = garnet_compositor_first_output(c);
	int32_t px = 0, py = 0, min_x = INT32_MIN / 2, min_y = INT32_MIN / 2;
	int32_t max_x = INT32_MAX / 2, max_y = INT32_MAX / 2;

	popup->width = popup->positioner.width;
	popup->height = popup->positioner.height;
	/* Constrain to the output, expressed relative to the parent's window geometry. */
	if (output && parent_origin(popup, &px, &py)) {
		min_x = output->x - px;
		min_y = output->y - py;
		max_x = output->x + output->width - px;
		max_y = output->y + output->height - py;
	}
	xdg_positioner_constrain_axis(&popup->positioner, true, min_x, max_x, &popup->x,
				      &popup->width);
	xdg_positioner_constrain_axis(&popup->positioner, false, min_y, max_y, &popup->y,
				      &popup->height);
}

void xdg_popup_configure(struct xdg_popup_data *popup)
{
	popup_compute_geometry(popup);
	xdg_popup_send_configure(popup->resource, popup->x, popup->y, popup->width,
				 popup->height);
	xdg_surface_configure(popup->xs);
}

/* ---- popup ---- */


void xdg_popup_unmap(struct xdg_popup_data *popup)
{
	garnet_view_remove(&popup->view);
	popup->xs->mapped = false;
}

void xdg_popup_dismiss(struct xdg_popup_data *popup)
{
	struct xdg_popup_data *child, *tmp;

	if (!popup->resource)
		return;
	wl_list_for_each_safe(child, tmp, &popup->xs->popups, parent_link)
		xdg_popup_dismiss(child);
	xdg_popup_unmap(popup);
	popup->dismissed = true;
	xdg_popup_send_popup_done(popup->resource);
}

static void popup_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);

	if (popup && !wl_list_empty(&popup->xs->popups) && popup->xs->base) {
		wl_resource_post_error(popup->xs->base->resource,
				       XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP,
				       "xdg_popup destroyed while a child popup exists");
		return;
	}
	wl_resource_destroy(resource);
}

static void popup_reposition(struct wl_client *client, struct wl_resource *resource,
			     struct wl_resource *positioner_resource, uint32_t token)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);

	if (!popup)
		return;
	popup->positioner = *xdg_positioner_from(positioner_resource);
	xdg_popup_send_repositioned(resource, token);
	xdg_popup_configure(popup);
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = popup_handle_destroy,
	.grab = xdg_popup_handle_grab,
	.reposition = popup_reposition,
};

void xdg_popup_resource_destroy(struct wl_resource *resource)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);

	if (!popup)
		return;
	xdg_popup_unmap(popup);
	garnet_view_finish(&popup->view);
	wl_list_remove(&popup->parent_link);
	if (popup->grabbing)
		xdg_popup_grab_remove(popup);
	popup->xs->popup = NULL;
	popup->xs->role_resource = NULL;
	free(popup);
}

static bool popup_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct xdg_surface_data *xs = surface->role_data;
	struct xdg_popup_data *popup = xs ? xs->popup : NULL;
	int32_t px, py;

	if (!popup || !popup->view.in_layer || !parent_origin(popup, &px, &py))
		return false;
	/* A chain of popups adds up one offset per level: clamped like a window position. */
	*x = garnet_coord_clamp((int64_t)px + popup->x - (xs->has_geometry ? xs->geometry[0] : 0));
	*y = garnet_coord_clamp((int64_t)py + popup->y - (xs->has_geometry ? xs->geometry[1] : 0));
	return true;
}

const struct garnet_surface_role xdg_popup_role = {
	.name = "xdg_popup",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
	.position = popup_position,
};

void xdg_popup_new(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		   struct wl_resource *parent_resource, struct wl_resource *positioner_resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);
	struct positioner *p = xdg_positioner_from(positioner_resource);
	struct xdg_popup_data *popup;

	if (!xs || !xdg_surface_take_role(xs, resource))
		return;
	/* A popup of itself (or of one of its own popups) would place itself forever. */
	for (struct xdg_surface_data *up = parent_resource ? xdg_surface_from(parent_resource)
							   : NULL;
	     up; up = up->popup ? up->popup->parent : NULL) {
		if (up == xs && xs->base) {
			wl_resource_post_error(xs->base->resource,
					       XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
					       "an xdg_popup cannot be its own parent");
			return;
		}
	}
	if ((!p->has_size || !p->has_anchor_rect) && xs->base) {
		wl_resource_post_error(xs->base->resource, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
				       "positioner without size or anchor rectangle");
		return;
	}
	popup = calloc(1, sizeof(*popup));
	if (!popup) {
		wl_resource_post_no_memory(resource);
		return;
	}
	popup->resource = wl_resource_create(client, &xdg_popup_interface,
					     wl_resource_get_version(resource), id);
	if (!popup->resource) {
		free(popup);
		wl_resource_post_no_memory(resource);
		return;
	}
	popup->xs = xs;
	popup->positioner = *p;
	popup->parent = parent_resource ? xdg_surface_from(parent_resource) : NULL;
	wl_list_init(&popup->grab_link);
	if (popup->parent)
		wl_list_insert(&popup->parent->popups, &popup->parent_link);
	else
		wl_list_init(&popup->parent_link);
	garnet_view_init(&popup->view, xs->surface);
	xs->popup = popup;
	xs->role = ROLE_POPUP;
	xs->role_resource = popup->resource;
	xs->surface->role = &xdg_popup_role;
	wl_resource_set_implementation(popup->resource, &popup_impl, popup,
				       xdg_popup_resource_destroy);
}

/* Menus nest a few levels deep; a client nesting thousands gets only the first ones raised
 * rather than garnet's stack exhausted. */
#define RAISE_DEPTH 16

static void raise_popups(struct wl_list *popups, enum garnet_layer_id layer, int depth)
{
	struct xdg_popup_data *popup;

	/* The list is topmost first: raising from its end keeps the order. */
	wl_list_for_each_reverse(popup, popups, parent_link) {
		if (!popup->view.in_layer)
			continue;
		garnet_view_raise(&popup->view, layer);
		if (depth < RAISE_DEPTH)
			raise_popups(&popup->xs->popups, layer, depth + 1);
	}
}

void garnet_xdg_raise_popups(struct garnet_surface *surface, enum garnet_layer_id layer)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	if (xs)
		raise_popups(&xs->popups, layer, 0);
}

void xdg_popups_raise(struct wl_list *popups, enum garnet_layer_id layer)
{
	raise_popups(popups, layer, 0);
}

void xdg_popups_dismiss(struct wl_list *popups)
{
	struct xdg_popup_data *popup, *tmp;

	wl_list_for_each_safe(popup, tmp, popups, parent_link) {
		if (!popup->dismissed)
			xdg_popup_dismiss(popup);
	}
}

void xdg_popups_orphan(struct wl_list *popups)
{
	struct xdg_popup_data *popup, *tmp;

	wl_list_for_each_safe(popup, tmp, popups, parent_link) {
		if (!popup->dismissed)
			xdg_popup_dismiss(popup);
		garnet_list_unlink(&popup->parent_link);
		popup->foreign_parent = NULL;
	}
}

bool xdg_popup_set_foreign_parent(struct wl_resource *popup_resource,
				  struct garnet_surface *parent, struct wl_list *popups)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(popup_resource);

	/* A popup whose surface is gone is inert: nothing to parent. */
	if (!popup)
		return true;
	if (popup->parent || popup->foreign_parent || popup->xs->initial_commit_done ||
	    popup->dismissed)
		return false;
	popup->foreign_parent = parent;
	wl_list_insert(popups, &popup->parent_link);
	return true;
}
