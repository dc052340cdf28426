// SPDX-License-Identifier: MIT
// zwlr_foreign_toplevel_management_v1: every window's title, app id, states and outputs for a
// task bar, and its wishes for them. Titles and app ids are private: the manager is a
// privileged global and a bind asks the security layer (foreign_toplevel); what the task bar
// asks of a window goes through the shell's focus authority (taskbar_request).
#include <stdlib.h>
#include <string.h>

#include "../core/compositor.h"
#include "../core/lifetime.h"
#include "../core/seat.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/shell-hooks.h"
#include "foreign-toplevel.h"
#include "wlr-foreign-toplevel-management-unstable-v1-server-protocol.h"
#include "xdg-shell.h"

#define MANAGER_VERSION 3
/* The longest title or app id a task bar is told, in bytes (cut before a UTF-8 character that
 * would cross it): a task bar shows a few dozen characters, and a window that renames itself
 * with 4 KB titles in a loop would otherwise make garnet send 4 KB per rename to every task
 * bar. doc/security.md states it. */
#define STRING_MAX 512
/* A window's news reaches the task bars at once, up to SYNC_BURST times in a row; beyond that
 * once every SYNC_INTERVAL_MS. Coalescing once per turn of the loop is not enough alone:
 * libwayland hands garnet one 4 KB request of a flooding client per turn, and a panel that
 * redraws on every done would spend its time drawing titles nobody can read. */
#define SYNC_INTERVAL_MS 50
#define SYNC_BURST 32

struct foreign_toplevels {
	struct garnet_compositor *compositor;
	struct wl_list managers; /* manager resources (wl_resource_get_link) */
	struct wl_list windows; /* window.link, in the order they mapped */
	uint32_t next_manager_id;
	/* Changes are sent once per turn of the event loop: a window that renames itself in a
	 * loop must not fill the task bar's socket until libwayland drops the task bar. */
	struct wl_event_source *idle;
	struct wl_event_source *timer; /* the next sync of throttled windows */
	bool timer_armed;
	/* The outputs some handle was told a window is on: a handle's bit is cleared (output_leave
	 * sent) when its output goes, before a new output can take the same index. */
	struct output_watch {
		struct foreign_toplevels *state;
		struct garnet_output *output;
		struct wl_listener destroy;
	} watches[32];
	struct wl_listener compositor_destroy;
};

struct manager {
	struct foreign_toplevels *state;
	uint32_t id; /* tells apart two managers of one client, without a pointer to either */
};

/* A mapped toplevel, published to every manager. */
struct window {
	struct foreign_toplevels *state;
	struct garnet_toplevel *toplevel;
	struct wl_list link;
	struct wl_list handles; /* handle.window_link */
	struct wl_listener toplevel_destroy;
	bool dirty; /* changed since the handles were last told */
	/* Rate of syncs (a generic cell rate: a sync is due SYNC_INTERVAL_MS after the previous
	 * one, and may come up to SYNC_BURST intervals early). */
	uint32_t theoretical_msec;
};

/* What one manager's client was told of one window; inert (window NULL) once it closed. */
struct handle {
	struct wl_resource *resource;
	struct window *window;
	struct wl_list window_link;
	uint32_t manager_id;
	char *title, *app_id; /* as last sent; NULL: not sent yet */
	uint32_t states, output_mask; /* bits as last sent */
	bool sent_once;
	struct garnet_toplevel *parent; /* as last sent */
};

static const struct zwlr_foreign_toplevel_handle_v1_interface handle_impl;

/* ---- what a handle's client is told ---- */

