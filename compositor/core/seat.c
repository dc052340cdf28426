// SPDX-License-Identifier: MIT
// wl_seat: pointer, keyboard and touch. Every event goes to one client, the focused one, and
// only after the security hook allowed it: there is no path that sends input to everyone.
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define SEAT_VERSION 7

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
	if (c->locked && !garnet_session_lock_owns(surface))
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

static struct wl_client *surface_client(struct garnet_surface *surface)
{
	return wl_resource_get_client(surface->resource);
}

/* ---- keyboard ---- */

static void send_modifiers_to(struct garnet_seat *seat, struct wl_resource *keyboard,
			      uint32_t serial)
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
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) != surface_client(surface))
			continue;
		/* enter carries the keys already held, then the modifiers follow. */
		wl_keyboard_send_enter(keyboard, serial, surface->resource, &seat->keys);
		send_modifiers_to(seat, keyboard, serial);
	}
}

static void keyboard_leave(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct wl_resource *keyboard;
	uint32_t serial = wl_display_next_serial(seat->compositor->display);

	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) == surface_client(surface))
			wl_keyboard_send_leave(keyboard, serial, surface->resource);
	}
}

static void keyboard_focus_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, keyboard_focus_destroy);

	garnet_list_unlink(&seat->keyboard_focus_destroy.link);
	seat->keyboard_focus = NULL;
	wl_signal_emit_mutable(&seat->events.keyboard_focus, seat);
}

/* The seat's own keymap and modifiers back to the client a virtual keyboard typed into. */
static void restore_keymap(struct garnet_seat *seat)
{
	struct wl_client *client = seat->foreign_keymap_client;
	struct wl_resource *keyboard;
	uint32_t serial;

	if (!client)
		return;
	seat->foreign_keymap_client = NULL;
	seat->foreign_keymap_owner = NULL;
	serial = wl_display_next_serial(seat->compositor->display);
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) != client)
			continue;
		wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
					seat->keymap_fd, (uint32_t)seat->keymap_size);
		send_modifiers_to(seat, keyboard, serial);
	}
}

/* The focused client, if it may get keyboard input now, with owner's keymap in place. */
static struct wl_client *virtual_target(struct garnet_seat *seat,
					const struct garnet_virtual_keys *vk)
{
	struct garnet_surface *focus = seat->keyboard_focus;
	struct wl_client *client;
	struct wl_resource *keyboard;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_KEYBOARD))
		return NULL;
	client = surface_client(focus);
	if (seat->foreign_keymap_client == client && seat->foreign_keymap_owner == vk->owner)
		return client;
	restore_keymap(seat);
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) == client)
			wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
						vk->keymap_fd, vk->keymap_size);
	}
	seat->foreign_keymap_client = client;
	seat->foreign_keymap_owner = vk->owner;
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
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) == client)
			wl_keyboard_send_key(keyboard, serial, time_msec, key,
					     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
						     : WL_KEYBOARD_KEY_STATE_RELEASED);
	}
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
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) == client)
			wl_keyboard_send_modifiers(keyboard, serial, depressed, latched, locked,
						   group);
	}
	return true;
}

void garnet_seat_virtual_keyboard_gone(struct garnet_seat *seat, const void *owner)
{
	if (seat->foreign_keymap_owner == owner)
		restore_keymap(seat);
}

void garnet_seat_set_keyboard_focus(struct garnet_seat *seat, struct garnet_surface *surface)
{
	/* While locked a window that maps or asks for focus cannot take the keyboard from the
	 * lock surface. */
	if (seat->keyboard_focus == surface ||
	    (seat->compositor->locked && surface && !garnet_session_lock_owns(surface)) ||
	    (surface && garnet_consent_active(seat->compositor)))
		return;
	restore_keymap(seat);
	if (seat->keyboard_focus) {
		keyboard_leave(seat, seat->keyboard_focus);
		garnet_list_unlink(&seat->keyboard_focus_destroy.link);
	}
	seat->keyboard_focus = surface;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &seat->keyboard_focus_destroy);
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
	seat->vt_switch = handler;
	seat->vt_switch_data = data;
}

