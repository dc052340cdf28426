// SPDX-License-Identifier: MIT
// The seat (core layer), private: what the seat files share (seat.c, seat-keyboard.c,
// seat-virtual-keys.c, seat-pointer.c, seat-grab.c, seat-cursor.c, seat-touch.c).
#ifndef GARNET_CORE_SEAT_PRIVATE_H
#define GARNET_CORE_SEAT_PRIVATE_H

#include "seat.h"
#include "shell-hooks.h"

/* The seat with what only its own files use; garnet_seat_create makes one of these. */
struct seat_private {
	struct garnet_seat base;
	struct wl_global *global;
	struct wl_list resources, pointers, keyboards, touches;

	/* A virtual keyboard's keymap was sent to this client (by that owner) in place of the
	 * seat's; the seat's goes back before the client's next physical key or focus change.
	 * Compared, never used. */
	struct wl_client *foreign_keymap_client;
	const void *foreign_keymap_owner;

	struct wl_listener keyboard_focus_destroy, pointer_focus_destroy;
	/* Where and when the button that started the grab went down. */
	uint32_t grab_button, grab_time;
	double grab_x, grab_y;
	uint32_t pointer_enter_serial;
	/* The wheel's 120ths of a click behind the axis event being sent; 0: not a wheel's. */
	int32_t axis_value120;
	struct wl_listener cursor_destroy;
	int32_t hotspot_x, hotspot_y;
	/* The client under the pointer asked for no cursor at all (set_cursor with NULL). */
	bool cursor_hidden;
	struct wl_listener drag_icon_destroy;

	struct garnet_touch_point touch[GARNET_TOUCH_POINTS];

	/* Ctrl+Alt+Fn: set by backends that run on a VT. */
	bool (*vt_switch)(void *data, int vt);
	void *vt_switch_data;
};

static inline struct seat_private *seat_priv(struct garnet_seat *seat)
{
	return wl_container_of(seat, (struct seat_private *)NULL, base);
}

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
/* What makes a wl_keyboard, a wl_pointer and a wl_touch differ when one is made. */
struct seat_device {
	const struct wl_interface *iface;
	const void *impl; /* its request handlers */
	enum garnet_input_kind kind;
	/* Tells the new device what it must know now: focus, if not NULL, is the surface of its
	 * client that has the seat's focus of kind and may receive it. May be NULL. */
	void (*created)(struct garnet_seat *seat, struct wl_resource *device,
			struct garnet_surface *focus);
};

/* The device of request id of seat_res, on the seat's list of its kind; inert (user data NULL)
 * when the seat is gone. */
void seat_create_device(struct wl_client *client, struct wl_resource *seat_res, uint32_t id,
			const struct seat_device *kind);

/* seat-keyboard.c */
void seat_send_modifiers(struct garnet_seat *seat, struct wl_resource *keyboard, uint32_t serial);
void seat_keyboard_focus_destroyed(struct wl_listener *listener, void *data);
extern const struct seat_device seat_keyboard;
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
extern const struct seat_device seat_pointer;

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
extern const struct seat_device seat_touch;

#endif