/* How many bytes of s a task bar is told: at most STRING_MAX, never half a UTF-8 character. */
static size_t told_length(const char *s)
{
	size_t len = strnlen(s, STRING_MAX + 1);

	if (len <= STRING_MAX)
		return len;
	len = STRING_MAX;
	/* s[len] is the first byte left out: when it continues a character, so does the rest of
	 * that character's bytes before it. */
	while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* True when the string was sent (it differed from what the client knew). */
static bool sync_string(char **sent, const char *now)
{
	size_t len;
	char *copy;

	now = now ? now : "";
	len = told_length(now);
	if (*sent && strlen(*sent) == len && memcmp(*sent, now, len) == 0)
		return false;
	copy = strndup(now, len);
	if (!copy)
		return false;
	free(*sent);
	*sent = copy;
	return true;
}

static uint32_t states_of(struct garnet_toplevel *tl, int version)
{
	uint32_t states = 0;

	if (tl->maximized)
		states |= 1u << ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MAXIMIZED;
	if (tl->minimized)
		states |= 1u << ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_MINIMIZED;
	if (tl->activated)
		states |= 1u << ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED;
	if (tl->fullscreen &&
	    version >= ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN_SINCE_VERSION)
		states |= 1u << ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_FULLSCREEN;
	return states;
}

static bool send_states(struct handle *h, uint32_t states)
{
	struct wl_array array;
	uint32_t *s;

	wl_array_init(&array);
	for (uint32_t bit = 0; bit < 32; bit++) {
		if (!(states & (1u << bit)))
			continue;
		s = wl_array_add(&array, sizeof(*s));
		if (!s) {
			wl_array_release(&array);
			wl_resource_post_no_memory(h->resource);
			return false;
		}
		*s = bit;
	}
	zwlr_foreign_toplevel_handle_v1_send_state(h->resource, &array);
	wl_array_release(&array);
	return true;
}

/* output_enter (or leave) of every wl_output of h's client for output. */
static void send_output(struct handle *h, struct garnet_output *output, bool enter)
{
	struct wl_client *client = wl_resource_get_client(h->resource);
	struct wl_resource *resource;

	wl_resource_for_each(resource, &output->resources)
	{
		if (wl_resource_get_client(resource) != client)
			continue;
		if (enter)
			zwlr_foreign_toplevel_handle_v1_send_output_enter(h->resource, resource);
		else
			zwlr_foreign_toplevel_handle_v1_send_output_leave(h->resource, resource);
	}
}

static void output_watch_destroyed(struct wl_listener *listener, void *data);
static void window_mark_dirty(struct window *w);

static void watch_output(struct foreign_toplevels *state, struct garnet_output *output)
{
	struct output_watch *watch = &state->watches[output->index];

	if (watch->output == output)
		return;
	if (watch->output)
		wl_list_remove(&watch->destroy.link);
	watch->state = state;
	watch->output = output;
	watch->destroy.notify = output_watch_destroyed;
	wl_signal_add(&output->events.destroy, &watch->destroy);
}

static bool sync_outputs(struct handle *h, uint32_t mask)
{
	struct foreign_toplevels *state = h->window->state;
	struct garnet_output *output;
	bool changed = false;

	wl_list_for_each (output, &state->compositor->outputs, link) {
		uint32_t bit = 1u << output->index;

		if (!((mask ^ h->output_mask) & bit))
			continue;
		changed = true;
		if (mask & bit)
			watch_output(state, output);
		send_output(h, output, mask & bit);
	}
	h->output_mask = mask;
	return changed;
}

/* The record of toplevel, or NULL when no task bar was told of it yet. */
static struct window *window_for(struct foreign_toplevels *state, struct garnet_toplevel *tl)
{
	struct window *w;

	wl_list_for_each (w, &state->windows, link) {
		if (w->toplevel == tl)
			return w;
	}
	return NULL;
}

/* The handle of this manager for toplevel, or NULL when it has none (yet). */
static struct handle *handle_for(struct foreign_toplevels *state, struct garnet_toplevel *tl,
				 uint32_t manager_id)
{
	struct window *w = window_for(state, tl);
	struct handle *h;

	if (!w)
		return NULL;
	wl_list_for_each (h, &w->handles, window_link) {
		if (h->manager_id == manager_id)
			return h;
	}
	return NULL;
}

static bool sync_parent(struct handle *h)
{
	struct garnet_toplevel *parent = h->window->toplevel->parent;
	struct handle *ph = parent ? handle_for(h->window->state, parent, h->manager_id) : NULL;

	if (wl_resource_get_version(h->resource) <
	    ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_PARENT_SINCE_VERSION)
		return false;
	/* A parent not published (unmapped) is no parent the client could name. */
	if (!ph)
		parent = NULL;
	if (parent == h->parent)
		return false;
	zwlr_foreign_toplevel_handle_v1_send_parent(h->resource, ph ? ph->resource : NULL);
	h->parent = parent;
	return true;
}

/* Sends what changed since the last done, then done; true when anything was sent. */
static bool sync_handle(struct handle *h)
{
	struct garnet_toplevel *tl = h->window->toplevel;
	uint32_t states = states_of(tl, wl_resource_get_version(h->resource));
	bool changed = !h->sent_once;

	if (sync_string(&h->title, garnet_xdg_toplevel_title(tl))) {
		zwlr_foreign_toplevel_handle_v1_send_title(h->resource, h->title);
		changed = true;
	}
	if (sync_string(&h->app_id, garnet_xdg_toplevel_app_id(tl))) {
		zwlr_foreign_toplevel_handle_v1_send_app_id(h->resource, h->app_id);
		changed = true;
	}
	if (sync_outputs(h, tl->surface->output_mask))
		changed = true;
	if (!h->sent_once || states != h->states) {
		if (!send_states(h, states))
			return false;
		h->states = states;
		changed = true;
	}
	if (sync_parent(h))
		changed = true;
	h->sent_once = true;
	if (changed)
		zwlr_foreign_toplevel_handle_v1_send_done(h->resource);
	return changed;
}

/* ---- handles ---- */

static struct handle *handle_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void handle_unlink(struct handle *h)
{
	garnet_list_unlink(&h->window_link);
	h->window = NULL;
}

static void handle_resource_destroy(struct wl_resource *resource)
{
	struct handle *h = handle_from(resource);

	handle_unlink(h);
	free(h->title);
	free(h->app_id);
	free(h);
}

/* The window a request is about, or NULL when it closed (the request is then ignored). */
static struct garnet_toplevel *request_target(struct wl_resource *resource)
{
	struct handle *h = handle_from(resource);

	return h->window && h->window->toplevel->mapped ? h->window->toplevel : NULL;
}

static void ask_shell(struct wl_resource *resource, enum garnet_taskbar_request request,
		      struct garnet_output *output)
{
	struct garnet_toplevel *tl = request_target(resource);
	struct garnet_compositor *c;

	if (!tl)
		return;
	c = tl->surface->compositor;
	c->shell_hooks->taskbar_request(c->shell, tl, request, output,
					wl_resource_get_client(resource));
}

static void handle_set_maximized(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_MAXIMIZE, NULL);
}

