// SPDX-License-Identifier: MIT
// The X window manager of one domain's Xwayland: pairs X windows with the wl_surfaces Xwayland
// makes for them (WL_SURFACE_ID), makes managed windows garnet toplevels that the shell
// places, stacks and focuses like any other, shows override-redirect windows (menus,
// tooltips) where X puts them, and tells X only what garnet decided: the keyboard goes to an
// X window only when garnet gave its surface the keyboard.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <xcb/composite.h>
#include <xcb/res.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

#include "garnet/security.h"
#include "../core/shell-hooks.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "../core/lifetime.h"
#include "../protocols/toplevel.h"
#include "xwayland-private.h"
#include "xwayland-core.h"
#include "root-cursor.h"
#include "selection.h"
#include "wm-state.h"
#include "x-reply.h"
#include "x-write.h"

/* Longest title or class kept: task bars cut at 512 bytes anyway. */
#define MAX_PROPERTY 4096
/* Windows of one domain the manager keeps a record of: far more than any application has at
 * the root, and a bound on the memory an X client can make garnet spend. */
#define MAX_WINDOWS 4096
#define WINDOW_BUCKETS 1024
/* Work done per wake-up before garnet serves its other clients again; the rest waits for
 * the next turn of the loop. */
#define MAX_EVENTS_PER_DISPATCH 256
#define DISPATCH_BUDGET_NS 3000000
/* A transient chain deeper than this is no dialog of a dialog but an X client's game. */
#define MAX_TRANSIENT_DEPTH 32
/* Sizes and places garnet grants an X window; X's own limits (65535) make Xwayland allocate
 * gigabytes for one window. */
#define MAX_WINDOW_SIZE 16384

enum atom_name {
	ATOM_WL_SURFACE_ID,
	ATOM_WM_PROTOCOLS,
	ATOM_WM_DELETE_WINDOW,
	ATOM_WM_TAKE_FOCUS,
	ATOM_WM_STATE,
	ATOM_NET_WM_NAME,
	ATOM_UTF8_STRING,
	ATOM_NET_SUPPORTING_WM_CHECK,
	ATOM_NET_SUPPORTED,
	ATOM_NET_ACTIVE_WINDOW,
	ATOM_WM_S0,
	ATOM_NET_WM_CM_S0,
	ATOM_COUNT,
};

static const char *const atom_names[ATOM_COUNT] = {
	[ATOM_WL_SURFACE_ID] = "WL_SURFACE_ID",
	[ATOM_WM_PROTOCOLS] = "WM_PROTOCOLS",
	[ATOM_WM_DELETE_WINDOW] = "WM_DELETE_WINDOW",
	[ATOM_WM_TAKE_FOCUS] = "WM_TAKE_FOCUS",
	[ATOM_WM_STATE] = "WM_STATE",
	[ATOM_NET_WM_NAME] = "_NET_WM_NAME",
	[ATOM_UTF8_STRING] = "UTF8_STRING",
	[ATOM_NET_SUPPORTING_WM_CHECK] = "_NET_SUPPORTING_WM_CHECK",
	[ATOM_NET_SUPPORTED] = "_NET_SUPPORTED",
	[ATOM_NET_ACTIVE_WINDOW] = "_NET_ACTIVE_WINDOW",
	[ATOM_WM_S0] = "WM_S0",
	[ATOM_NET_WM_CM_S0] = "_NET_WM_CM_S0",
};

struct xwm {
	struct garnet_xwayland_domain *domain;
	struct garnet_compositor *compositor;
	xcb_connection_t *conn;
	xcb_screen_t *screen;
	xcb_window_t wm_window;
	xcb_window_t focused; /* the window garnet gave the keyboard, or XCB_NONE */
	struct wl_event_source *source;
	struct wl_event_source *more; /* the work left over from the last wake-up */
	struct wl_list windows; /* xwm_window.link */
	struct wl_list buckets[WINDOW_BUCKETS]; /* xwm_window.bucket_link, by id */
	int window_count;
	bool full_logged;
	/* Replies come in the order of the requests: the oldest first. */
	struct wl_list reads; /* pending_read.link */
	struct wl_list configures; /* xwm_window.configure_link: answers owed */
	bool res; /* the server has X-Resource: the idle check can count clients */
	bool counting;
	xcb_atom_t atoms[ATOM_COUNT];
	struct xwm_selections *selections; /* selection.c */
	struct xwm_state_atoms state_atoms; /* wm-state.c */
};

/* What a window's record is filled from, each read without waiting (the reply comes in a
 * later turn of the loop), at most one of each kind in flight per window. */
enum read_kind {
	READ_NET_NAME,
	READ_NAME,
	READ_CLASS,
	READ_PROTOCOLS,
	READ_TRANSIENT_FOR,
	READ_WM_STATE,
	READ_GEOMETRY,
	READ_COUNT,
	READ_CLIENTS = READ_COUNT, /* the server's, for the idle check: no window's */
};

#define MAP_READS                                                                                  \
	((1u << READ_NET_NAME) | (1u << READ_NAME) | (1u << READ_CLASS) | (1u << READ_PROTOCOLS) | \
	 (1u << READ_TRANSIENT_FOR) | (1u << READ_WM_STATE))

struct pending_read {
	struct wl_list link; /* xwm.reads */
	struct wl_list window_link; /* xwm_window.reads */
	struct xwm_window *win; /* NULL once the window is gone: the reply is dropped */
	enum read_kind kind;
	unsigned int sequence;
};

struct xwm_window {
	struct xwm *xwm;
	struct wl_list link, bucket_link;
	xcb_window_t id;
	bool override_redirect;
	bool x_mapped; /* X maps it: shown once its surface has content */
	int16_t x, y;
	uint16_t width, height;
	uint32_t surface_id; /* from WL_SURFACE_ID, until paired */
	struct garnet_surface *surface;
	struct wl_listener surface_destroy;
	/* Managed windows are toplevels; an override-redirect window uses toplevel.view only. */
	struct garnet_toplevel toplevel;
	bool toplevel_ready; /* toplevel initialised (paired) */
	bool shown;
	char *net_name, *name, *app_id; /* the title: _NET_WM_NAME, else WM_NAME */
	xcb_window_t transient_for;
	bool delete_window, take_focus;
	struct wl_list reads; /* pending_read.window_link */
	uint32_t reading, stale; /* kinds in flight; kinds changed since their read went */
	uint32_t map_waiting; /* kinds a MapRequest waits for before the window is mapped */
	unsigned int wanted_state; /* _NET_WM_STATE asked for before mapping: XWM_STATE_* */
	bool map_requested;
	/* Owed an answer to its ConfigureRequests: one per wake-up, however many came. */
	struct wl_list configure_link;
};

static const struct garnet_surface_role xwayland_role;

