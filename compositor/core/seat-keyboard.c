// SPDX-License-Identifier: MIT
// wl_keyboard: the keymap, keyboard focus (enter with the held keys, then modifiers), keys.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compositor.h"
#include "surface.h"
#include "seat.h"
#include "data-source.h"
#include "consent.h"
#include "lock-prompt.h"
#include "seat-private.h"
#include "sealed-memfd.h"

void seat_send_modifiers(struct garnet_seat *seat, struct wl_resource *keyboard, uint32_t serial)
{
	wl_keyboard_send_modifiers(keyboard, serial, seat->mods_depressed, seat->mods_latched,
				   seat->mods_locked, seat->group);
}

static void keyboard_enter(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct wl_display *display = seat->compositor->display;
	struct wl_resource *keyboard;
	uint32_t serial;

	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_KEYBOARD))
		return;
	serial = wl_display_next_serial(display);
	seat_for_each_resource_of(keyboard, &seat_priv(seat)->keyboards, surface_client(surface)) {
		/* enter carries the keys already held, then the modifiers follow. */
		wl_keyboard_send_enter(keyboard, serial, surface->resource, &seat->keys);
		seat_send_modifiers(seat, keyboard, serial);
	}
}

static void keyboard_leave(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct wl_resource *keyboard;
	uint32_t serial = wl_display_next_serial(seat->compositor->display);

	seat_for_each_resource_of(keyboard, &seat_priv(seat)->keyboards, surface_client(surface))
		wl_keyboard_send_leave(keyboard, serial, surface->resource);
}

void seat_keyboard_focus_destroyed(struct wl_listener *listener, void *data)
{
	struct seat_private *sp = wl_container_of(listener, sp, keyboard_focus_destroy);
	struct garnet_seat *seat = &sp->base;

	garnet_list_unlink(&sp->keyboard_focus_destroy.link);
	seat->keyboard_focus = NULL;
	wl_signal_emit_mutable(&seat->events.keyboard_focus, seat);
}

void garnet_seat_set_keyboard_focus(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct seat_private *sp = seat_priv(seat);

	/* While locked a window that maps or asks for focus cannot take the keyboard from the
	 * lock surface. */
	if (seat->keyboard_focus == surface ||
	    (seat->compositor->locked && surface && !lock_owns(surface)) ||
	    (surface && garnet_consent_active(seat->compositor)))
		return;
	seat_restore_keymap(seat);
	if (seat->keyboard_focus) {
		keyboard_leave(seat, seat->keyboard_focus);
		garnet_list_unlink(&sp->keyboard_focus_destroy.link);
	}
	seat->keyboard_focus = surface;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &sp->keyboard_focus_destroy);
		keyboard_enter(seat, surface);
		garnet_seat_data_device_focus(seat, surface_client(surface));
	}
	wl_signal_emit_mutable(&seat->events.keyboard_focus, seat);
}

static bool key_is_held(struct garnet_seat *seat, uint32_t key)
{
	uint32_t *k;

	wl_array_for_each(k, &seat->keys) {
		if (*k == key)
			return true;
	}
	return false;
}

static bool update_keys(struct garnet_seat *seat, uint32_t key, bool pressed)
{
	uint32_t *k, *end = (uint32_t *)((char *)seat->keys.data + seat->keys.size);

	for (k = seat->keys.data; k < end; k++) {
		if (*k != key)
			continue;
		if (pressed)
			return false; /* already down: a repeated press changes nothing */
		*k = end[-1];
		seat->keys.size -= sizeof(*k);
		return true;
	}
	if (!pressed)
		return false;
	k = wl_array_add(&seat->keys, sizeof(*k));
	if (!k)
		return false;
	*k = key;
	return true;
}

void garnet_seat_set_vt_switch_handler(struct garnet_seat *seat,
				       bool (*handler)(void *data, int vt), void *data)
{
	struct seat_private *sp = seat_priv(seat);

	sp->vt_switch = handler;
	sp->vt_switch_data = data;
}

/* Ctrl+Alt+Fn gives XF86Switch_VT_n in xkb's default keymaps; the key never reaches clients. */
static bool vt_switch_key(struct garnet_seat *seat, uint32_t key)
{
	xkb_keysym_t sym;

	if (!seat_priv(seat)->vt_switch)
		return false;
	sym = xkb_state_key_get_one_sym(seat->xkb_state, key + 8);
	if (sym < XKB_KEY_XF86Switch_VT_1 || sym > XKB_KEY_XF86Switch_VT_12)
		return false;
	seat_priv(seat)->vt_switch(seat_priv(seat)->vt_switch_data,
				   (int)(sym - XKB_KEY_XF86Switch_VT_1 + 1));
	return true;
}