/* Ctrl+Alt+Fn gives XF86Switch_VT_n in xkb's default keymaps; the key never reaches clients. */
static bool vt_switch_key(struct garnet_seat *seat, uint32_t key)
{
	xkb_keysym_t sym;

	if (!seat->vt_switch)
		return false;
	sym = xkb_state_key_get_one_sym(seat->xkb_state, key + 8);
	if (sym < XKB_KEY_XF86Switch_VT_1 || sym > XKB_KEY_XF86Switch_VT_12)
		return false;
	seat->vt_switch(seat->vt_switch_data, (int)(sym - XKB_KEY_XF86Switch_VT_1 + 1));
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
	    garnet_shell_handle_key(seat->compositor->shell, key, pressed))
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
	restore_keymap(seat);
	serial = wl_display_next_serial(seat->compositor->display);
	garnet_seat_record_input_serial(seat, surface_client(focus), serial);
	wl_resource_for_each(keyboard, &seat->keyboards) {
		if (wl_resource_get_client(keyboard) != surface_client(focus))
			continue;
		wl_keyboard_send_key(keyboard, serial, time_msec, key,
				     pressed ? WL_KEYBOARD_KEY_STATE_PRESSED
					     : WL_KEYBOARD_KEY_STATE_RELEASED);
		if (mods_changed)
			send_modifiers_to(seat, keyboard, serial);
	}
}

/* ---- pointer ---- */

static void set_cursor_surface(struct garnet_seat *seat, struct garnet_surface *surface);

bool garnet_seat_builtin_cursor_box(struct garnet_seat *seat, pixman_box32_t *box)
{
	pixman_image_t *image = seat ? seat->compositor->builtin_cursor : NULL;
	int32_t x, y;

	if (!image || wl_list_empty(&seat->compositor->outputs))
		return false;
	if ((seat->cursor || seat->cursor_hidden) && !garnet_seat_pointer_is_garnets(seat))
		return false;
	x = (int32_t)floor(seat->x);
	y = (int32_t)floor(seat->y);
	*box = (pixman_box32_t){x, y, x + pixman_image_get_width(image),
				y + pixman_image_get_height(image)};
	return true;
}

static void damage_builtin_cursor(struct garnet_seat *seat)
{
	pixman_box32_t box;

	if (garnet_seat_builtin_cursor_box(seat, &box))
		garnet_compositor_damage_box(seat->compositor, &box);
}

static void pointer_send_frame(struct wl_resource *pointer)
{
	if (wl_resource_get_version(pointer) >= WL_POINTER_FRAME_SINCE_VERSION)
		wl_pointer_send_frame(pointer);
}

static void set_cursor_hidden(struct garnet_seat *seat, bool hidden)
{
	damage_builtin_cursor(seat);
	seat->cursor_hidden = hidden;
	damage_builtin_cursor(seat);
}

static void pointer_focus_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, pointer_focus_destroy);

	garnet_list_unlink(&seat->pointer_focus_destroy.link);
	seat->pointer_focus = NULL;
	seat->button_count = 0;
	set_cursor_hidden(seat, false);
}

void garnet_seat_set_pointer_focus(struct garnet_seat *seat, struct garnet_surface *surface,
				   double sx, double sy)
{
	struct garnet_surface *old = seat->pointer_focus;
	struct wl_display *display = seat->compositor->display;
	struct wl_resource *pointer;
	uint32_t serial;

	/* Over the consent dialog the pointer is over no client: it enters again afterwards. */
	if (garnet_consent_active(seat->compositor))
		surface = NULL;
	seat->sx = sx;
	seat->sy = sy;
	if (old == surface)
		return;
	if (old) {
		garnet_list_unlink(&seat->pointer_focus_destroy.link);
		if (garnet_seat_may_deliver(seat, old, GARNET_INPUT_POINTER)) {
			serial = wl_display_next_serial(display);
			wl_resource_for_each(pointer, &seat->pointers) {
				if (wl_resource_get_client(pointer) != surface_client(old))
					continue;
				wl_pointer_send_leave(pointer, serial, old->resource);
				pointer_send_frame(pointer);
			}
		}
	}
	seat->pointer_focus = surface;
	/* A client's cursor image (or its wish for none) lasts only while the pointer is over
	 * that client; elsewhere garnet's arrow shows until the next client sets one. */
	if (seat->cursor && (!surface || surface_client(seat->cursor) != surface_client(surface)))
		set_cursor_surface(seat, NULL);
	if (seat->cursor_hidden &&
	    (!surface || !old || surface_client(old) != surface_client(surface)))
		set_cursor_hidden(seat, false);
	if (!surface)
		return;
	wl_signal_add(&surface->events.destroy, &seat->pointer_focus_destroy);
	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_POINTER))
		return;
	serial = wl_display_next_serial(display);
	seat->pointer_enter_serial = serial;
	wl_resource_for_each(pointer, &seat->pointers) {
		if (wl_resource_get_client(pointer) != surface_client(surface))
			continue;
		wl_pointer_send_enter(pointer, serial, surface->resource, wl_fixed_from_double(sx),
				      wl_fixed_from_double(sy));
		pointer_send_frame(pointer);
	}
}