static void flush(struct xwm *xwm)
{
	xwl_flush(xwm->conn);
}

static struct wl_list *bucket(struct xwm *xwm, xcb_window_t id)
{
	/* Ids of one client differ in their low bits. */
	return &xwm->buckets[(id ^ (id >> 21)) % WINDOW_BUCKETS];
}

static struct xwm_window *find_window(struct xwm *xwm, xcb_window_t id)
{
	struct xwm_window *win;

	if (id == XCB_NONE)
		return NULL;
	wl_list_for_each (win, bucket(xwm, id), bucket_link) {
		if (win->id == id)
			return win;
	}
	return NULL;
}

static void toplevel_changed(struct xwm_window *win)
{
	struct garnet_compositor *c = win->xwm->compositor;

	if (win->toplevel_ready && !win->override_redirect && c->protocol_hooks.toplevel_changed)
		c->protocol_hooks.toplevel_changed(&win->toplevel);
}

/* ---- properties, read without waiting ---- */

static void set_parent(struct xwm_window *win, struct xwm_window *parent);
static void finish_map(struct xwm_window *win);

static const char *title_of(struct xwm_window *win)
{
	return win->net_name ? win->net_name : win->name;
}

static void request_read(struct xwm_window *win, enum read_kind kind)
{
	struct xwm *xwm = win->xwm;
	static const uint32_t length = MAX_PROPERTY / 4;
	struct pending_read *read;
	unsigned int sequence;

	if (win->reading & (1u << kind)) {
		/* One read at a time: a client changing a property in a loop costs one read
		 * per round trip, not one per change. */
		win->stale |= 1u << kind;
		return;
	}
	read = calloc(1, sizeof(*read));
	if (!read)
		return;
	switch (kind) {
	case READ_NET_NAME:
		sequence = xcb_get_property(xwm->conn, 0, win->id, xwm->atoms[ATOM_NET_WM_NAME],
					    xwm->atoms[ATOM_UTF8_STRING], 0, length)
				   .sequence;
		break;
	case READ_NAME:
		sequence = xcb_get_property(xwm->conn, 0, win->id, XCB_ATOM_WM_NAME, XCB_ATOM_ANY,
					    0, length)
				   .sequence;
		break;
	case READ_CLASS:
		sequence = xcb_get_property(xwm->conn, 0, win->id, XCB_ATOM_WM_CLASS,
					    XCB_ATOM_STRING, 0, length)
				   .sequence;
		break;
	case READ_PROTOCOLS:
		sequence = xcb_get_property(xwm->conn, 0, win->id, xwm->atoms[ATOM_WM_PROTOCOLS],
					    XCB_ATOM_ATOM, 0, 32)
				   .sequence;
		break;
	case READ_TRANSIENT_FOR:
		sequence = xcb_get_property(xwm->conn, 0, win->id, XCB_ATOM_WM_TRANSIENT_FOR,
					    XCB_ATOM_WINDOW, 0, 1)
				   .sequence;
		break;
	case READ_WM_STATE:
		sequence = xcb_get_property(xwm->conn, 0, win->id, xwm->state_atoms.state,
					    XCB_ATOM_ATOM, 0, 16)
				   .sequence;
		break;
	case READ_GEOMETRY:
	default:
		sequence = xcb_get_geometry(xwm->conn, win->id).sequence;
		break;
	}
	read->win = win;
	read->kind = kind;
	read->sequence = sequence;
	wl_list_insert(xwm->reads.prev, &read->link);
	wl_list_insert(&win->reads, &read->window_link);
	win->reading |= 1u << kind;
}

/* A string property's value, or NULL (none, or not 8-bit text); length set when not NULL. */
static char *string_of(xcb_get_property_reply_t *reply, size_t *length)
{
	int len = reply ? xcb_get_property_value_length(reply) : 0;
	char *s;

	if (!reply || reply->type == XCB_ATOM_NONE || reply->format != 8 || len <= 0)
		return NULL;
	s = malloc((size_t)len + 1);
	if (!s)
		return NULL;
	memcpy(s, xcb_get_property_value(reply), (size_t)len);
	s[len] = '\0';
	if (length)
		*length = (size_t)len;
	return s;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Replaces *field with value (taken); says whether it changed. */
static bool take_string(char **field, char *value)
{
	bool changed = !same(*field, value);

	free(*field);
	*field = value;
	return changed;
}

/* WM_CLASS is "instance\0class\0": the class names the application. */
static char *class_of(xcb_get_property_reply_t *reply)
{
	size_t len = 0;
	char *class = string_of(reply, &len), *app_id;
	size_t first = class ? strnlen(class, len) : 0;

	if (!class)
		return NULL;
	app_id = first + 1 < len ? strndup(class + first + 1, len - first - 1) : strdup(class);
	free(class);
	return app_id;
}

static void apply_protocols(struct xwm_window *win, xcb_get_property_reply_t *reply)
{
	struct xwm *xwm = win->xwm;
	xcb_atom_t *atoms;
	int n;

	win->delete_window = win->take_focus = false;
	if (!reply)
		return;
	atoms = xcb_get_property_value(reply);
	n = reply->format == 32 ? xcb_get_property_value_length(reply) / 4 : 0;
	for (int i = 0; i < n; i++) {
		win->delete_window |= atoms[i] == xwm->atoms[ATOM_WM_DELETE_WINDOW];
		win->take_focus |= atoms[i] == xwm->atoms[ATOM_WM_TAKE_FOCUS];
	}
}

static void apply_geometry(struct xwm_window *win, xcb_get_geometry_reply_t *reply)
{
	if (!reply || win->shown)
		return;
	win->x = reply->x;
	win->y = reply->y;
	win->width = reply->width;
	win->height = reply->height;
}

static void apply_read(struct xwm_window *win, enum read_kind kind, void *reply)
{
	bool changed = false;

	switch (kind) {
	case READ_NET_NAME:
		changed = take_string(&win->net_name, string_of(reply, NULL));
		break;
	case READ_NAME:
		changed = take_string(&win->name, string_of(reply, NULL));
		break;
	case READ_CLASS:
		changed = take_string(&win->app_id, class_of(reply));
		break;
	case READ_PROTOCOLS:
		apply_protocols(win, reply);
		break;
	case READ_TRANSIENT_FOR: {
		xcb_get_property_reply_t *r = reply;
		xcb_window_t old = win->transient_for;

		win->transient_for = XCB_NONE;
		if (r && r->format == 32 && xcb_get_property_value_length(r) == 4)
			win->transient_for = *(xcb_window_t *)xcb_get_property_value(r);
		set_parent(win, find_window(win->xwm, win->transient_for));
		changed = old != win->transient_for;
		break;
	}
	case READ_WM_STATE:
		/* Added to what client messages asked meanwhile: xterm sends its own as it maps. */
		win->wanted_state |= xwm_state_parse(&win->xwm->state_atoms, reply);
		break;
	case READ_GEOMETRY:
	default:
		apply_geometry(win, reply);
		break;
	}
	if (changed)
		toplevel_changed(win);
}

static void read_done(struct pending_read *read, void *reply)
{
	struct xwm_window *win = read->win;
	enum read_kind kind = read->kind;
	uint32_t bit = 1u << kind;

	wl_list_remove(&read->link);
	wl_list_remove(&read->window_link);
	free(read);
	if (!win)
		return;
	win->reading &= ~bit;
	apply_read(win, kind, reply);
	if (win->map_waiting & bit) {
		win->map_waiting &= ~bit;
		if (!win->map_waiting)
			finish_map(win);
	}
	if (win->stale & bit) {
		win->stale &= ~bit;
		request_read(win, kind);
	}
}

/* ---- the toplevel, as garnet's shell sees it ---- */

static void parent_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_toplevel *tl = wl_container_of(listener, tl, parent_destroy);

	(void)data;
	garnet_list_unlink(&tl->parent_destroy.link);
	tl->parent = NULL;
}

