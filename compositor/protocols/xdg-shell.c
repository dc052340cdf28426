// SPDX-License-Identifier: MIT
// xdg_wm_base v5: toplevels and popups, the configure/ack handshake, ping/pong, positioners,
// popup grabs and every protocol error the specification defines.
#include <stdlib.h>
#include <string.h>

#include "xdg-shell-server-protocol.h"
#include "../core/internal.h"
#include "../shell/focus.h"

/* Version 4, not 5: Debian's weston 10 clients (weston-presentation-shm among them) bind the
 * advertised version but have no handler for v5's wm_capabilities, which a v5 compositor must
 * send, and abort. Weston 10 and sway 1.7 advertise lower versions still. */
#define WM_BASE_VERSION 4
#define MAX_PENDING_SERIALS 32
#define PING_TIMEOUT_MS 10000

struct wm_base {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	struct wl_list surfaces; /* xdg_surface_data.link */
	uint32_t ping_serial;
	struct wl_event_source *ping_timer;
};

struct positioner {
	int32_t width, height;
	int32_t anchor_x, anchor_y, anchor_width, anchor_height;
	bool has_size, has_anchor_rect;
	uint32_t anchor, gravity, constraints;
	int32_t offset_x, offset_y;
	bool reactive;
};

enum xdg_role { ROLE_NONE, ROLE_TOPLEVEL, ROLE_POPUP };

struct xdg_popup_data;

struct xdg_surface_data {
	struct wl_resource *resource;
	struct garnet_surface *surface;
	struct wm_base *base;
	struct wl_list link;
	struct wl_listener surface_destroy;
	enum xdg_role role;
	struct wl_resource *role_resource;
	bool initial_commit_done, configured, mapped;
	uint32_t serials[MAX_PENDING_SERIALS];
	int serial_count;
	bool has_geometry, pending_geometry_set;
	int32_t geometry[4], pending_geometry[4];

	struct garnet_toplevel toplevel;
	char *title, *app_id;
	bool sent_capabilities;

	struct xdg_popup_data *popup;
	struct wl_list popups; /* child xdg_popup_data.parent_link, topmost first */
};

struct xdg_popup_data {
	struct wl_resource *resource;
	struct xdg_surface_data *xs;
	struct xdg_surface_data *parent;
	struct wl_list parent_link;
	struct positioner positioner;
	int32_t x, y, width, height; /* relative to the parent's window geometry */
	struct garnet_view view;
	bool grabbing;
	bool dismissed; /* popup_done was sent: it never maps again */
	struct wl_list grab_link;
};

/* One popup grab per compositor seat: the chain of grabbing popups of one client. */
struct popup_grab {
	struct garnet_pointer_grab base;
	struct wl_list popups; /* xdg_popup_data.grab_link, topmost first */
	struct wl_client *client;
	bool active;
	struct garnet_compositor *compositor;
	struct wl_listener compositor_destroy, keyboard_focus;
};

static const struct garnet_surface_role toplevel_role, popup_role, xdg_surface_role;
static const struct xdg_surface_interface xdg_surface_impl;

static struct xdg_surface_data *xdg_from_surface(struct garnet_surface *surface)
{
	if (surface->role != &toplevel_role && surface->role != &popup_role &&
	    surface->role != &xdg_surface_role)
		return NULL;
	return surface->role_data;
}

/* ---- configure ---- */

static uint32_t send_surface_configure(struct xdg_surface_data *xs)
{
	struct wl_display *display = xs->surface->compositor->display;
	uint32_t serial = wl_display_next_serial(display);

	if (xs->serial_count == MAX_PENDING_SERIALS) {
		memmove(xs->serials, xs->serials + 1, sizeof(xs->serials[0]) * (MAX_PENDING_SERIALS - 1));
		xs->serial_count--;
	}
	xs->serials[xs->serial_count++] = serial;
	xdg_surface_send_configure(xs->resource, serial);
	return serial;
}

static void add_state(struct wl_array *states, uint32_t state)
{
	uint32_t *s = wl_array_add(states, sizeof(*s));

	if (s)
		*s = state;
}

static void toplevel_configure(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);
	struct wl_array states;
	int version;

	if (!xs->role_resource)
		return;
	version = wl_resource_get_version(xs->role_resource);
	wl_array_init(&states);
	if (toplevel->maximized)
		add_state(&states, XDG_TOPLEVEL_STATE_MAXIMIZED);
	if (toplevel->fullscreen)
		add_state(&states, XDG_TOPLEVEL_STATE_FULLSCREEN);
	if (toplevel->resizing)
		add_state(&states, XDG_TOPLEVEL_STATE_RESIZING);
	if (toplevel->activated)
		add_state(&states, XDG_TOPLEVEL_STATE_ACTIVATED);
	/* configure_bounds is only a hint, and Debian's weston clients bind v4+ without a
	 * handler for it: not sent. */
	if (version >= XDG_TOPLEVEL_WM_CAPABILITIES_SINCE_VERSION && !xs->sent_capabilities) {
		struct wl_array caps;

		wl_array_init(&caps);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_MAXIMIZE);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_FULLSCREEN);
		add_state(&caps, XDG_TOPLEVEL_WM_CAPABILITIES_MINIMIZE);
		xdg_toplevel_send_wm_capabilities(xs->role_resource, &caps);
		wl_array_release(&caps);
		xs->sent_capabilities = true;
	}
	toplevel->configured_once = true;
	xdg_toplevel_send_configure(xs->role_resource, toplevel->pending_width,
				    toplevel->pending_height, &states);
	wl_array_release(&states);
	send_surface_configure(xs);
}

static void toplevel_close(struct garnet_toplevel *toplevel)
{
	struct xdg_surface_data *xs = wl_container_of(toplevel, xs, toplevel);

	if (xs->role_resource)
		xdg_toplevel_send_close(xs->role_resource);
}

static const struct garnet_toplevel_impl toplevel_impl = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

