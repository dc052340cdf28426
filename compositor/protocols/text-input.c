// SPDX-License-Identifier: MIT
// zwp_text_input_manager_v3: the application side of input methods. A text input learns of
// the keyboard focus (enter and leave go only to the focused client's objects), keeps its
// double-buffered state, and receives what an input method composed (preedit, commit, delete)
// only while it is enabled on the focused surface: text never goes to a window the user is
// not typing into. The input method side calls garnet_text_input_deliver().
#include <stdlib.h>
#include <string.h>

#include "../core/seat.h"
#include "../core/coords.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "text-input.h"
#include "client-protocols.h"
#include "text-input-unstable-v3-server-protocol.h"

struct text_input_state {
	bool enabled;
	char *surrounding; /* NULL when unset */
	int32_t cursor, anchor;
	uint32_t change_cause, hint, purpose;
	int32_t rect[4];
};

struct text_input {
	struct text_inputs *m;
	struct wl_resource *resource;
	struct wl_list link;
	struct garnet_surface *focus; /* the surface it was sent enter for */
	struct wl_listener focus_destroy;
	struct text_input_state pending, current;
	bool pending_enable, pending_disable;
	uint32_t commits; /* the serial of done events */
};

struct text_inputs {
	struct garnet_compositor *compositor;
	struct wl_list all; /* text_input.link */
	struct wl_signal changed; /* the active text input or its state changed */
	struct wl_listener keyboard_focus;
	struct wl_listener compositor_destroy;
};

static void notify(struct text_inputs *m)
{
	wl_signal_emit_mutable(&m->changed, m->compositor);
}

static void state_reset(struct text_input_state *s)
{
	free(s->surrounding);
	*s = (struct text_input_state){0};
}

static void state_copy(struct text_input_state *dst, const struct text_input_state *src)
{
	free(dst->surrounding);
	*dst = *src;
	dst->surrounding = src->surrounding ? strdup(src->surrounding) : NULL;
}

static void set_focus(struct text_input *ti, struct garnet_surface *surface)
{
	if (ti->focus == surface)
		return;
	if (ti->focus) {
		zwp_text_input_v3_send_leave(ti->resource, ti->focus->resource);
		garnet_list_unlink(&ti->focus_destroy.link);
		/* Leaving ends the enabled state: the client enables again after the next enter. */
		state_reset(&ti->current);
	}
	ti->focus = surface;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &ti->focus_destroy);
		zwp_text_input_v3_send_enter(ti->resource, surface->resource);
	}
}

static void focus_destroyed(struct wl_listener *listener, void *data)
{
	struct text_input *ti = wl_container_of(listener, ti, focus_destroy);

	garnet_list_unlink(&ti->focus_destroy.link);
	ti->focus = NULL;
	state_reset(&ti->current);
	notify(ti->m);
}

/* The keyboard focus's client's text inputs are entered into it; every other one left. */
static void follow_focus(struct text_input *ti)
{
	struct garnet_surface *focus = ti->m->compositor->seat->keyboard_focus;

	if (focus &&
	    wl_resource_get_client(focus->resource) == wl_resource_get_client(ti->resource))
		set_focus(ti, focus);
	else
		set_focus(ti, NULL);
}

static void keyboard_focus_changed(struct wl_listener *listener, void *data)
{
	struct text_inputs *m = wl_container_of(listener, m, keyboard_focus);
	struct text_input *ti;

	wl_list_for_each(ti, &m->all, link)
		follow_focus(ti);
	notify(m);
}

/* The text input the user is typing into: enabled on the surface with the keyboard focus. */
static struct text_input *active(struct text_inputs *m)
{
	struct garnet_surface *focus = m->compositor->seat->keyboard_focus;
	struct text_input *ti;

	wl_list_for_each(ti, &m->all, link) {
		if (ti->focus && ti->focus == focus && ti->current.enabled)
			return ti;
	}
	return NULL;
}

/* ---- requests ---- */

static void ti_enable(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	/* Enabling starts afresh: everything set before it is forgotten. */
	state_reset(&ti->pending);
	ti->pending_enable = true;
	ti->pending_disable = false;
}

static void ti_disable(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	ti->pending_disable = true;
	ti->pending_enable = false;
}

static void ti_set_surrounding_text(struct wl_client *client, struct wl_resource *resource,
				    const char *text, int32_t cursor, int32_t anchor)
{
	struct text_input *ti = wl_resource_get_user_data(resource);
	size_t len = strlen(text);

	/* Offsets are bytes into the text; anything else would make the input method read
	 * outside it. */
	if (cursor < 0 || anchor < 0 || (size_t)cursor > len || (size_t)anchor > len) {
		wl_resource_post_error(wl_client_get_object(client, 1),
				       WL_DISPLAY_ERROR_INVALID_METHOD,
				       "set_surrounding_text: cursor %d or anchor %d outside "
				       "the %zu bytes of text", cursor, anchor, len);
		return;
	}
	free(ti->pending.surrounding);
	ti->pending.surrounding = strdup(text);
	if (!ti->pending.surrounding) {
		wl_client_post_no_memory(client);
		return;
	}
	ti->pending.cursor = cursor;
	ti->pending.anchor = anchor;
}

static void ti_set_text_change_cause(struct wl_client *client, struct wl_resource *resource,
				     uint32_t cause)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	ti->pending.change_cause = cause;
}

static void ti_set_content_type(struct wl_client *client, struct wl_resource *resource,
				uint32_t hint, uint32_t purpose)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	ti->pending.hint = hint;
	ti->pending.purpose = purpose;
}