static void handle_unset_maximized(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_UNMAXIMIZE, NULL);
}

static void handle_set_minimized(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_MINIMIZE, NULL);
}

/* A minimized window comes back as the user's choice: activated. */
static void handle_unset_minimized(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_ACTIVATE, NULL);
}

static void handle_activate(struct wl_client *client, struct wl_resource *resource,
			    struct wl_resource *seat)
{
	ask_shell(resource, GARNET_TASKBAR_ACTIVATE, NULL);
}

static void handle_close(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_CLOSE, NULL);
}

/* Where a task bar shows a window is for minimize animations, which garnet has none of. */
static void handle_set_rectangle(struct wl_client *client, struct wl_resource *resource,
				 struct wl_resource *surface, int32_t x, int32_t y, int32_t width,
				 int32_t height)
{
	if (width < 0 || height < 0)
		wl_resource_post_error(resource,
				       ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_ERROR_INVALID_RECTANGLE,
				       "a rectangle of %dx%d", width, height);
}

static void handle_set_fullscreen(struct wl_client *client, struct wl_resource *resource,
				  struct wl_resource *output_resource)
{
	ask_shell(resource, GARNET_TASKBAR_FULLSCREEN,
		  output_resource ? garnet_output_from_resource(output_resource) : NULL);
}

static void handle_unset_fullscreen(struct wl_client *client, struct wl_resource *resource)
{
	ask_shell(resource, GARNET_TASKBAR_UNFULLSCREEN, NULL);
}