/* ---- positioner ---- */

static struct positioner *positioner_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void positioner_set_size(struct wl_client *client, struct wl_resource *resource,
				int32_t width, int32_t height)
{
	struct positioner *p = positioner_from(resource);

	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "positioner size %dx%d is not positive", width, height);
		return;
	}
	p->width = garnet_coord_clamp(width);
	p->height = garnet_coord_clamp(height);
	p->has_size = true;
}

static void positioner_set_anchor_rect(struct wl_client *client, struct wl_resource *resource,
				       int32_t x, int32_t y, int32_t width, int32_t height)
{
	struct positioner *p = positioner_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor rectangle %dx%d is negative", width, height);
		return;
	}
	p->anchor_x = garnet_coord_clamp(x);
	p->anchor_y = garnet_coord_clamp(y);
	p->anchor_width = garnet_coord_clamp(width);
	p->anchor_height = garnet_coord_clamp(height);
	p->has_anchor_rect = true;
}

static void positioner_set_anchor(struct wl_client *client, struct wl_resource *resource,
				  uint32_t anchor)
{
	if (anchor > XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor %u is not an xdg_positioner.anchor", anchor);
		return;
	}
	positioner_from(resource)->anchor = anchor;
}

static void positioner_set_gravity(struct wl_client *client, struct wl_resource *resource,
				   uint32_t gravity)
{
	if (gravity > XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "gravity %u is not an xdg_positioner.gravity", gravity);
		return;
	}
	positioner_from(resource)->gravity = gravity;
}

static void positioner_set_constraint_adjustment(struct wl_client *client,
						 struct wl_resource *resource, uint32_t c)
{
	positioner_from(resource)->constraints = c;
}

static void positioner_set_offset(struct wl_client *client, struct wl_resource *resource,
				  int32_t x, int32_t y)
{
	struct positioner *p = positioner_from(resource);

	p->offset_x = garnet_coord_clamp(x);
	p->offset_y = garnet_coord_clamp(y);
}

static void positioner_set_reactive(struct wl_client *client, struct wl_resource *resource)
{
	positioner_from(resource)->reactive = true;
}

static void positioner_set_parent_size(struct wl_client *client, struct wl_resource *resource,
				       int32_t width, int32_t height)
{
}

static void positioner_set_parent_configure(struct wl_client *client,
					    struct wl_resource *resource, uint32_t serial)
{
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_anchor,
	.set_gravity = positioner_set_gravity,
	.set_constraint_adjustment = positioner_set_constraint_adjustment,
	.set_offset = positioner_set_offset,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_parent_size,
	.set_parent_configure = positioner_set_parent_configure,
};

static void positioner_resource_destroy(struct wl_resource *resource)
{
	free(wl_resource_get_user_data(resource));
}

/* Horizontal and vertical parts of an anchor or gravity: -1 left/top, 0 centre, 1 right/bottom. */
static void edge_parts(uint32_t value, int *h, int *v)
{
	static const int hs[] = {0, 0, 0, -1, 1, -1, -1, 1, 1};
	static const int vs[] = {0, -1, 1, 0, 0, -1, 1, -1, 1};

	*h = hs[value];
	*v = vs[value];
}

/* Position along one axis for an anchor part and gravity part. */
static int32_t axis_position(int32_t anchor_start, int32_t anchor_size, int anchor_part,
			     int gravity_part, int32_t size, int32_t offset)
{
	int32_t point = anchor_part < 0   ? anchor_start
			: anchor_part > 0 ? anchor_start + anchor_size
					  : anchor_start + anchor_size / 2;

	if (gravity_part < 0)
		point -= size;
	else if (gravity_part == 0)
		point -= size / 2;
	return point + offset;
}

static bool fits(int32_t pos, int32_t size, int32_t min, int32_t max)
{
	return pos >= min && pos + size <= max;
}

/* One axis of the constraint solving: flip, then slide, then resize, as the client allows. */
static void constrain_axis(const struct positioner *p, bool horizontal, int32_t min, int32_t max,
			   int32_t *pos, int32_t *size)
{
	int ah, av, gh, gv;
	int32_t anchor_start = horizontal ? p->anchor_x : p->anchor_y;
	int32_t anchor_size = horizontal ? p->anchor_width : p->anchor_height;
	int32_t offset = horizontal ? p->offset_x : p->offset_y;
	uint32_t flip = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X
				   : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y;
	uint32_t slide = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X
				    : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y;
	uint32_t resize = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X
				     : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y;
	int a, g;

	edge_parts(p->anchor, &ah, &av);
	edge_parts(p->gravity, &gh, &gv);
	a = horizontal ? ah : av;
	g = horizontal ? gh : gv;
	*pos = axis_position(anchor_start, anchor_size, a, g, *size, offset);
	if (fits(*pos, *size, min, max))
		return;
	if ((p->constraints & flip) && (a != 0 || g != 0)) {
		int32_t flipped = axis_position(anchor_start, anchor_size, -a, -g, *size, -offset);

		if (fits(flipped, *size, min, max)) {
			*pos = flipped;
			return;
		}
	}
	if (p->constraints & slide) {
		if (*pos + *size > max)
			*pos = max - *size;
		if (*pos < min)
			*pos = min;
		if (fits(*pos, *size, min, max))
			return;
	}
	if (p->constraints & resize) {
		int32_t start = *pos < min ? min : *pos;
		int32_t end = *pos + *size > max ? max : *pos + *size;

		if (end > start) {
			*pos = start;
			*size = end - start;
		}
	}
}