void garnet_seat_send_motion(struct garnet_seat *seat, uint32_t time)
{
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	wl_resource_for_each(pointer, &seat->pointers) {
		if (wl_resource_get_client(pointer) != surface_client(focus))
			continue;
		wl_pointer_send_motion(pointer, time, wl_fixed_from_double(seat->sx),
				       wl_fixed_from_double(seat->sy));
		pointer_send_frame(pointer);
	}
}

void garnet_seat_send_button(struct garnet_seat *seat, uint32_t time, uint32_t button,
			     bool pressed)
{
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;
	uint32_t serial;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	serial = wl_display_next_serial(seat->compositor->display);
	if (pressed)
		seat->grab_serial = serial;
	garnet_seat_record_input_serial(seat, surface_client(focus), serial);
	wl_resource_for_each(pointer, &seat->pointers) {
		if (wl_resource_get_client(pointer) != surface_client(focus))
			continue;
		wl_pointer_send_button(pointer, serial, time, button,
				       pressed ? WL_POINTER_BUTTON_STATE_PRESSED
					       : WL_POINTER_BUTTON_STATE_RELEASED);
		pointer_send_frame(pointer);
	}
}

static void focus_local_coords(struct garnet_seat *seat)
{
	int32_t x, y;

	if (seat->pointer_focus && garnet_surface_position(seat->pointer_focus, &x, &y)) {
		seat->sx = seat->x - x;
		seat->sy = seat->y - y;
	}
}

static void default_grab_motion(struct garnet_pointer_grab *grab, uint32_t time)
{
	struct garnet_seat *seat = grab->seat;
	struct garnet_surface *surface;
	double sx = 0, sy = 0;

	if (seat->button_count > 0) {
		/* Implicit grab: the surface that got the press keeps the pointer. */
		focus_local_coords(seat);
	} else {
		surface = garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);
		garnet_seat_set_pointer_focus(seat, surface, sx, sy);
	}
	garnet_seat_send_motion(seat, time);
}

static void default_grab_button(struct garnet_pointer_grab *grab, uint32_t time,
				uint32_t button, bool pressed)
{
	struct garnet_seat *seat = grab->seat;

	if (pressed && seat->button_count == 0) {
		seat->grab_button = button;
		seat->grab_time = time;
		seat->grab_x = seat->x;
		seat->grab_y = seat->y;
		garnet_shell_handle_click(seat->compositor->shell, seat->pointer_focus);
	}
	garnet_seat_send_button(seat, time, button, pressed);
	if (!pressed && seat->button_count == 0)
		garnet_seat_repick(seat);
}

static void default_grab_axis(struct garnet_pointer_grab *grab, uint32_t time, uint32_t axis,
			      double value)
{
	struct garnet_seat *seat = grab->seat;
	struct garnet_surface *focus = seat->pointer_focus;
	struct wl_resource *pointer;

	if (!focus || !garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER))
		return;
	wl_resource_for_each(pointer, &seat->pointers) {
		if (wl_resource_get_client(pointer) != surface_client(focus))
			continue;
		wl_pointer_send_axis(pointer, time, axis, wl_fixed_from_double(value));
		pointer_send_frame(pointer);
	}
}

static void default_grab_cancel(struct garnet_pointer_grab *grab)
{
}

static const struct garnet_pointer_grab_impl default_grab_impl = {
	.motion = default_grab_motion,
	.button = default_grab_button,
	.axis = default_grab_axis,
	.cancel = default_grab_cancel,
};

void garnet_seat_start_grab(struct garnet_seat *seat, struct garnet_pointer_grab *grab)
{
	if (seat->grab != &seat->default_grab)
		seat->grab->impl->cancel(seat->grab);
	grab->seat = seat;
	seat->grab = grab;
}

bool garnet_seat_pointer_is_garnets(struct garnet_seat *seat)
{
	return seat->compositor->locked || garnet_consent_active(seat->compositor);
}

void garnet_seat_take_input(struct garnet_seat *seat)
{
	if (seat->grab != &seat->default_grab) {
		seat->grab->impl->cancel(seat->grab);
		seat->grab = &seat->default_grab;
	}
	garnet_seat_set_keyboard_focus(seat, NULL);
	garnet_seat_set_pointer_focus(seat, NULL, 0, 0);
	garnet_seat_cancel_touch(seat);
}

