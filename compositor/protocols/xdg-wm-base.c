// SPDX-License-Identifier: MIT
// xdg_wm_base v4: the global, ping/pong, and the factory of positioners and xdg_surfaces.
#include <stdlib.h>

#include "xdg-shell-server-protocol.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "xdg-shell.h"
#include "xdg-shell-private.h"

/* Version 4, not 5: Debian's weston 10 clients (weston-presentation-shm among them) bind the
 * advertised version but have no handler for v5's wm_capabilities, which a v5 compositor must
 * send, and abort. Weston 10 and sway 1.7 advertise lower versions still. */
#define WM_BASE_VERSION 4
#define PING_TIMEOUT_MS 10000

/* ---- xdg_wm_base ---- */

static void wm_base_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);

	if (!wl_list_empty(&base->surfaces)) {
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_DEFUNCT_SURFACES,
				       "xdg_wm_base destroyed while xdg_surfaces exist");
		return;
	}
	wl_resource_destroy(resource);
}

static void wm_base_pong(struct wl_client *client, struct wl_resource *resource,
			 uint32_t serial)
{
	struct wm_base *base = wl_resource_get_user_data(resource);

	if (serial != base->ping_serial)
		return;
	base->ping_serial = 0;
	if (base->ping_timer)
		wl_event_source_timer_update(base->ping_timer, 0);
}

static const struct xdg_wm_base_interface wm_base_impl = {
	.destroy = wm_base_destroy,
	.create_positioner = xdg_positioner_new,
	.get_xdg_surface = xdg_surface_new,
	.pong = wm_base_pong,
};

static void wm_base_resource_destroy(struct wl_resource *resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);
	struct xdg_surface_data *xs, *tmp;

	wl_list_for_each_safe(xs, tmp, &base->surfaces, link) {
		garnet_list_unlink(&xs->link);
		xs->base = NULL;
	}
	if (base->ping_timer)
		wl_event_source_remove(base->ping_timer);
	free(base);
}

static int ping_timed_out(void *data)
{
	struct wm_base *base = data;
	pid_t pid = 0;

	/* Logged, not punished: a busy client is not a hostile one. */
	wl_client_get_credentials(wl_resource_get_client(base->resource), &pid, NULL, NULL);
	garnet_log(base->compositor, GARNET_LOG_WARNING, "shell",
		   "pid %d has not answered a ping for %d ms", (int)pid, PING_TIMEOUT_MS);
	return 0;
}

/* Pings the client owning surface (if it has an xdg_wm_base), e.g. when it gets focus. */
void garnet_xdg_ping(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	if (!xs || !xs->base || xs->base->ping_serial)
		return;
	xs->base->ping_serial = wl_display_next_serial(surface->compositor->display);
	xdg_wm_base_send_ping(xs->base->resource, xs->base->ping_serial);
	if (!xs->base->ping_timer)
		xs->base->ping_timer = wl_event_loop_add_timer(surface->compositor->loop,
							       ping_timed_out, xs->base);
	if (xs->base->ping_timer)
		wl_event_source_timer_update(xs->base->ping_timer, PING_TIMEOUT_MS);
}

static void wm_base_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wm_base *base = calloc(1, sizeof(*base));

	if (!base) {
		wl_client_post_no_memory(client);
		return;
	}
	base->compositor = data;
	wl_list_init(&base->surfaces);
	base->resource = wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
	if (!base->resource) {
		free(base);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(base->resource, &wm_base_impl, base,
				       wm_base_resource_destroy);
}

bool garnet_xdg_shell_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &xdg_wm_base_interface, WM_BASE_VERSION, c, wm_base_bind,
				    false) != NULL;
}