static void popup_compute_geometry(struct xdg_popup_data *popup)
{
	struct xdg_surface_data *parent = popup->parent;
	struct garnet_compositor *c = popup->xs->surface->compositor;
	struct garnet_output *output = garnet_compositor_first_output(c);
	int32_t px = 0, py = 0, min_x = INT32_MIN / 2, min_y = INT32_MIN / 2;
	int32_t max_x = INT32_MAX / 2, max_y = INT32_MAX / 2;

	popup->width = popup->positioner.width;
	popup->height = popup->positioner.height;
	/* Constrain to the output, expressed relative to the parent's window geometry. */
	if (output && parent && garnet_surface_position(parent->surface, &px, &py)) {
		px += parent->has_geometry ? parent->geometry[0] : 0;
		py += parent->has_geometry ? parent->geometry[1] : 0;
		min_x = output->x - px;
		min_y = output->y - py;
		max_x = output->x + output->width - px;
		max_y = output->y + output->height - py;
	}
	constrain_axis(&popup->positioner, true, min_x, max_x, &popup->x, &popup->width);
	constrain_axis(&popup->positioner, false, min_y, max_y, &popup->y, &popup->height);
}

static void popup_send_configure(struct xdg_popup_data *popup)
{
	popup_compute_geometry(popup);
	xdg_popup_send_configure(popup->resource, popup->x, popup->y, popup->width,
				 popup->height);
	send_surface_configure(popup->xs);
}

/* ---- popup grab ---- */

static struct popup_grab *seat_popup_grab(struct garnet_compositor *c, bool create);

static void popup_dismiss(struct xdg_popup_data *popup);

static void popup_grab_end(struct popup_grab *grab)
{
	struct xdg_popup_data *popup, *tmp;

	wl_list_for_each_safe(popup, tmp, &grab->popups, grab_link) {
		garnet_list_unlink(&popup->grab_link);
		popup->grabbing = false;
		popup_dismiss(popup);
	}
	if (grab->active) {
		grab->active = false;
		garnet_seat_end_grab(grab->compositor->seat);
	}
}

static void popup_grab_motion(struct garnet_pointer_grab *base, uint32_t time)
{
	struct popup_grab *grab = wl_container_of(base, grab, base);
	struct garnet_seat *seat = base->seat;
	double sx = 0, sy = 0;
	struct garnet_surface *surface =
		garnet_scene_surface_at(seat->compositor, seat->x, seat->y, &sx, &sy);

	/* While a popup grabs, only the grabbing client's surfaces get the pointer. */
	if (surface && wl_resource_get_client(surface->resource) != grab->client)
		surface = NULL;
	if (seat->button_count == 0)
		garnet_seat_set_pointer_focus(seat, surface, sx, sy);
	else if (seat->pointer_focus == surface) {
		seat->sx = sx;
		seat->sy = sy;
	}
	garnet_seat_send_motion(seat, time);
}

static void popup_grab_button(struct garnet_pointer_grab *base, uint32_t time, uint32_t button,
			      bool pressed)
{
	struct popup_grab *grab = wl_container_of(base, grab, base);
	struct garnet_seat *seat = base->seat;

	if (pressed && !seat->pointer_focus) {
		/* A click outside the client's surfaces dismisses the whole chain. */
		popup_grab_end(grab);
		return;
	}
	garnet_seat_send_button(seat, time, button, pressed);
}

static void popup_grab_axis(struct garnet_pointer_grab *base, uint32_t time, uint32_t axis,
			    double value)
{
}

static void popup_grab_cancel(struct garnet_pointer_grab *base)
{
	struct popup_grab *grab = wl_container_of(base, grab, base);

	grab->active = false;
	popup_grab_end(grab);
}

static const struct garnet_pointer_grab_impl popup_grab_impl = {
	.motion = popup_grab_motion,
	.button = popup_grab_button,
	.axis = popup_grab_axis,
	.cancel = popup_grab_cancel,
};

static void popup_grab_compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct popup_grab *grab = wl_container_of(listener, grab, compositor_destroy);

	wl_list_remove(&grab->compositor_destroy.link);
	wl_list_remove(&grab->keyboard_focus.link);
	free(grab);
}

/* Is surface one of the chain's popups or the window they belong to? */
static bool popup_grab_owns(struct popup_grab *grab, struct garnet_surface *surface)
{
	struct xdg_popup_data *popup;

	wl_list_for_each(popup, &grab->popups, grab_link) {
		if (popup->xs->surface == surface ||
		    (popup->parent && popup->parent->surface == surface))
			return true;
	}
	return false;
}

/* The keyboard went elsewhere (a new window, another window through a binding): the grabbing
 * popups are done, as they would be after a click outside. */
static void popup_grab_keyboard_focus(struct wl_listener *listener, void *data)
{
	struct popup_grab *grab = wl_container_of(listener, grab, keyboard_focus);
	struct garnet_surface *focus = grab->compositor->seat->keyboard_focus;

	if (grab->active && (!focus || !popup_grab_owns(grab, focus)))
		popup_grab_end(grab);
}

/* The popup grab lives as long as the compositor; it is found through the destroy signal. */
static struct popup_grab *seat_popup_grab(struct garnet_compositor *c, bool create)
{
	struct wl_listener *l = wl_signal_get(&c->events.destroy, popup_grab_compositor_destroyed);
	struct popup_grab *grab;

	if (l)
		return wl_container_of(l, grab, compositor_destroy);
	if (!create)
		return NULL;
	grab = calloc(1, sizeof(*grab));
	if (!grab)
		return NULL;
	grab->base.impl = &popup_grab_impl;
	grab->compositor = c;
	wl_list_init(&grab->popups);
	grab->compositor_destroy.notify = popup_grab_compositor_destroyed;
	wl_signal_add(&c->events.destroy, &grab->compositor_destroy);
	grab->keyboard_focus.notify = popup_grab_keyboard_focus;
	wl_signal_add(&c->seat->events.keyboard_focus, &grab->keyboard_focus);
	return grab;
}

/* ---- popup ---- */

static bool popup_position(struct garnet_surface *surface, int32_t *x, int32_t *y);

static void popup_unmap(struct xdg_popup_data *popup)
{
	garnet_view_remove(&popup->view);
	popup->xs->mapped = false;
}

