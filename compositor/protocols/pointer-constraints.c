// SPDX-License-Identifier: MIT
// zwp_pointer_constraints_v1: a client may lock the pointer in place or confine it to a region
// of its surface (games, 3D views, remote desktops). A constraint takes effect only while its
// surface has both the keyboard focus and the pointer, so a window in the background can never
// trap the user's pointer; any change of keyboard focus (a click elsewhere is impossible while
// locked, but a binding, a new window or the lock screen are not) lifts it.
#include <math.h>
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/region.h"
#include "../core/seat.h"
#include "client-protocols.h"
#include "pointer-constraints-unstable-v1-server-protocol.h"

struct constraints {
	struct garnet_compositor *compositor;
	struct wl_list all; /* constraint.link */
	struct constraint *active;
	struct wl_listener keyboard_focus;
	struct wl_listener compositor_destroy;
};

struct constraint {
	struct constraints *m;
	struct wl_resource *resource;
	struct wl_list link;
	struct garnet_surface *surface; /* NULL once the surface is gone */
	bool lock;                      /* lock, else confine */
	bool oneshot, spent;            /* a oneshot constraint works once */
	/* The region in surface coordinates; infinite when unset. Double-buffered. */
	pixman_region32_t region, pending_region;
	bool has_region, pending_has_region, pending_region_set;
	/* Where a locked client says its own cursor is, for when the lock ends. Double-buffered. */
	double hint_x, hint_y, pending_hint_x, pending_hint_y;
	bool has_hint, pending_hint_set;
	struct wl_listener surface_destroy, surface_commit;
};

/* The points of the surface the pointer may be at: its input region, cut by the constraint's. */
static void effective_region(struct constraint *c, pixman_region32_t *out)
{
	struct garnet_surface *s = c->surface;

	pixman_region32_init(out);
	pixman_region32_intersect_rect(out, &s->current.input, 0, 0, s->width, s->height);
	if (c->has_region)
		pixman_region32_intersect(out, out, &c->region);
}

static bool contains(struct constraint *c, double sx, double sy)
{
	pixman_region32_t r;
	bool inside;

	effective_region(c, &r);
	inside = pixman_region32_contains_point(&r, (int)floor(sx), (int)floor(sy), NULL);
	pixman_region32_fini(&r);
	return inside;
}

static void send_state(struct constraint *c, bool active)
{
	if (c->lock) {
		if (active)
			zwp_locked_pointer_v1_send_locked(c->resource);
		else
			zwp_locked_pointer_v1_send_unlocked(c->resource);
	} else {
		if (active)
			zwp_confined_pointer_v1_send_confined(c->resource);
		else
			zwp_confined_pointer_v1_send_unconfined(c->resource);
	}
}

static void deactivate(struct constraints *m)
{
	struct constraint *c = m->active;
	struct garnet_seat *seat = m->compositor->seat;
	int32_t ox, oy;

	if (!c)
		return;
	m->active = NULL;
	send_state(c, false);
	if (c->oneshot)
		c->spent = true;
	/* A locked client drew its own cursor; put the real one where it said. */
	if (c->lock && c->has_hint && c->surface && garnet_surface_position(c->surface, &ox, &oy) &&
	    contains(c, c->hint_x, c->hint_y)) {
		seat->x = ox + c->hint_x;
		seat->y = oy + c->hint_y;
		garnet_compositor_schedule_repaint(m->compositor);
	}
}

/* The constraint of the surface under the pointer becomes active when that surface has the
 * keyboard too and the pointer is inside its region; the active one ends when that stops. */
static void update(struct constraints *m)
{
	struct garnet_seat *seat = m->compositor->seat;
	struct garnet_surface *focus = seat->pointer_focus;
	struct constraint *c;
	int32_t ox, oy;

	if (m->active && (m->active->surface != focus || seat->keyboard_focus != focus))
		deactivate(m);
	if (m->active || !focus || seat->keyboard_focus != focus ||
	    !garnet_surface_position(focus, &ox, &oy))
		return;
	wl_list_for_each(c, &m->all, link) {
		if (c->surface == focus && !c->spent && contains(c, seat->x - ox, seat->y - oy)) {
			m->active = c;
			send_state(c, true);
			return;
		}
	}
}

