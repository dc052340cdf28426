// SPDX-License-Identifier: MIT
// xdg_toplevel: its configure (states, capabilities), its requests, passed on to the shell.
#include <stdlib.h>
#include <string.h>

#include "xdg-shell-server-protocol.h"
#include "../core/coords.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "toplevel.h"
#include "xdg-shell.h"
#include "../core/shell-hooks.h"
#include "xdg-shell-private.h"

/* Task bars hear of a window's title, app id, states and outputs (foreign-toplevel.c). */
void xdg_toplevel_changed(struct garnet_toplevel *toplevel)
{
	struct garnet_compositor *c = toplevel->surface->compositor;

	if (c->protocol_hooks.toplevel_changed)
		c->protocol_hooks.toplevel_changed(toplevel);
}

const char *garnet_xdg_toplevel_title(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);

	if (toplevel->impl->title)
		return toplevel->impl->title(toplevel);
	return xs->title;
}

const char *garnet_xdg_toplevel_app_id(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);

	if (toplevel->impl->app_id)
		return toplevel->impl->app_id(toplevel);
	return xs->app_id;
}

static void add_state(struct wl_array *states, uint32_t state)
{
	uint32_t *s = wl_array_add(states, sizeof(*s));

	if (s)
		*s = state;
}

void xdg_toplevel_configure(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);
	struct wl_array states;
	int version;

	if (!xs->role_resource)
		return;
	version = wl_resource_get_version(xs->role_resource);
	wl_array_init(&states);
	if (toplevel->maximized)
		add_state(&states, XDG_TOPLEVEL_STATE_MAXIMIZED);
	if (toplevel->fullscreen)
		add_state(&states, XDG_TOPLEVEL_STATE_FULLSCREEN);
	if (toplevel->resizing)
		add_state(&states, XDG_TOPLEVEL_STATE_RESIZING);
	if (toplevel->activated)
		add_state(&states, XDG_TOPLEVEL_STATE_ACTIVATED);
	/* configure_bounds is only a hint, and Debian's weston clients bind v4+ without a
	 * handler for it: not sent. */
	if (version >= XDG_TOPLEVEL_WM_CAPABILITIES_SINCE_VERSION && !xs->sent_capabilities) {
		struct wl_array caps;

		wl_array_init(&caps);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_MINIMIZE);
		xdg_toplevel_send_wm_capabilities(xs->role_resource, &caps);
		wl_array_release(&caps);
		xs->sent_capabilities = true;
	}
	toplevel->configured_once = true;
	xdg_toplevel_send_configure(xs->role_resource, toplevel->pending_width,
				    toplevel->pending_height, &states);
	wl_array_release(&states);
	xdg_surface_configure(xs);
	xdg_toplevel_changed(toplevel);
}

static void toplevel_close(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);

	if (xs->role_resource)
		xdg_toplevel_send_close(xs->role_resource);
}

static const struct garnet_toplevel_impl toplevel_impl = {
	.configure = xdg_toplevel_configure,
	.close = toplevel_close,
};

static bool toplevel_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct xdg_surface_data *xs = surface->role_data;

	if (!xs || !xs->toplevel.view.in_layer)
		return false;
	*x = xs->toplevel.view.x;
	*y = xs->toplevel.view.y;
	return true;
}

const struct garnet_surface_role xdg_toplevel_role = {
	.name = "xdg_toplevel",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
	.position = toplevel_position,
};

/* ---- toplevel requests ---- */

static struct xdg_surface_data *toplevel_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void toplevel_parent_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_toplevel *toplevel = wl_container_of(listener, toplevel, parent_destroy);

	garnet_list_unlink(&toplevel->parent_destroy.link);
	toplevel->parent = NULL;
}

static void set_toplevel_parent(struct xdg_surface_data *xs, struct xdg_surface_data *parent)
{
	garnet_list_unlink(&xs->toplevel.parent_destroy.link);
	xs->toplevel.parent = parent ? &parent->toplevel : NULL;
	if (parent)
		wl_signal_add(&parent->toplevel.events.destroy, &xs->toplevel.parent_destroy);
}