static void popup_dismiss(struct xdg_popup_data *popup)
{
	struct xdg_popup_data *child, *tmp;

	if (!popup->resource)
		return;
	wl_list_for_each_safe(child, tmp, &popup->xs->popups, parent_link)
		popup_dismiss(child);
	popup_unmap(popup);
	popup->dismissed = true;
	xdg_popup_send_popup_done(popup->resource);
}

static void popup_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);

	if (popup && !wl_list_empty(&popup->xs->popups) && popup->xs->base) {
		wl_resource_post_error(popup->xs->base->resource,
				       XDG_WM_BASE_ERROR_NOT_THE_TOPMOST_POPUP,
				       "xdg_popup destroyed while a child popup exists");
		return;
	}
	wl_resource_destroy(resource);
}

static void popup_grab(struct wl_client *client, struct wl_resource *resource,
		       struct wl_resource *seat, uint32_t serial)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);
	struct garnet_compositor *c;
	struct popup_grab *grab;

	if (!popup)
		return;
	if (popup->xs->initial_commit_done) {
		wl_resource_post_error(resource, XDG_POPUP_ERROR_INVALID_GRAB,
				       "grab requested after the popup's initial commit");
		return;
	}
	c = popup->xs->surface->compositor;
	/* Without a press the user just gave this client, on a window it has mapped, a grab
	 * would be a keylogger: the popup is done before it is shown. */
	if (popup->dismissed ||
	    !garnet_focus_popup_grab_allowed(c, client, serial,
					     popup->parent ? popup->parent->surface : NULL,
					     popup->parent && popup->parent->mapped)) {
		popup_dismiss(popup);
		return;
	}
	grab = seat_popup_grab(c, true);
	if (!grab) {
		popup_dismiss(popup);
		return;
	}
	if (grab->active && grab->client != client) {
		popup_grab_end(grab);
	}
	popup->grabbing = true;
	grab->client = client;
	wl_list_insert(&grab->popups, &popup->grab_link);
	if (!grab->active) {
		grab->active = true;
		garnet_seat_start_grab(c->seat, &grab->base);
	}
	/* The keyboard follows when the popup maps (garnet_focus_popup_mapped), never to a
	 * surface that has not shown anything. */
}

static void popup_reposition(struct wl_client *client, struct wl_resource *resource,
			     struct wl_resource *positioner_resource, uint32_t token)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);

	if (!popup)
		return;
	popup->positioner = *positioner_from(positioner_resource);
	xdg_popup_send_repositioned(resource, token);
	popup_send_configure(popup);
}

static const struct xdg_popup_interface popup_impl = {
	.destroy = popup_handle_destroy,
	.grab = popup_grab,
	.reposition = popup_reposition,
};

static void popup_resource_destroy(struct wl_resource *resource)
{
	struct xdg_popup_data *popup = wl_resource_get_user_data(resource);
	struct garnet_compositor *c;
	struct popup_grab *grab;

	if (!popup)
		return;
	c = popup->xs->surface->compositor;
	popup_unmap(popup);
	garnet_view_finish(&popup->view);
	wl_list_remove(&popup->parent_link);
	if (popup->grabbing) {
		wl_list_remove(&popup->grab_link);
		grab = seat_popup_grab(c, false);
		if (grab && wl_list_empty(&grab->popups) && grab->active) {
			grab->active = false;
			garnet_seat_end_grab(c->seat);
		}
		garnet_focus_popup_gone(c, popup->xs->surface,
					popup->parent ? popup->parent->surface : NULL);
	}
	popup->xs->popup = NULL;
	popup->xs->role_resource = NULL;
	free(popup);
}

static bool popup_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct xdg_surface_data *xs = surface->role_data;
	struct xdg_popup_data *popup = xs ? xs->popup : NULL;
	int32_t px, py;

	if (!popup || !popup->view.in_layer || !popup->parent ||
	    !garnet_surface_position(popup->parent->surface, &px, &py))
		return false;
	if (popup->parent->has_geometry) {
		px += popup->parent->geometry[0];
		py += popup->parent->geometry[1];
	}
	/* A chain of popups adds up one offset per level: clamped like a window position. */
	*x = garnet_coord_clamp((int64_t)px + popup->x - (xs->has_geometry ? xs->geometry[0] : 0));
	*y = garnet_coord_clamp((int64_t)py + popup->y - (xs->has_geometry ? xs->geometry[1] : 0));
	return true;
}

/* ---- commit handling for both roles ---- */

static bool xdg_precommit(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface->role_data;

	if (!xs)
		return true;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(xs->resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "commit on an xdg_surface that has no role object yet");
		return false;
	}
	if (surface->pending.buffer_attached && surface->pending.buffer && !xs->configured &&
	    !surface->compositor->options.accept_unacked_first_buffer) {
		wl_resource_post_error(xs->resource, XDG_SURFACE_ERROR_UNCONFIGURED_BUFFER,
				       "buffer attached before the first configure was acked");
		return false;
	}
	if (surface->pending.buffer_attached && surface->pending.buffer && !xs->configured)
		xs->configured = true; /* accept_unacked_first_buffer */
	if (xs->role == ROLE_POPUP && xs->popup && !xs->popup->parent && xs->base) {
		wl_resource_post_error(xs->base->resource, XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
				       "xdg_popup committed without a parent");
		return false;
	}
	return true;
}