void garnet_seat_end_grab(struct garnet_seat *seat)
{
	seat->grab = &seat->default_grab;
	garnet_seat_repick(seat);
}

void garnet_seat_repick(struct garnet_seat *seat)
{
	struct garnet_surface *surface, *old;
	double sx = 0, sy = 0, old_sx, old_sy;

	if (!seat || seat->grab != &seat->default_grab || seat->button_count > 0)
		return;
	old = seat->pointer_focus;
	old_sx = seat->sx;
	old_sy = seat->sy;
	surface = garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);
	garnet_seat_set_pointer_focus(seat, surface, sx, sy);
	/* The surface moved under a still pointer: to its client the pointer moved. */
	if (surface && surface == old && (sx != old_sx || sy != old_sy))
		garnet_seat_send_motion(seat, garnet_now_msec(seat->compositor));
}

static void clamp_to_outputs(struct garnet_compositor *c, double *x, double *y)
{
	struct garnet_output *o;
	double best = -1, bx = *x, by = *y;

	wl_list_for_each(o, &c->outputs, link) {
		double cx = *x < o->x ? o->x : *x >= o->x + o->width ? o->x + o->width - 1 : *x;
		double cy = *y < o->y ? o->y : *y >= o->y + o->height ? o->y + o->height - 1 : *y;
		double d = (cx - *x) * (cx - *x) + (cy - *y) * (cy - *y);

		if (best < 0 || d < best) {
			best = d;
			bx = cx;
			by = cy;
		}
	}
	*x = bx;
	*y = by;
}

void garnet_seat_get_pointer_position(struct garnet_seat *seat, double *x, double *y)
{
	*x = seat->x;
	*y = seat->y;
}

static void damage_pointer_images(struct garnet_seat *seat)
{
	struct garnet_surface *images[GARNET_POINTER_IMAGES];
	size_t n = garnet_seat_pointer_images(seat, images);

	for (size_t i = 0; i < n; i++)
		garnet_surface_damage_tree(images[i]);
	damage_builtin_cursor(seat);
}

static void move_pointer(struct garnet_seat *seat, uint32_t time_msec, double x, double y)
{
	clamp_to_outputs(seat->compositor, &x, &y);
	if (seat->constrain_motion && !seat->constrain_motion(seat->constrain_data, &x, &y))
		return;
	/* Held at an output's edge: nothing moved, nothing to tell. */
	if (x == seat->x && y == seat->y)
		return;
	if (garnet_compositor_cursor_on_planes(seat->compositor)) {
		/* The display moves the image; nothing under it changes. */
		seat->x = x;
		seat->y = y;
		garnet_compositor_cursor_moved(seat->compositor);
	} else {
		damage_pointer_images(seat);
		seat->x = x;
		seat->y = y;
		damage_pointer_images(seat);
	}
	seat->grab->impl->motion(seat->grab, time_msec);
}

void garnet_seat_notify_motion_absolute(struct garnet_seat *seat, uint32_t time_msec, double x,
					double y)
{
	wl_signal_emit(&seat->events.activity, seat);
	move_pointer(seat, time_msec, x, y);
}

void garnet_seat_notify_motion(struct garnet_seat *seat, uint32_t time_msec, double dx, double dy,
			       double dx_unaccel, double dy_unaccel)
{
	struct garnet_seat_motion motion = {time_msec, dx, dy, dx_unaccel, dy_unaccel};

	wl_signal_emit(&seat->events.activity, seat);
	wl_signal_emit(&seat->events.motion, &motion);
	move_pointer(seat, time_msec, seat->x + dx, seat->y + dy);
}

void garnet_seat_notify_button(struct garnet_seat *seat, uint32_t time_msec, uint32_t button,
			       bool pressed)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (pressed && garnet_consent_press(seat->compositor, seat->x, seat->y))
		return;
	if (pressed) {
		seat->grab->impl->button(seat->grab, time_msec, button, true);
		seat->button_count++;
	} else {
		if (seat->button_count == 0)
			return;
		seat->button_count--;
		seat->grab->impl->button(seat->grab, time_msec, button, false);
	}
}

void garnet_seat_notify_axis(struct garnet_seat *seat, uint32_t time_msec, uint32_t axis,
			     double value)
{
	wl_signal_emit(&seat->events.activity, seat);
	if (axis > WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return;
	seat->grab->impl->axis(seat->grab, time_msec, axis, value);
}

/* ---- touch ---- */

static struct garnet_touch_point *touch_point(struct garnet_seat *seat, int32_t id)
{
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		if (seat->touch[i].active && seat->touch[i].id == id)
			return &seat->touch[i];
	}
	return NULL;
}

