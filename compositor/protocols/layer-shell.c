// SPDX-License-Identifier: MIT
// zwlr_layer_shell_v1 (version 4): panels, wallpapers, notifications and launchers as layer
// surfaces anchored to an output's edges, in four layers around the windows. Each layer is a
// power the security layer grants (the layer hook), and so is taking the keyboard exclusively;
// nothing here is ever drawn above the lock, which shows only the lock layer (doc/layer-shell.md).
// One protocol, one file (STYLE.md), a little over 700 lines: the layer surface, its
// configure sequence and the popups parented to it share one lifetime.
#include <stdlib.h>
#include <string.h>

#include "../core/coords.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/output-surface.h"
#include "../core/view.h"
#include "../core/shell-hooks.h"
#include "layer-shell.h"
#include "wlr-layer-shell-unstable-v1-server-protocol.h"
#include "xdg-shell.h"

#define LAYER_SHELL_VERSION 4
#define LAYER_PENDING_SERIALS 16
#define ANCHOR_ALL                                                                \
	(ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM | \
	 ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT)

/* The double-buffered state of zwlr_layer_surface_v1, applied at wl_surface.commit. */
struct layer_state {
	uint32_t layer, anchor, keyboard;
	uint32_t width, height;
	int32_t exclusive_zone;
	int32_t margin_top, margin_right, margin_bottom, margin_left;
};

struct layer_surface {
	struct wl_resource *resource;
	struct garnet_compositor *compositor;
	/* base.surface: NULL once the wl_surface is gone; base.output: NULL once closed */
	struct garnet_output_surface base;
	struct layer_state pending, current;
	char *namespace;
	struct wl_list popups; /* xdg_popup_data.parent_link (xdg-shell.h) */
	uint32_t serials[LAYER_PENDING_SERIALS];
	int serial_count;
	uint32_t sent_width, sent_height; /* the last configure */
	bool configure_sent; /* the initial commit was answered */
	bool acked; /* a configure was acked since then */
	bool mapped, closed;
	bool exclusive_denied; /* the policy refused the keyboard exclusively: on_demand */
	bool placed; /* moved by the test harness (wlcs): arranging leaves it where it is */
};

static const struct garnet_surface_role layer_role;

static const char *const layer_names[] = {"background", "bottom", "top", "overlay"};

static const enum garnet_layer_id scene_layers[] = {
	GARNET_LAYER_BACKGROUND,
	GARNET_LAYER_BOTTOM,
	GARNET_LAYER_TOP,
	GARNET_LAYER_OVERLAY,
};

static struct layer_surface *layer_from_surface(struct garnet_surface *surface)
{
	return surface && surface->role == &layer_role ? surface->role_data : NULL;
}

static struct wl_client *client_of(struct layer_surface *ls)
{
	return wl_resource_get_client(ls->resource);
}

static enum garnet_layer_keyboard effective_keyboard(struct layer_surface *ls)
{
	enum garnet_layer_keyboard k = ls->current.keyboard;

	/* Exclusive means something only above the windows (the protocol leaves the lower
	 * layers to normal focus), and only for a client the policy lets hold the keyboard. */
	if (k == GARNET_LAYER_KEYBOARD_EXCLUSIVE &&
	    (ls->exclusive_denied || ls->current.layer < ZWLR_LAYER_SHELL_V1_LAYER_TOP))
		return GARNET_LAYER_KEYBOARD_ON_DEMAND;
	return k;
}

bool garnet_layer_surface_info(struct garnet_surface *surface, enum garnet_layer_id *layer,
			       enum garnet_layer_keyboard *keyboard)
{
	struct layer_surface *ls = layer_from_surface(surface);

	if (!ls || !ls->mapped)
		return false;
	*layer = scene_layers[ls->current.layer];
	*keyboard = effective_keyboard(ls);
	return true;
}

struct garnet_surface *garnet_layer_shell_exclusive(struct garnet_compositor *c)
{
	static const enum garnet_layer_id above[] = {GARNET_LAYER_OVERLAY, GARNET_LAYER_TOP};
	struct garnet_view *view;

	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(above); i++) {
		wl_list_for_each(view, &c->layers[above[i]], layer_link) {
			struct layer_surface *ls = layer_from_surface(view->surface);

			if (ls && ls->mapped &&
			    effective_keyboard(ls) == GARNET_LAYER_KEYBOARD_EXCLUSIVE)
				return view->surface;
		}
	}
	return NULL;
}