/* The nearest point of the region to (sx, sy); past a box's right or bottom edge that is its
 * last whole pixel, as a confined pointer should stop on a pixel of the region. */
static void clamp_to_region(struct constraint *c, double *sx, double *sy)
{
	pixman_region32_t r;
	const pixman_box32_t *boxes;
	double best = -1, bx = *sx, by = *sy;
	int n;

	effective_region(c, &r);
	boxes = pixman_region32_rectangles(&r, &n);
	for (int i = 0; i < n; i++) {
		double x = fmin(fmax(*sx, boxes[i].x1), boxes[i].x2 - 1);
		double y = fmin(fmax(*sy, boxes[i].y1), boxes[i].y2 - 1);
		double d = (x - *sx) * (x - *sx) + (y - *sy) * (y - *sy);

		if (best < 0 || d < best) {
			best = d;
			bx = x;
			by = y;
		}
	}
	pixman_region32_fini(&r);
	*sx = bx;
	*sy = by;
}

static bool constrain_motion(void *data, double *x, double *y)
{
	struct constraints *m = data;
	struct constraint *c;
	double sx, sy;
	int32_t ox, oy;

	update(m);
	c = m->active;
	if (!c)
		return true;
	if (c->lock)
		return false;
	if (!garnet_surface_position(c->surface, &ox, &oy))
		return true;
	sx = *x - ox;
	sy = *y - oy;
	if (!contains(c, sx, sy))
		clamp_to_region(c, &sx, &sy);
	*x = ox + sx;
	*y = oy + sy;
	return true;
}

static void keyboard_focus_changed(struct wl_listener *listener, void *data)
{
	struct constraints *m = wl_container_of(listener, m, keyboard_focus);

	update(m);
}

/* ---- one constraint ---- */

static void constraint_forget_surface(struct constraint *c)
{
	if (!c->surface)
		return;
	if (c->m->active == c)
		deactivate(c->m);
	c->surface = NULL;
	wl_list_remove(&c->surface_destroy.link);
	wl_list_remove(&c->surface_commit.link);
	wl_list_init(&c->surface_destroy.link);
	wl_list_init(&c->surface_commit.link);
}

static void surface_destroyed(struct wl_listener *listener, void *data)
{
	struct constraint *c = wl_container_of(listener, c, surface_destroy);

	constraint_forget_surface(c);
}

static void surface_committed(struct wl_listener *listener, void *data)
{
	struct constraint *c = wl_container_of(listener, c, surface_commit);

	if (c->pending_region_set) {
		pixman_region32_copy(&c->region, &c->pending_region);
		c->has_region = c->pending_has_region;
		c->pending_region_set = false;
	}
	if (c->pending_hint_set) {
		c->hint_x = c->pending_hint_x;
		c->hint_y = c->pending_hint_y;
		c->has_hint = true;
		c->pending_hint_set = false;
	}
	update(c->m);
}

static void constraint_resource_destroy(struct wl_resource *resource)
{
	struct constraint *c = wl_resource_get_user_data(resource);

	constraint_forget_surface(c);
	wl_list_remove(&c->link);
	pixman_region32_fini(&c->region);
	pixman_region32_fini(&c->pending_region);
	free(c);
}

static void set_region(struct wl_client *client, struct wl_resource *resource,
		       struct wl_resource *region)
{
	struct constraint *c = wl_resource_get_user_data(resource);

	c->pending_region_set = true;
	c->pending_has_region = region != NULL;
	if (region)
		pixman_region32_copy(&c->pending_region, garnet_region_from_resource(region));
	else
		pixman_region32_clear(&c->pending_region);
}

static void set_cursor_position_hint(struct wl_client *client, struct wl_resource *resource,
				     wl_fixed_t x, wl_fixed_t y)
{
	struct constraint *c = wl_resource_get_user_data(resource);

	c->pending_hint_x = wl_fixed_to_double(x);
	c->pending_hint_y = wl_fixed_to_double(y);
	c->pending_hint_set = true;
}

