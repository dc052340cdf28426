// SPDX-License-Identifier: MIT
// wl_data_device_manager v3: sources, offers, the clipboard selection and the data device;
// drag and drop is data-device-drag.c. Offers go only to the client with keyboard focus (or
// under a drag); every read passes the security hook.
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data-device-private.h"
#include "compositor.h"
#include "surface.h"
#include "seat.h"
#include "data-source.h"
#include "client-budget.h"

#define DATA_DEVICE_MANAGER_VERSION 3
#define ALL_ACTIONS                                                                                \
	(WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY | WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE |         \
	 WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK)

/* ---- sources, shared with primary selection ---- */

void garnet_data_source_init(struct garnet_data_source *source,
			     const struct garnet_data_source_impl *impl,
			     struct wl_resource *resource)
{
	source->impl = impl;
	source->resource = resource;
	source->client = resource ? wl_resource_get_client(resource) : NULL;
	wl_array_init(&source->mime_types);
	wl_signal_init(&source->events.destroy);
}

static void source_ref_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_data_source_ref *ref = wl_container_of(listener, ref, destroy);

	garnet_data_source_ref_set(ref, NULL);
}

void garnet_data_source_ref_set(struct garnet_data_source_ref *ref,
				struct garnet_data_source *source)
{
	if (ref->ptr)
		garnet_list_unlink(&ref->destroy.link);
	ref->ptr = source;
	if (source) {
		ref->destroy.notify = source_ref_destroyed;
		wl_signal_add(&source->events.destroy, &ref->destroy);
	}
}

void garnet_data_source_finish(struct garnet_data_source *source)
{
	char **mime;

	wl_signal_emit_mutable(&source->events.destroy, source);
	if (source->resource)
		garnet_client_uncharge(source->client,
				       GARNET_LIMIT_MIME_TYPES,
				       source->mime_types.size / sizeof(*mime));
	wl_array_for_each(mime, &source->mime_types)
		free(*mime);
	wl_array_release(&source->mime_types);
}

bool garnet_data_source_add_mime(struct garnet_data_source *source, const char *mime)
{
	/* garnet's own sources bound their types themselves, and are charged nothing: over the
	 * budget a client gets an error, which would end an Xwayland. */
	struct wl_client *client = source->resource ? source->client : NULL;
	char **slot;

	/* Over the budget the client's error is posted already; the caller's adds nothing. */
	if (client && !garnet_client_charge(client, GARNET_LIMIT_MIME_TYPES, 1))
		return false;
	slot = wl_array_add(&source->mime_types, sizeof(*slot));
	if (!slot) {
		if (client)
			garnet_client_uncharge(client, GARNET_LIMIT_MIME_TYPES, 1);
		return false;
	}
	*slot = strdup(mime);
	if (!*slot) {
		source->mime_types.size -= sizeof(*slot);
		if (client)
			garnet_client_uncharge(client, GARNET_LIMIT_MIME_TYPES, 1);
		return false;
	}
	return true;
}

void garnet_data_source_read(struct garnet_seat *seat, struct garnet_data_source *source,
			     struct wl_client *reader, enum garnet_selection_kind kind,
			     const char *mime, int32_t fd)
{
	struct garnet_compositor *c = seat->compositor;
	struct wl_client *owner = source->client;
	pid_t pid = 0;

	if (c->hooks.read_selection &&
	    !c->hooks.read_selection(c->hooks.data, reader, owner, kind)) {
		wl_client_get_credentials(reader, &pid, NULL, NULL);
		garnet_log(c, GARNET_LOG_INFO, "security",
			   "denied: pid %d may not read the %s (%s)", (int)pid,
			   kind == GARNET_SELECTION_PRIMARY ? "primary selection"
			   : kind == GARNET_SELECTION_DRAG  ? "drag data"
							    : "clipboard",
			   mime);
		close(fd);
		return;
	}
	source->impl->send(source, mime, fd);
	close(fd);
}

struct wl_client *garnet_seat_selection_client(struct garnet_seat *seat)
{
	return seat->keyboard_focus ? wl_resource_get_client(seat->keyboard_focus->resource)
				    : NULL;
}

struct wl_client *garnet_compositor_get_focused_client(struct garnet_compositor *c)
{
	return garnet_seat_selection_client(c->seat);
}

/* ---- wl_data_source ---- */

struct data_source {
	struct garnet_data_source base;
	bool actions_set;
};

