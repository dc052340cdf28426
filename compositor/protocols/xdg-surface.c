// SPDX-License-Identifier: MIT
// xdg_surface: the configure/ack handshake, window geometry and the commit rules both roles share.
#include <stdlib.h>
#include <string.h>

#include "../core/subsurface.h"
#include "xdg-shell-server-protocol.h"
#include "../core/coords.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "xdg-shell.h"
#include "../core/shell-hooks.h"
#include "xdg-shell-private.h"

static const struct xdg_surface_interface xdg_surface_impl;

struct xdg_surface_data *xdg_from_surface(struct garnet_surface *surface)
{
	if (surface->role != &xdg_toplevel_role && surface->role != &xdg_popup_role &&
	    surface->role != &xdg_surface_role)
		return NULL;
	return surface->role_data;
}

/* ---- configure ---- */

uint32_t xdg_surface_configure(struct xdg_surface_data *xs)
{
	struct wl_display *display = xs->surface->compositor->display;
	uint32_t serial = wl_display_next_serial(display);

	if (xs->serial_count == MAX_PENDING_SERIALS) {
		memmove(xs->serials, xs->serials + 1,
			sizeof(xs->serials[0]) * (MAX_PENDING_SERIALS - 1));
		xs->serial_count--;
	}
	xs->serials[xs->serial_count++] = serial;
	xdg_surface_send_configure(xs->resource, serial);
	return serial;
}

/* ---- commit handling for both roles ---- */

bool xdg_precommit(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface->role_data;

	if (!xs)
		return true;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(xs->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "commit on an xdg_surface that has no role object yet");
		return false;
	}
	if (surface->pending.buffer_attached && surface->pending.buffer && !xs->configured &&
	    !surface->compositor->options.accept_unacked_first_buffer) {
		wl_resource_post_error(xs->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
				       "buffer attached before the first configure was acked");
		return false;
	}
	if (surface->pending.buffer_attached && surface->pending.buffer && !xs->configured)
		xs->configured = true; /* accept_unacked_first_buffer */
	if (xs->role == ROLE_POPUP && xs->popup && !xdg_popup_parent_surface(xs->popup) &&
	    xs->base) {
		wl_resource_post_error(xs->base->resource, XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
				       "xdg_popup committed without a parent");
		return false;
	}
	return true;
}

void xdg_commit(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface->role_data;
	struct garnet_shell *shell = surface->compositor->shell;
	const struct garnet_shell_hooks *hooks = surface->compositor->shell_hooks;
	bool has_buffer = garnet_surface_is_mapped(surface);

	/* With its role object destroyed the surface is unmapped for good: a later commit,
	 * buffer or not, must not put it back on the shell's lists. */
	if (!xs || !xs->role_resource)
		return;
	if (xs->pending_geometry_set) {
		memcpy(xs->geometry, xs->pending_geometry, sizeof(xs->geometry));
		xs->has_geometry = true;
		xs->pending_geometry_set = false;
	}
	if (!xs->initial_commit_done) {
		xs->initial_commit_done = true;
		if (xs->role == ROLE_TOPLEVEL)
			xdg_toplevel_configure(&xs->toplevel);
		else if (xs->popup)
			xdg_popup_configure(xs->popup);
		/* Only accept_unacked_first_buffer lets a buffer come with the initial commit. */
		if (!has_buffer)
			return;
	}
	if (has_buffer && !xs->mapped) {
		xs->mapped = true;
		if (xs->role == ROLE_TOPLEVEL) {
			xs->toplevel.mapped = true;
			hooks->toplevel_map(shell, &xs->toplevel);
			xdg_toplevel_changed(&xs->toplevel);
		} else if (xs->popup && xs->popup->dismissed) {
			xs->mapped = false;
		} else if (xs->popup) {
			struct xdg_popup_data *popup = xs->popup;

			garnet_view_raise(&popup->view,
					  hooks->popup_layer(surface->compositor,
							     xdg_popup_parent_surface(popup)));
			if (popup->grabbing)
				hooks->popup_mapped(surface->compositor, surface);
		}
	} else if (!has_buffer && xs->mapped) {
		/* Unmapped: the client must start over with an initial commit. */
		xs->mapped = false;
		xs->configured = false;
		xs->initial_commit_done = false;
		xs->serial_count = 0;
		if (xs->role == ROLE_TOPLEVEL) {
			xs->toplevel.mapped = false;
			hooks->toplevel_unmap(shell, &xs->toplevel);
			xdg_toplevel_changed(&xs->toplevel);
		} else if (xs->popup) {
			xdg_popup_unmap(xs->popup);
		}
		return;
	}
	if (xs->role == ROLE_TOPLEVEL && xs->mapped) {
		xs->toplevel.geometry_x = xs->has_geometry ? xs->geometry[0] : 0;
		xs->toplevel.geometry_y = xs->has_geometry ? xs->geometry[1] : 0;
		xs->toplevel.geometry_width = xs->has_geometry ? xs->geometry[2] : surface->width;
		xs->toplevel.geometry_height = xs->has_geometry ? xs->geometry[3] : surface->height;
		hooks->toplevel_commit(shell, &xs->toplevel);
		xdg_toplevel_changed(&xs->toplevel);
	}
}

/* A surface with xdg_surface but no role object yet still counts as taken. */
const struct garnet_surface_role xdg_surface_role = {
	.name = "xdg_surface",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
};

/* ---- xdg_surface ---- */

