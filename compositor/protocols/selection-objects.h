/* SPDX-License-Identifier: MIT */
/*
 * Selection objects (protocols layer): what the selection protocols other than wl_data_device share
 * (primary selection and data control): a source object whose requests are offer(mime) and destroy,
 * and an offer object whose requests are receive(mime, fd) and destroy. Their interfaces differ
 * only in name, so one implementation serves both, with each protocol's interface and event senders
 * passed in.
 */
#ifndef GARNET_SELECTION_OBJECTS_H
#define GARNET_SELECTION_OBJECTS_H

#include "../core/seat.h"
#include "../core/data-source.h"

/* What one selection protocol's manager makes, the rest being the same for all. */
struct garnet_selection_protocol {
	const struct wl_interface *source_iface, *device_iface;
	const void *source_requests, *device_requests; /* the request handlers */
	const struct garnet_data_source_impl *source_impl; /* the event senders */
	/* The seat's list of this protocol's devices. */
	struct wl_list *(*devices)(struct garnet_seat *seat);
	/* Tells a new device the selections its client may see now. */
	void (*device_created)(struct garnet_seat *seat, struct wl_resource *device);
};

/*
 * The create_source request of a manager whose user data is its garnet_selection_protocol:
 * a source of that protocol for request id (no_memory posted on failure).
 */
void garnet_selection_manager_create_source(struct wl_client *client, struct wl_resource *manager,
					    uint32_t id);

/*
 * The get_device request of such a manager: a device of seat_resource's seat for request id,
 * on the seat's list of the protocol's devices, which it leaves when destroyed; inert when
 * the seat is gone.
 */
void garnet_selection_manager_get_device(struct wl_client *client, struct wl_resource *manager,
					 uint32_t id, struct wl_resource *seat_resource);

/* The offer request of a source: adds mime (over the client's budget: its error is posted). */
void garnet_selection_source_offer(struct wl_client *client, struct wl_resource *resource,
				   const char *mime);

/* The receive request of an offer: the source writes mime into fd if the reader may read it. */
void garnet_selection_offer_receive(struct wl_client *client, struct wl_resource *resource,
				    const char *mime, int32_t fd);

/*
 * Makes an offer of source (the seat's selection of kind) for device's client, announces it
 * with announce(device, offer) and lists the source's types with send_mime(offer, mime).
 * Returns the offer, or NULL with no_memory posted to the client.
 */
struct wl_resource *
garnet_selection_offer_create(struct garnet_seat *seat, struct wl_resource *device,
			      const struct wl_interface *iface, const void *request_impl,
			      struct garnet_data_source *source, enum garnet_selection_kind kind,
			      void (*announce)(struct wl_resource *device, struct wl_resource *offer),
			      void (*send_mime)(struct wl_resource *offer, const char *mime));

#endif