static void xdg_commit(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface->role_data;
	struct garnet_shell *shell = surface->compositor->shell;
	bool has_buffer = garnet_surface_is_mapped(surface);

	/* With its role object destroyed the surface is unmapped for good: a later commit,
	 * buffer or not, must not put it back on the shell's lists. */
	if (!xs || !xs->role_resource)
		return;
	if (xs->pending_geometry_set) {
		memcpy(xs->geometry, xs->pending_geometry, sizeof(xs->geometry));
		xs->has_geometry = true;
		xs->pending_geometry_set = false;
	}
	if (!xs->initial_commit_done) {
		xs->initial_commit_done = true;
		if (xs->role == ROLE_TOPLEVEL)
			toplevel_configure(&xs->toplevel);
		else if (xs->popup)
			popup_send_configure(xs->popup);
		/* Only accept_unacked_first_buffer lets a buffer come with the initial commit. */
		if (!has_buffer)
			return;
	}
	if (has_buffer && !xs->mapped) {
		xs->mapped = true;
		if (xs->role == ROLE_TOPLEVEL) {
			xs->toplevel.mapped = true;
			garnet_shell_toplevel_map(shell, &xs->toplevel);
		} else if (xs->popup && xs->popup->dismissed) {
			xs->mapped = false;
		} else if (xs->popup) {
			struct xdg_popup_data *popup = xs->popup;

			garnet_view_raise(&popup->view,
					  garnet_focus_popup_layer(surface->compositor,
								   popup->parent ? popup->parent->surface
										 : NULL));
			if (popup->grabbing)
				garnet_focus_popup_mapped(surface->compositor, surface);
		}
	} else if (!has_buffer && xs->mapped) {
		/* Unmapped: the client must start over with an initial commit. */
		xs->mapped = false;
		xs->configured = false;
		xs->initial_commit_done = false;
		xs->serial_count = 0;
		if (xs->role == ROLE_TOPLEVEL) {
			xs->toplevel.mapped = false;
			garnet_shell_toplevel_unmap(shell, &xs->toplevel);
		} else if (xs->popup) {
			popup_unmap(xs->popup);
		}
		return;
	}
	if (xs->role == ROLE_TOPLEVEL && xs->mapped) {
		xs->toplevel.geometry_x = xs->has_geometry ? xs->geometry[0] : 0;
		xs->toplevel.geometry_y = xs->has_geometry ? xs->geometry[1] : 0;
		xs->toplevel.geometry_width = xs->has_geometry ? xs->geometry[2] : surface->width;
		xs->toplevel.geometry_height = xs->has_geometry ? xs->geometry[3] : surface->height;
		garnet_shell_toplevel_commit(shell, &xs->toplevel);
	}
}

static bool toplevel_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct xdg_surface_data *xs = surface->role_data;

	if (!xs || !xs->toplevel.view.in_layer)
		return false;
	*x = xs->toplevel.view.x;
	*y = xs->toplevel.view.y;
	return true;
}

static const struct garnet_surface_role toplevel_role = {
	.name = "xdg_toplevel",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
	.position = toplevel_position,
};

static const struct garnet_surface_role popup_role = {
	.name = "xdg_popup",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
	.position = popup_position,
};

/* A surface with xdg_surface but no role object yet still counts as taken. */
static const struct garnet_surface_role xdg_surface_role = {
	.name = "xdg_surface",
	.precommit = xdg_precommit,
	.commit = xdg_commit,
};

/* ---- toplevel requests ---- */

static struct xdg_surface_data *toplevel_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void toplevel_parent_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_toplevel *toplevel = wl_container_of(listener, toplevel, parent_destroy);

	garnet_list_unlink(&toplevel->parent_destroy.link);
	toplevel->parent = NULL;
}

static void set_toplevel_parent(struct xdg_surface_data *xs, struct xdg_surface_data *parent)
{
	garnet_list_unlink(&xs->toplevel.parent_destroy.link);
	xs->toplevel.parent = parent ? &parent->toplevel : NULL;
	if (parent)
		wl_signal_add(&parent->toplevel.events.destroy, &xs->toplevel.parent_destroy);
}

static void toplevel_set_parent(struct wl_client *client, struct wl_resource *resource,
				struct wl_resource *parent_resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource), *parent;

	if (!xs)
		return;
	set_toplevel_parent(xs, NULL);
	if (!parent_resource)
		return;
	parent = toplevel_from(parent_resource);
	for (struct xdg_surface_data *p = parent; p;
	     p = p->toplevel.parent ? wl_container_of(p->toplevel.parent, p, toplevel) : NULL) {
		if (p == xs) {
			wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_PARENT,
					       "a toplevel cannot be its own ancestor");
			return;
		}
	}
	set_toplevel_parent(xs, parent);
}

static void replace_string(char **dst, const char *src)
{
	char *copy = strdup(src);

	if (copy) {
		free(*dst);
		*dst = copy;
	}
}

static void toplevel_set_title(struct wl_client *client, struct wl_resource *resource,
			       const char *title)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs)
		replace_string(&xs->title, title);
}

static void toplevel_set_app_id(struct wl_client *client, struct wl_resource *resource,
				const char *app_id)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs)
		replace_string(&xs->app_id, app_id);
}

static void toplevel_show_window_menu(struct wl_client *client, struct wl_resource *resource,
				      struct wl_resource *seat, uint32_t serial, int32_t x,
				      int32_t y)
{
}

static void toplevel_move(struct wl_client *client, struct wl_resource *resource,
			  struct wl_resource *seat, uint32_t serial)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs && xs->mapped)
		garnet_shell_request_move(xs->surface->compositor->shell, &xs->toplevel, serial);
}

static void toplevel_resize(struct wl_client *client, struct wl_resource *resource,
			    struct wl_resource *seat, uint32_t serial, uint32_t edges)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (edges > XDG_TOPLEVEL_RESIZE_EDGE_BOTTOM_RIGHT || edges == 3 || edges == 7) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_RESIZE_EDGE,
				       "%u is not an xdg_toplevel.resize_edge", edges);
		return;
	}
	if (xs && xs->mapped)
		garnet_shell_request_resize(xs->surface->compositor->shell, &xs->toplevel, serial,
					    edges);
}

static void toplevel_set_max_size(struct wl_client *client, struct wl_resource *resource,
				  int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE,
				       "maximum size %dx%d is negative", width, height);
		return;
	}
	if (xs) {
		xs->toplevel.max_width = garnet_coord_clamp(width);
		xs->toplevel.max_height = garnet_coord_clamp(height);
	}
}

