// SPDX-License-Identifier: MIT
// zxdg_output_manager_v1 v3: each output's logical position and size, name and description.
#include <stdlib.h>

#include "xdg-output-unstable-v1-server-protocol.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "client-protocols.h"

struct xdg_output {
	struct wl_resource *resource;
	struct garnet_output *output;
	struct wl_listener output_destroy, output_change;
};

static void send_state(struct xdg_output *xo)
{
	struct garnet_output *o = xo->output;
	int version = wl_resource_get_version(xo->resource);
	struct wl_resource *wl_output;

	zxdg_output_v1_send_logical_position(xo->resource, o->x, o->y);
	zxdg_output_v1_send_logical_size(xo->resource, o->width, o->height);
	if (version >= ZXDG_OUTPUT_V1_NAME_SINCE_VERSION)
		zxdg_output_v1_send_name(xo->resource, o->name);
	if (version >= ZXDG_OUTPUT_V1_DESCRIPTION_SINCE_VERSION)
		zxdg_output_v1_send_description(xo->resource, o->description);
	/* From v3 on, wl_output.done closes the batch instead. */
	if (version < 3) {
		zxdg_output_v1_send_done(xo->resource);
		return;
	}
	wl_output = garnet_output_resource_for_client(o, wl_resource_get_client(xo->resource));
	if (wl_output && wl_resource_get_version(wl_output) >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(wl_output);
}

static const struct zxdg_output_v1_interface xdg_output_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void detach(struct xdg_output *xo)
{
	if (!xo->output)
		return;
	wl_list_remove(&xo->output_destroy.link);
	wl_list_remove(&xo->output_change.link);
	xo->output = NULL;
}

static void xdg_output_output_destroyed(struct wl_listener *listener, void *data)
{
	struct xdg_output *xo = wl_container_of(listener, xo, output_destroy);

	detach(xo);
}

/* Its mode, scale or position changed (an output configuration client). */
static void xdg_output_output_changed(struct wl_listener *listener, void *data)
{
	struct xdg_output *xo = wl_container_of(listener, xo, output_change);

	send_state(xo);
}

static void xdg_output_resource_destroy(struct wl_resource *resource)
{
	struct xdg_output *xo = wl_resource_get_user_data(resource);

	detach(xo);
	free(xo);
}

static void manager_get_xdg_output(struct wl_client *client, struct wl_resource *resource,
				   uint32_t id, struct wl_resource *output_resource)
{
	struct xdg_output *xo = calloc(1, sizeof(*xo));

	if (!xo) {
		wl_resource_post_no_memory(resource);
		return;
	}
	xo->resource = wl_resource_create(client, &zxdg_output_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!xo->resource) {
		free(xo);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(xo->resource, &xdg_output_impl, xo,
				       xdg_output_resource_destroy);
	xo->output = garnet_output_from_resource(output_resource);
	if (!xo->output)
		return; /* the output is gone: the object stays inert */
	xo->output_destroy.notify = xdg_output_output_destroyed;
	wl_signal_add(&xo->output->events.destroy, &xo->output_destroy);
	xo->output_change.notify = xdg_output_output_changed;
	wl_signal_add(&xo->output->events.change, &xo->output_change);
	send_state(xo);
}

static const struct zxdg_output_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_xdg_output = manager_get_xdg_output,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zxdg_output_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_xdg_output_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zxdg_output_manager_v1_interface, 3, c, manager_bind,
				    false) != NULL;
}