/* ---- arranging an output ---- */

/* The one edge a positive exclusive zone pushes windows away from, or 0 when the anchors
 * name none (a corner, two parallel edges, all or no edges). */
static uint32_t exclusive_edge(uint32_t anchor)
{
	const uint32_t t = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP,
		       b = ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM,
		       l = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT,
		       r = ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;

	if (anchor == t || anchor == (t | l | r))
		return t;
	if (anchor == b || anchor == (b | l | r))
		return b;
	if (anchor == l || anchor == (l | t | b))
		return l;
	if (anchor == r || anchor == (r | t | b))
		return r;
	return 0;
}

/* One axis of the surface's box within [lo, hi): where it starts and how long it is. size is
 * the client's (0: as long as the anchors allow); the box is placed by it whatever the buffer's
 * size turns out to be, as wlroots and Mir do. All in 64 bits: margins and sizes come from the
 * client and may be anything. */
static void place_axis(bool anchor_lo, bool anchor_hi, int64_t lo, int64_t hi, int64_t margin_lo,
		       int64_t margin_hi, int64_t size, int64_t *pos, int64_t *length)
{
	int64_t room = hi - lo - (anchor_lo ? margin_lo : 0) - (anchor_hi ? margin_hi : 0);

	*length = size ? size : room;
	if (anchor_lo && !anchor_hi)
		*pos = lo + margin_lo;
	else if (anchor_hi && !anchor_lo)
		*pos = hi - margin_hi - *length;
	else if (anchor_lo && anchor_hi)
		*pos = lo + margin_lo + (room - *length) / 2;
	else
		*pos = lo + (hi - lo - *length) / 2;
}

static void close_surface(struct layer_surface *ls);
static void send_configure(struct layer_surface *ls, uint32_t width, uint32_t height);

/* How much of room (> 0) an exclusive zone with its margin takes: at least one pixel stays. */
static int32_t zone_taken(int32_t zone, int32_t margin, int32_t room)
{
	int64_t taken = (int64_t)zone + margin;

	if (taken < 0)
		return 0;
	return taken >= room ? room - 1 : (int32_t)taken;
}

/* Places ls inside *usable (or the whole output for a zone of -1), configures it when its size
 * changed, and takes its exclusive zone off *usable. false: there is no room to show it. */
static bool arrange_surface(struct layer_surface *ls, pixman_box32_t *usable,
			    const pixman_box32_t *whole)
{
	const struct layer_state *s = &ls->current;
	const pixman_box32_t *bounds = s->exclusive_zone == -1 ? whole : usable;
	bool mapped = ls->mapped;
	int64_t x, y, width, height;
	uint32_t edge;

	place_axis(s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT,
		   s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT, bounds->x1, bounds->x2,
		   s->margin_left, s->margin_right, s->width, &x, &width);
	place_axis(s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP,
		   s->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM, bounds->y1, bounds->y2,
		   s->margin_top, s->margin_bottom, s->height, &y, &height);
	/* Margins larger than the output leave no room: the surface cannot be shown there. */
	if (width <= 0 || height <= 0 || width > INT32_MAX || height > INT32_MAX)
		return false;
	if (!ls->configure_sent || (uint32_t)width != ls->sent_width ||
	    (uint32_t)height != ls->sent_height)
		send_configure(ls, (uint32_t)width, (uint32_t)height);
	if (mapped && !ls->placed)
		garnet_view_move(&ls->base.view, garnet_coord_clamp(x), garnet_coord_clamp(y));

	edge = exclusive_edge(s->anchor);
	if (!mapped || s->exclusive_zone <= 0 || !edge)
		return true;
	/* The zone counts from the anchored edge, margin included; never all that is left. */
	if (edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP)
		usable->y1 += zone_taken(s->exclusive_zone, s->margin_top, usable->y2 - usable->y1);
	else if (edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM)
		usable->y2 -=
			zone_taken(s->exclusive_zone, s->margin_bottom, usable->y2 - usable->y1);
	else if (edge == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT)
		usable->x1 +=
			zone_taken(s->exclusive_zone, s->margin_left, usable->x2 - usable->x1);
	else
		usable->x2 -=
			zone_taken(s->exclusive_zone, s->margin_right, usable->x2 - usable->x1);
	return true;
}