/* Would tl become its own ancestor under parent? WM_TRANSIENT_FOR is any window id an X client
 * likes: a->b->a, or a window its own dialog, must not make a loop of parents that task bars
 * and garnet would walk for ever. */
static bool makes_cycle(struct garnet_toplevel *tl, struct garnet_toplevel *parent)
{
	int depth = 0;

	for (struct garnet_toplevel *up = parent; up; up = up->parent) {
		if (up == tl || ++depth > MAX_TRANSIENT_DEPTH)
			return true;
	}
	return false;
}

/* A dialog's parent is a toplevel of the same domain only (an X window id means nothing in
 * another server). */
static void set_parent(struct xwm_window *win, struct xwm_window *parent)
{
	struct garnet_toplevel *tl = &win->toplevel;

	if (!win->toplevel_ready)
		return;
	garnet_list_unlink(&tl->parent_destroy.link);
	tl->parent = NULL;
	if (!parent || !parent->toplevel_ready || parent->override_redirect)
		return;
	if (makes_cycle(tl, &parent->toplevel)) {
		garnet_log(win->xwm->compositor, GARNET_LOG_DEBUG, "xwayland",
			   "domain %s: window 0x%x: WM_TRANSIENT_FOR 0x%x makes a cycle; no parent",
			   win->xwm->domain->name, win->id, parent->id);
		return;
	}
	tl->parent = &parent->toplevel;
	wl_signal_add(&parent->toplevel.events.destroy, &tl->parent_destroy);
}

static void send_configure_notify(struct xwm_window *win)
{
	xcb_configure_notify_event_t ev = {
		.response_type = XCB_CONFIGURE_NOTIFY,
		.event = win->id,
		.window = win->id,
		.x = win->x,
		.y = win->y,
		.width = win->width,
		.height = win->height,
	};

	xcb_send_event(win->xwm->conn, 0, win->id, XCB_EVENT_MASK_STRUCTURE_NOTIFY,
		       (const char *)&ev);
}

/* X learns where garnet put the window, so that its menus open next to it. */
static void sync_geometry(struct xwm_window *win, int32_t width, int32_t height)
{
	struct garnet_view *view = &win->toplevel.view;
	int16_t x = view->in_layer ? (int16_t)view->x : win->x;
	int16_t y = view->in_layer ? (int16_t)view->y : win->y;

	if (width <= 0 || width > UINT16_MAX)
		width = win->width;
	if (height <= 0 || height > UINT16_MAX)
		height = win->height;
	if (x == win->x && y == win->y && width == win->width && height == win->height)
		return;
	win->x = x;
	win->y = y;
	win->width = (uint16_t)width;
	win->height = (uint16_t)height;
	xcb_configure_window(
		win->xwm->conn, win->id,
		XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y | XCB_CONFIG_WINDOW_WIDTH |
			XCB_CONFIG_WINDOW_HEIGHT,
		(uint32_t[]){(uint32_t)x, (uint32_t)y, (uint32_t)width, (uint32_t)height});
	send_configure_notify(win);
}

static void send_protocol(struct xwm_window *win, xcb_atom_t protocol)
{
	xcb_client_message_event_t ev = {
		.response_type = XCB_CLIENT_MESSAGE,
		.format = 32,
		.window = win->id,
		.type = win->xwm->atoms[ATOM_WM_PROTOCOLS],
		.data.data32 = {protocol, XCB_CURRENT_TIME},
	};

	xcb_send_event(win->xwm->conn, 0, win->id, XCB_EVENT_MASK_NO_EVENT, (const char *)&ev);
}

/* Garnet's focus authority decided; X follows. */
static void set_x_focus(struct xwm *xwm, struct xwm_window *win)
{
	xcb_window_t id = win ? win->id : XCB_NONE;

	xwm->focused = id;
	if (win) {
		xcb_configure_window(xwm->conn, id, XCB_CONFIG_WINDOW_STACK_MODE,
				     (uint32_t[]){XCB_STACK_MODE_ABOVE});
		if (win->take_focus)
			send_protocol(win, xwm->atoms[ATOM_WM_TAKE_FOCUS]);
	}
	xcb_set_input_focus(xwm->conn, XCB_INPUT_FOCUS_POINTER_ROOT, id ? id : XCB_NONE,
			    XCB_CURRENT_TIME);
	xcb_change_property(xwm->conn, XCB_PROP_MODE_REPLACE, xwm->screen->root,
			    xwm->atoms[ATOM_NET_ACTIVE_WINDOW], XCB_ATOM_WINDOW, 32, 1, &id);
}

static void toplevel_configure(struct garnet_toplevel *tl)
{
	struct xwm_window *win = wl_container_of(tl, win, toplevel);
	struct xwm *xwm = win->xwm;

	sync_geometry(win, tl->pending_width, tl->pending_height);
	if (tl->activated && xwm->focused != win->id)
		set_x_focus(xwm, win);
	else if (!tl->activated && xwm->focused == win->id)
		set_x_focus(xwm, NULL);
	xwm_state_publish(&xwm->state_atoms, xwm->conn, win->id, tl);
	flush(xwm);
}

static void toplevel_close(struct garnet_toplevel *tl)
{
	struct xwm_window *win = wl_container_of(tl, win, toplevel);

	if (win->delete_window)
		send_protocol(win, win->xwm->atoms[ATOM_WM_DELETE_WINDOW]);
	else
		xcb_kill_client(win->xwm->conn, win->id);
	flush(win->xwm);
}

static const char *toplevel_title(struct garnet_toplevel *tl)
{
	struct xwm_window *win = wl_container_of(tl, win, toplevel);

	return title_of(win);
}