static const struct zwlr_foreign_toplevel_handle_v1_interface handle_impl = {
	.set_maximized = handle_set_maximized,
	.unset_maximized = handle_unset_maximized,
	.set_minimized = handle_set_minimized,
	.unset_minimized = handle_unset_minimized,
	.activate = handle_activate,
	.close = handle_close,
	.set_rectangle = handle_set_rectangle,
	.destroy = garnet_resource_destroy_request,
	.set_fullscreen = handle_set_fullscreen,
	.unset_fullscreen = handle_unset_fullscreen,
};

/* A new handle of w for the manager, announced with the toplevel event; its properties follow
 * with sync_handle. */
static struct handle *handle_create(struct window *w, struct wl_resource *manager_resource)
{
	struct manager *m = wl_resource_get_user_data(manager_resource);
	struct wl_client *client = wl_resource_get_client(manager_resource);
	struct handle *h = calloc(1, sizeof(*h));

	if (!h) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	h->resource = wl_resource_create(client, &zwlr_foreign_toplevel_handle_v1_interface,
					 wl_resource_get_version(manager_resource), 0);
	if (!h->resource) {
		free(h);
		wl_client_post_no_memory(client);
		return NULL;
	}
	wl_resource_set_implementation(h->resource, &handle_impl, h, handle_resource_destroy);
	h->window = w;
	h->manager_id = m->id;
	wl_list_insert(w->handles.prev, &h->window_link);
	zwlr_foreign_toplevel_manager_v1_send_toplevel(manager_resource, h->resource);
	return h;
}

/* ---- windows ---- */


/* The window closed for every client: handles go inert, children lose their parent. */
static void window_destroy(struct window *w)
{
	struct foreign_toplevels *state = w->state;
	struct handle *h, *tmp;
	struct window *other;

	wl_list_for_each_safe (h, tmp, &w->handles, window_link) {
		zwlr_foreign_toplevel_handle_v1_send_closed(h->resource);
		handle_unlink(h);
	}
	wl_list_remove(&w->link);
	wl_list_remove(&w->toplevel_destroy.link);
	free(w);
	wl_list_for_each (other, &state->windows, link) {
		wl_list_for_each (h, &other->handles, window_link) {
			if (sync_parent(h))
				zwlr_foreign_toplevel_handle_v1_send_done(h->resource);
		}
	}
}

static void window_toplevel_destroyed(struct wl_listener *listener, void *data)
{
	struct window *w = wl_container_of(listener, w, toplevel_destroy);

	window_destroy(w);
}

static struct window *window_create(struct foreign_toplevels *state, struct garnet_toplevel *tl)
{
	struct window *w = calloc(1, sizeof(*w));
	struct wl_resource *manager;
	struct window *other;

	if (!w) {
		garnet_log(state->compositor, GARNET_LOG_ERROR, "foreign-toplevel",
			   "no memory to publish a window");
		return NULL;
	}
	w->state = state;
	w->toplevel = tl;
	wl_list_init(&w->handles);
	wl_list_insert(state->windows.prev, &w->link);
	w->toplevel_destroy.notify = window_toplevel_destroyed;
	wl_signal_add(&tl->events.destroy, &w->toplevel_destroy);
	wl_resource_for_each(manager, &state->managers) handle_create(w, manager);
	/* Its children mapped before it named no parent: now they can. */
	wl_list_for_each (other, &state->windows, link) {
		if (other->toplevel->parent == tl)
			window_mark_dirty(other);
	}
	return w;
}

/* Milliseconds until w may be synced again; 0: now. */
static uint32_t throttled_for(struct window *w, uint32_t now)
{
	int32_t ahead = (int32_t)(w->theoretical_msec - now);
	int32_t allowed = SYNC_INTERVAL_MS * (SYNC_BURST - 1);

	return ahead > allowed ? (uint32_t)(ahead - allowed) : 0;
}