struct xdg_surface_data *xdg_surface_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void xdg_surface_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (xs && xs->role_resource) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
				       "xdg_surface destroyed before its role object");
		return;
	}
	wl_resource_destroy(resource);
}

bool xdg_surface_take_role(struct xdg_surface_data *xs, struct wl_resource *resource)
{
	if (xs->role != ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_surface already has a role object");
		return false;
	}
	return true;
}

static void xdg_surface_set_window_geometry(struct wl_client *client,
					    struct wl_resource *resource, int32_t x, int32_t y,
					    int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (!xs)
		return;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "window geometry set before a role object exists");
		return;
	}
	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_INVALID_SIZE,
				       "window geometry %dx%d is not positive", width, height);
		return;
	}
	xs->pending_geometry[0] = garnet_coord_clamp(x);
	xs->pending_geometry[1] = garnet_coord_clamp(y);
	xs->pending_geometry[2] = garnet_coord_clamp(width);
	xs->pending_geometry[3] = garnet_coord_clamp(height);
	xs->pending_geometry_set = true;
}

static void xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource,
				      uint32_t serial)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);
	int found = -1;

	if (!xs)
		return;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "ack_configure before a role object exists");
		return;
	}
	for (int i = 0; i < xs->serial_count; i++) {
		if (xs->serials[i] == serial)
			found = i;
	}
	if (found < 0) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_INVALID_SERIAL,
				       "serial %u was not sent in a configure or was acked", serial);
		return;
	}
	/* Acking a serial also acks every configure sent before it. */
	memmove(xs->serials, xs->serials + found + 1,
		sizeof(xs->serials[0]) * (size_t)(xs->serial_count - found - 1));
	xs->serial_count -= found + 1;
	xs->configured = true;
}

static const struct xdg_surface_interface xdg_surface_impl = {
	.destroy = xdg_surface_handle_destroy,
	.get_toplevel = xdg_toplevel_new,
	.get_popup = xdg_popup_new,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_unlink(struct xdg_surface_data *xs)
{
	struct xdg_popup_data *child, *tmp;

	if (xs->role_resource) {
		/* The role object stays for the client but no longer does anything. */
		struct wl_resource *role_resource = xs->role_resource;

		if (xs->role == ROLE_TOPLEVEL)
			xdg_toplevel_resource_destroy(role_resource);
		else
			xdg_popup_resource_destroy(role_resource);
		wl_resource_set_user_data(role_resource, NULL);
		xs->role_resource = NULL;
	}
	wl_list_for_each_safe(child, tmp, &xs->popups, parent_link) {
		garnet_list_unlink(&child->parent_link);
		child->parent = NULL;
		xdg_popup_unmap(child);
	}
	if (xs->surface) {
		wl_list_remove(&xs->surface_destroy.link);
		xs->surface->role_data = NULL;
		xs->surface = NULL;
	}
	garnet_list_unlink(&xs->link);
}

static void xdg_surface_resource_destroy(struct wl_resource *resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	xdg_surface_unlink(xs);
	free(xs->title);
	free(xs->app_id);
	free(xs);
}

static void xdg_surface_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct xdg_surface_data *xs = wl_container_of(listener, xs, surface_destroy);

	xdg_surface_unlink(xs);
	wl_resource_set_user_data(xs->resource, NULL);
	wl_resource_set_destructor(xs->resource, NULL);
	free(xs->title);
	free(xs->app_id);
	free(xs);
}

void xdg_surface_new(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		     struct wl_resource *surface_resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct xdg_surface_data *xs;

	if (surface->role) {
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_ROLE,
				       "wl_surface@%u already has the role %s",
				       wl_resource_get_id(surface_resource), surface->role->name);
		return;
	}
	xs = calloc(1, sizeof(*xs));
	if (!xs) {
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->resource = wl_resource_create(client, &xdg_surface_interface,
					  wl_resource_get_version(resource), id);
	if (!xs->resource) {
		free(xs);
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->surface = surface;
	xs->base = base;
	wl_list_init(&xs->popups);
	wl_list_insert(&base->surfaces, &xs->link);
	xs->surface_destroy.notify = xdg_surface_surface_destroyed;
	wl_signal_add(&surface->events.destroy, &xs->surface_destroy);
	surface->role = &xdg_surface_role;
	surface->role_data = xs;
	wl_resource_set_implementation(xs->resource, &xdg_surface_impl, xs,
				       xdg_surface_resource_destroy);
	/* The request that was wrong is this one, on xdg_wm_base (as weston, wlroots and wlcs
	 * agree). */
	if (garnet_surface_is_mapped(surface) ||
	    (surface->pending.buffer_attached && surface->pending.buffer))
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				       "wl_surface@%u has a buffer before its xdg_surface exists",
				       wl_resource_get_id(surface_resource));
}

struct garnet_surface *garnet_xdg_popup_parent(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = xdg_from_surface(surface);

	return xs && xs->popup ? xdg_popup_parent_surface(xs->popup) : NULL;
}

struct garnet_surface *garnet_xdg_root_surface(struct garnet_surface *surface)
{
	struct garnet_surface *parent;

	while (surface) {
		if (surface->subsurface && surface->subsurface->parent) {
			surface = surface->subsurface->parent;
			continue;
		}
		parent = garnet_xdg_popup_parent(surface);
		if (!parent)
			return surface;
		surface = parent;
	}
	return NULL;
}