static void source_send(struct garnet_data_source *source, const char *mime, int32_t fd)
{
	wl_data_source_send_send(source->resource, mime, fd);
}

static void source_cancel(struct garnet_data_source *source)
{
	wl_data_source_send_cancelled(source->resource);
}

static const struct garnet_data_source_impl source_impl = {
	.send = source_send,
	.cancel = source_cancel,
};

static void source_offer(struct wl_client *client, struct wl_resource *resource,
			 const char *mime)
{
	struct data_source *source = wl_resource_get_user_data(resource);

	if (!garnet_data_source_add_mime(&source->base, mime))
		wl_resource_post_no_memory(resource);
}

static void source_set_actions(struct wl_client *client, struct wl_resource *resource,
			       uint32_t actions)
{
	struct data_source *source = wl_resource_get_user_data(resource);

	if (source->actions_set) {
		wl_resource_post_error(resource, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
				       "set_actions called twice");
		return;
	}
	if (actions & ~ALL_ACTIONS) {
		wl_resource_post_error(resource, WL_DATA_SOURCE_ERROR_INVALID_ACTION_MASK,
				       "action mask 0x%x has unknown bits", actions);
		return;
	}
	if (source->base.used) {
		wl_resource_post_error(resource, WL_DATA_SOURCE_ERROR_INVALID_SOURCE,
				       "set_actions after the source was used");
		return;
	}
	source->actions_set = true;
	source->base.dnd_actions = actions;
}

static const struct wl_data_source_interface data_source_impl = {
	.offer = source_offer,
	.destroy = garnet_resource_destroy_request,
	.set_actions = source_set_actions,
};

static void source_resource_destroy(struct wl_resource *resource)
{
	struct data_source *source = wl_resource_get_user_data(resource);

	garnet_data_source_finish(&source->base);
	free(source);
}

static struct data_source *source_from_resource(struct wl_resource *resource)
{
	if (!resource || !wl_resource_instance_of(resource, &wl_data_source_interface,
						  &data_source_impl))
		return NULL;
	return wl_resource_get_user_data(resource);
}

/* ---- wl_data_offer ---- */

struct data_offer {
	struct wl_resource *resource;
	struct garnet_seat *seat;
	struct garnet_data_source_ref source;
	bool drag;
	uint32_t actions, preferred_action;
};

static void offer_accept(struct wl_client *client, struct wl_resource *resource,
			 uint32_t serial, const char *mime)
{
	struct data_offer *offer = wl_resource_get_user_data(resource);

	if (!offer || !offer->source.ptr || !offer->drag)
		return;
	offer->source.ptr->accepted = mime != NULL;
	wl_data_source_send_target(offer->source.ptr->resource, mime);
}

static void offer_receive(struct wl_client *client, struct wl_resource *resource,
			  const char *mime, int32_t fd)
{
	struct data_offer *offer = wl_resource_get_user_data(resource);

	if (!offer || !offer->source.ptr) {
		close(fd);
		return;
	}
	garnet_data_source_read(offer->seat, offer->source.ptr, client,
				offer->drag ? GARNET_SELECTION_DRAG : GARNET_SELECTION_CLIPBOARD,
				mime, fd);
}

static void offer_finish(struct wl_client *client, struct wl_resource *resource)
{
	struct data_offer *offer = wl_resource_get_user_data(resource);

	if (!offer || !offer->source.ptr || !offer->drag)
		return;
	if (!offer->source.ptr->accepted || !offer->source.ptr->current_action) {
		wl_resource_post_error(resource, WL_DATA_OFFER_ERROR_INVALID_FINISH,
				       "finish without an accepted mime type and action");
		return;
	}
	if (wl_resource_get_version(offer->source.ptr->resource) >=
	    WL_DATA_SOURCE_DND_FINISHED_SINCE_VERSION)
		wl_data_source_send_dnd_finished(offer->source.ptr->resource);
}

static uint32_t choose_action(struct data_offer *offer)
{
	uint32_t common = offer->actions & offer->source.ptr->dnd_actions;

	if (common & offer->preferred_action)
		return offer->preferred_action;
	if (common & WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY)
		return WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY;
	if (common & WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE)
		return WL_DATA_DEVICE_MANAGER_DND_ACTION_MOVE;
	return common & WL_DATA_DEVICE_MANAGER_DND_ACTION_ASK;
}

