// SPDX-License-Identifier: MIT
// What the seat files share (seat.c, seat-keyboard.c, seat-virtual-keys.c, seat-pointer.c,
// seat-grab.c, seat-cursor.c, seat-touch.c).
#ifndef GARNET_CORE_SEAT_PRIVATE_H
#define GARNET_CORE_SEAT_PRIVATE_H

#include "internal.h"

static inline struct wl_client *surface_client(struct garnet_surface *surface)
{
	return wl_resource_get_client(surface->resource);
}

/* seat.c */
struct wl_resource *create_device(struct wl_client *client, struct wl_resource *seat_res,
				  const struct wl_interface *iface, const void *impl, uint32_t id,
				  struct wl_list *list);

/* seat-keyboard.c */
void send_modifiers_to(struct garnet_seat *seat, struct wl_resource *keyboard, uint32_t serial);
void keyboard_focus_destroyed(struct wl_listener *listener, void *data);
void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource, uint32_t id);
bool load_keymap(struct garnet_seat *seat, const struct garnet_keyboard_options *kb);

/* seat-virtual-keys.c */
void restore_keymap(struct garnet_seat *seat);

/* seat-pointer.c */
void pointer_send_frame(struct wl_resource *pointer);
void pointer_focus_destroyed(struct wl_listener *listener, void *data);
void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id);

/* seat-grab.c */
extern const struct garnet_pointer_grab_impl default_grab_impl;

/* seat-cursor.c */
void set_cursor_hidden(struct garnet_seat *seat, bool hidden);
void set_cursor_surface(struct garnet_seat *seat, struct garnet_surface *surface);
void damage_pointer_images(struct garnet_seat *seat);
void cursor_destroyed(struct wl_listener *listener, void *data);
void drag_icon_destroyed(struct wl_listener *listener, void *data);
void pointer_set_cursor(struct wl_client *client, struct wl_resource *resource, uint32_t serial,
			struct wl_resource *surface_resource, int32_t hotspot_x, int32_t hotspot_y);

/* seat-touch.c */
void touch_surface_destroyed(struct wl_listener *listener, void *data);
void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id);

#endif
