// SPDX-License-Identifier: MIT
// zwlr_data_control_manager_v1: clipboard managers see and set the seat's selections whatever
// has the keyboard. The global is privileged (hidden unless libwmac allows it), every read of
// an offer passes the read_selection hook, and every selection set passes write_selection.
#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/data-source.h"
#include "primary-selection.h"
#include "data-control.h"
#include "wlr-data-control-unstable-v1-server-protocol.h"
#include "selection-objects.h"

#define DATA_CONTROL_VERSION 2

/* ---- sources ---- */

static void source_send(struct garnet_data_source *source, const char *mime, int32_t fd)
{
	zwlr_data_control_source_v1_send_send(source->resource, mime, fd);
}

static void source_cancel(struct garnet_data_source *source)
{
	zwlr_data_control_source_v1_send_cancelled(source->resource);
}

static const struct garnet_data_source_impl source_impl = {
	.send = source_send,
	.cancel = source_cancel,
};

static void source_offer(struct wl_client *client, struct wl_resource *resource,
			 const char *mime)
{
	struct garnet_data_source *source = wl_resource_get_user_data(resource);

	if (source->used) {
		wl_resource_post_error(resource, ZWLR_DATA_CONTROL_SOURCE_V1_ERROR_INVALID_OFFER,
				       "offer after the source was set as a selection");
		return;
	}
	garnet_selection_source_offer(client, resource, mime);
}

static const struct zwlr_data_control_source_v1_interface source_interface_impl = {
	.offer = source_offer,
	.destroy = garnet_resource_destroy_request,
};

/* ---- offers ---- */

static const struct zwlr_data_control_offer_v1_interface offer_impl = {
	.receive = garnet_selection_offer_receive,
	.destroy = garnet_resource_destroy_request,
};

static void announce_offer(struct wl_resource *device, struct wl_resource *offer)
{
	zwlr_data_control_device_v1_send_data_offer(device, offer);
}

static void send_mime(struct wl_resource *offer, const char *mime)
{
	zwlr_data_control_offer_v1_send_offer(offer, mime);
}

/* Tells one device about the current clipboard or primary selection. */
static void send_selection(struct garnet_seat *seat, struct wl_resource *device,
			   enum garnet_selection_kind kind)
{
	bool primary = kind == GARNET_SELECTION_PRIMARY;
	struct garnet_data_source *source = primary ? seat->primary_selection : seat->selection;
	struct wl_resource *offer = NULL;

	if (primary && wl_resource_get_version(device) <
			       ZWLR_DATA_CONTROL_DEVICE_V1_PRIMARY_SELECTION_SINCE_VERSION)
		return;
	if (source) {
		offer = garnet_selection_offer_create(seat, device,
						      &zwlr_data_control_offer_v1_interface,
						      &offer_impl, source, kind, announce_offer,
						      send_mime);
		if (!offer)
			return;
	}
	if (primary)
		zwlr_data_control_device_v1_send_primary_selection(device, offer);
	else
		zwlr_data_control_device_v1_send_selection(device, offer);
}

void garnet_data_control_selection_changed(struct garnet_seat *seat,
					   enum garnet_selection_kind kind)
{
	struct wl_resource *device;

	wl_resource_for_each(device, &seat->data_control_devices)
		send_selection(seat, device, kind);
}

/* ---- devices ---- */

static void set_selection(struct wl_client *client, struct wl_resource *resource,
			  struct wl_resource *source_resource, enum garnet_selection_kind kind)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct garnet_data_source *source =
		source_resource ? wl_resource_get_user_data(source_resource) : NULL;
	struct garnet_compositor *c;

	if (source && source->used) {
		wl_resource_post_error(resource, ZWLR_DATA_CONTROL_DEVICE_V1_ERROR_USED_SOURCE,
				       "the source was already set as a selection");
		return;
	}
	if (!seat) {
		if (source)
			source->impl->cancel(source);
		return;
	}
	c = seat->compositor;
	if (c->hooks.write_selection && !c->hooks.write_selection(c->hooks.data, client, kind)) {
		garnet_log(c, GARNET_LOG_INFO, "security",
			   "denied: a data-control client may not set the %s",
			   kind == GARNET_SELECTION_PRIMARY ? "primary selection" : "clipboard");
		if (source) {
			source->used = true;
			source->impl->cancel(source);
		}
		return;
	}
	if (kind == GARNET_SELECTION_PRIMARY)
		garnet_seat_set_primary_selection(seat, source);
	else
		garnet_seat_set_selection(seat, source);
}

static void device_set_selection(struct wl_client *client, struct wl_resource *resource,
				 struct wl_resource *source)
{
	set_selection(client, resource, source, GARNET_SELECTION_CLIPBOARD);
}

static void device_set_primary_selection(struct wl_client *client, struct wl_resource *resource,
					 struct wl_resource *source)
{
	set_selection(client, resource, source, GARNET_SELECTION_PRIMARY);
}

static const struct zwlr_data_control_device_v1_interface device_impl = {
	.set_selection = device_set_selection,
	.destroy = garnet_resource_destroy_request,
	.set_primary_selection = device_set_primary_selection,
};

/* ---- manager ---- */

static struct wl_list *devices(struct garnet_seat *seat)
{
	return &seat->data_control_devices;
}

static void device_created(struct garnet_seat *seat, struct wl_resource *device)
{
	send_selection(seat, device, GARNET_SELECTION_CLIPBOARD);
	send_selection(seat, device, GARNET_SELECTION_PRIMARY);
}

static const struct garnet_selection_protocol protocol = {
	.source_iface = &zwlr_data_control_source_v1_interface,
	.device_iface = &zwlr_data_control_device_v1_interface,
	.source_requests = &source_interface_impl,
	.device_requests = &device_impl,
	.source_impl = &source_impl,
	.devices = devices,
	.device_created = device_created,
};

static const struct zwlr_data_control_manager_v1_interface manager_impl = {
	.create_data_source = garnet_selection_manager_create_source,
	.get_data_device = garnet_selection_manager_get_device,
	.destroy = garnet_resource_destroy_request,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (!garnet_global_check_bind(c, client, &zwlr_data_control_manager_v1_interface))
		return;
	garnet_resource_create(client, &zwlr_data_control_manager_v1_interface, (int)version, id,
			       &manager_impl, (void *)&protocol, NULL);
}

bool garnet_data_control_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwlr_data_control_manager_v1_interface,
				    DATA_CONTROL_VERSION, c, manager_bind, true) != NULL;
}
