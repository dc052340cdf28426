/* SPDX-License-Identifier: MIT */
/* wl_data_device (core layer), private: what data-device.c and data-device-drag.c share:
 * offers, and starting a drag. */
#ifndef GARNET_DATA_DEVICE_PRIVATE_H
#define GARNET_DATA_DEVICE_PRIVATE_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct garnet_data_source;
struct garnet_seat;
struct garnet_surface;

/* Creates an offer of source on one data device and announces its mime types (and, for a
 * drag, the source's actions). NULL when out of memory. */
struct wl_resource *data_device_make_offer(struct garnet_seat *seat, struct wl_resource *device,
					   struct garnet_data_source *source, bool drag);

/* Starts a drag of source (NULL: a drag within the client) by client from the implicit grab the
 * caller checked; icon, if any, takes the drag icon role (a role error on device otherwise). */
void data_device_start_drag(struct garnet_seat *seat, struct wl_client *client,
			    struct wl_resource *device, struct garnet_data_source *source,
			    struct garnet_surface *icon);

#endif
