// SPDX-License-Identifier: MIT
// The lifetime helpers every object of libgarnet uses to leave its lists (lifetime.h).
#include "lifetime.h"

void garnet_resource_destroy_request(struct wl_client *client, struct wl_resource *resource)
{
	(void)client;
	wl_resource_destroy(resource);
}

struct wl_resource *garnet_resource_create(struct wl_client *client,
					   const struct wl_interface *iface, int version,
					   uint32_t id, const void *impl, void *data,
					   wl_resource_destroy_func_t destroy)
{
	struct wl_resource *resource = wl_resource_create(client, iface, version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	wl_resource_set_implementation(resource, impl, data, destroy);
	return resource;
}

void garnet_list_unlink(struct wl_list *link)
{
	wl_list_remove(link);
	wl_list_init(link);
}

void garnet_listener_init(struct wl_listener *listener, wl_notify_func_t notify)
{
	listener->notify = notify;
	wl_list_init(&listener->link);
}

void garnet_resource_unlink(struct wl_resource *resource)
{
	garnet_list_unlink(wl_resource_get_link(resource));
}

void garnet_resources_make_inert(struct wl_list *resources)
{
	struct wl_resource *resource, *tmp;

	wl_resource_for_each_safe(resource, tmp, resources) {
		wl_resource_set_user_data(resource, NULL);
		garnet_list_unlink(wl_resource_get_link(resource));
	}
}
