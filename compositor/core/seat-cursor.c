// SPDX-License-Identifier: MIT
// What is drawn at the pointer: a client's cursor surface, a drag icon or garnet's own arrow.
#include <math.h>

#include "coords.h"
#include "output.h"
#include "surface.h"
#include "seat.h"
#include "seat-private.h"

bool garnet_seat_builtin_cursor_box(struct garnet_seat *seat, pixman_box32_t *box)
{
	pixman_image_t *image = seat ? seat->compositor->builtin_cursor : NULL;
	int32_t x, y;

	if (!image || wl_list_empty(&seat->compositor->outputs))
		return false;
	if ((seat->cursor || seat_priv(seat)->cursor_hidden) &&
	    !garnet_seat_pointer_is_garnets(seat))
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

void seat_set_cursor_hidden(struct garnet_seat *seat, bool hidden)
{
	damage_builtin_cursor(seat);
	seat_priv(seat)->cursor_hidden = hidden;
	damage_builtin_cursor(seat);
}

void seat_damage_pointer_images(struct garnet_seat *seat)
{
	struct garnet_surface *images[GARNET_POINTER_IMAGES];
	size_t n = garnet_seat_pointer_images(seat, images);

	for (size_t i = 0; i < n; i++)
		garnet_surface_damage_tree(images[i]);
	damage_builtin_cursor(seat);
}

static void cursor_commit(struct garnet_surface *surface)
{
	struct garnet_seat *seat = surface->compositor->seat;

	if (seat->cursor != surface)
		return;
	if (surface->current.dx || surface->current.dy) {
		struct garnet_surface_state *cur = &surface->current;

		garnet_surface_damage_tree(surface);
		seat_priv(seat)->hotspot_x =
			garnet_coord_clamp((int64_t)seat_priv(seat)->hotspot_x - cur->dx);
		seat_priv(seat)->hotspot_y =
			garnet_coord_clamp((int64_t)seat_priv(seat)->hotspot_y - cur->dy);
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
	*x = (int32_t)floor(seat->x) - seat_priv(seat)->hotspot_x;
	*y = (int32_t)floor(seat->y) - seat_priv(seat)->hotspot_y;
	return true;
}

static const struct garnet_surface_role cursor_role = {
	.name = "wl_pointer-cursor",
	.commit = cursor_commit,
	.position = cursor_position,
};

void seat_set_cursor_surface(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct seat_private *sp = seat_priv(seat);

	if (seat->cursor == surface)
		return;
	damage_builtin_cursor(seat);
	if (seat->cursor) {
		garnet_surface_damage_tree(seat->cursor);
		garnet_list_unlink(&sp->cursor_destroy.link);
	}
	seat->cursor = surface;
	if (surface)
		wl_signal_add(&surface->events.destroy, &sp->cursor_destroy);
	damage_builtin_cursor(seat);
}

void seat_cursor_destroyed(struct wl_listener *listener, void *data)
{
	struct seat_private *sp = wl_container_of(listener, sp, cursor_destroy);
	struct garnet_seat *seat = &sp->base;

	seat_set_cursor_surface(seat, NULL);
}

void garnet_seat_set_drag_icon(struct garnet_seat *seat, struct garnet_surface *surface)
{
	struct seat_private *sp = seat_priv(seat);

	if (seat->drag_icon == surface)
		return;
	if (seat->drag_icon) {
		garnet_surface_damage_tree(seat->drag_icon);
		garnet_list_unlink(&sp->drag_icon_destroy.link);
	}
	seat->drag_icon = surface;
	/* Its top-left corner starts at the pointer; wl_surface.offset moves it from there. */
	seat->drag_icon_x = 0;
	seat->drag_icon_y = 0;
	if (surface) {
		wl_signal_add(&surface->events.destroy, &sp->drag_icon_destroy);
		garnet_surface_damage_tree(surface);
	}
}

void seat_drag_icon_destroyed(struct wl_listener *listener, void *data)
{
	struct seat_private *sp = wl_container_of(listener, sp, drag_icon_destroy);
	struct garnet_seat *seat = &sp->base;

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

/* Only the client the pointer is over, answering its latest enter, sets the cursor. */
static bool may_set_cursor(struct garnet_seat *seat, struct wl_client *client, uint32_t serial)
{
	return seat->pointer_focus && surface_client(seat->pointer_focus) == client &&
	       serial == seat_priv(seat)->pointer_enter_serial;
}

bool garnet_seat_set_cursor_shape(struct garnet_seat *seat, struct wl_client *client,
				  uint32_t serial)
{
	if (!may_set_cursor(seat, client, serial))
		return false;
	seat_set_cursor_surface(seat, NULL);
	seat_set_cursor_hidden(seat, false);
	return true;
}

void seat_pointer_set_cursor(struct wl_client *client, struct wl_resource *resource,
			     uint32_t serial, struct wl_resource *surface_resource,
			     int32_t hotspot_x, int32_t hotspot_y)
{
	struct garnet_seat *seat = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);

	if (!seat || !may_set_cursor(seat, client, serial))
		return;
	if (surface && !garnet_surface_set_role(surface, &cursor_role, NULL, resource,
						WL_POINTER_ERROR_ROLE))
		return;
	seat_set_cursor_surface(seat, surface);
	seat_set_cursor_hidden(seat, surface == NULL);
	if (surface)
		garnet_surface_damage_tree(surface);
	seat_priv(seat)->hotspot_x = garnet_coord_clamp(hotspot_x);
	seat_priv(seat)->hotspot_y = garnet_coord_clamp(hotspot_y);
	if (surface)
		garnet_surface_damage_tree(surface);
}
