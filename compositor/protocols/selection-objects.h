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

/*
 * A new source object for request id of manager, at version; its requests are handled by
 * request_impl (whose offer may be garnet_selection_source_offer), its events sent by impl.
 * Posts no_memory on manager and returns NULL on failure.
 */
struct garnet_data_source *
garnet_selection_source_create(struct wl_resource *manager, const struct wl_interface *iface,
			       int version, uint32_t id, const void *request_impl,
			       const struct garnet_data_source_impl *impl);

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

/*
 * A new device object for request id of manager, at its version, on list (one of seat's lists
 * of devices), which it leaves when destroyed; its requests are handled by impl with seat as
 * user data. Posts no_memory on manager and returns NULL on failure.
 */
struct wl_resource *garnet_selection_device_create(struct wl_resource *manager,
						  const struct wl_interface *iface, uint32_t id,
						  const void *impl, struct garnet_seat *seat,
						  struct wl_list *list);

#endif