static void offer_update_action(struct data_offer *offer)
{
	uint32_t action;

	if (!offer->source.ptr)
		return;
	action = choose_action(offer);
	if (offer->source.ptr->current_action == action)
		return;
	offer->source.ptr->current_action = action;
	if (wl_resource_get_version(offer->source.ptr->resource) >=
	    WL_DATA_SOURCE_ACTION_SINCE_VERSION)
		wl_data_source_send_action(offer->source.ptr->resource, action);
	if (wl_resource_get_version(offer->resource) >= WL_DATA_OFFER_ACTION_SINCE_VERSION)
		wl_data_offer_send_action(offer->resource, action);
}

static void offer_set_actions(struct wl_client *client, struct wl_resource *resource,
			      uint32_t actions, uint32_t preferred)
{
	struct data_offer *offer = wl_resource_get_user_data(resource);

	if ((actions & ~ALL_ACTIONS) || (preferred & ~ALL_ACTIONS) ||
	    (preferred && (preferred & (preferred - 1)))) {
		wl_resource_post_error(resource, WL_DATA_OFFER_ERROR_INVALID_ACTION_MASK,
				       "bad action mask 0x%x or preferred action 0x%x", actions,
				       preferred);
		return;
	}
	if (!offer || !offer->drag) {
		if (offer)
			wl_resource_post_error(resource, WL_DATA_OFFER_ERROR_INVALID_OFFER,
					       "set_actions on a selection offer");
		return;
	}
	offer->actions = actions;
	offer->preferred_action = preferred;
	offer_update_action(offer);
}

static const struct wl_data_offer_interface data_offer_impl = {
	.accept = offer_accept,
	.receive = offer_receive,
	.destroy = garnet_resource_destroy_request,
	.finish = offer_finish,
	.set_actions = offer_set_actions,
};

static void offer_resource_destroy(struct wl_resource *resource)
{
	struct data_offer *offer = wl_resource_get_user_data(resource);

	if (!offer)
		return;
	if (offer->seat->drag_offer == resource)
		offer->seat->drag_offer = NULL;
	garnet_data_source_ref_set(&offer->source, NULL);
	free(offer);
}

struct wl_resource *data_device_make_offer(struct garnet_seat *seat, struct wl_resource *device,
				      struct garnet_data_source *source, bool drag)
{
	struct data_offer *offer = calloc(1, sizeof(*offer));
	char **mime;

	if (!offer)
		return NULL;
	offer->resource = wl_resource_create(wl_resource_get_client(device),
					     &wl_data_offer_interface,
					     wl_resource_get_version(device), 0);
	if (!offer->resource) {
		free(offer);
		return NULL;
	}
	offer->seat = seat;
	garnet_data_source_ref_set(&offer->source, source);
	offer->drag = drag;
	wl_resource_set_implementation(offer->resource, &data_offer_impl, offer,
				       offer_resource_destroy);
	wl_data_device_send_data_offer(device, offer->resource);
	wl_array_for_each(mime, &source->mime_types)
		wl_data_offer_send_offer(offer->resource, *mime);
	if (drag && wl_resource_get_version(offer->resource) >=
			    WL_DATA_OFFER_SOURCE_ACTIONS_SINCE_VERSION)
		wl_data_offer_send_source_actions(offer->resource, source->dnd_actions);
	return offer->resource;
}

/* ---- selection ---- */

static void send_selection_to(struct garnet_seat *seat, struct wl_client *client)
{
	struct wl_resource *device, *offer;

	wl_resource_for_each(device, &seat->data_devices) {
		if (wl_resource_get_client(device) != client)
			continue;
		if (!seat->selection) {
			wl_data_device_send_selection(device, NULL);
			continue;
		}
		offer = data_device_make_offer(seat, device, seat->selection, false);
		wl_data_device_send_selection(device, offer);
	}
}

void garnet_seat_data_device_focus(struct garnet_seat *seat, struct wl_client *client)
{
	if (!client)
		return;
	send_selection_to(seat, client);
	if (seat->compositor->protocol_hooks.selection_focus)
		seat->compositor->protocol_hooks.selection_focus(seat, client);
}

/* Clipboard managers hear of it. */
static void selection_changed(struct garnet_seat *seat)
{
	struct garnet_protocol_hooks *hooks = &seat->compositor->protocol_hooks;

	if (hooks->selection_changed)
		hooks->selection_changed(seat, GARNET_SELECTION_CLIPBOARD);
}