static void touch_point_release(struct garnet_touch_point *tp)
{
	tp->active = false;
	if (tp->surface) {
		garnet_list_unlink(&tp->surface_destroy.link);
	}
	tp->surface = NULL;
}

static void touch_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_touch_point *tp = wl_container_of(listener, tp, surface_destroy);
	struct garnet_surface *surface = data;
	struct garnet_seat *seat = surface->compositor->seat;
	struct wl_resource *touch;
	uint32_t serial;

	/* The finger is still down, but what it touched is gone: for its client the touch
	 * ends here (the finger's real lift later goes nowhere). */
	if (seat && garnet_seat_may_deliver(seat, surface, GARNET_INPUT_TOUCH)) {
		serial = wl_display_next_serial(surface->compositor->display);
		wl_resource_for_each(touch, &seat->touches) {
			if (wl_resource_get_client(touch) != surface_client(surface))
				continue;
			wl_touch_send_up(touch, serial, garnet_now_msec(surface->compositor),
					 tp->id);
			wl_touch_send_frame(touch);
		}
	}
	garnet_list_unlink(&tp->surface_destroy.link);
	tp->surface = NULL;
}

void garnet_seat_notify_touch_down(struct garnet_seat *seat, uint32_t time_msec, int32_t id,
				   double x, double y)
{
	struct garnet_touch_point *tp = NULL;
	struct garnet_surface *surface;
	struct wl_resource *touch;
	double sx, sy;
	uint32_t serial;

	wl_signal_emit(&seat->events.activity, seat);
	if (touch_point(seat, id))
		return;
	if (garnet_consent_press(seat->compositor, x, y))
		return;
	for (int i = 0; i < GARNET_TOUCH_POINTS && !tp; i++) {
		if (!seat->touch[i].active)
			tp = &seat->touch[i];
	}
	if (!tp)
		return;
	surface = garnet_scene_surface_at(seat->compositor, x, y, &sx, &sy);
	tp->active = true;
	tp->id = id;
	tp->surface = surface;
	if (!surface)
		return;
	wl_signal_add(&surface->events.destroy, &tp->surface_destroy);
	garnet_shell_handle_click(seat->compositor->shell, surface);
	if (!garnet_seat_may_deliver(seat, surface, GARNET_INPUT_TOUCH))
		return;
	serial = wl_display_next_serial(seat->compositor->display);
	garnet_seat_record_input_serial(seat, surface_client(surface), serial);
	wl_resource_for_each(touch, &seat->touches) {
		if (wl_resource_get_client(touch) == surface_client(surface))
			wl_touch_send_down(touch, serial, time_msec, surface->resource, id,
					   wl_fixed_from_double(sx), wl_fixed_from_double(sy));
	}
	tp->frame_client = surface_client(surface);
}

void garnet_seat_notify_touch_motion(struct garnet_seat *seat, uint32_t time_msec, int32_t id,
				     double x, double y)
{
	struct garnet_touch_point *tp = touch_point(seat, id);
	struct wl_resource *touch;
	int32_t ox, oy;

	if (!tp || !tp->surface || !garnet_surface_position(tp->surface, &ox, &oy) ||
	    !garnet_seat_may_deliver(seat, tp->surface, GARNET_INPUT_TOUCH))
		return;
	wl_resource_for_each(touch, &seat->touches) {
		if (wl_resource_get_client(touch) == surface_client(tp->surface))
			wl_touch_send_motion(touch, time_msec, id, wl_fixed_from_double(x - ox),
					     wl_fixed_from_double(y - oy));
	}
	tp->frame_client = surface_client(tp->surface);
}

void garnet_seat_notify_touch_up(struct garnet_seat *seat, uint32_t time_msec, int32_t id)
{
	struct garnet_touch_point *tp = touch_point(seat, id);
	struct wl_resource *touch;
	uint32_t serial;

	if (!tp)
		return;
	if (tp->surface && garnet_seat_may_deliver(seat, tp->surface, GARNET_INPUT_TOUCH)) {
		serial = wl_display_next_serial(seat->compositor->display);
		garnet_seat_record_input_serial(seat, surface_client(tp->surface), serial);
		wl_resource_for_each(touch, &seat->touches) {
			if (wl_resource_get_client(touch) == surface_client(tp->surface))
				wl_touch_send_up(touch, serial, time_msec, id);
		}
		tp->frame_client = surface_client(tp->surface);
	}
	touch_point_release(tp);
}