/* Walks parent's ancestors: false when toplevel is one of them (it would be its own). */
static bool may_be_parent(struct xdg_surface_data *xs, struct xdg_surface_data *parent)
{
	for (struct xdg_surface_data *p = parent; p;
	     p = p->toplevel.parent ? wl_container_of(p->toplevel.parent, p, toplevel) : NULL)
		if (p == xs)
			return false;
	return true;
}

bool garnet_xdg_toplevel_set_parent(struct garnet_toplevel *toplevel,
				    struct garnet_toplevel *parent)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);
	struct xdg_surface_data *p = parent ? wl_container_of(parent, p, toplevel) : NULL;

	if (!may_be_parent(xs, p))
		return false;
	set_toplevel_parent(xs, p);
	/* A task bar names the parent (foreign-toplevel.c). */
	xdg_toplevel_changed(&xs->toplevel);
	return true;
}

static void toplevel_set_parent(struct wl_client *client, struct wl_resource *resource,
				struct wl_resource *parent_resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct xdg_surface_data *parent = parent_resource ? toplevel_from(parent_resource) : NULL;

	if (!xs)
		return;
	if (!garnet_xdg_toplevel_set_parent(&xs->toplevel, parent ? &parent->toplevel : NULL))
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_PARENT,
				       "a toplevel cannot be its own ancestor");
}

static void replace_string(char **dst, const char *src)
{
	char *copy = strdup(src);

	if (copy) {
		free(*dst);
		*dst = copy;
	}
}

static void toplevel_set_title(struct wl_client *client, struct wl_resource *resource,
			       const char *title)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (!xs)
		return;
	replace_string(&xs->title, title);
	xdg_toplevel_changed(&xs->toplevel);
}

static void toplevel_set_app_id(struct wl_client *client, struct wl_resource *resource,
				const char *app_id)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (!xs)
		return;
	replace_string(&xs->app_id, app_id);
	xdg_toplevel_changed(&xs->toplevel);
}

static void toplevel_show_window_menu(struct wl_client *client, struct wl_resource *resource,
				      struct wl_resource *seat, uint32_t serial, int32_t x,
				      int32_t y)
{
}

/* The shell (through core/shell-hooks.h) that a toplevel's window requests go to. */
static const struct garnet_shell_hooks *shell_of(struct xdg_surface_data *xs,
						 struct garnet_shell **shell)
{
	*shell = xs->surface->compositor->shell;
	return xs->surface->compositor->shell_hooks;
}

static void toplevel_move(struct wl_client *client, struct wl_resource *resource,
			  struct wl_resource *seat, uint32_t serial)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (xs && xs->mapped)
		shell_of(xs, &shell)->request_move(shell, &xs->toplevel, serial);
}

static void toplevel_resize(struct wl_client *client, struct wl_resource *resource,
			    struct wl_resource *seat, uint32_t serial, uint32_t edges)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (edges > XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT || edges == 3 || edges == 7) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE,
				       "%u is not an xdg_toplevel.resize_edge", edges);
		return;
	}
	if (xs && xs->mapped)
		shell_of(xs, &shell)->request_resize(shell, &xs->toplevel, serial, edges);
}

static void toplevel_set_max_size(struct wl_client *client, struct wl_resource *resource,
				  int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE,
				       "maximum size %dx%d is negative", width, height);
		return;
	}
	if (xs) {
		xs->toplevel.max_width = garnet_coord_clamp(width);
		xs->toplevel.max_height = garnet_coord_clamp(height);
	}
}

static void toplevel_set_min_size(struct wl_client *client, struct wl_resource *resource,
				  int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE,
				       "minimum size %dx%d is negative", width, height);
		return;
	}
	if (xs) {
		xs->toplevel.min_width = garnet_coord_clamp(width);
		xs->toplevel.min_height = garnet_coord_clamp(height);
	}
}