/* Is ls one of output's layer surfaces that take part in its arrangement? */
static bool arranged_on(struct layer_surface *ls, struct garnet_output *output)
{
	return ls && ls->base.output == output && !ls->closed && ls->base.surface;
}

/* Lays out every layer surface of output, as sway does: layer by layer from the top, the
 * surfaces with an exclusive zone first, each one shrinking what is left for the next and for
 * windows. pending is a surface not shown yet that waits for its configure (or NULL). */
static void arrange(struct garnet_compositor *c, struct garnet_output *output,
		    struct layer_surface *pending)
{
	pixman_box32_t whole = {output->x, output->y, output->x + output->width,
				output->y + output->height};
	pixman_box32_t usable = whole;
	struct layer_surface *no_room[9]; /* the rest waits for the next arrangement */
	size_t n_no_room = 0;
	struct garnet_view *view;

	for (int pass = 0; pass < 2; pass++) {
		for (int i = (int)GARNET_ARRAY_LENGTH(scene_layers) - 1; i >= 0; i--) {
			wl_list_for_each(view, &c->layers[scene_layers[i]], layer_link) {
				struct layer_surface *ls = layer_from_surface(view->surface);

				if (!arranged_on(ls, output) || !ls->mapped ||
				    (ls->current.exclusive_zone > 0) != (pass == 0))
					continue;
				if (!arrange_surface(ls, &usable, &whole) &&
				    n_no_room < GARNET_ARRAY_LENGTH(no_room) - 1)
					no_room[n_no_room++] = ls;
			}
		}
	}
	if (pending && arranged_on(pending, output) && !pending->mapped &&
	    !arrange_surface(pending, &usable, &whole))
		no_room[n_no_room++] = pending;

	if (output->reserved.top != usable.y1 - whole.y1 ||
	    output->reserved.bottom != whole.y2 - usable.y2 ||
	    output->reserved.left != usable.x1 - whole.x1 ||
	    output->reserved.right != whole.x2 - usable.x2) {
		output->reserved.top = usable.y1 - whole.y1;
		output->reserved.bottom = whole.y2 - usable.y2;
		output->reserved.left = usable.x1 - whole.x1;
		output->reserved.right = whole.x2 - usable.x2;
		c->shell_hooks->usable_area_changed(c->shell, output);
	}
	/* Closed once the walk is over: closing arranges the output again without them (a
	 * surface left out this time is caught by that walk). */
	for (size_t i = 0; i < n_no_room; i++)
		close_surface(no_room[i]);
}

/* The protocol hook output_changed: its layer surfaces follow the output's new size and place. */
void garnet_layer_shell_output_changed(struct garnet_output *output)
{
	arrange(output->compositor, output, NULL);
}

/* ---- configure, map, close ---- */

static void send_configure(struct layer_surface *ls, uint32_t width, uint32_t height)
{
	uint32_t serial = wl_display_next_serial(ls->compositor->display);

	if (ls->serial_count == LAYER_PENDING_SERIALS) {
		memmove(ls->serials, ls->serials + 1,
			sizeof(ls->serials[0]) * (LAYER_PENDING_SERIALS - 1));
		ls->serial_count--;
	}
	ls->serials[ls->serial_count++] = serial;
	ls->sent_width = width;
	ls->sent_height = height;
	ls->configure_sent = true;
	zwlr_layer_surface_v1_send_configure(ls->resource, serial, width, height);
}

static void unmap(struct layer_surface *ls)
{
	struct garnet_compositor *c = ls->compositor;

	if (!ls->mapped)
		return;
	ls->mapped = false;
	xdg_popups_dismiss(&ls->popups);
	garnet_view_remove(&ls->base.view);
	if (ls->base.output)
		arrange(c, ls->base.output, NULL);
	if (ls->base.surface)
		c->shell_hooks->layer_keyboard_changed(c->shell, ls->base.surface);
}

/* The surface is never shown again (its output went, the policy refused its layer, no room). */
static void close_surface(struct layer_surface *ls)
{
	if (ls->closed)
		return;
	ls->closed = true;
	unmap(ls);
	garnet_output_surface_drop_output(&ls->base);
	zwlr_layer_surface_v1_send_closed(ls->resource);
}