void garnet_seat_cancel_touch(struct garnet_seat *seat)
{
	struct wl_resource *touch;

	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		struct garnet_touch_point *tp = &seat->touch[i];
		struct wl_client *client;

		if (!tp->active || !tp->surface)
			continue;
		client = surface_client(tp->surface);
		/* cancel ends every touch point of that client at once. */
		wl_resource_for_each(touch, &seat->touches) {
			if (wl_resource_get_client(touch) == client)
				wl_touch_send_cancel(touch);
		}
		for (int j = i; j < GARNET_TOUCH_POINTS; j++) {
			if (seat->touch[j].active && seat->touch[j].surface &&
			    surface_client(seat->touch[j].surface) == client) {
				/* Still down, but the finger's lift and moves go nowhere now. */
				garnet_list_unlink(&seat->touch[j].surface_destroy.link);
				seat->touch[j].surface = NULL;
				seat->touch[j].frame_client = NULL;
			}
		}
	}
}

void garnet_seat_notify_touch_frame(struct garnet_seat *seat)
{
	struct wl_resource *touch;

	/* Only clients that were sent an event since the last frame hear about it. */
	wl_resource_for_each(touch, &seat->touches) {
		for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
			if (seat->touch[i].frame_client &&
			    wl_resource_get_client(touch) == seat->touch[i].frame_client) {
				wl_touch_send_frame(touch);
				break;
			}
		}
	}
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++)
		seat->touch[i].frame_client = NULL;
}

/* ---- resources ---- */

static void unlink_resource(struct wl_resource *resource)
{
	wl_list_remove(wl_resource_get_link(resource));
}

static void cursor_commit(struct garnet_surface *surface)
{
	struct garnet_seat *seat = surface->compositor->seat;

	if (seat->cursor != surface)
		return;
	if (surface->current.dx || surface->current.dy) {
		struct garnet_surface_state *cur = &surface->current;

		garnet_surface_damage_tree(surface);
		seat->hotspot_x = garnet_coord_clamp((int64_t)seat->hotspot_x - cur->dx);
		seat->hotspot_y = garnet_coord_clamp((int64_t)seat->hotspot_y - cur->dy);
		garnet_surface_damage_tree(surface);
	}
	if (!wl_list_empty(&surface->current.frame_callbacks))
		garnet_compositor_schedule_repaint(surface->compositor);
}

/* The cursor image is drawn with its hotspot on the pointer, above everything. */
static bool cursor_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct garnet_seat *seat = surface->compositor->seat;

	if (!seat || seat->cursor != surface)
		return false;
	*x = (int32_t)floor(seat->x) - seat->hotspot_x;
	*y = (int32_t)floor(seat->y) - seat->hotspot_y;
	return true;
}

static const struct garnet_surface_role cursor_role = {
	.name = "wl_pointer-cursor",
	.commit = cursor_commit,
	.position = cursor_position,
};

static void set_cursor_surface(struct garnet_seat *seat, struct garnet_surface *surface)
{
	if (seat->cursor == surface)
		return;
	damage_builtin_cursor(seat);
	if (seat->cursor) {
		garnet_surface_damage_tree(seat->cursor);
		garnet_list_unlink(&seat->cursor_destroy.link);
	}
	seat->cursor = surface;
	if (surface)
		wl_signal_add(&surface->events.destroy, &seat->cursor_destroy);
	damage_builtin_cursor(seat);
}

static void cursor_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, cursor_destroy);

	set_cursor_surface(seat, NULL);
}

void garnet_seat_set_drag_icon(struct garnet_seat *seat, struct garnet_surface *surface)
{
	if (seat->drag_icon == surface)
		return;
	if (seat->drag_icon) {
		garnet_surface_damage_tree(seat->drag_icon);
		garnet_list_unlink(&seat->drag_icon_destroy.link);
	}
	seat->drag_icon = surface;
	/* Its top-left corner starts at the pointer; wl_surface.offset moves it from there. */
	seat->drag_icon_x = 0;
	seat->drag_icon_y = 0;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &seat->drag_icon_destroy);
		garnet_surface_damage_tree(surface);
	}
}

static void drag_icon_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_seat *seat = wl_container_of(listener, seat, drag_icon_destroy);

	garnet_seat_set_drag_icon(seat, NULL);
}

size_t garnet_seat_pointer_images(struct garnet_seat *seat,
				  struct garnet_surface *images[GARNET_POINTER_IMAGES])
{
	size_t n = 0;