static void sync_dirty_windows(void *data)
{
	struct foreign_toplevels *state = data;
	uint32_t now = garnet_now_msec(state->compositor), wait = 0;
	struct window *w;
	struct handle *h;
	bool sent;

	state->idle = NULL;
	state->timer_armed = false;
	wl_list_for_each (w, &state->windows, link) {
		uint32_t w_wait;

		if (!w->dirty)
			continue;
		w_wait = throttled_for(w, now);
		if (w_wait) {
			if (!wait || w_wait < wait)
				wait = w_wait;
			continue;
		}
		w->dirty = false;
		sent = false;
		wl_list_for_each (h, &w->handles, window_link)
			sent |= sync_handle(h);
		/* Only what reached a task bar counts: a resize sends nothing. */
		if (sent) {
			if ((int32_t)(w->theoretical_msec - now) < 0)
				w->theoretical_msec = now;
			w->theoretical_msec += SYNC_INTERVAL_MS;
		}
	}
	if (wait && state->timer) {
		wl_event_source_timer_update(state->timer, (int)wait);
		state->timer_armed = true;
	}
}

static int sync_timer_fired(void *data)
{
	sync_dirty_windows(data);
	return 0;
}

/* w's task bar entries are synced at the end of this turn of the loop, or when its rate allows. */
static void window_mark_dirty(struct window *w)
{
	struct foreign_toplevels *state = w->state;

	/* No task bar to tell (a task bar that binds is told everything then): nothing to do at
	 * the end of the turn, for the commit of every window every frame. */
	if (wl_list_empty(&w->handles))
		return;
	w->dirty = true;
	if (state->idle)
		return;
	if (state->timer_armed && throttled_for(w, garnet_now_msec(state->compositor)))
		return;
	state->idle = wl_event_loop_add_idle(state->compositor->loop, sync_dirty_windows, state);
}

/* The output goes: every task bar told a window is on it hears it is not, while the client's
 * wl_output objects are still live, and the index is free for the next output. */
static void output_watch_destroyed(struct wl_listener *listener, void *data)
{
	struct output_watch *watch = wl_container_of(listener, watch, destroy);
	struct foreign_toplevels *state = watch->state;
	uint32_t bit = 1u << watch->output->index;
	struct window *w;
	struct handle *h;

	wl_list_for_each (w, &state->windows, link) {
		wl_list_for_each (h, &w->handles, window_link) {
			if (!(h->output_mask & bit))
				continue;
			send_output(h, watch->output, false);
			h->output_mask &= ~bit;
			zwlr_foreign_toplevel_handle_v1_send_done(h->resource);
		}
	}
	wl_list_remove(&watch->destroy.link);
	watch->output = NULL;
}

void garnet_foreign_toplevel_surface_outputs_changed(struct garnet_surface *surface)
{
	struct foreign_toplevels *state = surface->compositor->foreign_toplevels;
	struct window *w;

	if (!state)
		return;
	wl_list_for_each (w, &state->windows, link) {
		if (w->toplevel->surface == surface) {
			window_mark_dirty(w);
			return;
		}
	}
}

/* A wl_output bound after the task bar was told of the windows on it: output_enter for it. */
void garnet_foreign_toplevel_output_bound(struct garnet_output *output,
					  struct wl_resource *resource)
{
	struct foreign_toplevels *state = output->compositor->foreign_toplevels;
	struct wl_client *client = wl_resource_get_client(resource);
	uint32_t bit = 1u << output->index;
	struct window *w;
	struct handle *h;

	if (!state)
		return;
	wl_list_for_each (w, &state->windows, link) {
		wl_list_for_each (h, &w->handles, window_link) {
			if (!(h->output_mask & bit) ||
			    wl_resource_get_client(h->resource) != client)
				continue;
			zwlr_foreign_toplevel_handle_v1_send_output_enter(h->resource, resource);
			zwlr_foreign_toplevel_handle_v1_send_done(h->resource);
		}
	}
}

void garnet_foreign_toplevel_changed(struct garnet_toplevel *tl)
{
	struct foreign_toplevels *state = tl->surface->compositor->foreign_toplevels;
	struct window *w;

	if (!state)
		return;
	w = window_for(state, tl);
	if (!tl->mapped) {
		if (w)
			window_destroy(w);
		return;
	}
	if (!w)
		w = window_create(state, tl);
	if (!w)
		return;
	window_mark_dirty(w);
}

