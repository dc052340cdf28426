// SPDX-License-Identifier: MIT
// zwp_primary_selection_device_manager_v1: the middle-click selection, offered (like the
// clipboard) only to the focused client and read only through the security hook. GTK's older
// gtk_primary_selection_device_manager has the same messages under other names: its objects
// share these handlers and the seat's list of devices, so both see one primary selection.
#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/data-source.h"
#include "primary-selection.h"
#include "data-control.h"
#include "gtk-primary-selection-server-protocol.h"
#include "primary-selection-unstable-v1-server-protocol.h"
#include "selection-objects.h"

static void source_send(struct garnet_data_source *source, const char *mime, int32_t fd)
{
	zwp_primary_selection_source_v1_send_send(source->resource, mime, fd);
}

static void source_cancel(struct garnet_data_source *source)
{
	zwp_primary_selection_source_v1_send_cancelled(source->resource);
}

static const struct garnet_data_source_impl source_impl = {
	.send = source_send,
	.cancel = source_cancel,
};

static const struct zwp_primary_selection_source_v1_interface source_interface_impl = {
	.offer = garnet_selection_source_offer,
	.destroy = garnet_resource_destroy_request,
};

static const struct zwp_primary_selection_offer_v1_interface offer_impl = {
	.receive = garnet_selection_offer_receive,
	.destroy = garnet_resource_destroy_request,
};

static const struct zwp_primary_selection_device_v1_interface device_impl;

static void announce_offer(struct wl_resource *device, struct wl_resource *offer)
{
	zwp_primary_selection_device_v1_send_data_offer(device, offer);
}

static void send_mime(struct wl_resource *offer, const char *mime)
{
	zwp_primary_selection_offer_v1_send_offer(offer, mime);
}

/* The events have the same opcodes and signatures under both names; only a new offer's
 * interface must be its device's own protocol's. */
static const struct wl_interface *offer_iface(struct wl_resource *device)
{
	return wl_resource_instance_of(device, &gtk_primary_selection_device_interface,
				       &device_impl)
		       ? &gtk_primary_selection_offer_interface
		       : &zwp_primary_selection_offer_v1_interface;
}

static void send_selection_to_device(struct garnet_seat *seat, struct wl_resource *device)
{
	struct garnet_data_source *source = seat->primary_selection;
	struct wl_resource *offer;

	if (!source) {
		zwp_primary_selection_device_v1_send_selection(device, NULL);
		return;
	}
	offer = garnet_selection_offer_create(seat, device, offer_iface(device), &offer_impl,
					      source, GARNET_SELECTION_PRIMARY, announce_offer,
					      send_mime);
	if (offer)
		zwp_primary_selection_device_v1_send_selection(device, offer);
}

void garnet_primary_selection_focus(struct garnet_seat *seat, struct wl_client *client)
{
	struct wl_resource *device;

	wl_resource_for_each(device, &seat->primary_devices) {
		if (wl_resource_get_client(device) == client)
			send_selection_to_device(seat, device);
	}
}

static void primary_source_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, primary_selection_destroy);
	struct wl_client *focus = garnet_seat_selection_client(seat);

	garnet_list_unlink(&seat->primary_selection_destroy.link);
	seat->primary_selection = NULL;
	if (focus)
		garnet_primary_selection_focus(seat, focus);
	garnet_data_control_selection_changed(seat, GARNET_SELECTION_PRIMARY);
}

void garnet_seat_set_primary_selection(struct garnet_seat *seat,
				       struct garnet_data_source *source)
{
	struct wl_client *focus = garnet_seat_selection_client(seat);

	if (seat->primary_selection == source)
		return;
	if (seat->primary_selection) {
		seat->primary_selection->impl->cancel(seat->primary_selection);
		garnet_list_unlink(&seat->primary_selection_destroy.link);
	}
	seat->primary_selection = source;
	if (source) {
		source->used = true;
		seat->primary_selection_destroy.notify = primary_source_destroyed;
		wl_signal_add(&source->events.destroy, &seat->primary_selection_destroy);
	}
	if (focus)
		garnet_primary_selection_focus(seat, focus);
	garnet_data_control_selection_changed(seat, GARNET_SELECTION_PRIMARY);
}

static void device_set_selection(struct wl_client *client, struct wl_resource *resource,
				 struct wl_resource *source_resource, uint32_t serial)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct garnet_data_source *source =
		source_resource ? wl_resource_get_user_data(source_resource) : NULL;

	if (!seat)
		return;
	if (garnet_seat_selection_client(seat) != client || (source && source->used)) {
		if (source && !source->used)
			source->impl->cancel(source);
		return;
	}
	garnet_seat_set_primary_selection(seat, source);
}

static const struct zwp_primary_selection_device_v1_interface device_impl = {
	.set_selection = device_set_selection,
	.destroy = garnet_resource_destroy_request,
};

static struct wl_list *devices(struct garnet_seat *seat)
{
	return &seat->primary_devices;
}

static void device_created(struct garnet_seat *seat, struct wl_resource *device)
{
	if (garnet_seat_selection_client(seat) == wl_resource_get_client(device))
		send_selection_to_device(seat, device);
}

static const struct garnet_selection_protocol protocol = {
	.source_iface = &zwp_primary_selection_source_v1_interface,
	.device_iface = &zwp_primary_selection_device_v1_interface,
	.source_requests = &source_interface_impl,
	.device_requests = &device_impl,
	.source_impl = &source_impl,
	.devices = devices,
	.device_created = device_created,
};

static const struct garnet_selection_protocol gtk_protocol = {
	.source_iface = &gtk_primary_selection_source_interface,
	.device_iface = &gtk_primary_selection_device_interface,
	.source_requests = &source_interface_impl,
	.device_requests = &device_impl,
	.source_impl = &source_impl,
	.devices = devices,
	.device_created = device_created,
};

static const struct zwp_primary_selection_device_manager_v1_interface manager_impl = {
	.create_source = garnet_selection_manager_create_source,
	.get_device = garnet_selection_manager_get_device,
	.destroy = garnet_resource_destroy_request,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &zwp_primary_selection_device_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, (void *)&protocol, NULL);
}

static void gtk_manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &gtk_primary_selection_device_manager_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, (void *)&gtk_protocol, NULL);
}

bool garnet_primary_selection_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwp_primary_selection_device_manager_v1_interface, 1, c,
				    manager_bind, false) &&
	       garnet_global_create(c, &gtk_primary_selection_device_manager_interface, 1, c,
				    gtk_manager_bind, false);
}