static void toplevel_set_min_size(struct wl_client *client, struct wl_resource *resource,
				  int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_TOPLEVEL_ERROR_INVALID_SIZE,
				       "minimum size %dx%d is negative", width, height);
		return;
	}
	if (xs) {
		xs->toplevel.min_width = garnet_coord_clamp(width);
		xs->toplevel.min_height = garnet_coord_clamp(height);
	}
}

static void toplevel_set_maximized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs)
		garnet_shell_set_maximized(xs->surface->compositor->shell, &xs->toplevel, true);
}

static void toplevel_unset_maximized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs)
		garnet_shell_set_maximized(xs->surface->compositor->shell, &xs->toplevel, false);
}

static void toplevel_set_fullscreen(struct wl_client *client, struct wl_resource *resource,
				    struct wl_resource *output_resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);
	struct garnet_output *output =
		output_resource ? garnet_output_from_resource(output_resource) : NULL;

	if (!xs)
		return;
	/* A denial is answered like any request: a configure, here of the unchanged state. */
	garnet_shell_set_fullscreen(xs->surface->compositor->shell, &xs->toplevel,
				    garnet_focus_may_fullscreen(xs->surface->compositor, client,
								output) ||
					    xs->toplevel.fullscreen,
				    output);
}

static void toplevel_unset_fullscreen(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs)
		garnet_shell_set_fullscreen(xs->surface->compositor->shell, &xs->toplevel, false,
					    NULL);
}

static void toplevel_set_minimized(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (xs && xs->mapped)
		garnet_shell_set_minimized(xs->surface->compositor->shell, &xs->toplevel);
}

static const struct xdg_toplevel_interface xdg_toplevel_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_parent = toplevel_set_parent,
	.set_title = toplevel_set_title,
	.set_app_id = toplevel_set_app_id,
	.show_window_menu = toplevel_show_window_menu,
	.move = toplevel_move,
	.resize = toplevel_resize,
	.set_max_size = toplevel_set_max_size,
	.set_min_size = toplevel_set_min_size,
	.set_maximized = toplevel_set_maximized,
	.unset_maximized = toplevel_unset_maximized,
	.set_fullscreen = toplevel_set_fullscreen,
	.unset_fullscreen = toplevel_unset_fullscreen,
	.set_minimized = toplevel_set_minimized,
};

static void toplevel_resource_destroy(struct wl_resource *resource)
{
	struct xdg_surface_data *xs = toplevel_from(resource);

	if (!xs)
		return;
	/* Mapped or not (activation puts unmapped toplevels on the shell's lists too), the
	 * toplevel leaves every list before its memory can go. */
	xs->toplevel.mapped = false;
	garnet_shell_toplevel_unmap(xs->surface->compositor->shell, &xs->toplevel);
	garnet_view_finish(&xs->toplevel.view);
	wl_signal_emit_mutable(&xs->toplevel.events.destroy, &xs->toplevel);
	garnet_list_unlink(&xs->toplevel.parent_destroy.link);
	xs->toplevel.parent = NULL;
	if (xs->toplevel.decoration) {
		wl_resource_set_user_data(xs->toplevel.decoration, NULL);
		xs->toplevel.decoration = NULL;
	}
	xs->role_resource = NULL;
	xs->mapped = false;
}

/* ---- xdg_surface ---- */

static struct xdg_surface_data *xdg_surface_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void xdg_surface_handle_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (xs && xs->role_resource) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_DEFUNCT_ROLE_OBJECT,
				       "xdg_surface destroyed before its role object");
		return;
	}
	wl_resource_destroy(resource);
}

static bool take_role(struct xdg_surface_data *xs, struct wl_resource *resource)
{
	if (xs->role != ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_ALREADY_CONSTRUCTED,
				       "xdg_surface already has a role object");
		return false;
	}
	return true;
}

static void xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (!xs || !take_role(xs, resource))
		return;
	xs->role_resource = wl_resource_create(client, &xdg_toplevel_interface,
					       wl_resource_get_version(resource), id);
	if (!xs->role_resource) {
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->role = ROLE_TOPLEVEL;
	xs->surface->role = &toplevel_role;
	xs->toplevel.impl = &toplevel_impl;
	xs->toplevel.surface = xs->surface;
	wl_list_init(&xs->toplevel.link);
	wl_list_init(&xs->toplevel.parent_destroy.link);
	xs->toplevel.parent_destroy.notify = toplevel_parent_destroyed;
	wl_signal_init(&xs->toplevel.events.destroy);
	garnet_view_init(&xs->toplevel.view, xs->surface);
	wl_resource_set_implementation(xs->role_resource, &xdg_toplevel_impl, xs,
				       toplevel_resource_destroy);
}

static void xdg_surface_get_popup(struct wl_client *client, struct wl_resource *resource,
				  uint32_t id, struct wl_resource *parent_resource,
				  struct wl_resource *positioner_resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);
	struct positioner *p = positioner_from(positioner_resource);
	struct xdg_popup_data *popup;

	if (!xs || !take_role(xs, resource))
		return;
	/* A popup of itself (or of one of its own popups) would place itself forever. */
	for (struct xdg_surface_data *up = parent_resource ? xdg_surface_from(parent_resource)
							   : NULL;
	     up; up = up->popup ? up->popup->parent : NULL) {
		if (up == xs && xs->base) {
			wl_resource_post_error(xs->base->resource,
					       XDG_WM_BASE_ERROR_INVALID_POPUP_PARENT,
					       "an xdg_popup cannot be its own parent");
			return;
		}
	}
	if ((!p->has_size || !p->has_anchor_rect) && xs->base) {
		wl_resource_post_error(xs->base->resource, XDG_WM_BASE_ERROR_INVALID_POSITIONER,
				       "positioner without size or anchor rectangle");
		return;
	}
	popup = calloc(1, sizeof(*popup));
	if (!popup) {
		wl_resource_post_no_memory(resource);
		return;
	}
	popup->resource = wl_resource_create(client, &xdg_popup_interface,
					     wl_resource_get_version(resource), id);
	if (!popup->resource) {
		free(popup);
		wl_resource_post_no_memory(resource);
		return;
	}
	popup->xs = xs;
	popup->positioner = *p;
	popup->parent = parent_resource ? xdg_surface_from(parent_resource) : NULL;
	wl_list_init(&popup->grab_link);
	if (popup->parent)
		wl_list_insert(&popup->parent->popups, &popup->parent_link);
	else
		wl_list_init(&popup->parent_link);
	garnet_view_init(&popup->view, xs->surface);
	xs->popup = popup;
	xs->role = ROLE_POPUP;
	xs->role_resource = popup->resource;
	xs->surface->role = &popup_role;
	wl_resource_set_implementation(popup->resource, &popup_impl, popup,
				       popup_resource_destroy);
}