void garnet_seat_notify_key(struct garnet_seat *seat, uint32_t time_msec, uint32_t key,
			    bool pressed)
{
	struct garnet_surface *focus;
	struct wl_resource *keyboard;
	uint32_t serial, depressed, latched, locked, group;
	bool mods_changed;

	wl_signal_emit(&seat->events.activity, seat);
	if (pressed && key_is_held(seat, key))
		return;
	xkb_state_update_key(seat->xkb_state, key + 8, pressed ? XKB_KEY_DOWN : XKB_KEY_UP);
	depressed = xkb_state_serialize_mods(seat->xkb_state, XKB_STATE_MODS_DEPRESSED);
	latched = xkb_state_serialize_mods(seat->xkb_state, XKB_STATE_MODS_LATCHED);
	locked = xkb_state_serialize_mods(seat->xkb_state, XKB_STATE_MODS_LOCKED);
	group = xkb_state_serialize_layout(seat->xkb_state, XKB_STATE_LAYOUT_EFFECTIVE);
	mods_changed = depressed != seat->mods_depressed || latched != seat->mods_latched ||
		       locked != seat->mods_locked || group != seat->group;
	seat->mods_depressed = depressed;
	seat->mods_latched = latched;
	seat->mods_locked = locked;
	seat->group = group;

	if (pressed && vt_switch_key(seat, key))
		return;
	/* garnet's own lock screen and consent dialog take every key while they are up. */
	if (garnet_lock_prompt_key(seat->compositor, key, pressed) ||
	    garnet_consent_key(seat->compositor, key, pressed))
		return;
	/* Compositor bindings see the key first; a bound key never reaches a client, not even
	 * in the held keys of a later enter. */
	if (!seat->compositor->locked &&
	    seat->compositor->shell_hooks->handle_key(seat->compositor->shell, key, pressed))
		return;
	/* A key the client saw go down comes up for the client, grab or not. */
	if (seat->key_grab && (pressed || !key_is_held(seat, key)) &&
	    seat->key_grab(seat->key_grab_data, time_msec, key, pressed))
		return;
	if (!update_keys(seat, key, pressed))
		return;
	focus = seat->keyboard_focus;
	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_KEYBOARD))
		return;
	seat_restore_keymap(seat);
	serial = wl_display_next_serial(seat->compositor->display);
	garnet_seat_record_input_serial(seat, surface_client(focus), serial);
	seat_for_each_resource_of(keyboard, &seat_priv(seat)->keyboards, surface_client(focus)) {
		wl_keyboard_send_key(keyboard, serial, time_msec, key,
				     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
					     : WL_KEYBOARD_KEY_STATE_RELEASED);
		if (mods_changed)
			seat_send_modifiers(seat, keyboard, serial);
	}
}

static const struct wl_keyboard_interface keyboard_impl = {
	.release = garnet_resource_destroy_request,
};

static void keyboard_created(struct garnet_seat *seat, struct wl_resource *keyboard,
			     struct garnet_surface *focus)
{
	uint32_t serial;

	wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, seat->keymap_fd,
				(uint32_t)seat->keymap_size);
	if (wl_resource_get_version(keyboard) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(keyboard,
					     seat->compositor->options.keyboard.repeat_rate,
					     seat->compositor->options.keyboard.repeat_delay);
	if (focus) {
		serial = wl_display_next_serial(seat->compositor->display);
		wl_keyboard_send_enter(keyboard, serial, focus->resource, &seat->keys);
		seat_send_modifiers(seat, keyboard, serial);
	}
}

const struct seat_device seat_keyboard = {
	.iface = &wl_keyboard_interface,
	.impl = &keyboard_impl,
	.kind = GARNET_INPUT_KEYBOARD,
	.created = keyboard_created,
};

bool seat_load_keymap(struct garnet_seat *seat, const struct garnet_keyboard_options *kb)
{
	struct garnet_compositor *c = seat->compositor;
	struct xkb_rule_names names = {
		.rules = kb->rules,
		.model = kb->model,
		.layout = kb->layout,
		.variant = kb->variant,
		.options = kb->options,
	};
	char *text;
	int fd;

	seat->xkb = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (!seat->xkb)
		return false;
	seat->keymap = xkb_keymap_new_from_names(seat->xkb, &names, XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!seat->keymap) {
		garnet_log(c, GARNET_LOG_ERROR, "seat",
			   "cannot compile keymap rules=%s model=%s layout=%s variant=%s "
			   "options=%s", kb->rules ? kb->rules : "(default)",
			   kb->model ? kb->model : "(default)",
			   kb->layout ? kb->layout : "(default)",
			   kb->variant ? kb->variant : "(default)",
			   kb->options ? kb->options : "(default)");
		return false;
	}
	seat->xkb_state = xkb_state_new(seat->keymap);
	text = xkb_keymap_get_as_string(seat->keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!seat->xkb_state || !text) {
		free(text);
		return false;
	}
	/* Clients map the keymap; a sealed memfd means none can change what the others read. */
	seat->keymap_size = strlen(text) + 1;
	fd = garnet_sealed_memfd("garnet-keymap", text, seat->keymap_size);
	if (fd < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "seat", "cannot store the keymap: %s",
			   strerror(errno));
		free(text);
		return false;
	}
	free(text);
	seat->keymap_fd = fd;
	seat->mask_shift = 1u << xkb_keymap_mod_get_index(seat->keymap, XKB_MOD_NAME_SHIFT);
	seat->mask_ctrl = 1u << xkb_keymap_mod_get_index(seat->keymap, XKB_MOD_NAME_CTRL);
	seat->mask_alt = 1u << xkb_keymap_mod_get_index(seat->keymap, XKB_MOD_NAME_ALT);
	seat->mask_super = 1u << xkb_keymap_mod_get_index(seat->keymap, XKB_MOD_NAME_LOGO);
	return true;
}