static const char *toplevel_app_id(struct garnet_toplevel *tl)
{
	struct xwm_window *win = wl_container_of(tl, win, toplevel);

	return win->app_id;
}

static const struct garnet_toplevel_impl toplevel_impl = {
	.configure = toplevel_configure,
	.close = toplevel_close,
	.title = toplevel_title,
	.app_id = toplevel_app_id,
};

struct garnet_toplevel *garnet_xwayland_toplevel_from_surface(struct garnet_surface *surface)
{
	struct xwm_window *win;

	if (!surface || surface->role != &xwayland_role || !surface->role_data)
		return NULL;
	win = surface->role_data;
	return win->override_redirect ? NULL : &win->toplevel;
}

/* ---- showing and hiding ---- */

/* A menu or tooltip goes over the windows of its layer: the layer of the domain's focused
 * window (a fullscreen one's menus show over it), else the normal one. Never above: an
 * override-redirect window has any size and place, and must not cover panels or the lock. */
static enum garnet_layer_id override_layer(struct xwm *xwm)
{
	struct xwm_window *focused = xwm->focused ? find_window(xwm, xwm->focused) : NULL;

	if (focused && focused->shown && focused->toplevel.view.in_layer)
		return focused->toplevel.view.layer;
	return GARNET_LAYER_NORMAL;
}

static void show(struct xwm_window *win)
{
	struct garnet_compositor *c = win->xwm->compositor;

	win->shown = true;
	if (win->override_redirect) {
		garnet_log(c, GARNET_LOG_INFO, "xwayland",
			   "domain %s: override-redirect window 0x%x at %d,%d mapped",
			   win->xwm->domain->name, win->id, win->x, win->y);
		garnet_view_move(&win->toplevel.view, win->x, win->y);
		garnet_view_raise(&win->toplevel.view, override_layer(win->xwm));
		return;
	}
	win->toplevel.geometry_width = win->surface->width;
	win->toplevel.geometry_height = win->surface->height;
	win->toplevel.mapped = true;
	garnet_log(c, GARNET_LOG_INFO, "xwayland", "domain %s: window 0x%x '%s' (%s) mapped",
		   win->xwm->domain->name, win->id, title_of(win) ? title_of(win) : "",
		   win->app_id ? win->app_id : "");
	c->shell_hooks->toplevel_map(c->shell, &win->toplevel);
	toplevel_changed(win);
	sync_geometry(win, 0, 0);
	xwm_state_initial(&win->xwm->state_atoms, c, win->xwm->domain->client, &win->toplevel,
			  win->wanted_state);
	flush(win->xwm);
}

static void hide(struct xwm_window *win)
{
	struct garnet_compositor *c = win->xwm->compositor;

	if (!win->shown)
		return;
	win->shown = false;
	if (win->override_redirect) {
		garnet_view_remove(&win->toplevel.view);
		return;
	}
	if (win->xwm->focused == win->id)
		win->xwm->focused = XCB_NONE;
	win->toplevel.mapped = false;
	c->shell_hooks->toplevel_unmap(c->shell, &win->toplevel);
	toplevel_changed(win);
}

static void role_commit(struct garnet_surface *surface)
{
	struct xwm_window *win = surface->role_data;
	struct garnet_compositor *c = surface->compositor;
	bool has_content = garnet_surface_is_mapped(surface);

	if (!win)
		return;
	if (!win->shown && has_content && win->x_mapped)
		show(win);
	else if (win->shown && !has_content)
		hide(win);
	else if (win->shown && !win->override_redirect) {
		win->toplevel.geometry_width = surface->width;
		win->toplevel.geometry_height = surface->height;
		c->shell_hooks->toplevel_commit(c->shell, &win->toplevel);
		sync_geometry(win, 0, 0);
		flush(win->xwm);
	}
}

static bool role_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct xwm_window *win = surface->role_data;

	if (!win || !win->shown || !win->toplevel.view.in_layer)
		return false;
	*x = win->toplevel.view.x;
	*y = win->toplevel.view.y;
	return true;
}

static const struct garnet_surface_role xwayland_role = {
	.name = "xwayland",
	.commit = role_commit,
	.position = role_position,
};

/* ---- pairing windows and surfaces ---- */

static void unpair(struct xwm_window *win)
{
	if (!win->surface)
		return;
	hide(win);
	if (win->toplevel_ready) {
		garnet_view_finish(&win->toplevel.view);
		wl_signal_emit_mutable(&win->toplevel.events.destroy, &win->toplevel);
		garnet_list_unlink(&win->toplevel.parent_destroy.link);
		win->toplevel.parent = NULL;
		win->toplevel_ready = false;
	}
	win->surface->role_data = NULL;
	wl_list_remove(&win->surface_destroy.link);
	win->surface = NULL;
}

static void surface_destroyed(struct wl_listener *listener, void *data)
{
	struct xwm_window *win = wl_container_of(listener, win, surface_destroy);

	(void)data;
	unpair(win);
}

static void pair(struct xwm_window *win, struct garnet_surface *surface)
{
	struct garnet_toplevel *tl = &win->toplevel;

	if (surface->role_data || (surface->role && surface->role != &xwayland_role)) {
		garnet_log(win->xwm->compositor, GARNET_LOG_WARNING, "xwayland",
			   "domain %s: window 0x%x names a surface that is taken",
			   win->xwm->domain->name, win->id);
		return;
	}
	garnet_surface_set_role(surface, &xwayland_role, win, surface->resource, 0);
	win->surface = surface;
	win->surface_id = 0;
	win->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&surface->events.destroy, &win->surface_destroy);
	memset(tl, 0, sizeof(*tl));
	tl->impl = &toplevel_impl;
	tl->surface = surface;
	wl_list_init(&tl->link);
	garnet_listener_init(&tl->parent_destroy, parent_destroyed);
	wl_signal_init(&tl->events.destroy);
	garnet_view_init(&tl->view, surface);
	/* X has its geometry already: there is no initial configure to wait for. */
	tl->configured_once = true;
	win->toplevel_ready = true;
	if (!win->override_redirect)
		set_parent(win, find_window(win->xwm, win->transient_for));
	if (win->x_mapped && garnet_surface_is_mapped(surface))
		show(win);
}

void xwm_new_surface(struct xwm *xwm, struct garnet_surface *surface)
{
	uint32_t id = wl_resource_get_id(surface->resource);
	struct xwm_window *win;

	wl_list_for_each (win, &xwm->windows, link) {
		if (win->surface_id == id && !win->surface) {
			pair(win, surface);
			return;
		}
	}
}