static void xdg_surface_set_window_geometry(struct wl_client *client,
					    struct wl_resource *resource, int32_t x, int32_t y,
					    int32_t width, int32_t height)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	if (!xs)
		return;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "window geometry set before a role object exists");
		return;
	}
	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_INVALID_SIZE,
				       "window geometry %dx%d is not positive", width, height);
		return;
	}
	xs->pending_geometry[0] = garnet_coord_clamp(x);
	xs->pending_geometry[1] = garnet_coord_clamp(y);
	xs->pending_geometry[2] = garnet_coord_clamp(width);
	xs->pending_geometry[3] = garnet_coord_clamp(height);
	xs->pending_geometry_set = true;
}

static void xdg_surface_ack_configure(struct wl_client *client, struct wl_resource *resource,
				      uint32_t serial)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);
	int found = -1;

	if (!xs)
		return;
	if (xs->role == ROLE_NONE) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_NOT_CONSTRUCTED,
				       "ack_configure before a role object exists");
		return;
	}
	for (int i = 0; i < xs->serial_count; i++) {
		if (xs->serials[i] == serial)
			found = i;
	}
	if (found < 0) {
		wl_resource_post_error(resource, XDG_SURFACE_ERROR_INVALID_SERIAL,
				       "serial %u was not sent in a configure or was acked", serial);
		return;
	}
	/* Acking a serial also acks every configure sent before it. */
	memmove(xs->serials, xs->serials + found + 1,
		sizeof(xs->serials[0]) * (size_t)(xs->serial_count - found - 1));
	xs->serial_count -= found + 1;
	xs->configured = true;
}

static const struct xdg_surface_interface xdg_surface_impl = {
	.destroy = xdg_surface_handle_destroy,
	.get_toplevel = xdg_surface_get_toplevel,
	.get_popup = xdg_surface_get_popup,
	.set_window_geometry = xdg_surface_set_window_geometry,
	.ack_configure = xdg_surface_ack_configure,
};

static void xdg_surface_unlink(struct xdg_surface_data *xs)
{
	struct xdg_popup_data *child, *tmp;

	if (xs->role_resource) {
		/* The role object stays for the client but no longer does anything. */
		struct wl_resource *role_resource = xs->role_resource;

		if (xs->role == ROLE_TOPLEVEL)
			toplevel_resource_destroy(role_resource);
		else
			popup_resource_destroy(role_resource);
		wl_resource_set_user_data(role_resource, NULL);
		xs->role_resource = NULL;
	}
	wl_list_for_each_safe(child, tmp, &xs->popups, parent_link) {
		garnet_list_unlink(&child->parent_link);
		child->parent = NULL;
		popup_unmap(child);
	}
	if (xs->surface) {
		wl_list_remove(&xs->surface_destroy.link);
		xs->surface->role_data = NULL;
		xs->surface = NULL;
	}
	garnet_list_unlink(&xs->link);
}

static void xdg_surface_resource_destroy(struct wl_resource *resource)
{
	struct xdg_surface_data *xs = xdg_surface_from(resource);

	xdg_surface_unlink(xs);
	free(xs->title);
	free(xs->app_id);
	free(xs);
}

static void xdg_surface_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct xdg_surface_data *xs = wl_container_of(listener, xs, surface_destroy);

	xdg_surface_unlink(xs);
	wl_resource_set_user_data(xs->resource, NULL);
	wl_resource_set_destructor(xs->resource, NULL);
	free(xs->title);
	free(xs->app_id);
	free(xs);
}

/* ---- xdg_wm_base ---- */

static void wm_base_destroy(struct wl_client *client, struct wl_resource *resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);

	if (!wl_list_empty(&base->surfaces)) {
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_DEFUNCT_SURFACES,
				       "xdg_wm_base destroyed while xdg_surfaces exist");
		return;
	}
	wl_resource_destroy(resource);
}

static void wm_base_create_positioner(struct wl_client *client, struct wl_resource *resource,
				      uint32_t id)
{
	struct positioner *p = calloc(1, sizeof(*p));
	struct wl_resource *pr;

	if (!p) {
		wl_resource_post_no_memory(resource);
		return;
	}
	pr = wl_resource_create(client, &xdg_positioner_interface,
				wl_resource_get_version(resource), id);
	if (!pr) {
		free(p);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(pr, &positioner_impl, p, positioner_resource_destroy);
}

static void wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, struct wl_resource *surface_resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct xdg_surface_data *xs;

	if (surface->role) {
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_ROLE,
				       "wl_surface@%u already has the role %s",
				       wl_resource_get_id(surface_resource), surface->role->name);
		return;
	}
	xs = calloc(1, sizeof(*xs));
	if (!xs) {
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->resource = wl_resource_create(client, &xdg_surface_interface,
					  wl_resource_get_version(resource), id);
	if (!xs->resource) {
		free(xs);
		wl_resource_post_no_memory(resource);
		return;
	}
	xs->surface = surface;
	xs->base = base;
	wl_list_init(&xs->popups);
	wl_list_insert(&base->surfaces, &xs->link);
	xs->surface_destroy.notify = xdg_surface_surface_destroyed;
	wl_signal_add(&surface->events.destroy, &xs->surface_destroy);
	surface->role = &xdg_surface_role;
	surface->role_data = xs;
	wl_resource_set_implementation(xs->resource, &xdg_surface_impl, xs,
				       xdg_surface_resource_destroy);
	/* The request that was wrong is this one, on xdg_wm_base (as weston, wlroots and wlcs
	 * agree). */
	if (garnet_surface_is_mapped(surface) ||
	    (surface->pending.buffer_attached && surface->pending.buffer))
		wl_resource_post_error(resource, XDG_WM_BASE_ERROR_INVALID_SURFACE_STATE,
				       "wl_surface@%u has a buffer before its xdg_surface exists",
				       wl_resource_get_id(surface_resource));
}