static bool layer_allowed(struct layer_surface *ls, uint32_t layer)
{
	struct garnet_compositor *c = ls->compositor;

	return !c->hooks.layer || c->hooks.layer(c->hooks.data, client_of(ls), layer_names[layer]);
}

static bool layer_precommit(struct garnet_surface *surface)
{
	struct layer_surface *ls = surface->role_data;
	const struct layer_state *p;

	if (!ls || ls->closed)
		return true;
	p = &ls->pending;
	if (p->width == 0 &&
	    (p->anchor &
	     (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT)) !=
		    (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT)) {
		wl_resource_post_error(ls->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
				       "width 0 without both the left and right anchors");
		return false;
	}
	if (p->height == 0 &&
	    (p->anchor &
	     (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM)) !=
		    (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM)) {
		wl_resource_post_error(ls->resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
				       "height 0 without both the top and bottom anchors");
		return false;
	}
	if (surface->pending.buffer_attached && surface->pending.buffer && !ls->acked &&
	    !surface->compositor->options.accept_unacked_first_buffer) {
		wl_resource_post_error(ls->resource,
				       ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
				       "buffer attached before the first configure was acked");
		return false;
	}
	return true;
}

static void layer_commit(struct garnet_surface *surface)
{
	struct layer_surface *ls = surface->role_data;
	struct garnet_compositor *c = surface->compositor;
	struct layer_state old;
	bool has_buffer = garnet_surface_is_mapped(surface), keyboard_changed;

	if (!ls || ls->closed)
		return;
	old = ls->current;
	ls->current = ls->pending;
	if (ls->current.layer != old.layer && !layer_allowed(ls, ls->current.layer)) {
		close_surface(ls);
		return;
	}
	if (ls->current.keyboard == GARNET_LAYER_KEYBOARD_EXCLUSIVE &&
	    old.keyboard != GARNET_LAYER_KEYBOARD_EXCLUSIVE)
		ls->exclusive_denied = c->hooks.exclusive_keyboard &&
				       !c->hooks.exclusive_keyboard(c->hooks.data, client_of(ls));
	keyboard_changed = ls->current.keyboard != old.keyboard || ls->current.layer != old.layer;

	if (!ls->configure_sent) {
		/* The initial commit: the client learns its size and may then map. */
		arrange(c, ls->base.output, ls);
		/* Only accept_unacked_first_buffer lets a buffer come with it. */
		if (!has_buffer || ls->closed)
			return;
		ls->acked = true;
	}
	if (!has_buffer) {
		if (ls->mapped) {
			/* Unmapped: back to the state right after get_layer_surface. */
			ls->configure_sent = ls->acked = false;
			ls->serial_count = 0;
			unmap(ls);
		} else {
			arrange(c, ls->base.output, ls);
		}
		return;
	}
	if (!ls->mapped) {
		ls->mapped = true;
		garnet_view_raise(&ls->base.view, scene_layers[ls->current.layer]);
		arrange(c, ls->base.output, NULL);
		if (ls->closed)
			return;
		c->shell_hooks->layer_keyboard_changed(c->shell, surface);
		return;
	}
	if (ls->current.layer != old.layer) {
		garnet_view_raise(&ls->base.view, scene_layers[ls->current.layer]);
		xdg_popups_raise(&ls->popups, scene_layers[ls->current.layer] < GARNET_LAYER_TOP
						      ? GARNET_LAYER_TOP
						      : scene_layers[ls->current.layer]);
	}
	arrange(c, ls->base.output, NULL);
	if (keyboard_changed && !ls->closed)
		c->shell_hooks->layer_keyboard_changed(c->shell, surface);
}

static bool layer_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct layer_surface *ls = surface->role_data;

	if (!ls || !ls->base.view.in_layer)
		return false;
	*x = ls->base.view.x;
	*y = ls->base.view.y;
	return true;
}

static bool layer_place(struct garnet_surface *surface, int32_t x, int32_t y)
{
	struct layer_surface *ls = surface->role_data;

	if (!ls)
		return false;
	ls->placed = true;
	if (ls->base.view.in_layer)
		garnet_view_move(&ls->base.view, x, y);
	else
		ls->base.view.x = x, ls->base.view.y = y;
	return true;
}