	/* Over the consent dialog and the lock no client draws: a cursor or drag icon could
	 * cover them or fake their answers. garnet's own arrow is the pointer there. */
	if (!seat || garnet_seat_pointer_is_garnets(seat))
		return 0;
	if (seat->cursor)
		images[n++] = seat->cursor;
	if (seat->drag_icon)
		images[n++] = seat->drag_icon;
	return n;
}


static void pointer_set_cursor(struct wl_client *client, struct wl_resource *resource,
			       uint32_t serial, struct wl_resource *surface_resource,
			       int32_t hotspot_x, int32_t hotspot_y)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);

	/* Only the client the pointer is over, answering its latest enter, sets the cursor. */
	if (!seat || !seat->pointer_focus || surface_client(seat->pointer_focus) != client ||
	    serial != seat->pointer_enter_serial)
		return;
	if (surface && !garnet_surface_set_role(surface, &cursor_role, NULL, resource,
						WL_POINTER_ERROR_ROLE))
		return;
	set_cursor_surface(seat, surface);
	set_cursor_hidden(seat, surface == NULL);
	if (surface)
		garnet_surface_damage_tree(surface);
	seat->hotspot_x = garnet_coord_clamp(hotspot_x);
	seat->hotspot_y = garnet_coord_clamp(hotspot_y);
	if (surface)
		garnet_surface_damage_tree(surface);
}

static const struct wl_pointer_interface pointer_impl = {
	.set_cursor = pointer_set_cursor,
	.release = garnet_resource_destroy_request,
};

static const struct wl_keyboard_interface keyboard_impl = {
	.release = garnet_resource_destroy_request,
};

static const struct wl_touch_interface touch_impl = {
	.release = garnet_resource_destroy_request,
};

static struct wl_resource *create_device(struct wl_client *client, struct wl_resource *seat_res,
					 const struct wl_interface *iface, const void *impl,
					 uint32_t id, struct wl_list *list)
{
	struct garnet_seat *seat = wl_resource_get_user_data(seat_res);
	struct wl_resource *resource =
		wl_resource_create(client, iface, wl_resource_get_version(seat_res), id);

	if (!resource) {
		wl_resource_post_no_memory(seat_res);
		return NULL;
	}
	wl_resource_set_implementation(resource, impl, seat, unlink_resource);
	if (seat)
		wl_list_insert(list, wl_resource_get_link(resource));
	else
		wl_list_init(wl_resource_get_link(resource));
	return seat ? resource : NULL;
}

static void seat_get_pointer(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct wl_resource *pointer = create_device(client, resource, &wl_pointer_interface,
						    &pointer_impl, id,
						    seat ? &seat->pointers : NULL);
	struct garnet_surface *focus;

	if (!pointer)
		return;
	focus = seat->pointer_focus;
	if (focus && surface_client(focus) == client &&
	    garnet_seat_may_deliver(seat, focus, GARNET_INPUT_POINTER)) {
		wl_pointer_send_enter(pointer, seat->pointer_enter_serial, focus->resource,
				      wl_fixed_from_double(seat->sx),
				      wl_fixed_from_double(seat->sy));
		pointer_send_frame(pointer);
	}
}

static void seat_get_keyboard(struct wl_client *client, struct wl_resource *resource,
			      uint32_t id)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct wl_resource *keyboard = create_device(client, resource, &wl_keyboard_interface,
						     &keyboard_impl, id,
						     seat ? &seat->keyboards : NULL);
	struct garnet_surface *focus;
	uint32_t serial;

	if (!keyboard)
		return;
	wl_keyboard_send_keymap(keyboard, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, seat->keymap_fd,
				(uint32_t)seat->keymap_size);
	if (wl_resource_get_version(keyboard) >= WL_KEYBOARD_REPEAT_INFO_SINCE_VERSION)
		wl_keyboard_send_repeat_info(keyboard,
					     seat->compositor->options.keyboard.repeat_rate,
					     seat->compositor->options.keyboard.repeat_delay);
	focus = seat->keyboard_focus;
	if (focus && surface_client(focus) == client &&
	    garnet_seat_may_deliver(seat, focus, GARNET_INPUT_KEYBOARD)) {
		serial = wl_display_next_serial(seat->compositor->display);
		wl_keyboard_send_enter(keyboard, serial, focus->resource, &seat->keys);
		send_modifiers_to(seat, keyboard, serial);
	}
}

