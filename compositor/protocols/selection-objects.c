// SPDX-License-Identifier: MIT
// Source and offer objects shared by primary selection and data control (selection-objects.h).
#include <stdlib.h>
#include <unistd.h>

#include "../core/seat.h"
#include "../core/data-source.h"
#include "selection-objects.h"

static void source_resource_destroy(struct wl_resource *resource)
{
	struct garnet_data_source *source = wl_resource_get_user_data(resource);

	garnet_data_source_finish(source);
	free(source);
}

struct garnet_data_source *
garnet_selection_source_create(struct wl_resource *manager, const struct wl_interface *iface,
			       int version, uint32_t id, const void *request_impl,
			       const struct garnet_data_source_impl *impl)
{
	struct garnet_data_source *source = calloc(1, sizeof(*source));
	struct wl_resource *resource;

	if (!source) {
		wl_resource_post_no_memory(manager);
		return NULL;
	}
	resource = wl_resource_create(wl_resource_get_client(manager), iface, version, id);
	if (!resource) {
		free(source);
		wl_resource_post_no_memory(manager);
		return NULL;
	}
	garnet_data_source_init(source, impl, resource);
	wl_resource_set_implementation(resource, request_impl, source, source_resource_destroy);
	return source;
}

struct wl_resource *garnet_selection_device_create(struct wl_resource *manager,
						  const struct wl_interface *iface, uint32_t id,
						  const void *impl, struct garnet_seat *seat,
						  struct wl_list *list)
{
	struct wl_resource *device = wl_resource_create(wl_resource_get_client(manager), iface,
							wl_resource_get_version(manager), id);

	if (!device) {
		wl_resource_post_no_memory(manager);
		return NULL;
	}
	wl_resource_set_implementation(device, impl, seat, garnet_resource_unlink);
	wl_list_insert(list, wl_resource_get_link(device));
	return device;
}

void garnet_selection_source_offer(struct wl_client *client, struct wl_resource *resource,
				   const char *mime)
{
	if (!garnet_data_source_add_mime(wl_resource_get_user_data(resource), mime))
		wl_resource_post_no_memory(resource);
}

/* An offer outlives its source: reads after the source is gone get the fd closed. */
struct selection_offer {
	struct garnet_seat *seat;
	struct garnet_data_source *source;
	enum garnet_selection_kind kind;
	struct wl_listener source_destroy;
};

void garnet_selection_offer_receive(struct wl_client *client, struct wl_resource *resource,
				    const char *mime, int32_t fd)
{
	struct selection_offer *offer = wl_resource_get_user_data(resource);

	if (!offer->source) {
		close(fd);
		return;
	}
	garnet_data_source_read(offer->seat, offer->source, client, offer->kind, mime, fd);
}

static void offer_source_destroyed(struct wl_listener *listener, void *data)
{
	struct selection_offer *offer = wl_container_of(listener, offer, source_destroy);

	garnet_list_unlink(&offer->source_destroy.link);
	offer->source = NULL;
}

static void offer_resource_destroy(struct wl_resource *resource)
{
	struct selection_offer *offer = wl_resource_get_user_data(resource);

	wl_list_remove(&offer->source_destroy.link);
	free(offer);
}

struct wl_resource *
garnet_selection_offer_create(struct garnet_seat *seat, struct wl_resource *device,
			      const struct wl_interface *iface, const void *request_impl,
			      struct garnet_data_source *source, enum garnet_selection_kind kind,
			      void (*announce)(struct wl_resource *device, struct wl_resource *offer),
			      void (*send_mime)(struct wl_resource *offer, const char *mime))
{
	struct wl_client *client = wl_resource_get_client(device);
	struct selection_offer *offer = calloc(1, sizeof(*offer));
	struct wl_resource *resource;
	char **mime;

	if (!offer) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	resource = wl_resource_create(client, iface, wl_resource_get_version(device), 0);
	if (!resource) {
		free(offer);
		wl_client_post_no_memory(client);
		return NULL;
	}
	offer->seat = seat;
	offer->source = source;
	offer->kind = kind;
	offer->source_destroy.notify = offer_source_destroyed;
	wl_signal_add(&source->events.destroy, &offer->source_destroy);
	wl_resource_set_implementation(resource, request_impl, offer, offer_resource_destroy);
	announce(device, resource);
	wl_array_for_each(mime, &source->mime_types)
		send_mime(resource, *mime);
	return resource;
}