/* ---- the manager ---- */

static void manager_stop(struct wl_client *client, struct wl_resource *resource)
{
	zwlr_foreign_toplevel_manager_v1_send_finished(resource);
	wl_resource_destroy(resource);
}

static const struct zwlr_foreign_toplevel_manager_v1_interface manager_impl = {
	.stop = manager_stop,
};

static void manager_resource_destroy(struct wl_resource *resource)
{
	garnet_resource_unlink(resource);
	free(wl_resource_get_user_data(resource));
}

/* Asked of the security layer: the global filter lets a few trusted clients see the manager,
 * this permission is the one that shows them other clients' window titles. */
static bool may_list_windows(struct garnet_compositor *c, struct wl_client *client)
{
	pid_t pid = 0;

	if (!c->hooks.foreign_toplevel || c->hooks.foreign_toplevel(c->hooks.data, client))
		return true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_WARNING, "security",
		   "denied: pid %d may not list other clients' windows", (int)pid);
	return false;
}

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct foreign_toplevels *state = data;
	struct garnet_compositor *c = state->compositor;
	struct wl_resource *resource;
	struct manager *m;
	struct window *w;
	struct handle *h;

	if (!garnet_global_check_bind(c, client, &zwlr_foreign_toplevel_manager_v1_interface))
		return;
	resource = wl_resource_create(client, &zwlr_foreign_toplevel_manager_v1_interface,
				      (int)version, id);
	m = calloc(1, sizeof(*m));
	if (!resource || !m) {
		free(m);
		if (resource)
			wl_resource_destroy(resource);
		wl_client_post_no_memory(client);
		return;
	}
	m->state = state;
	m->id = ++state->next_manager_id;
	wl_resource_set_implementation(resource, &manager_impl, m, manager_resource_destroy);
	wl_list_init(wl_resource_get_link(resource));
	/* Refused: the protocol's own way of saying there is nothing to see. */
	if (!may_list_windows(c, client)) {
		manager_stop(client, resource);
		return;
	}
	wl_list_insert(&state->managers, wl_resource_get_link(resource));
	/* Every handle first, so that the parents are there to be named. */
	wl_list_for_each (w, &state->windows, link)
		handle_create(w, resource);
	wl_list_for_each (w, &state->windows, link) {
		wl_list_for_each (h, &w->handles, window_link) {
			if (h->manager_id == m->id)
				sync_handle(h);
		}
	}
}

/* Clients, and with them every handle and manager, are gone by now; the shell unmapped the
 * windows. */
static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct foreign_toplevels *state = wl_container_of(listener, state, compositor_destroy);
	struct window *w, *tmp;

	wl_list_for_each_safe (w, tmp, &state->windows, link)
		window_destroy(w);
	if (state->idle)
		wl_event_source_remove(state->idle);
	if (state->timer)
		wl_event_source_remove(state->timer);
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(state->watches); i++) {
		if (state->watches[i].output)
			wl_list_remove(&state->watches[i].destroy.link);
	}
	state->compositor->foreign_toplevels = NULL;
	wl_list_remove(&state->compositor_destroy.link);
	free(state);
}

bool garnet_foreign_toplevel_init(struct garnet_compositor *c)
{
	struct foreign_toplevels *state = calloc(1, sizeof(*state));

	if (!state)
		return false;
	state->compositor = c;
	wl_list_init(&state->managers);
	wl_list_init(&state->windows);
	state->timer = wl_event_loop_add_timer(c->loop, sync_timer_fired, state);
	if (!state->timer) {
		free(state);
		return false;
	}
	if (!garnet_global_create(c, &zwlr_foreign_toplevel_manager_v1_interface, MANAGER_VERSION,
				  state, manager_bind, true)) {
		wl_event_source_remove(state->timer);
		free(state);
		return false;
	}
	c->foreign_toplevels = state;
	state->compositor_destroy.notify = compositor_destroyed;
	wl_signal_add(&c->events.destroy, &state->compositor_destroy);
	return true;
}