static void handle_surface_id(struct xwm *xwm, xcb_client_message_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);
	struct wl_resource *resource;

	if (!win || win->surface)
		return;
	win->surface_id = ev->data.data32[0];
	/* The Wayland request that made the surface may not have been read yet: then
	 * xwm_new_surface pairs them when it is. */
	resource = wl_client_get_object(xwm->domain->client, win->surface_id);
	if (resource && strcmp(wl_resource_get_class(resource), "wl_surface") == 0)
		pair(win, garnet_surface_from_resource(resource));
}

/* ---- X events ---- */

/* Property changes always; focus changes only on a managed window: a menu's client may give
 * its menu the X focus (within the domain, as X11 allows), a managed window taking it from
 * garnet's choice is undone (handle_focus_in). Chosen again whenever the window changes
 * kind, or a window made as a menu and mapped again as managed could take the focus unseen. */
static void select_events(struct xwm_window *win)
{
	xcb_change_window_attributes(
		win->xwm->conn, win->id, XCB_CW_EVENT_MASK,
		(uint32_t[]){XCB_EVENT_MASK_PROPERTY_CHANGE |
			     (win->override_redirect ? 0 : XCB_EVENT_MASK_FOCUS_CHANGE)});
}

static void set_kind(struct xwm_window *win, bool override_redirect)
{
	if (win->override_redirect == override_redirect)
		return;
	win->override_redirect = override_redirect;
	select_events(win);
}

/* A new child of the root: made there, or reparented to it. */
static struct xwm_window *add_window(struct xwm *xwm, xcb_window_t id, bool override_redirect,
				     int16_t x, int16_t y, uint16_t width, uint16_t height)
{
	struct xwm_window *win;

	if (id == xwm->wm_window || find_window(xwm, id))
		return NULL;
	if (xwm->window_count >= MAX_WINDOWS) {
		if (!xwm->full_logged)
			garnet_log(xwm->compositor, GARNET_LOG_WARNING, "xwayland",
				   "domain %s: more than %d windows; new ones are not shown",
				   xwm->domain->name, MAX_WINDOWS);
		xwm->full_logged = true;
		return NULL;
	}
	win = calloc(1, sizeof(*win));
	if (!win)
		return NULL;
	win->xwm = xwm;
	win->id = id;
	win->override_redirect = override_redirect;
	win->x = x;
	win->y = y;
	win->width = width;
	win->height = height;
	wl_list_init(&win->toplevel.parent_destroy.link);
	wl_list_init(&win->reads);
	wl_list_init(&win->configure_link);
	wl_list_insert(&xwm->windows, &win->link);
	wl_list_insert(bucket(xwm, id), &win->bucket_link);
	xwm->window_count++;
	select_events(win);
	return win;
}

static void handle_create(struct xwm *xwm, xcb_create_notify_event_t *ev)
{
	add_window(xwm, ev->window, ev->override_redirect, ev->x, ev->y, ev->width, ev->height);
}

static void window_destroy(struct xwm_window *win)
{
	struct pending_read *read, *tmp;

	unpair(win);
	if (win->xwm->focused == win->id)
		win->xwm->focused = XCB_NONE;
	/* Its replies may still come: they are read and dropped. */
	wl_list_for_each_safe (read, tmp, &win->reads, window_link) {
		wl_list_remove(&read->window_link);
		wl_list_init(&read->window_link);
		read->win = NULL;
	}
	wl_list_remove(&win->link);
	wl_list_remove(&win->bucket_link);
	wl_list_remove(&win->configure_link);
	win->xwm->window_count--;
	free(win->net_name);
	free(win->name);
	free(win->app_id);
	free(win);
}

static void set_wm_state(struct xwm_window *win, uint32_t state)
{
	xcb_change_property(win->xwm->conn, XCB_PROP_MODE_REPLACE, win->id,
			    win->xwm->atoms[ATOM_WM_STATE], win->xwm->atoms[ATOM_WM_STATE], 32, 2,
			    (uint32_t[]){state, XCB_NONE});
}

/* The properties a MapRequest asked for are in: the window is mapped, titled and with its
 * parent from the start. */
static void finish_map(struct xwm_window *win)
{
	if (!win->map_requested)
		return;
	win->map_requested = false;
	set_wm_state(win, 1 /* NormalState */);
	xcb_map_window(win->xwm->conn, win->id);
}

static void handle_map_request(struct xwm *xwm, xcb_map_request_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (!win)
		return;
	/* Only a window that is not override-redirect now makes a MapRequest. */
	set_kind(win, false);
	win->map_requested = true;
	for (int kind = 0; kind < READ_COUNT; kind++) {
		if (MAP_READS & (1u << kind)) {
			request_read(win, (enum read_kind)kind);
			win->map_waiting |= win->reading & (1u << kind);
		}
	}
	if (!win->map_waiting)
		finish_map(win);
}

static void handle_map_notify(struct xwm *xwm, xcb_map_notify_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (!win)
		return;
	set_kind(win, ev->override_redirect);
	win->x_mapped = true;
	if (win->surface && !win->shown && garnet_surface_is_mapped(win->surface))
		show(win);
}

/* A window that leaves the root for another window of its client's is no toplevel any more,
 * and garnet hears nothing more of it (not even its destruction): its record goes. One that
 * comes to the root is a new window to manage; its size comes with the next reply. */
static void handle_reparent(struct xwm *xwm, xcb_reparent_notify_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (ev->parent != xwm->screen->root) {
		if (!win)
			return;
		xcb_change_window_attributes(xwm->conn, win->id, XCB_CW_EVENT_MASK,
					     (uint32_t[]){XCB_EVENT_MASK_NO_EVENT});
		window_destroy(win);
		return;
	}
	win = add_window(xwm, ev->window, ev->override_redirect, ev->x, ev->y, 1, 1);
	if (win)
		request_read(win, READ_GEOMETRY);
}

static void handle_unmap_notify(struct xwm *xwm, xcb_unmap_notify_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (!win)
		return;
	win->x_mapped = false;
	hide(win);
	if (!win->override_redirect)
		set_wm_state(win, 0 /* WithdrawnState */);
}

static int16_t clamp_position(int16_t v)
{
	return v < -MAX_WINDOW_SIZE ? -MAX_WINDOW_SIZE : v > MAX_WINDOW_SIZE ? MAX_WINDOW_SIZE : v;
}

/* A client asks for a geometry: granted as asked until garnet manages the window; then only
 * its size, since where a window goes is garnet's to say. */
