// SPDX-License-Identifier: MIT
// xdg_popup.grab: the chain of grabbing popups of one client, holding the pointer until dismissed.
#include <stdlib.h>

#include "xdg-shell-server-protocol.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "../core/seat.h"
#include "../core/shell-hooks.h"
#include "xdg-shell-private.h"

/* One popup grab per compositor seat: the chain of grabbing popups of one client. */
struct popup_grab {
	struct garnet_pointer_grab base;
	struct wl_list popups; /* xdg_popup_data.grab_link, topmost first */
	struct wl_client *client;
	bool active;
	struct garnet_compositor *compositor;
	struct wl_listener compositor_destroy, keyboard_focus;
};

/* ---- popup grab ---- */


static void popup_grab_end(struct popup_grab *grab)
{
	struct xdg_popup_data *popup, *tmp;

	wl_list_for_each_safe(popup, tmp, &grab->popups, grab_link) {
		garnet_list_unlink(&popup->grab_link);
		popup->grabbing = false;
		xdg_popup_dismiss(popup);
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
		    xdg_popup_parent_surface(popup) == surface)
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
static struct popup_grab *popup_grab_get(struct garnet_compositor *c, bool create)
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

void xdg_popup_handle_grab(struct wl_client *client, struct wl_resource *resource,
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
	    !c->shell_hooks->popup_grab_allowed(c, client, serial,
						xdg_popup_parent_surface(popup),
						xdg_popup_parent_mapped(popup))) {
		xdg_popup_dismiss(popup);
		return;
	}
	grab = popup_grab_get(c, true);
	if (!grab) {
		xdg_popup_dismiss(popup);
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

/* A grabbing popup is going away: the grab ends with its last popup and the keyboard, if the
 * popup had it, goes back to its parent. */
void xdg_popup_grab_remove(struct xdg_popup_data *popup)
{
	struct garnet_compositor *c = popup->xs->surface->compositor;
	struct popup_grab *grab = popup_grab_get(c, false);

	wl_list_remove(&popup->grab_link);
	if (grab && wl_list_empty(&grab->popups) && grab->active) {
		grab->active = false;
		garnet_seat_end_grab(c->seat);
	}
	c->shell_hooks->popup_gone(c, popup->xs->surface, xdg_popup_parent_surface(popup));
}