static const struct zwp_locked_pointer_v1_interface locked_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_cursor_position_hint = set_cursor_position_hint,
	.set_region = set_region,
};

static const struct zwp_confined_pointer_v1_interface confined_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_region = set_region,
};

static struct constraint *constraint_of_surface(struct constraints *m,
						struct garnet_surface *surface)
{
	struct constraint *c;

	wl_list_for_each(c, &m->all, link) {
		if (c->surface == surface)
			return c;
	}
	return NULL;
}

static void create_constraint(struct wl_client *client, struct wl_resource *manager,
			      uint32_t id, struct wl_resource *surface_resource,
			      struct wl_resource *region, uint32_t lifetime, bool lock)
{
	struct constraints *m = wl_resource_get_user_data(manager);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct constraint *c;

	if (lifetime != ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT &&
	    lifetime != ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT) {
		wl_resource_post_error(wl_client_get_object(client, 1),
				       WL_DISPLAY_ERROR_INVALID_METHOD,
				       "zwp_pointer_constraints_v1: lifetime %u is neither oneshot "
				       "nor persistent", lifetime);
		return;
	}
	if (constraint_of_surface(m, surface)) {
		wl_resource_post_error(manager,
				       ZWP_POINTER_CONSTRAINTS_V1_ERROR_ALREADY_CONSTRAINED,
				       "wl_surface@%u already has a pointer constraint",
				       wl_resource_get_id(surface_resource));
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		wl_client_post_no_memory(client);
		return;
	}
	c->resource = wl_resource_create(client,
					 lock ? &zwp_locked_pointer_v1_interface
					      : &zwp_confined_pointer_v1_interface,
					 wl_resource_get_version(manager), id);
	if (!c->resource) {
		free(c);
		wl_client_post_no_memory(client);
		return;
	}
	c->m = m;
	c->surface = surface;
	c->lock = lock;
	c->oneshot = lifetime == ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT;
	pixman_region32_init(&c->region);
	pixman_region32_init(&c->pending_region);
	if (region) {
		pixman_region32_copy(&c->region, garnet_region_from_resource(region));
		c->has_region = true;
	}
	c->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&surface->events.destroy, &c->surface_destroy);
	c->surface_commit.notify = surface_committed;
	wl_signal_add(&surface->events.commit, &c->surface_commit);
	wl_list_insert(&m->all, &c->link);
	if (lock)
		wl_resource_set_implementation(c->resource, &locked_impl, c,
					       constraint_resource_destroy);
	else
		wl_resource_set_implementation(c->resource, &confined_impl, c,
					       constraint_resource_destroy);
	update(m);
}

/* ---- the manager ---- */

static void manager_lock_pointer(struct wl_client *client, struct wl_resource *resource,
				 uint32_t id, struct wl_resource *surface,
				 struct wl_resource *pointer, struct wl_resource *region,
				 uint32_t lifetime)
{
	create_constraint(client, resource, id, surface, region, lifetime, true);
}

static void manager_confine_pointer(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, struct wl_resource *surface,
				    struct wl_resource *pointer, struct wl_resource *region,
				    uint32_t lifetime)
{
	create_constraint(client, resource, id, surface, region, lifetime, false);
}

static const struct zwp_pointer_constraints_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.lock_pointer = manager_lock_pointer,
	.confine_pointer = manager_confine_pointer,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &zwp_pointer_constraints_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

/* Clients, and with them every constraint, are gone by now. */
static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct constraints *m = wl_container_of(listener, m, compositor_destroy);

	m->compositor->seat->constrain_motion = NULL;
	wl_list_remove(&m->keyboard_focus.link);
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_pointer_constraints_init(struct garnet_compositor *c)
{
	struct constraints *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->all);
	if (!garnet_global_create(c, &zwp_pointer_constraints_v1_interface, 1, m, manager_bind,
				  false)) {
		free(m);
		return false;
	}
	c->seat->constrain_motion = constrain_motion;
	c->seat->constrain_data = m;
	m->keyboard_focus.notify = keyboard_focus_changed;
	wl_signal_add(&c->seat->events.keyboard_focus, &m->keyboard_focus);
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}