static const struct garnet_surface_role layer_role = {
	.name = "zwlr_layer_surface_v1",
	.precommit = layer_precommit,
	.commit = layer_commit,
	.position = layer_position,
	.place = layer_place,
};

/* ---- zwlr_layer_surface_v1 ---- */

static struct layer_surface *from_resource(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void handle_set_size(struct wl_client *client, struct wl_resource *resource, uint32_t width,
			    uint32_t height)
{
	struct layer_surface *ls = from_resource(resource);

	if (ls) {
		ls->pending.width = width;
		ls->pending.height = height;
	}
}

static void handle_set_anchor(struct wl_client *client, struct wl_resource *resource,
			      uint32_t anchor)
{
	struct layer_surface *ls = from_resource(resource);

	if (anchor & ~ANCHOR_ALL) {
		wl_resource_post_error(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_ANCHOR,
				       "anchor 0x%x names no edge", anchor);
		return;
	}
	if (ls)
		ls->pending.anchor = anchor;
}

static void handle_set_exclusive_zone(struct wl_client *client, struct wl_resource *resource,
				      int32_t zone)
{
	struct layer_surface *ls = from_resource(resource);

	if (ls)
		ls->pending.exclusive_zone = zone < -1 ? -1 : zone;
}

static void handle_set_margin(struct wl_client *client, struct wl_resource *resource, int32_t top,
			      int32_t right, int32_t bottom, int32_t left)
{
	struct layer_surface *ls = from_resource(resource);

	if (!ls)
		return;
	ls->pending.margin_top = top;
	ls->pending.margin_right = right;
	ls->pending.margin_bottom = bottom;
	ls->pending.margin_left = left;
}

static void handle_set_keyboard_interactivity(struct wl_client *client,
					      struct wl_resource *resource, uint32_t keyboard)
{
	struct layer_surface *ls = from_resource(resource);
	uint32_t max = wl_resource_get_version(resource) >= 4 ? GARNET_LAYER_KEYBOARD_ON_DEMAND
							      : GARNET_LAYER_KEYBOARD_EXCLUSIVE;

	if (keyboard > max) {
		wl_resource_post_error(
			resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_KEYBOARD_INTERACTIVITY,
			"keyboard interactivity %u is not one of this version's", keyboard);
		return;
	}
	if (ls)
		ls->pending.keyboard = keyboard;
}

static void handle_get_popup(struct wl_client *client, struct wl_resource *resource,
			     struct wl_resource *popup)
{
	struct layer_surface *ls = from_resource(resource);

	if (!ls || !ls->base.surface)
		return;
	if (!xdg_popup_set_foreign_parent(popup, ls->base.surface, &ls->popups))
		wl_resource_post_error(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
				       "xdg_popup@%u has a parent already or was committed",
				       wl_resource_get_id(popup));
}

static void handle_ack_configure(struct wl_client *client, struct wl_resource *resource,
				 uint32_t serial)
{
	struct layer_surface *ls = from_resource(resource);
	int found = -1;

	/* Without its wl_surface the object is inert: there is nothing to configure. */
	if (!ls->base.surface)
		return;
	for (int i = 0; i < ls->serial_count; i++) {
		if (ls->serials[i] == serial)
			found = i;
	}
	if (found < 0) {
		/* Closed surfaces may still ack what crossed the closed event. */
		if (ls->closed)
			return;
		wl_resource_post_error(resource, ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SURFACE_STATE,
				       "serial %u was not sent in a configure or was acked",
				       serial);
		return;
	}
	memmove(ls->serials, ls->serials + found + 1,
		sizeof(ls->serials[0]) * (size_t)(ls->serial_count - found - 1));
	ls->serial_count -= found + 1;
	ls->acked = true;
}

static void handle_set_layer(struct wl_client *client, struct wl_resource *resource, uint32_t layer)
{
	struct layer_surface *ls = from_resource(resource);

	if (layer > ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY) {
		wl_resource_post_error(resource, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER,
				       "layer %u does not exist", layer);
		return;
	}
	if (ls)
		ls->pending.layer = layer;
}

static const struct zwlr_layer_surface_v1_interface layer_surface_impl = {
	.set_size = handle_set_size,
	.set_anchor = handle_set_anchor,
	.set_exclusive_zone = handle_set_exclusive_zone,
	.set_margin = handle_set_margin,
	.set_keyboard_interactivity = handle_set_keyboard_interactivity,
	.get_popup = handle_get_popup,
	.ack_configure = handle_ack_configure,
	.destroy = garnet_resource_destroy_request,
	.set_layer = handle_set_layer,
};

/* The surface leaves the scene and the role keeps nothing of it; the object stays inert. */
static void detach(struct layer_surface *ls)
{
	if (!ls->base.surface)
		return;
	unmap(ls);
	xdg_popups_orphan(&ls->popups);
	garnet_output_surface_detach(&ls->base);
}

static void layer_surface_resource_destroy(struct wl_resource *resource)
{
	struct layer_surface *ls = from_resource(resource);

	detach(ls);
	free(ls->namespace);
	free(ls);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data)
{
	struct layer_surface *ls = wl_container_of(listener, ls, base.surface_destroy);

	detach(ls);
}

static void handle_output_destroy(struct wl_listener *listener, void *data)
{
	struct layer_surface *ls = wl_container_of(listener, ls, base.output_destroy);

	/* Its output gone, the surface is closed; the client may make another elsewhere. Let go
	 * of the output first: nothing is arranged on it any more, and no other surface's
	 * listener is touched while the output's destroy signal runs. */
	garnet_output_surface_drop_output(&ls->base);
	close_surface(ls);
}

/* ---- zwlr_layer_shell_v1 ---- */

static void get_layer_surface(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			      struct wl_resource *surface_resource,
			      struct wl_resource *output_resource, uint32_t layer,
			      const char *namespace)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_output *output =
		output_resource ? garnet_output_from_resource(output_resource) : NULL;
	struct layer_surface *ls;

	if (layer > ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY) {
		wl_resource_post_error(resource, ZWLR_LAYER_SHELL_V1_ERROR_INVALID_LAYER,
				       "layer %u does not exist", layer);
		return;
	}
	if (surface->role) {
		wl_resource_post_error(resource, ZWLR_LAYER_SHELL_V1_ERROR_ROLE,
				       "wl_surface@%u already has the role %s",
				       wl_resource_get_id(surface_resource), surface->role->name);
		return;
	}
	if (garnet_surface_is_mapped(surface) ||
	    (surface->pending.buffer_attached && surface->pending.buffer)) {
		wl_resource_post_error(resource, ZWLR_LAYER_SHELL_V1_ERROR_ALREADY_CONSTRUCTED,
				       "wl_surface@%u has a buffer before its layer surface exists",
				       wl_resource_get_id(surface_resource));
		return;
	}
	ls = calloc(1, sizeof(*ls));
	if (!ls || !(ls->namespace = strdup(namespace))) {
		free(ls);
		wl_resource_post_no_memory(resource);
		return;
	}
	ls->resource = wl_resource_create(client, &zwlr_layer_surface_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!ls->resource) {
		free(ls->namespace);
		free(ls);
		wl_resource_post_no_memory(resource);
		return;
	}
	ls->compositor = c;
	ls->pending.layer = layer;
	ls->current.layer = layer;
	wl_list_init(&ls->popups);
	wl_resource_set_implementation(ls->resource, &layer_surface_impl, ls,
				       layer_surface_resource_destroy);
	garnet_output_surface_init(&ls->base, surface, handle_surface_destroy);
	surface->role = &layer_role;
	surface->role_data = ls;

	/* No output named (or one already gone, whose wl_output is inert): garnet picks. */
	if (!output)
		output = garnet_compositor_first_output(c);
	if (output)
		garnet_output_surface_set_output(&ls->base, output, handle_output_destroy);
	/* Refused by the policy or nowhere to show it: closed before the client can draw. */
	if (!output || !layer_allowed(ls, layer)) {
		garnet_output_surface_drop_output(&ls->base);
		ls->closed = true;
		zwlr_layer_surface_v1_send_closed(ls->resource);
	}
}

static const struct zwlr_layer_shell_v1_interface layer_shell_impl = {
	.get_layer_surface = get_layer_surface,
	.destroy = garnet_resource_destroy_request,
};

static void layer_shell_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwlr_layer_shell_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &layer_shell_impl, data, NULL);
}

bool garnet_layer_shell_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwlr_layer_shell_v1_interface, LAYER_SHELL_VERSION, c,
				    layer_shell_bind, false) != NULL;
}
