// SPDX-License-Identifier: MIT
// wl_seat: pointer, keyboard and touch. Every event goes to one client, the focused one, and
// only after the security hook allowed it: there is no path that sends input to everyone.
#include <stdlib.h>
#include <unistd.h>

#include "compositor.h"
#include "surface.h"
#include "seat.h"
#include "consent.h"
#include "seat-private.h"

#define SEAT_VERSION 8

static const char *const kind_names[] = {
	[GARNET_INPUT_KEYBOARD] = "keyboard",
	[GARNET_INPUT_POINTER] = "pointer",
	[GARNET_INPUT_TOUCH] = "touch",
};

bool garnet_seat_may_deliver(struct garnet_seat *seat, struct garnet_surface *surface,
			     enum garnet_input_kind kind)
{
	struct garnet_compositor *c = seat->compositor;
	struct wl_client *client;
	pid_t pid = 0;

	if (!surface)
		return false;
	if (c->locked && !lock_owns(surface))
		return false;
	/* garnet's consent dialog is modal: nobody but it gets input while the user decides. */
	if (garnet_consent_active(c))
		return false;
	if (!c->hooks.deliver_input)
		return true;
	client = wl_resource_get_client(surface->resource);
	if (c->hooks.deliver_input(c->hooks.data, client, surface, kind))
		return true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_INFO, "security", "denied: %s input to pid %d (wl_surface@%u)",
		   kind_names[kind], (int)pid, wl_resource_get_id(surface->resource));
	return false;
}

void seat_create_device(struct wl_client *client, struct wl_resource *seat_res, uint32_t id,
			const struct seat_device *kind)
{
	struct garnet_seat *seat = wl_resource_get_user_data(seat_res);
	struct wl_resource *resource =
		wl_resource_create(client, kind->iface, wl_resource_get_version(seat_res), id);
	struct garnet_surface *focus = NULL;
	struct wl_list *list;

	if (!resource) {
		wl_resource_post_no_memory(seat_res);
		return;
	}
	wl_resource_set_implementation(resource, kind->impl, seat, garnet_resource_unlink);
	if (!seat) {
		wl_list_init(wl_resource_get_link(resource));
		return;
	}
	switch (kind->kind) {
	case GARNET_INPUT_KEYBOARD:
		list = &seat_priv(seat)->keyboards;
		focus = seat->keyboard_focus;
		break;
	case GARNET_INPUT_POINTER:
		list = &seat_priv(seat)->pointers;
		focus = seat->pointer_focus;
		break;
	default:
		list = &seat_priv(seat)->touches;
		break;
	}
	wl_list_insert(list, wl_resource_get_link(resource));
	if (focus &&
	    (surface_client(focus) != client || !garnet_seat_may_deliver(seat, focus, kind->kind)))
		focus = NULL;
	if (kind->created)
		kind->created(seat, resource, focus);
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	seat_create_device(client, resource, id, &seat_pointer);
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	seat_create_device(client, resource, id, &seat_keyboard);
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	seat_create_device(client, resource, id, &seat_touch);
}

static const struct wl_seat_interface seat_impl = {
	.get_pointer = seat_get_pointer,
	.get_keyboard = seat_get_keyboard,
	.get_touch = seat_get_touch,
	.release = garnet_resource_destroy_request,
};

static void seat_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_seat *seat = data;
	struct wl_resource *resource =
		garnet_resource_create(client, &wl_seat_interface, (int)version, id, &seat_impl,
				       seat, garnet_resource_unlink);

	if (!resource)
		return;
	wl_list_insert(&seat_priv(seat)->resources, wl_resource_get_link(resource));
	wl_seat_send_capabilities(resource, WL_SEAT_CAPABILITY_POINTER |
						    WL_SEAT_CAPABILITY_KEYBOARD |
						    WL_SEAT_CAPABILITY_TOUCH);
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(resource, "seat0");
}

struct garnet_seat *garnet_seat_create(struct garnet_compositor *c,
				       const struct garnet_keyboard_options *kb)
{
	struct seat_private *sp = calloc(1, sizeof(*sp));
	struct garnet_seat *seat = sp ? &sp->base : NULL;

	if (!sp)
		return NULL;
	seat->compositor = c;
	seat->keymap_fd = -1;
	wl_list_init(&sp->resources);
	wl_list_init(&sp->pointers);
	wl_list_init(&sp->keyboards);
	wl_list_init(&sp->touches);
	wl_list_init(&seat->data_devices);
	wl_list_init(&seat->primary_devices);
	wl_list_init(&seat->data_control_devices);
	wl_list_init(&sp->keyboard_focus_destroy.link);
	wl_list_init(&sp->pointer_focus_destroy.link);
	garnet_listener_init(&sp->cursor_destroy, seat_cursor_destroyed);
	garnet_listener_init(&sp->drag_icon_destroy, seat_drag_icon_destroyed);
	wl_list_init(&seat->selection_destroy.link);
	wl_list_init(&seat->primary_selection_destroy.link);
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		sp->touch[i].surface_destroy.notify = seat_touch_surface_destroyed;
		wl_list_init(&sp->touch[i].surface_destroy.link);
	}
	wl_signal_init(&seat->events.keyboard_focus);
	wl_signal_init(&seat->events.activity);
	wl_signal_init(&seat->events.motion);
	wl_signal_init(&seat->events.gesture);
	wl_array_init(&seat->keys);
	garnet_seat_input_serials_init(seat);
	sp->keyboard_focus_destroy.notify = seat_keyboard_focus_destroyed;
	sp->pointer_focus_destroy.notify = seat_pointer_focus_destroyed;
	seat->default_grab.impl = &seat_default_grab_impl;
	seat->default_grab.seat = seat;
	seat->grab = &seat->default_grab;
	if (!seat_load_keymap(seat, kb))
		goto err;
	sp->global =
		garnet_global_create(c, &wl_seat_interface, SEAT_VERSION, seat, seat_bind, false);
	if (!sp->global)
		goto err;
	return seat;

err:
	garnet_seat_destroy(seat);
	return NULL;
}

void garnet_seat_destroy(struct garnet_seat *seat)
{
	if (!seat)
		return;
	garnet_resources_make_inert(&seat_priv(seat)->resources);
	garnet_resources_make_inert(&seat_priv(seat)->pointers);
	garnet_resources_make_inert(&seat_priv(seat)->keyboards);
	garnet_resources_make_inert(&seat_priv(seat)->touches);
	wl_list_remove(&seat_priv(seat)->keyboard_focus_destroy.link);
	wl_list_remove(&seat_priv(seat)->pointer_focus_destroy.link);
	wl_list_remove(&seat_priv(seat)->cursor_destroy.link);
	wl_list_remove(&seat_priv(seat)->drag_icon_destroy.link);
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++)
		wl_list_remove(&seat_priv(seat)->touch[i].surface_destroy.link);
	garnet_seat_input_serials_finish(seat);
	if (seat_priv(seat)->global)
		wl_global_destroy(seat_priv(seat)->global);
	if (seat->keymap_fd >= 0)
		close(seat->keymap_fd);
	xkb_state_unref(seat->xkb_state);
	xkb_keymap_unref(seat->keymap);
	xkb_context_unref(seat->xkb);
	wl_array_release(&seat->keys);
	free(seat_priv(seat));
}
