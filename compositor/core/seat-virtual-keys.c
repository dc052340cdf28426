// SPDX-License-Identifier: MIT
// Keys from a virtual keyboard: to the focused client only, with that keyboard's keymap
// while it types and the seat's own keymap back afterwards.

#include "surface.h"
#include "seat.h"
#include "seat-private.h"

/* The seat's own keymap and modifiers back to the client a virtual keyboard typed into. */
void seat_restore_keymap(struct garnet_seat *seat)
{
	struct seat_private *sp = seat_priv(seat);
	struct wl_client *client = sp->foreign_keymap_client;
	struct wl_resource *keyboard;
	uint32_t serial;

	if (!client)
		return;
	sp->foreign_keymap_client = NULL;
	sp->foreign_keymap_owner = NULL;
	serial = wl_display_next_serial(seat->compositor->display);
	seat_for_each_resource_of(keyboard, &sp->keyboards, client) {
		wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
					seat->keymap_fd, (uint32_t)seat->keymap_size);
		seat_send_modifiers(seat, keyboard, serial);
	}
}

/* The focused client, if it may get keyboard input now, with owner's keymap in place. */
static struct wl_client *virtual_target(struct garnet_seat *seat,
					const struct garnet_virtual_keys *vk)
{
	struct seat_private *sp = seat_priv(seat);
	struct garnet_surface *focus = seat->keyboard_focus;
	struct wl_client *client;
	struct wl_resource *keyboard;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_KEYBOARD))
		return NULL;
	client = surface_client(focus);
	if (sp->foreign_keymap_client == client && sp->foreign_keymap_owner == vk->owner)
		return client;
	seat_restore_keymap(seat);
	seat_for_each_resource_of(keyboard, &sp->keyboards, client)
		wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
					vk->keymap_fd, vk->keymap_size);
	sp->foreign_keymap_client = client;
	sp->foreign_keymap_owner = vk->owner;
	return client;
}

bool garnet_seat_virtual_key(struct garnet_seat *seat, const struct garnet_virtual_keys *vk,
			     uint32_t time_msec, uint32_t key, bool pressed)
{
	struct wl_client *client;
	struct wl_resource *keyboard;
	uint32_t serial;

	wl_signal_emit(&seat->events.activity, seat);
	client = virtual_target(seat, vk);
	if (!client)
		return false;
	serial = wl_display_next_serial(seat->compositor->display);
	seat_for_each_resource_of(keyboard, &seat_priv(seat)->keyboards, client)
		wl_keyboard_send_key(keyboard, serial, time_msec, key,
				     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
					     : WL_KEYBOARD_KEY_STATE_RELEASED);
	return true;
}

bool garnet_seat_virtual_modifiers(struct garnet_seat *seat, const struct garnet_virtual_keys *vk,
				   uint32_t depressed, uint32_t latched, uint32_t locked,
				   uint32_t group)
{
	struct wl_client *client = virtual_target(seat, vk);
	struct wl_resource *keyboard;
	uint32_t serial;

	if (!client)
		return false;
	serial = wl_display_next_serial(seat->compositor->display);
	seat_for_each_resource_of(keyboard, &seat_priv(seat)->keyboards, client)
		wl_keyboard_send_modifiers(keyboard, serial, depressed, latched, locked,
					   group);
	return true;
}

void garnet_seat_virtual_keyboard_gone(struct garnet_seat *seat, const void *owner)
{
	if (seat_priv(seat)->foreign_keymap_owner == owner)
		seat_restore_keymap(seat);
}