static void handle_configure_request(struct xwm *xwm, xcb_configure_request_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);
	bool managed;

	if (!win)
		return;
	managed = win->shown && !win->override_redirect;
	if (!managed && (ev->value_mask & XCB_CONFIG_WINDOW_X))
		win->x = clamp_position(ev->x);
	if (!managed && (ev->value_mask & XCB_CONFIG_WINDOW_Y))
		win->y = clamp_position(ev->y);
	if ((ev->value_mask & XCB_CONFIG_WINDOW_WIDTH) && ev->width > 0)
		win->width = ev->width < MAX_WINDOW_SIZE ? ev->width : MAX_WINDOW_SIZE;
	if ((ev->value_mask & XCB_CONFIG_WINDOW_HEIGHT) && ev->height > 0)
		win->height = ev->height < MAX_WINDOW_SIZE ? ev->height : MAX_WINDOW_SIZE;
	/* Answered at the end of this wake-up, once: a client asking in a loop must not make
	 * garnet write faster than its server reads (xcb's writes block). */
	if (wl_list_empty(&win->configure_link))
		wl_list_insert(xwm->configures.prev, &win->configure_link);
}

static void answer_configures(struct xwm *xwm)
{
	struct xwm_window *win, *tmp;

	wl_list_for_each_safe (win, tmp, &xwm->configures, configure_link) {
		wl_list_remove(&win->configure_link);
		wl_list_init(&win->configure_link);
		xcb_configure_window(xwm->conn, win->id,
				     XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y |
					     XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT |
					     XCB_CONFIG_WINDOW_BORDER_WIDTH,
				     (uint32_t[]){(uint32_t)win->x, (uint32_t)win->y, win->width,
						  win->height, 0});
		send_configure_notify(win);
	}
}

static void handle_configure_notify(struct xwm *xwm, xcb_configure_notify_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (!win)
		return;
	/* Only a window garnet took as override-redirect places itself: a managed one that
	 * turns override-redirect later must not move its toplevel. */
	if (win->override_redirect) {
		win->x = ev->x;
		win->y = ev->y;
		win->width = ev->width;
		win->height = ev->height;
		if (win->shown)
			garnet_view_move(&win->toplevel.view, win->x, win->y);
	}
}

static void handle_property(struct xwm *xwm, xcb_property_notify_event_t *ev)
{
	struct xwm_window *win = find_window(xwm, ev->window);

	if (!win)
		return;
	if (ev->atom == xwm->atoms[ATOM_NET_WM_NAME])
		request_read(win, READ_NET_NAME);
	else if (ev->atom == XCB_ATOM_WM_NAME)
		request_read(win, READ_NAME);
	else if (ev->atom == XCB_ATOM_WM_CLASS)
		request_read(win, READ_CLASS);
	else if (ev->atom == xwm->atoms[ATOM_WM_PROTOCOLS])
		request_read(win, READ_PROTOCOLS);
	else if (ev->atom == XCB_ATOM_WM_TRANSIENT_FOR)
		request_read(win, READ_TRANSIENT_FOR);
}

/* An X client moved the focus itself (XSetInputFocus): X focus is garnet's decision, so it
 * goes back to the window garnet gave the keyboard, or to none. */
static void handle_focus_in(struct xwm *xwm, xcb_focus_in_event_t *ev)
{
	if (ev->mode == XCB_NOTIFY_MODE_GRAB || ev->mode == XCB_NOTIFY_MODE_UNGRAB ||
	    ev->detail == XCB_NOTIFY_DETAIL_POINTER)
		return;
	if (ev->event == xwm->focused)
		return;
	xcb_set_input_focus(xwm->conn, XCB_INPUT_FOCUS_POINTER_ROOT,
			    xwm->focused ? xwm->focused : XCB_NONE, XCB_CURRENT_TIME);
}

static void handle_wm_state(struct xwm *xwm, xcb_client_message_event_t *cm)
{
	struct xwm_window *win = find_window(xwm, cm->window);

	if (!win || win->override_redirect)
		return;
	if (win->shown)
		xwm_state_request(&xwm->state_atoms, xwm->compositor, xwm->domain->client,
				  &win->toplevel, cm->data.data32);
	else
		win->wanted_state =
			xwm_state_update(&xwm->state_atoms, win->wanted_state, cm->data.data32);
}

/*
 * Any X client may SendEvent any core or extension event to any window, the root included:
 * a forged CreateNotify or ReparentNotify would fill the domain's window records with windows
 * that never existed (no DestroyNotify ever frees them) or make garnet forget a real one. The
 * server generates every event the window manager acts on, except the two the ICCCM and EWMH
 * have clients send: ClientMessage and SelectionNotify (an owner's answer).
 */
static bool may_be_synthetic(uint8_t type)
{
	return type == XCB_CLIENT_MESSAGE || type == XCB_SELECTION_NOTIFY;
}

static void handle_event(struct xwm *xwm, xcb_generic_event_t *ev)
{
	if ((ev->response_type & 0x80) && !may_be_synthetic(ev->response_type & ~0x80))
		return;
	if (xwm_selections_handle_event(xwm->selections, ev))
		return;
	switch (ev->response_type & ~0x80) {
	case XCB_CREATE_NOTIFY:
		handle_create(xwm, (xcb_create_notify_event_t *)ev);
		break;
	case XCB_DESTROY_NOTIFY: {
		struct xwm_window *win =
			find_window(xwm, ((xcb_destroy_notify_event_t *)ev)->window);

		if (win)
			window_destroy(win);
		break;
	}
	case XCB_MAP_REQUEST:
		handle_map_request(xwm, (xcb_map_request_event_t *)ev);
		break;
	case XCB_MAP_NOTIFY:
		handle_map_notify(xwm, (xcb_map_notify_event_t *)ev);
		break;
	case XCB_UNMAP_NOTIFY:
		handle_unmap_notify(xwm, (xcb_unmap_notify_event_t *)ev);
		break;
	case XCB_CONFIGURE_REQUEST:
		handle_configure_request(xwm, (xcb_configure_request_event_t *)ev);
		break;
	case XCB_CONFIGURE_NOTIFY:
		handle_configure_notify(xwm, (xcb_configure_notify_event_t *)ev);
		break;
	case XCB_REPARENT_NOTIFY:
		handle_reparent(xwm, (xcb_reparent_notify_event_t *)ev);
		break;
	case XCB_PROPERTY_NOTIFY:
		handle_property(xwm, (xcb_property_notify_event_t *)ev);
		break;
	case XCB_FOCUS_IN:
		handle_focus_in(xwm, (xcb_focus_in_event_t *)ev);
		break;
	case XCB_CLIENT_MESSAGE: {
		xcb_client_message_event_t *cm = (xcb_client_message_event_t *)ev;

		/* Xwayland's own pairing is never a SendEvent: a synthetic one is an X client
		 * trying to take another window's surface. */
		if (cm->type == xwm->atoms[ATOM_WL_SURFACE_ID] && cm->format == 32 &&
		    !(cm->response_type & 0x80))
			handle_surface_id(xwm, cm);
		else if (cm->type == xwm->state_atoms.state && cm->format == 32)
			handle_wm_state(xwm, cm);
		/* _NET_ACTIVE_WINDOW and the like are requests garnet does not take from X:
		 * the focus follows the user. */
		break;
	}
	default:
		break;
	}
}