static void ti_set_cursor_rectangle(struct wl_client *client, struct wl_resource *resource,
				    int32_t x, int32_t y, int32_t width, int32_t height)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	/* The input method's popup is placed from it: clamped like every client coordinate. */
	ti->pending.rect[0] = garnet_coord_clamp(x);
	ti->pending.rect[1] = garnet_coord_clamp(y);
	ti->pending.rect[2] = garnet_coord_clamp(width);
	ti->pending.rect[3] = garnet_coord_clamp(height);
}

static void ti_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct text_input *ti = wl_resource_get_user_data(resource);
	struct text_input *other = active(ti->m);

	ti->commits++;
	if (ti->pending_disable) {
		state_reset(&ti->current);
		state_reset(&ti->pending);
	} else if (ti->pending_enable) {
		/* One enabled text input per seat, and only on the focused surface. */
		if (ti->focus && (!other || other == ti)) {
			state_copy(&ti->current, &ti->pending);
			ti->current.enabled = true;
		}
	} else if (ti->current.enabled) {
		state_copy(&ti->current, &ti->pending);
		ti->current.enabled = true;
	}
	ti->pending_enable = ti->pending_disable = false;
	notify(ti->m);
}

static const struct zwp_text_input_v3_interface text_input_impl = {
	.destroy = garnet_resource_destroy_request,
	.enable = ti_enable,
	.disable = ti_disable,
	.set_surrounding_text = ti_set_surrounding_text,
	.set_text_change_cause = ti_set_text_change_cause,
	.set_content_type = ti_set_content_type,
	.set_cursor_rectangle = ti_set_cursor_rectangle,
	.commit = ti_commit,
};

static void ti_resource_destroy(struct wl_resource *resource)
{
	struct text_input *ti = wl_resource_get_user_data(resource);

	struct text_inputs *m = ti->m;
	bool was_active = active(m) == ti;

	wl_list_remove(&ti->link);
	wl_list_remove(&ti->focus_destroy.link);
	state_reset(&ti->pending);
	state_reset(&ti->current);
	free(ti);
	if (was_active)
		notify(m);
}

/* ---- the manager ---- */

static void manager_get_text_input(struct wl_client *client, struct wl_resource *resource,
				   uint32_t id, struct wl_resource *seat)
{
	struct text_inputs *m = wl_resource_get_user_data(resource);
	struct text_input *ti = calloc(1, sizeof(*ti));

	if (!ti) {
		wl_client_post_no_memory(client);
		return;
	}
	ti->resource = wl_resource_create(client, &zwp_text_input_v3_interface,
					  wl_resource_get_version(resource), id);
	if (!ti->resource) {
		free(ti);
		wl_client_post_no_memory(client);
		return;
	}
	ti->m = m;
	garnet_listener_init(&ti->focus_destroy, focus_destroyed);
	wl_list_insert(&m->all, &ti->link);
	wl_resource_set_implementation(ti->resource, &text_input_impl, ti, ti_resource_destroy);
	follow_focus(ti);
}

static const struct zwp_text_input_manager_v3_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_text_input = manager_get_text_input,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &zwp_text_input_manager_v3_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

bool garnet_text_input_current(struct garnet_compositor *c, struct garnet_text_input_info *out)
{
	struct text_input *ti = c->text_inputs ? active(c->text_inputs) : NULL;

	if (!ti)
		return false;
	*out = (struct garnet_text_input_info){
		.id = ti,
		.surface = ti->focus,
		.surrounding = ti->current.surrounding,
		.cursor = ti->current.cursor,
		.anchor = ti->current.anchor,
		.change_cause = ti->current.change_cause,
		.hint = ti->current.hint,
		.purpose = ti->current.purpose,
	};
	memcpy(out->rect, ti->current.rect, sizeof(out->rect));
	return true;
}

struct wl_signal *garnet_text_input_changed(struct garnet_compositor *c)
{
	return &c->text_inputs->changed;
}

bool garnet_text_input_deliver(struct garnet_compositor *c, const struct garnet_text_edit *edit)
{
	struct text_input *ti = c->text_inputs ? active(c->text_inputs) : NULL;

	if (!ti)
		return false;
	if (edit->preedit)
		zwp_text_input_v3_send_preedit_string(ti->resource, edit->preedit,
						      edit->preedit_begin, edit->preedit_end);
	if (edit->delete_before || edit->delete_after)
		zwp_text_input_v3_send_delete_surrounding_text(ti->resource, edit->delete_before,
							       edit->delete_after);
	if (edit->commit)
		zwp_text_input_v3_send_commit_string(ti->resource, edit->commit);
	zwp_text_input_v3_send_done(ti->resource, ti->commits);
	return true;
}

/* Clients, and with them every text input, are gone by now. */
static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct text_inputs *m = wl_container_of(listener, m, compositor_destroy);

	m->compositor->text_inputs = NULL;
	wl_list_remove(&m->keyboard_focus.link);
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_text_input_init(struct garnet_compositor *c)
{
	struct text_inputs *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->all);
	wl_signal_init(&m->changed);
	if (!garnet_global_create(c, &zwp_text_input_manager_v3_interface, 1, m, manager_bind,
				  false)) {
		free(m);
		return false;
	}
	c->text_inputs = m;
	m->keyboard_focus.notify = keyboard_focus_changed;
	wl_signal_add(&c->seat->events.keyboard_focus, &m->keyboard_focus);
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}
