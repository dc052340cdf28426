/* SPDX-License-Identifier: MIT */
/* A data source (core layer): what a client offers as the clipboard, the primary selection or
 * a drag, and the seat's selections. wl_data_device's global is made in data-device.c. */
#ifndef GARNET_CORE_DATA_SOURCE_H
#define GARNET_CORE_DATA_SOURCE_H

#include "compositor.h"

struct garnet_data_source;
struct garnet_data_source_impl {
	void (*send)(struct garnet_data_source *source, const char *mime, int32_t fd);
	void (*cancel)(struct garnet_data_source *source);
};
struct garnet_data_source {
	const struct garnet_data_source_impl *impl;
	struct wl_resource *resource; /* NULL for garnet's own sources (an X selection) */
	/* Whose data it is, for the security hook: the resource's client, or the Xwayland whose
	 * X client owns the selection. */
	struct wl_client *client;
	struct wl_array mime_types; /* char * */
	bool used; /* set as a selection or dragged: once only */
	uint32_t dnd_actions; /* what the source offers (wl_data_device_manager.dnd_action) */
	uint32_t current_action;
	bool accepted;
	struct {
		struct wl_signal destroy;
	} events;
};
/*
 * A pointer to a data source that becomes NULL when the source is destroyed: what an offer
 * holds, since an offer outlives its source. A zeroed ref points at nothing.
 */
struct garnet_data_source_ref {
	struct garnet_data_source *ptr;
	struct wl_listener destroy; /* on ptr's destroy signal while ptr is not NULL */
};

/* Points ref at source (NULL: at nothing), leaving the source it pointed at before. */
void garnet_data_source_ref_set(struct garnet_data_source_ref *ref,
				struct garnet_data_source *source);

/* Readies a source whose requests come from resource and whose events impl sends. A source
 * without a resource (garnet's own) names its client itself, after this. */
void garnet_data_source_init(struct garnet_data_source *source,
			     const struct garnet_data_source_impl *impl,
			     struct wl_resource *resource);
/* Emits destroy and frees the mime types (the struct belongs to the caller). */
void garnet_data_source_finish(struct garnet_data_source *source);
bool garnet_data_source_add_mime(struct garnet_data_source *source, const char *mime);
/* Hands fd to the source's client for writing mime, if the security hook lets client read it;
 * closes fd either way. */
void garnet_data_source_read(struct garnet_seat *seat, struct garnet_data_source *source,
			     struct wl_client *reader, enum garnet_selection_kind kind,
			     const char *mime, int32_t fd);
/* The client that now gets selections offered: the one with keyboard focus. */
struct wl_client *garnet_seat_selection_client(struct garnet_seat *seat);
void garnet_seat_data_device_focus(struct garnet_seat *seat, struct wl_client *client);
void garnet_seat_set_selection(struct garnet_seat *seat, struct garnet_data_source *source);
bool garnet_data_device_init(struct garnet_compositor *c);

#endif
