// SPDX-License-Identifier: MIT
// The lifetime convention of libgarnet (core layer (doc/compositor.md, "Lifetimes"): one way to
// leave a list.
#ifndef GARNET_CORE_LIFETIME_H
#define GARNET_CORE_LIFETIME_H

#include <wayland-server-core.h>

/*
 * The destructor request of every interface whose object needs nothing more than its resource
 * destroy handler: it destroys the resource, and the resource's destroy handler (never the
 * request) unlinks and frees what stands behind it.
 */
void garnet_resource_destroy_request(struct wl_client *client, struct wl_resource *resource);

/*
 * The resource of a bind or a request of client (iface at version, new id id), its requests
 * handled by impl with data as user data, destroy its destroy handler; NULL, with no_memory
 * posted to the client, when out of memory.
 */
struct wl_resource *garnet_resource_create(struct wl_client *client,
					   const struct wl_interface *iface, int version,
					   uint32_t id, const void *impl, void *data,
					   wl_resource_destroy_func_t destroy);

/*
 * Takes a link (a wl_list entry or a wl_listener's link) off its list and leaves it an empty
 * list of its own, so that unlinking it again, from a destroy handler running later or twice,
 * is harmless. Every object that sits on a list leaves it through this when destroyed.
 */
void garnet_list_unlink(struct wl_list *link);

/*
 * A listener on no signal yet, calling notify once added: its link is an empty list of its
 * own, so that garnet_list_unlink (or wl_list_remove) may take it off whether or not it was
 * ever added.
 */
void garnet_listener_init(struct wl_listener *listener, wl_notify_func_t notify);

/*
 * The destroy handler of a resource whose only state is its place on a list (a seat's
 * pointers, an output's wl_output resources, frame callbacks): it leaves the list.
 */
void garnet_resource_unlink(struct wl_resource *resource);

/*
 * Makes every resource on resources (a list of resources unlinked by garnet_resource_unlink)
 * inert when the object they stand for goes away before them: their user data becomes NULL
 * and each leaves the list, so that their requests, which the client may still send, find
 * nothing, and their destroy handler, run later, unlinks a link that is alone.
 */
void garnet_resources_make_inert(struct wl_list *resources);

#endif
