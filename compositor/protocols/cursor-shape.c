// SPDX-License-Identifier: MIT
// wp_cursor_shape_manager_v1: a client names the cursor it wants instead of drawing it. garnet
// has one cursor image of its own, its arrow, so every shape shows that arrow; what matters is
// who may change the pointer: like wl_pointer.set_cursor, only the client under the pointer,
// answering its latest enter serial (a forged or stale serial is ignored).
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "client-protocols.h"
#include "cursor-shape-v1-server-protocol.h"

/* A device follows its wl_pointer: inert (pointer NULL) once that is destroyed, or when it was
 * made for a tablet tool, which garnet does not offer. */
struct shape_device {
	struct wl_resource *resource;
	struct wl_resource *pointer;
	struct garnet_seat *seat;
	struct wl_listener pointer_destroy;
};

static void device_detach(struct shape_device *dev)
{
	if (dev->pointer)
		wl_list_remove(&dev->pointer_destroy.link);
	dev->pointer = NULL;
}

static void device_pointer_destroy(struct wl_listener *listener, void *data)
{
	struct shape_device *dev = wl_container_of(listener, dev, pointer_destroy);

	(void)data;
	device_detach(dev);
}

static void device_resource_destroy(struct wl_resource *resource)
{
	struct shape_device *dev = wl_resource_get_user_data(resource);

	device_detach(dev);
	free(dev);
}

static void device_set_shape(struct wl_client *client, struct wl_resource *resource,
			     uint32_t serial, uint32_t shape)
{
	struct shape_device *dev = wl_resource_get_user_data(resource);

	if (shape < WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT ||
	    shape > WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_ZOOM_OUT) {
		wl_resource_post_error(resource, WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE,
				       "shape %u is not a wp_cursor_shape_device_v1.shape", shape);
		return;
	}
	/* The wl_pointer's user data is the seat, NULL once the seat is gone. */
	if (!dev->pointer || !wl_resource_get_user_data(dev->pointer))
		return;
	garnet_seat_set_cursor_shape(dev->seat, client, serial);
}

static const struct wp_cursor_shape_device_v1_interface device_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_shape = device_set_shape,
};

static void device_create(struct wl_client *client, struct wl_resource *manager, uint32_t id,
			  struct wl_resource *pointer)
{
	struct shape_device *dev = calloc(1, sizeof(*dev));

	if (!dev) {
		wl_resource_post_no_memory(manager);
		return;
	}
	dev->resource = wl_resource_create(client, &wp_cursor_shape_device_v1_interface,
					   wl_resource_get_version(manager), id);
	if (!dev->resource) {
		free(dev);
		wl_resource_post_no_memory(manager);
		return;
	}
	if (pointer && wl_resource_get_user_data(pointer)) {
		dev->pointer = pointer;
		dev->seat = wl_resource_get_user_data(pointer);
		dev->pointer_destroy.notify = device_pointer_destroy;
		wl_resource_add_destroy_listener(pointer, &dev->pointer_destroy);
	}
	wl_resource_set_implementation(dev->resource, &device_impl, dev, device_resource_destroy);
}

static void manager_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id,
				struct wl_resource *pointer)
{
	device_create(client, resource, id, pointer);
}

static void manager_get_tablet_tool(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, struct wl_resource *tool)
{
	(void)tool;
	device_create(client, resource, id, NULL);
}

static const struct wp_cursor_shape_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_pointer = manager_get_pointer,
	.get_tablet_tool_v2 = manager_get_tablet_tool,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wp_cursor_shape_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_cursor_shape_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wp_cursor_shape_manager_v1_interface, 1, c, manager_bind,
				    false) != NULL;
}
