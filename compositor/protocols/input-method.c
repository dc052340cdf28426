// SPDX-License-Identifier: MIT
// zwp_input_method_manager_v2: the input method of the seat (an on-screen keyboard, a
// composer), a trusted client only: the manager is a privileged global and each input method
// a libwmac input-method decision. It is told about the text input enabled on the focused
// surface and nothing else; what it commits goes to that text input alone (text-input.c). Its
// keyboard grab takes hardware keys only while such a text input is active, and its popup is
// shown at that text input's cursor.
#include <stdlib.h>
#include <string.h>

#include "../core/coords.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "../core/seat.h"
#include "text-input.h"
#include "client-protocols.h"
#include "input-method-unstable-v2-server-protocol.h"

struct input_methods {
	struct garnet_compositor *compositor;
	struct wl_resource *im;   /* the seat's input method, NULL when none */
	struct wl_resource *grab; /* its keyboard grab, NULL when none */
	struct wl_list popups;    /* popup.link */
	bool active;
	const void *active_id; /* the text input it was activated for */
	uint32_t dones;
	/* What the next commit hands over. */
	char *commit, *preedit;
	int32_t preedit_begin, preedit_end;
	uint32_t delete_before, delete_after;
	struct wl_listener text_input_changed, compositor_destroy;
};

struct popup {
	struct input_methods *m;
	struct wl_resource *resource;
	struct garnet_surface *surface;
	struct garnet_view view;
	int32_t x, y; /* where it was last placed, to repaint that place when it goes */
	struct wl_listener surface_destroy;
	struct wl_list link;
};

static void clear_pending(struct input_methods *m)
{
	free(m->commit);
	free(m->preedit);
	m->commit = m->preedit = NULL;
	m->preedit_begin = m->preedit_end = 0;
	m->delete_before = m->delete_after = 0;
}

/* ---- popups: shown under the text input's cursor while the input method is active ---- */

static bool popup_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct popup *p = surface->role_data;
	struct garnet_text_input_info info;
	int32_t sx, sy;

	if (!p || !p->m->active || !garnet_text_input_current(p->m->compositor, &info) ||
	    !garnet_surface_position(info.surface, &sx, &sy))
		return false;
	*x = p->x = garnet_coord_clamp((int64_t)sx + info.rect[0]);
	*y = p->y = garnet_coord_clamp((int64_t)sy + info.rect[1] + info.rect[3]);
	return true;
}

static void popup_commit(struct garnet_surface *surface)
{
	struct popup *p = surface->role_data;

	if (p)
		garnet_surface_damage_tree(surface);
}

static const struct garnet_surface_role popup_role = {
	.name = "zwp_input_popup_surface_v2",
	.commit = popup_commit,
	.position = popup_position,
};

/* Where the popups are drawn now, before a change moves or hides them. */
static void popups_damage(struct input_methods *m)
{
	struct popup *p;

	wl_list_for_each(p, &m->popups, link) {
		pixman_box32_t box;

		if (!p->surface || !p->view.in_layer)
			continue;
		box = (pixman_box32_t){p->x, p->y, p->x + p->surface->width,
				       p->y + p->surface->height};
		garnet_compositor_damage_box(m->compositor, &box);
	}
}

static void popups_update(struct input_methods *m)
{
	struct garnet_text_input_info info;
	struct popup *p;
	bool shown = m->active && garnet_text_input_current(m->compositor, &info);

	wl_list_for_each(p, &m->popups, link) {
		if (!p->surface)
			continue;
		garnet_surface_damage_tree(p->surface);
		if (shown) {
			zwp_input_popup_surface_v2_send_text_input_rectangle(
				p->resource, info.rect[0], info.rect[1], info.rect[2],
				info.rect[3]);
			if (!p->view.in_layer)
				garnet_view_raise(&p->view, GARNET_LAYER_OVERLAY);
		} else if (p->view.in_layer) {
			garnet_view_remove(&p->view);
		}
		garnet_surface_damage_tree(p->surface);
	}
}

static void popup_forget_surface(struct popup *p)
{
	if (!p->surface)
		return;
	if (p->view.in_layer)
		garnet_view_remove(&p->view);
	garnet_view_finish(&p->view);
	wl_list_remove(&p->surface_destroy.link);
	p->surface->role_data = NULL;
	p->surface = NULL;
}

static void popup_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct popup *p = wl_container_of(listener, p, surface_destroy);

	popup_forget_surface(p);
}

static void popup_resource_destroy(struct wl_resource *resource)
{
	struct popup *p = wl_resource_get_user_data(resource);

	popup_forget_surface(p);
	wl_list_remove(&p->link);
	free(p);
}