static void toplevel_set_maximized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (xs)
		shell_of(xs, &shell)->set_maximized(shell, &xs->toplevel, true);
}

static void toplevel_unset_maximized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (xs)
		shell_of(xs, &shell)->set_maximized(shell, &xs->toplevel, false);
}

static void toplevel_set_fullscreen(struct wl_client *client, struct wl_resource *resource,
				    struct wl_resource *output_resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_output *output =
		output_resource ? garnet_output_from_resource(output_resource) : NULL;
	const struct garnet_shell_hooks *hooks;
	struct garnet_shell *shell;

	if (!xs)
		return;
	hooks = shell_of(xs, &shell);
	/* A denial is answered like any request: a configure, here of the unchanged state. */
	hooks->set_fullscreen(shell, &xs->toplevel,
			      hooks->may_fullscreen(xs->surface->compositor, client, output) ||
				      xs->toplevel.fullscreen,
			      output);
}

static void toplevel_unset_fullscreen(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (xs)
		shell_of(xs, &shell)->set_fullscreen(shell, &xs->toplevel, false, NULL);
}

static void toplevel_set_minimized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (!xs || !xs->mapped)
		return;
	shell_of(xs, &shell)->set_minimized(shell, &xs->toplevel);
	xdg_toplevel_changed(&xs->toplevel);
}

static const struct xdg_toplevel_interface xdg_toplevel_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_max_size,
	.set_min_size = toplevel_set_min_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_set_minimized,
};

void xdg_toplevel_resource_destroy(struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_shell *shell;

	if (!xs)
		return;
	/* Mapped or not (activation puts unmapped toplevels on the shell's lists too), the
	 * toplevel leaves every list before its memory can go. */
	xs->toplevel.mapped = false;
	shell_of(xs, &shell)->toplevel_unmap(shell, &xs->toplevel);
	garnet_view_finish(&xs->toplevel.view);
	wl_signal_emit_mutable(&xs->toplevel.events.destroy, &xs->toplevel);
	garnet_list_unlink(&xs->toplevel.parent_destroy.link);
	xs->toplevel.parent = NULL;
	if (xs->toplevel.decoration) {
		wl_resource_set_user_data(xs->toplevel.decoration, NULL);
		xs->toplevel.decoration = NULL;
	}
	xs->role_resource = NULL;
	xs->mapped = false;
}

void xdg_toplevel_new(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (!xs || !xdg_surface_take_role(xs, resource))
		return;
	xs->role_resource = wl_resource_create(client, &xdg_toplevel_interface,
					       wl_resource_get_version(resource), id);
	if (!xs->role_resource) {
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->role = ROLE_TOPLEVEL;
	xs->surface->role = &xdg_toplevel_role;
	xs->toplevel.impl = &toplevel_impl;
	xs->toplevel.surface = xs->surface;
	wl_list_init(&xs->toplevel.link);
	garnet_listener_init(&xs->toplevel.parent_destroy, toplevel_parent_destroyed);
	wl_signal_init(&xs->toplevel.events.destroy);
	garnet_view_init(&xs->toplevel.view, xs->surface);
	wl_resource_set_implementation(xs->role_resource, &xdg_toplevel_impl, xs,
				       xdg_toplevel_resource_destroy);
}

struct garnet_toplevel *garnet_xdg_toplevel_from_resource(struct wl_resource *resource)
{
	struct xdg_surface_data *xs;

	if (!wl_resource_instance_of(resource, &xdg_toplevel_interface, &xdg_toplevel_impl))
		return NULL;
	xs = wl_resource_get_user_data(resource);
	return xs ? &xs->toplevel : NULL;
}

struct garnet_toplevel *garnet_xdg_toplevel_from_surface(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	return xs && xs->role == ROLE_TOPLEVEL && xs->role_resource ? &xs->toplevel : NULL;
}