static void selection_source_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, selection_destroy);
	struct wl_client *focus = garnet_seat_selection_client(seat);

	garnet_list_unlink(&seat->selection_destroy.link);
	seat->selection = NULL;
	if (focus)
		send_selection_to(seat, focus);
	selection_changed(seat);
}

void garnet_seat_set_selection(struct garnet_seat *seat, struct garnet_data_source *source)
{
	struct wl_client *focus = garnet_seat_selection_client(seat);

	if (seat->selection == source)
		return;
	if (seat->selection) {
		seat->selection->impl->cancel(seat->selection);
		garnet_list_unlink(&seat->selection_destroy.link);
	}
	seat->selection = source;
	if (source) {
		source->used = true;
		seat->selection_destroy.notify = selection_source_destroyed;
		wl_signal_add(&source->events.destroy, &seat->selection_destroy);
	}
	if (focus)
		send_selection_to(seat, focus);
	selection_changed(seat);
}

static void device_start_drag(struct wl_client *client, struct wl_resource *resource,
			      struct wl_resource *source_resource, struct wl_resource *origin,
			      struct wl_resource *icon, uint32_t serial)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct data_source *source = source_from_resource(source_resource);
	struct garnet_surface *origin_surface = garnet_surface_from_resource(origin);
	struct garnet_surface *icon_surface = icon ? garnet_surface_from_resource(icon) : NULL;

	if (!seat)
		return;
	/* Only from the implicit grab the client holds on origin. */
	if (seat->button_count == 0 || serial != seat->grab_serial ||
	    seat->pointer_focus != origin_surface || seat->grab != &seat->default_grab) {
		if (source)
			source->base.impl->cancel(&source->base);
		return;
	}
	if (source && source->base.used) {
		wl_resource_post_error(resource, WL_DATA_DEVICE_ERROR_ROLE,
				       "data source already used");
		return;
	}
	data_device_start_drag(seat, client, resource, source ? &source->base : NULL,
			       icon_surface);
}

static void device_set_selection(struct wl_client *client, struct wl_resource *resource,
				 struct wl_resource *source_resource, uint32_t serial)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct data_source *source = source_from_resource(source_resource);

	if (!seat)
		return;
	if (source && source->base.used) {
		wl_resource_post_error(source_resource, WL_DATA_SOURCE_ERROR_INVALID_SOURCE,
				       "data source already used for a drag or selection");
		return;
	}
	/* Only the client with keyboard focus may set the selection. */
	if (garnet_seat_selection_client(seat) != client) {
		if (source)
			source->base.impl->cancel(&source->base);
		return;
	}
	garnet_seat_set_selection(seat, source ? &source->base : NULL);
}

static const struct wl_data_device_interface data_device_impl = {
	.start_drag = device_start_drag,
	.set_selection = device_set_selection,
	.release = garnet_resource_destroy_request,
};

/* ---- manager ---- */

static void manager_create_data_source(struct wl_client *client, struct wl_resource *resource,
				       uint32_t id)
{
	struct data_source *source = calloc(1, sizeof(*source));
	struct wl_resource *source_resource;

	if (!source) {
		wl_resource_post_no_memory(resource);
		return;
	}
	source_resource = wl_resource_create(client, &wl_data_source_interface,
					     wl_resource_get_version(resource), id);
	if (!source_resource) {
		free(source);
		wl_resource_post_no_memory(resource);
		return;
	}
	garnet_data_source_init(&source->base, &source_impl, source_resource);
	/* Before v3 there are no actions: a drag is a copy. */
	if (wl_resource_get_version(resource) < 3)
		source->base.dnd_actions = WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY;
	wl_resource_set_implementation(source_resource, &data_source_impl, source,
				       source_resource_destroy);
}

static void manager_get_data_device(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, struct wl_resource *seat_resource)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct wl_resource *device = wl_resource_create(client, &wl_data_device_interface,
							wl_resource_get_version(resource), id);

	if (!device) {
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(device, &data_device_impl, c->seat,
				       garnet_resource_unlink);
	wl_list_insert(&c->seat->data_devices, wl_resource_get_link(device));
	if (garnet_seat_selection_client(c->seat) == client)
		send_selection_to(c->seat, client);
}

static const struct wl_data_device_manager_interface manager_impl = {
	.create_data_source = manager_create_data_source,
	.get_data_device = manager_get_data_device,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wl_data_device_manager_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_data_device_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wl_data_device_manager_interface,
				    DATA_DEVICE_MANAGER_VERSION, c, manager_bind, false) != NULL;
}