static const struct zwp_input_popup_surface_v2_interface popup_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void im_get_input_popup_surface(struct wl_client *client, struct wl_resource *resource,
				       uint32_t id, struct wl_resource *surface_resource)
{
	struct input_methods *m = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct popup *p;

	if (!m)
		return;
	p = calloc(1, sizeof(*p));
	if (!p) {
		wl_client_post_no_memory(client);
		return;
	}
	if (!garnet_surface_set_role(surface, &popup_role, p, resource,
				     ZWP_INPUT_METHOD_V2_ERROR_ROLE)) {
		free(p);
		return;
	}
	p->resource = wl_resource_create(client, &zwp_input_popup_surface_v2_interface,
					 wl_resource_get_version(resource), id);
	if (!p->resource) {
		surface->role_data = NULL;
		free(p);
		wl_client_post_no_memory(client);
		return;
	}
	p->m = m;
	p->surface = surface;
	garnet_view_init(&p->view, surface);
	p->surface_destroy.notify = popup_surface_destroyed;
	wl_signal_add(&surface->events.destroy, &p->surface_destroy);
	wl_list_insert(&m->popups, &p->link);
	wl_resource_set_implementation(p->resource, &popup_impl, p, popup_resource_destroy);
	popups_update(m);
}

/* ---- keyboard grab ---- */

static bool grab_key(void *data, uint32_t time_msec, uint32_t key, bool pressed)
{
	struct input_methods *m = data;
	struct garnet_seat *seat = m->compositor->seat;

	/* Only while a text field has the focus: elsewhere keys are the focused client's. */
	if (!m->grab || !m->active)
		return false;
	zwp_input_method_keyboard_grab_v2_send_key(
		m->grab, wl_display_next_serial(m->compositor->display), time_msec, key,
		pressed ? WL_KEYBOARD_KEY_STATE_PRESSED : WL_KEYBOARD_KEY_STATE_RELEASED);
	zwp_input_method_keyboard_grab_v2_send_modifiers(
		m->grab, wl_display_next_serial(m->compositor->display), seat->mods_depressed,
		seat->mods_latched, seat->mods_locked, seat->group);
	return true;
}

static void grab_resource_destroy(struct wl_resource *resource)
{
	struct input_methods *m = wl_resource_get_user_data(resource);

	if (!m || m->grab != resource)
		return;
	m->grab = NULL;
	m->compositor->seat->key_grab = NULL;
	m->compositor->seat->key_grab_data = NULL;
}

static const struct zwp_input_method_keyboard_grab_v2_interface grab_impl = {
	.release = garnet_resource_destroy_request,
};

static void im_grab_keyboard(struct wl_client *client, struct wl_resource *resource,
			     uint32_t id)
{
	struct input_methods *m = wl_resource_get_user_data(resource);
	struct garnet_seat *seat;
	struct wl_resource *grab = wl_resource_create(
		client, &zwp_input_method_keyboard_grab_v2_interface,
		wl_resource_get_version(resource), id);

	if (!grab) {
		wl_client_post_no_memory(client);
		return;
	}
	/* One grab at a time; an inert object for an input method that lost its seat. */
	if (!m || m->grab) {
		wl_resource_set_implementation(grab, &grab_impl, NULL, NULL);
		return;
	}
	seat = m->compositor->seat;
	wl_resource_set_implementation(grab, &grab_impl, m, grab_resource_destroy);
	m->grab = grab;
	seat->key_grab = grab_key;
	seat->key_grab_data = m;
	zwp_input_method_keyboard_grab_v2_send_keymap(grab, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1,
						      seat->keymap_fd,
						      (uint32_t)seat->keymap_size);
	zwp_input_method_keyboard_grab_v2_send_repeat_info(
		grab, m->compositor->options.keyboard.repeat_rate,
		m->compositor->options.keyboard.repeat_delay);
}

/* ---- the input method ---- */

static void send_state(struct input_methods *m, const struct garnet_text_input_info *info)
{
	if (info->surrounding)
		zwp_input_method_v2_send_surrounding_text(m->im, info->surrounding,
							  (uint32_t)info->cursor,
							  (uint32_t)info->anchor);
	zwp_input_method_v2_send_text_change_cause(m->im, info->change_cause);
	zwp_input_method_v2_send_content_type(m->im, info->hint, info->purpose);
}

static void text_input_changed(struct wl_listener *listener, void *data)
{
	struct input_methods *m = wl_container_of(listener, m, text_input_changed);
	struct garnet_text_input_info info;
	bool present = garnet_text_input_current(m->compositor, &info);

	if (!m->im)
		return;
	popups_damage(m);
	if (m->active && (!present || info.id != m->active_id)) {
		zwp_input_method_v2_send_deactivate(m->im);
		m->active = false;
		m->active_id = NULL;
		clear_pending(m);
		if (!present) {
			zwp_input_method_v2_send_done(m->im);
			m->dones++;
		}
	}
	if (present) {
		if (!m->active)
			zwp_input_method_v2_send_activate(m->im);
		m->active = true;
		m->active_id = info.id;
		send_state(m, &info);
		zwp_input_method_v2_send_done(m->im);
		m->dones++;
	}
	popups_update(m);
}

static char *replace(char *old, const char *text, struct wl_client *client)
{
	char *copy = strdup(text);

	if (!copy)
		wl_client_post_no_memory(client);
	free(old);
	return copy;
}