static void seat_get_touch(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);

	create_device(client, resource, &wl_touch_interface, &touch_impl, id,
		      seat ? &seat->touches : NULL);
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
	struct wl_resource *resource = wl_resource_create(client, &wl_seat_interface, (int)version,
							  id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &seat_impl, seat, unlink_resource);
	wl_list_insert(&seat->resources, wl_resource_get_link(resource));
	wl_seat_send_capabilities(resource, WL_SEAT_CAPABILITY_POINTER |
						    WL_SEAT_CAPABILITY_KEYBOARD |
						    WL_SEAT_CAPABILITY_TOUCH);
	if (version >= WL_SEAT_NAME_SINCE_VERSION)
		wl_seat_send_name(resource, "seat0");
}

static bool load_keymap(struct garnet_seat *seat, const struct garnet_keyboard_options *kb)
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
	fd = memfd_create("garnet-keymap", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0 || write(fd, text, seat->keymap_size) != (ssize_t)seat->keymap_size ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "seat", "cannot store the keymap: %s",
			   strerror(errno));
		if (fd >= 0)
			close(fd);
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

struct garnet_seat *garnet_seat_create(struct garnet_compositor *c,
				       const struct garnet_keyboard_options *kb)
{
	struct garnet_seat *seat = calloc(1, sizeof(*seat));

	if (!seat)
		return NULL;
	seat->compositor = c;
	seat->keymap_fd = -1;
	wl_list_init(&seat->resources);
	wl_list_init(&seat->pointers);
	wl_list_init(&seat->keyboards);
	wl_list_init(&seat->touches);
	wl_list_init(&seat->data_devices);
	wl_list_init(&seat->primary_devices);
	wl_list_init(&seat->data_control_devices);
	wl_list_init(&seat->keyboard_focus_destroy.link);
	wl_list_init(&seat->pointer_focus_destroy.link);
	wl_list_init(&seat->cursor_destroy.link);
	seat->cursor_destroy.notify = cursor_destroyed;
	wl_list_init(&seat->drag_icon_destroy.link);
	seat->drag_icon_destroy.notify = drag_icon_destroyed;
	wl_list_init(&seat->selection_destroy.link);
	wl_list_init(&seat->primary_selection_destroy.link);
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++) {
		seat->touch[i].surface_destroy.notify = touch_surface_destroyed;
		wl_list_init(&seat->touch[i].surface_destroy.link);
	}
	wl_signal_init(&seat->events.keyboard_focus);
	wl_signal_init(&seat->events.activity);
	wl_signal_init(&seat->events.motion);
	wl_array_init(&seat->keys);
	garnet_seat_input_serials_init(seat);
	seat->keyboard_focus_destroy.notify = keyboard_focus_destroyed;
	seat->pointer_focus_destroy.notify = pointer_focus_destroyed;
	seat->default_grab.impl = &default_grab_impl;
	seat->default_grab.seat = seat;
	seat->grab = &seat->default_grab;
	if (!load_keymap(seat, kb))
		goto err;
	seat->global = garnet_global_create(c, &wl_seat_interface, SEAT_VERSION, seat, seat_bind,
					    false);
	if (!seat->global)
		goto err;
	return seat;

err:
	garnet_seat_destroy(seat);
	return NULL;
}

static void make_inert(struct wl_list *resources)
{
	struct wl_resource *resource, *tmp;

	wl_resource_for_each_safe(resource, tmp, resources) {
		wl_resource_set_user_data(resource, NULL);
		garnet_list_unlink(wl_resource_get_link(resource));
	}
}

void garnet_seat_destroy(struct garnet_seat *seat)
{
	if (!seat)
		return;
	make_inert(&seat->resources);
	make_inert(&seat->pointers);
	make_inert(&seat->keyboards);
	make_inert(&seat->touches);
	wl_list_remove(&seat->keyboard_focus_destroy.link);
	wl_list_remove(&seat->pointer_focus_destroy.link);
	wl_list_remove(&seat->cursor_destroy.link);
	wl_list_remove(&seat->drag_icon_destroy.link);
	for (int i = 0; i < GARNET_TOUCH_POINTS; i++)
		wl_list_remove(&seat->touch[i].surface_destroy.link);
	garnet_seat_input_serials_finish(seat);
	if (seat->global)
		wl_global_destroy(seat->global);
	if (seat->keymap_fd >= 0)
		close(seat->keymap_fd);
	xkb_state_unref(seat->xkb_state);
	xkb_keymap_unref(seat->keymap);
	xkb_context_unref(seat->xkb);
	wl_array_release(&seat->keys);
	free(seat);
}
