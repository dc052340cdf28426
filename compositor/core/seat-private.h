// SPDX-License-Identifier: MIT
// The seat (core layer), private: what the seat files share (seat.c, seat-keyboard.c,
// seat-virtual-keys.c, seat-pointer.c, seat-grab.c, seat-cursor.c, seat-touch.c).
#ifndef GARNET_CORE_SEAT_PRIVATE_H
#define GARNET_CORE_SEAT_PRIVATE_H

#include "seat.h"
#include "shell-hooks.h"

static inline struct wl_client *surface_client(struct garnet_surface *surface)
{
	return wl_resource_get_client(surface->resource);
}

/* Each resource on list (a seat's pointers, keyboards or touches) that belongs to client: the
 * only ones an event for client's surface may go to. */
#define seat_for_each_resource_of(resource, list, client)                                      \
	wl_resource_for_each(resource, list) if (wl_resource_get_client(resource) != (client)) \
	{                                                                                      \
	}                                                                                      \
	else

/* Is surface part of the lock screen now (a role that says so)? */
static inline bool lock_owns(struct garnet_surface *surface)
{
	return surface->role && surface->role->lock_owns && surface->role->lock_owns(surface);
}

/* seat.c */
/* A wl_pointer, wl_keyboard or wl_touch of seat_res, on list; NULL (the resource inert) when
 * the seat is gone. */
struct wl_resource *seat_create_device(struct wl_client *client, struct wl_resource *seat_res,
				       const struct wl_interface *iface, const void *impl,
				       uint32_t id, struct wl_list *list);

/* seat-keyboard.c */
void seat_send_modifiers(struct garnet_seat *seat, struct wl_resource *keyboard, uint32_t serial);
void seat_keyboard_focus_destroyed(struct wl_listener *listener, void *data);
void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id);
bool seat_load_keymap(struct garnet_seat *seat, const struct garnet_keyboard_options *kb);

/* seat-virtual-keys.c */
/* The seat's own keymap back to the client a virtual keyboard typed into, if any. */
void seat_restore_keymap(struct garnet_seat *seat);

/* seat-pointer.c */
/* wl_pointer.frame, to clients new enough to know it. */
void seat_pointer_frame(struct wl_resource *pointer);
/* wl_pointer.axis and frame, with what a wheel adds for the pointer's version. */
void seat_pointer_send_axis(struct garnet_seat *seat, struct wl_resource *pointer, uint32_t time,
			    uint32_t axis, double value);
void seat_pointer_focus_destroyed(struct wl_listener *listener, void *data);
void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id);

/* seat-grab.c */
extern const struct garnet_pointer_grab_impl seat_default_grab_impl;

/* seat-cursor.c */
void seat_set_cursor_hidden(struct garnet_seat *seat, bool hidden);
void seat_set_cursor_surface(struct garnet_seat *seat, struct garnet_surface *surface);
/* Damages what is drawn at the pointer, before and after it moves. */
void seat_damage_pointer_images(struct garnet_seat *seat);
void seat_cursor_destroyed(struct wl_listener *listener, void *data);
void seat_drag_icon_destroyed(struct wl_listener *listener, void *data);
/* wl_pointer.set_cursor */
void seat_pointer_set_cursor(struct wl_client *client, struct wl_resource *resource,
			     uint32_t serial, struct wl_resource *surface_resource,
			     int32_t hotspot_x, int32_t hotspot_y);

/* seat-touch.c */
void seat_touch_surface_destroyed(struct wl_listener *listener, void *data);
void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id);

#endif