static void im_commit_string(struct wl_client *client, struct wl_resource *resource,
			     const char *text)
{
	struct input_methods *m = wl_resource_get_user_data(resource);

	if (m)
		m->commit = replace(m->commit, text, client);
}

static void im_set_preedit_string(struct wl_client *client, struct wl_resource *resource,
				  const char *text, int32_t begin, int32_t end)
{
	struct input_methods *m = wl_resource_get_user_data(resource);

	if (!m)
		return;
	m->preedit = replace(m->preedit, text, client);
	m->preedit_begin = begin;
	m->preedit_end = end;
}

static void im_delete_surrounding_text(struct wl_client *client, struct wl_resource *resource,
				       uint32_t before, uint32_t after)
{
	struct input_methods *m = wl_resource_get_user_data(resource);

	if (!m)
		return;
	m->delete_before = before;
	m->delete_after = after;
}

static void im_commit(struct wl_client *client, struct wl_resource *resource, uint32_t serial)
{
	struct input_methods *m = wl_resource_get_user_data(resource);
	struct garnet_text_edit edit;

	if (!m)
		return;
	edit = (struct garnet_text_edit){
		.preedit = m->preedit,
		.preedit_begin = m->preedit_begin,
		.preedit_end = m->preedit_end,
		.commit = m->commit,
		.delete_before = m->delete_before,
		.delete_after = m->delete_after,
	};
	/* Text composed for a text field that has gone since (serial behind the dones) or while
	 * none is active goes nowhere. */
	if (m->active && serial == m->dones)
		garnet_text_input_deliver(m->compositor, &edit);
	clear_pending(m);
}

static const struct zwp_input_method_v2_interface im_impl = {
	.commit_string = im_commit_string,
	.set_preedit_string = im_set_preedit_string,
	.delete_surrounding_text = im_delete_surrounding_text,
	.commit = im_commit,
	.get_input_popup_surface = im_get_input_popup_surface,
	.grab_keyboard = im_grab_keyboard,
	.destroy = garnet_resource_destroy_request,
};

static void im_resource_destroy(struct wl_resource *resource)
{
	struct input_methods *m = wl_resource_get_user_data(resource);

	if (!m || m->im != resource)
		return;
	if (m->grab) {
		wl_resource_set_user_data(m->grab, NULL);
		wl_resource_set_destructor(m->grab, NULL);
		m->grab = NULL;
		m->compositor->seat->key_grab = NULL;
		m->compositor->seat->key_grab_data = NULL;
	}
	popups_damage(m);
	m->im = NULL;
	m->active = false;
	m->active_id = NULL;
	clear_pending(m);
	popups_update(m);
}

/* ---- the manager ---- */

static void manager_get_input_method(struct wl_client *client, struct wl_resource *resource,
				     struct wl_resource *seat, uint32_t id)
{
	struct input_methods *m = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = m->compositor;
	struct wl_resource *im = wl_resource_create(client, &zwp_input_method_v2_interface,
						    wl_resource_get_version(resource), id);
	bool allowed;

	if (!im) {
		wl_client_post_no_memory(client);
		return;
	}
	allowed = !c->hooks.input_method || c->hooks.input_method(c->hooks.data, client);
	if (!allowed || m->im) {
		/* An object that answers nothing: the seat has its input method, or may not. */
		wl_resource_set_implementation(im, &im_impl, NULL, NULL);
		garnet_log(c, GARNET_LOG_WARNING, "input-method", "input method refused: %s",
			   allowed ? "the seat has one" : "not permitted");
		zwp_input_method_v2_send_unavailable(im);
		return;
	}
	wl_resource_set_implementation(im, &im_impl, m, im_resource_destroy);
	m->im = im;
	m->dones = 0;
	text_input_changed(&m->text_input_changed, c);
}

static const struct zwp_input_method_manager_v2_interface manager_impl = {
	.get_input_method = manager_get_input_method,
	.destroy = garnet_resource_destroy_request,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct input_methods *m = data;

	if (!garnet_global_check_bind(m->compositor, client,
				      &zwp_input_method_manager_v2_interface))
		return;
	garnet_resource_create(client, &zwp_input_method_manager_v2_interface, (int)version, id,
			       &manager_impl, m, NULL);
}

/* Clients, and with them the input method and its objects, are gone by now. */
static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct input_methods *m = wl_container_of(listener, m, compositor_destroy);

	wl_list_remove(&m->text_input_changed.link);
	wl_list_remove(&m->compositor_destroy.link);
	clear_pending(m);
	free(m);
}

bool garnet_input_method_init(struct garnet_compositor *c)
{
	struct input_methods *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->popups);
	if (!garnet_global_create(c, &zwp_input_method_manager_v2_interface, 1, m, manager_bind,
				  true)) {
		free(m);
		return false;
	}
	m->text_input_changed.notify = text_input_changed;
	wl_signal_add(garnet_text_input_changed(c), &m->text_input_changed);
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}