static void wm_base_pong(struct wl_client *client, struct wl_resource *resource,
			 uint32_t serial)
{
	struct wm_base *base = wl_resource_get_user_data(resource);

	if (serial != base->ping_serial)
		return;
	base->ping_serial = 0;
	if (base->ping_timer)
		wl_event_source_timer_update(base->ping_timer, 0);
}

static const struct xdg_wm_base_interface wm_base_impl = {
	.destroy = wm_base_destroy,
	.create_positioner = wm_base_create_positioner,
	.get_xdg_surface = wm_base_get_xdg_surface,
	.pong = wm_base_pong,
};

static void wm_base_resource_destroy(struct wl_resource *resource)
{
	struct wm_base *base = wl_resource_get_user_data(resource);
	struct xdg_surface_data *xs, *tmp;

	wl_list_for_each_safe(xs, tmp, &base->surfaces, link) {
		garnet_list_unlink(&xs->link);
		xs->base = NULL;
	}
	if (base->ping_timer)
		wl_event_source_remove(base->ping_timer);
	free(base);
}

static int ping_timed_out(void *data)
{
	struct wm_base *base = data;
	pid_t pid = 0;

	/* Logged, not punished: a busy client is not a hostile one. */
	wl_client_get_credentials(wl_resource_get_client(base->resource), &pid, NULL, NULL);
	garnet_log(base->compositor, GARNET_LOG_WARNING, "shell",
		   "pid %d has not answered a ping for %d ms", (int)pid, PING_TIMEOUT_MS);
	return 0;
}

/* Pings the client owning surface (if it has an xdg_wm_base), e.g. when it gets focus. */
void garnet_xdg_ping(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	if (!xs || !xs->base || xs->base->ping_serial)
		return;
	xs->base->ping_serial = wl_display_next_serial(surface->compositor->display);
	xdg_wm_base_send_ping(xs->base->resource, xs->base->ping_serial);
	if (!xs->base->ping_timer)
		xs->base->ping_timer = wl_event_loop_add_timer(surface->compositor->loop,
							       ping_timed_out, xs->base);
	if (xs->base->ping_timer)
		wl_event_source_timer_update(xs->base->ping_timer, PING_TIMEOUT_MS);
}

static void wm_base_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wm_base *base = calloc(1, sizeof(*base));

	if (!base) {
		wl_client_post_no_memory(client);
		return;
	}
	base->compositor = data;
	wl_list_init(&base->surfaces);
	base->resource = wl_resource_create(client, &xdg_wm_base_interface, (int)version, id);
	if (!base->resource) {
		free(base);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(base->resource, &wm_base_impl, base,
				       wm_base_resource_destroy);
}

bool garnet_xdg_shell_init(struct garnet_compositor *c)
{
	c->xdg_wm_base_global = garnet_global_create(c, &xdg_wm_base_interface, WM_BASE_VERSION,
						     c, wm_base_bind, false);
	return c->xdg_wm_base_global != NULL;
}

struct garnet_surface *garnet_xdg_root_surface(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs;

	while (surface) {
		if (surface->subsurface && surface->subsurface->parent) {
			surface = surface->subsurface->parent;
			continue;
		}
		xs = xdg_from_surface(surface);
		if (xs && xs->popup && xs->popup->parent) {
			surface = xs->popup->parent->surface;
			continue;
		}
		return surface;
	}
	return NULL;
}

/* Menus nest a few levels deep; a client nesting thousands gets only the first ones raised
 * rather than garnet's stack exhausted. */
#define RAISE_DEPTH 16

static void raise_popups(struct xdg_surface_data *xs, enum garnet_layer_id layer, int depth)
{
	struct xdg_popup_data *popup;

	/* The list is topmost first: raising from its end keeps the order. */
	wl_list_for_each_reverse(popup, &xs->popups, parent_link) {
		if (!popup->view.in_layer)
			continue;
		garnet_view_raise(&popup->view, layer);
		if (depth < RAISE_DEPTH)
			raise_popups(popup->xs, layer, depth + 1);
	}
}

void garnet_xdg_raise_popups(struct garnet_surface *surface, enum garnet_layer_id layer)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	if (xs)
		raise_popups(xs, layer, 0);
}

struct garnet_toplevel *garnet_xdg_toplevel_from_resource(struct wl_resource *resource)
{
	struct xdg_surface_data *xs;

	if (!wl_resource_instance_of(resource, &xdg_toplevel_interface, &xdg_toplevel_impl))
		return NULL;
	xs = wl_resource_get_user_data(resource);
	return xs ? &xs->toplevel : NULL;
}

struct garnet_toplevel *garnet_xdg_toplevel_from_surface(struct garnet_surface *surface)
{
	struct xdg_surface_data *xs = surface ? xdg_from_surface(surface) : NULL;

	return xs && xs->role == ROLE_TOPLEVEL && xs->role_resource ? &xs->toplevel : NULL;
}