static long elapsed_ns(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

static void count_done(struct xwm *xwm, xcb_res_query_clients_reply_t *reply);

/* The replies that came, oldest first; false when the budget ran out with some left. */
static bool take_replies(struct xwm *xwm, const struct timespec *start, int *work)
{
	while (!wl_list_empty(&xwm->reads)) {
		struct pending_read *read = wl_container_of(xwm->reads.next, read, link);
		xcb_generic_error_t *error = NULL;
		void *reply = NULL;

		if (*work >= MAX_EVENTS_PER_DISPATCH || elapsed_ns(start) > DISPATCH_BUDGET_NS)
			return false;
		if (!xcb_poll_for_reply(xwm->conn, read->sequence, &reply, &error))
			return true;
		(*work)++;
		free(error); /* the window went: its reply is an error, and nothing to apply */
		if (read->kind == READ_CLIENTS) {
			wl_list_remove(&read->link);
			free(read);
			xwm->counting = false;
			count_done(xwm, reply);
		} else {
			read_done(read, reply);
		}
		free(reply);
	}
	return true;
}

/*
 * Events only an X client's own requests cause. Property and focus changes are not among
 * them: garnet's own writes (the active window on every focus change) would keep an idle
 * domain alive for good.
 */
static bool made_by_a_client(uint8_t type)
{
	return type == XCB_CREATE_NOTIFY || type == XCB_MAP_REQUEST ||
	       type == XCB_CONFIGURE_REQUEST || type == XCB_CLIENT_MESSAGE;
}

/* Events and replies, up to a budget per wake-up: an X client flooding its server with
 * property changes or configure requests gets garnet's time in slices, between which every
 * other client is served. What is left is taken at the next turn of the loop. */
static int dispatch(struct xwm *xwm, uint32_t mask)
{
	xcb_generic_event_t *ev = NULL;
	struct timespec start;
	bool client_acted = false;
	int work = 0;
	bool done;

	if (!xwm->source)
		return 0; /* the connection is gone; server.c is ending the server */
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (work < MAX_EVENTS_PER_DISPATCH &&
	       (work % 32 || elapsed_ns(&start) < DISPATCH_BUDGET_NS) &&
	       (ev = xcb_poll_for_event(xwm->conn))) {
		client_acted |= made_by_a_client(ev->response_type & ~0x80);
		handle_event(xwm, ev);
		free(ev);
		ev = NULL;
		work++;
	}
	done = take_replies(xwm, &start, &work) && work < MAX_EVENTS_PER_DISPATCH;
	if (done && (ev = xcb_poll_for_queued_event(xwm->conn))) {
		handle_event(xwm, ev);
		free(ev);
		done = false;
	}
	if ((mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) || xcb_connection_has_error(xwm->conn)) {
		/* The server is going, or an X client of the domain killed the manager's
		 * connection (XKillClient on its window): a server without its manager shows
		 * nothing, so it goes, and the domain's next client starts a new one. This
		 * destroys xwm. */
		if (xwl_write_was_cut(xwm->conn))
			garnet_log(xwm->compositor, GARNET_LOG_WARNING, "xwayland",
				   "domain %s: its X server took nothing garnet wrote for %d ms "
				   "(stopped or hung): the domain ends",
				   xwm->domain->name, XWL_WRITE_WAIT_MS);
		wl_event_source_remove(xwm->source);
		xwm->source = NULL;
		wl_event_source_timer_update(xwm->more, 0);
		xwayland_domain_lost_wm(xwm->domain);
		return 0;
	}
	answer_configures(xwm);
	/* A domain whose clients come and go between two idle checks is not idle either. */
	if (client_acted)
		xwayland_domain_clients(xwm->domain, 1);
	/* Left over: xcb may hold it already, so the socket need not wake us again. */
	wl_event_source_timer_update(xwm->more, done ? 0 : 1);
	flush(xwm);
	return 0;
}

/* A dispatch makes requests for many events, more than xcb's buffer holds: any of them may
 * write, so all of it is under the write guard. dispatch may destroy xwm. */
static int guarded_dispatch(struct xwm *xwm, uint32_t mask)
{
	xwl_write_begin(xwm->conn);
	dispatch(xwm, mask);
	xwl_write_end();
	return 0;
}

static int on_x_event(int fd, uint32_t mask, void *data)
{
	(void)fd;
	return guarded_dispatch(data, mask);
}

static int on_more(void *data)
{
	return guarded_dispatch(data, 0);
}

void xwm_take_queued_events_soon(struct xwm *xwm)
{
	if (xwm->more)
		wl_event_source_timer_update(xwm->more, 1);
}

/* ---- the idle check ---- */

/* Asks the server how many clients it has (X-Resource); the answer goes to server.c. */
void xwm_count_clients(struct xwm *xwm)
{
	struct pending_read *read;

	if (!xwm->res) {
		/* No way to know: never idle. */
		xwayland_domain_clients(xwm->domain, 1);
		return;
	}
	if (xwm->counting) {
		/* The last count is still unanswered a check later: a server (or a manager) that
		 * busy is not idle. */
		xwayland_domain_clients(xwm->domain, 1);
		return;
	}
	read = calloc(1, sizeof(*read));
	if (!read)
		return;
	read->kind = READ_CLIENTS;
	read->sequence = xcb_res_query_clients(xwm->conn).sequence;
	wl_list_insert(xwm->reads.prev, &read->link);
	wl_list_init(&read->window_link);
	xwm->counting = true;
	flush(xwm);
}

static void count_done(struct xwm *xwm, xcb_res_query_clients_reply_t *reply)
{
	/* The manager itself is one of them. */
	uint32_t own = xcb_get_setup(xwm->conn)->resource_id_base;
	xcb_res_client_iterator_t it;
	int others = 0;

	if (!reply)
		return;
	/* The list holds the server's own client (base 0) and the manager too. */
	for (it = xcb_res_query_clients_clients_iterator(reply); it.rem; xcb_res_client_next(&it))
		others += it.data->resource_base != 0 && it.data->resource_base != own;
	xwayland_domain_clients(xwm->domain, others);
}

/* ---- setup ---- */

static bool intern_atoms(struct xwm *xwm)
{
	xcb_intern_atom_cookie_t cookies[ATOM_COUNT];

	for (int i = 0; i < ATOM_COUNT; i++)
		cookies[i] = xcb_intern_atom(xwm->conn, 0, (uint16_t)strlen(atom_names[i]),
					     atom_names[i]);
	/* The extensions the manager uses are asked for with them. */
	xcb_prefetch_extension_data(xwm->conn, &xcb_res_id);
	xcb_prefetch_extension_data(xwm->conn, &xcb_composite_id);
	if (!xwl_replies_arrived(xwm->conn, XWL_SETUP_WAIT_MS))
		return false;
	for (int i = 0; i < ATOM_COUNT; i++) {
		xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(xwm->conn, cookies[i], NULL);

		if (!reply)
			return false;
		xwm->atoms[i] = reply->atom;
		free(reply);
	}
	return true;
}

/* For an extension prefetched by intern_atoms: its reply is in. */
static bool extension_present(xcb_connection_t *conn, xcb_extension_t *ext)
{
	const xcb_query_extension_reply_t *data = xcb_get_extension_data(conn, ext);

	return data && data->present;
}

/* The window that says a window manager runs (EWMH) and owns the manager selections. */
static void create_wm_window(struct xwm *xwm)
{
	xcb_window_t root = xwm->screen->root;
	static const char name[] = "garnet";

	xwm->wm_window = xcb_generate_id(xwm->conn);
	xcb_create_window(xwm->conn, XCB_COPY_FROM_PARENT, xwm->wm_window, root, 0, 0, 10, 10, 0,
			  XCB_WINDOW_CLASS_INPUT_OUTPUT, xwm->screen->root_visual, 0, NULL);
	xcb_change_property(xwm->conn, XCB_PROP_MODE_REPLACE, xwm->wm_window,
			    xwm->atoms[ATOM_NET_WM_NAME], xwm->atoms[ATOM_UTF8_STRING], 8,
			    sizeof(name) - 1, name);
	xcb_change_property(xwm->conn, XCB_PROP_MODE_REPLACE, root,
			    xwm->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 32, 1,
			    &xwm->wm_window);
	xcb_change_property(xwm->conn, XCB_PROP_MODE_REPLACE, xwm->wm_window,
			    xwm->atoms[ATOM_NET_SUPPORTING_WM_CHECK], XCB_ATOM_WINDOW, 32, 1,
			    &xwm->wm_window);
	xcb_change_property(xwm->conn, XCB_PROP_MODE_REPLACE, root, xwm->atoms[ATOM_NET_SUPPORTED],
			    XCB_ATOM_ATOM, 32, 1, &xwm->atoms[ATOM_NET_ACTIVE_WINDOW]);
	xcb_set_selection_owner(xwm->conn, xwm->wm_window, xwm->atoms[ATOM_WM_S0],
				XCB_CURRENT_TIME);
	xcb_set_selection_owner(xwm->conn, xwm->wm_window, xwm->atoms[ATOM_NET_WM_CM_S0],
				XCB_CURRENT_TIME);
}

struct xwm *xwm_create(struct garnet_xwayland_domain *d, int fd)
{
	struct garnet_compositor *c = d->xwl->compositor;
	struct xwm *xwm = calloc(1, sizeof(*xwm));
	xcb_composite_query_version_reply_t *composite;
	xcb_void_cookie_t redirect;
	xcb_generic_error_t *error;

	if (!xwm) {
		close(fd);
		return NULL;
	}
	xwm->domain = d;
	xwm->compositor = c;
	wl_list_init(&xwm->windows);
	wl_list_init(&xwm->reads);
	wl_list_init(&xwm->configures);
	for (int i = 0; i < WINDOW_BUCKETS; i++)
		wl_list_init(&xwm->buckets[i]);
	xwm->conn = xcb_connect_to_fd(fd, NULL);
	if (xcb_connection_has_error(xwm->conn) || !intern_atoms(xwm) ||
	    !xwm_state_atoms_init(&xwm->state_atoms, xwm->conn))
		goto err;
	xwm->res = extension_present(xwm->conn, &xcb_res_id);
	xwm->screen = xcb_setup_roots_iterator(xcb_get_setup(xwm->conn)).data;
	composite = extension_present(xwm->conn, &xcb_composite_id)
			    ? xwl_reply_by(xwm->conn,
					   xcb_composite_query_version(xwm->conn, 0, 4).sequence,
					   xwl_now_ms() + XWL_SETUP_WAIT_MS)
			    : NULL;
	if (!composite)
		goto err;
	free(composite);
	/* Only one client may redirect the root's substructure: if that fails, another window
	 * manager got there first. */
	redirect = xcb_change_window_attributes_checked(
		xwm->conn, xwm->screen->root, XCB_CW_EVENT_MASK,
		(uint32_t[]){XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY |
			     XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT |
			     XCB_EVENT_MASK_PROPERTY_CHANGE});
	if (!xwl_replies_arrived(xwm->conn, XWL_SETUP_WAIT_MS))
		goto err;
	error = xcb_request_check(xwm->conn, redirect);
	if (error) {
		free(error);
		goto err;
	}
	/* Rootless Xwayland gives a window its own wl_surface only when it is redirected. */
	xcb_composite_redirect_subwindows(xwm->conn, xwm->screen->root,
					  XCB_COMPOSITE_REDIRECT_MANUAL);
	create_wm_window(xwm);
	xwm_set_root_cursor(xwm->conn, xwm->screen);
	xwm_state_announce(&xwm->state_atoms, xwm->conn, xwm->screen->root);
	xcb_set_input_focus(xwm->conn, XCB_INPUT_FOCUS_POINTER_ROOT, XCB_NONE, XCB_CURRENT_TIME);
	xwm->selections = xwm_selections_create(d, xwm->conn, xwm->screen);
	xwm->source = wl_event_loop_add_fd(c->loop, xcb_get_file_descriptor(xwm->conn),
					   WL_EVENT_READABLE, on_x_event, xwm);
	xwm->more = wl_event_loop_add_timer(c->loop, on_more, xwm);
	if (!xwm->source || !xwm->more)
		goto err;
	flush(xwm);
	return xwm;
err:
	garnet_log(c, GARNET_LOG_ERROR, "xwayland", "domain %s: the window manager cannot start",
		   d->name);
	xwm_selections_destroy(xwm->selections);
	if (xwm->source)
		wl_event_source_remove(xwm->source);
	if (xwm->more)
		wl_event_source_remove(xwm->more);
	xcb_disconnect(xwm->conn);
	free(xwm);
	return NULL;
}

void xwm_destroy(struct xwm *xwm)
{
	struct xwm_window *win, *tmp;
	struct pending_read *read, *rtmp;

	if (!xwm)
		return;
	xwm_selections_destroy(xwm->selections);
	wl_list_for_each_safe (win, tmp, &xwm->windows, link)
		window_destroy(win);
	wl_list_for_each_safe (read, rtmp, &xwm->reads, link) {
		wl_list_remove(&read->link);
		free(read);
	}
	if (xwm->source)
		wl_event_source_remove(xwm->source);
	if (xwm->more)
		wl_event_source_remove(xwm->more);
	xcb_disconnect(xwm->conn);
	free(xwm);
}
