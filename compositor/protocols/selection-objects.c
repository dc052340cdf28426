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

void garnet_selection_manager_create_source(struct wl_client *client, struct wl_resource *manager,
					    uint32_t id)
{
	const struct garnet_selection_protocol *p = wl_resource_get_user_data(manager);
	struct garnet_data_source *source = calloc(1, sizeof(*source));
	struct wl_resource *resource;

	if (!source) {
		wl_resource_post_no_memory(manager);
		return;
	}
	resource =
		wl_resource_create(client, p->source_iface, wl_resource_get_version(manager), id);
	if (!resource) {
		free(source);
		wl_resource_post_no_memory(manager);
		return;
	}
	garnet_data_source_init(source, p->source_impl, resource);
	wl_resource_set_implementation(resource, p->source_requests, source,
				       source_resource_destroy);
}

void garnet_selection_manager_get_device(struct wl_client *client, struct wl_resource *manager,
					 uint32_t id, struct wl_resource *seat_resource)
{
	const struct garnet_selection_protocol *p = wl_resource_get_user_data(manager);
	struct garnet_seat *seat = wl_resource_get_user_data(seat_resource);
	struct wl_resource *device =
		wl_resource_create(client, p->device_iface, wl_resource_get_version(manager), id);

	if (!device) {
		wl_resource_post_no_memory(manager);
		return;
	}
	wl_resource_set_implementation(device, p->device_requests, seat, garnet_resource_unlink);
	if (!seat) {
		wl_list_init(wl_resource_get_link(device));
		return;
	}
	wl_list_insert(p->devices(seat), wl_resource_get_link(device));
	p->device_created(seat, device);
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
	struct garnet_data_source_ref source;
	enum garnet_selection_kind kind;
};

void garnet_selection_offer_receive(struct wl_client *client, struct wl_resource *resource,
				    const char *mime, int32_t fd)
{
	struct selection_offer *offer = wl_resource_get_user_data(resource);

	if (!offer->source.ptr) {
		close(fd);
		return;
	}
	garnet_data_source_read(offer->seat, offer->source.ptr, client, offer->kind, mime, fd);
}

static void offer_resource_destroy(struct wl_resource *resource)
{
	struct selection_offer *offer = wl_resource_get_user_data(resource);

	garnet_data_source_ref_set(&offer->source, NULL);
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
	garnet_data_source_ref_set(&offer->source, source);
	offer->kind = kind;
	wl_resource_set_implementation(resource, request_impl, offer, offer_resource_destroy);
	announce(device, resource);
	wl_array_for_each(mime, &source->mime_types)
		send_mime(resource, *mime);
	return resource;
}
