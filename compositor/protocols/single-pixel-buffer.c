// SPDX-License-Identifier: MIT
// wp_single_pixel_buffer_manager_v1: 1x1 buffers of one premultiplied colour.
#include <stdlib.h>

#include "single-pixel-buffer-v1-server-protocol.h"
#include "../core/compositor.h"
#include "single-pixel-buffer.h"

struct single_pixel_buffer {
	uint32_t rgba[4];
};

static const struct wl_buffer_interface buffer_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void buffer_resource_destroy(struct wl_resource *resource)
{
	free(wl_resource_get_user_data(resource));
}

bool garnet_single_pixel_buffer_get(struct wl_resource *buffer, uint32_t rgba[4])
{
	struct single_pixel_buffer *b;

	if (!wl_resource_instance_of(buffer, &wl_buffer_interface, &buffer_impl))
		return false;
	b = wl_resource_get_user_data(buffer);
	for (int i = 0; i < 4; i++)
		rgba[i] = b->rgba[i];
	return true;
}

static void manager_create_u32_rgba_buffer(struct wl_client *client, struct wl_resource *resource,
					   uint32_t id, uint32_t r, uint32_t g, uint32_t b,
					   uint32_t a)
{
	struct single_pixel_buffer *buffer = calloc(1, sizeof(*buffer));
	struct wl_resource *buffer_resource;

	if (!buffer) {
		wl_resource_post_no_memory(resource);
		return;
	}
	buffer_resource = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!buffer_resource) {
		free(buffer);
		wl_resource_post_no_memory(resource);
		return;
	}
	buffer->rgba[0] = r;
	buffer->rgba[1] = g;
	buffer->rgba[2] = b;
	buffer->rgba[3] = a;
	wl_resource_set_implementation(buffer_resource, &buffer_impl, buffer,
				       buffer_resource_destroy);
}

static const struct wp_single_pixel_buffer_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.create_u32_rgba_buffer = manager_create_u32_rgba_buffer,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &wp_single_pixel_buffer_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_single_pixel_buffer_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wp_single_pixel_buffer_manager_v1_interface, 1, c,
				    manager_bind, false) != NULL;
}
