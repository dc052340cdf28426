// SPDX-License-Identifier: MIT
// zwlr_virtual_pointer_manager_v1: pointer motion, buttons and scrolling a trusted client makes
// up (an on-screen keyboard's touchpad, a remote desktop). As the virtual keyboard: the manager
// is a privileged global and every pointer it makes is asked of the security layer
// (inject_pointer). Events go through the seat like a mouse's, kept within the outputs, but
// never while garnet's consent dialog or lock screen is up: those answer the user's own hand.
#include <linux/input-event-codes.h>
#include <stdint.h>
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/consent.h"
#include "../core/lock-prompt.h"
#include "virtual-pointer.h"
#include "wlr-virtual-pointer-unstable-v1-server-protocol.h"

/* Buttons a client may hold down at once; released for it when it goes. */
#define MAX_HELD_BUTTONS 16

struct virtual_pointer {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	/* The output absolute motion spans (create_virtual_pointer_with_output); NULL: all. */
	struct garnet_output *output;
	struct wl_listener output_destroy;
	uint32_t held[MAX_HELD_BUTTONS];
	int held_count;
};

static struct virtual_pointer *from_resource(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

/* garnet's dialog and lock screen take only the seat's own input. The event's time is the
 * compositor's clock, never the client's: clients compare it with real input's. */
static bool may_act(struct virtual_pointer *vp, uint32_t *time)
{
	struct garnet_compositor *c = vp->compositor;

	*time = garnet_now_msec(c);
	return c->seat && !garnet_consent_active(c) && !garnet_lock_prompt_active(c);
}

static void vp_motion(struct wl_client *client, struct wl_resource *resource, uint32_t time,
		      wl_fixed_t dx, wl_fixed_t dy)
{
	struct virtual_pointer *vp = from_resource(resource);
	double x = wl_fixed_to_double(dx), y = wl_fixed_to_double(dy);

	if (may_act(vp, &time))
		garnet_seat_notify_motion(vp->compositor->seat, time, x, y, x, y);
}

/* The area absolute motion spans: the pointer's output, or the box around every output. */
static bool absolute_area(struct virtual_pointer *vp, int32_t box[4])
{
	struct garnet_output *o;
	bool any = false;

	if (vp->output) {
		o = vp->output;
		box[0] = o->x, box[1] = o->y, box[2] = o->x + o->width, box[3] = o->y + o->height;
		return true;
	}
	wl_list_for_each (o, &vp->compositor->outputs, link) {
		if (!any || o->x < box[0])
			box[0] = o->x;
		if (!any || o->y < box[1])
			box[1] = o->y;
		if (!any || o->x + o->width > box[2])
			box[2] = o->x + o->width;
		if (!any || o->y + o->height > box[3])
			box[3] = o->y + o->height;
		any = true;
	}
	return any;
}

static void vp_motion_absolute(struct wl_client *client, struct wl_resource *resource,
			       uint32_t time, uint32_t x, uint32_t y, uint32_t x_extent,
			       uint32_t y_extent)
{
	struct virtual_pointer *vp = from_resource(resource);
	int32_t box[4];
	double gx, gy;

	/* An empty area has no point in it; a point beyond it is at its edge. */
	if (x_extent == 0 || y_extent == 0 || !may_act(vp, &time) || !absolute_area(vp, box))
		return;
	if (x > x_extent)
		x = x_extent;
	if (y > y_extent)
		y = y_extent;
	gx = box[0] + (double)x / x_extent * (box[2] - box[0]);
	gy = box[1] + (double)y / y_extent * (box[3] - box[1]);
	garnet_seat_notify_motion_absolute(vp->compositor->seat, time, gx, gy);
}

static void note_held(struct virtual_pointer *vp, uint32_t button, bool pressed)
{
	for (int i = 0; i < vp->held_count; i++) {
		if (vp->held[i] != button)
			continue;
		if (!pressed)
			vp->held[i] = vp->held[--vp->held_count];
		return;
	}
	if (pressed && vp->held_count < MAX_HELD_BUTTONS)
		vp->held[vp->held_count++] = button;
}

static bool is_held(struct virtual_pointer *vp, uint32_t button)
{
	for (int i = 0; i < vp->held_count; i++) {
		if (vp->held[i] == button)
			return true;
	}
	return false;
}

/* The buttons libinput reports of a mouse: BTN_0..BTN_9 and BTN_LEFT..BTN_TASK. A key code or
 * a joystick's, tablet's or touch screen's button is no pointer button, and a client that
 * sends one is told so (the protocol has no error of its own for it). */
static bool is_pointer_button(uint32_t button)
{
	return button >= BTN_MISC && button <= BTN_TASK;
}

static void vp_button(struct wl_client *client, struct wl_resource *resource, uint32_t time,
		      uint32_t button, uint32_t state)
{
	struct virtual_pointer *vp = from_resource(resource);
	bool pressed = state == WL_POINTER_BUTTON_STATE_PRESSED;

	if (state > WL_POINTER_BUTTON_STATE_PRESSED || !is_pointer_button(button)) {
		wl_resource_post_error(
			wl_client_get_object(client, 1), WL_DISPLAY_ERROR_INVALID_METHOD,
			"zwlr_virtual_pointer_v1.button: button 0x%x state %u: not a pointer "
			"button (0x%x..0x%x) pressed or released",
			button, state, BTN_MISC, BTN_TASK);
		return;
	}
	/* Only its own presses are released: it cannot let go of the user's button. A press
	 * beyond what it may hold would stay down when it goes, so it is dropped. */
	if (pressed ? is_held(vp, button) || vp->held_count == MAX_HELD_BUTTONS
		    : !is_held(vp, button))
		return;
	/* Releases as presses: not while garnet's dialog or lock screen is up. A release held
	 * back stays the pointer's to send again, and is sent for it when it goes. */
	if (!may_act(vp, &time))
		return;
	note_held(vp, button, pressed);
	garnet_seat_notify_virtual_button(vp->compositor->seat, time, button, pressed);
}

static bool valid_axis(struct wl_resource *resource, uint32_t axis)
{
	if (axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return true;
	wl_resource_post_error(resource, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS,
			       "axis %u is not a wl_pointer.axis", axis);
	return false;
}

static void vp_axis(struct wl_client *client, struct wl_resource *resource, uint32_t time,
		    uint32_t axis, wl_fixed_t value)
{
	struct virtual_pointer *vp = from_resource(resource);

	if (valid_axis(resource, axis) && may_act(vp, &time))
		garnet_seat_notify_axis(vp->compositor->seat, time, axis,
					wl_fixed_to_double(value));
}

/* The seat sends a frame after each event, as it does for a mouse. */
static void vp_frame(struct wl_client *client, struct wl_resource *resource)
{
}

static void vp_axis_source(struct wl_client *client, struct wl_resource *resource, uint32_t source)
{
	if (source > WL_POINTER_AXIS_SOURCE_WHEEL_TILT)
		wl_resource_post_error(resource, ZWLR_VIRTUAL_POINTER_V1_ERROR_INVALID_AXIS_SOURCE,
				       "axis source %u is not a wl_pointer.axis_source", source);
}

static void vp_axis_stop(struct wl_client *client, struct wl_resource *resource, uint32_t time,
			 uint32_t axis)
{
	valid_axis(resource, axis);
}

/* Steps are a wheel's clicks: clients hear them as a mouse wheel's (axis_value120 or
 * axis_discrete), the count kept within what 120ths of a click can say. */
static void vp_axis_discrete(struct wl_client *client, struct wl_resource *resource, uint32_t time,
			     uint32_t axis, wl_fixed_t value, int32_t discrete)
{
	struct virtual_pointer *vp = from_resource(resource);
	int32_t steps = discrete;

	if (!valid_axis(resource, axis) || !may_act(vp, &time))
		return;
	if (steps > INT32_MAX / 120)
		steps = INT32_MAX / 120;
	if (steps < -(INT32_MAX / 120))
		steps = -(INT32_MAX / 120);
	garnet_seat_notify_axis_wheel(vp->compositor->seat, time, axis, wl_fixed_to_double(value),
				      steps * 120);
}

static const struct zwlr_virtual_pointer_v1_interface vp_impl = {
	.motion = vp_motion,
	.motion_absolute = vp_motion_absolute,
	.button = vp_button,
	.axis = vp_axis,
	.frame = vp_frame,
	.axis_source = vp_axis_source,
	.axis_stop = vp_axis_stop,
	.axis_discrete = vp_axis_discrete,
	.destroy = garnet_resource_destroy_request,
};

static void vp_output_destroyed(struct wl_listener *listener, void *data)
{
	struct virtual_pointer *vp = wl_container_of(listener, vp, output_destroy);

	garnet_list_unlink(&vp->output_destroy.link);
	vp->output = NULL;
}

/* Buttons it still holds are let go, so that no client is left with a button down. */
static void vp_resource_destroy(struct wl_resource *resource)
{
	struct virtual_pointer *vp = from_resource(resource);

	while (vp->held_count > 0 && vp->compositor->seat)
		garnet_seat_notify_virtual_button(vp->compositor->seat,
						  garnet_now_msec(vp->compositor),
						  vp->held[--vp->held_count], false);
	garnet_list_unlink(&vp->output_destroy.link);
	free(vp);
}

static void create_pointer(struct wl_client *client, struct wl_resource *resource,
			   struct wl_resource *output_resource, uint32_t id)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_output *output =
		output_resource ? garnet_output_from_resource(output_resource) : NULL;
	struct virtual_pointer *vp;
	pid_t pid = 0;

	if (c->hooks.inject_pointer && !c->hooks.inject_pointer(c->hooks.data, client)) {
		wl_client_get_credentials(client, &pid, NULL, NULL);
		garnet_log(c, GARNET_LOG_WARNING, "security",
			   "denied: pid %d may not move the pointer", (int)pid);
		wl_client_post_implementation_error(client, "this client may not move the pointer");
		return;
	}
	vp = calloc(1, sizeof(*vp));
	if (!vp) {
		wl_client_post_no_memory(client);
		return;
	}
	vp->resource = wl_resource_create(client, &zwlr_virtual_pointer_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!vp->resource) {
		free(vp);
		wl_client_post_no_memory(client);
		return;
	}
	vp->compositor = c;
	wl_list_init(&vp->output_destroy.link);
	if (output) {
		vp->output = output;
		vp->output_destroy.notify = vp_output_destroyed;
		wl_signal_add(&output->events.destroy, &vp->output_destroy);
	}
	wl_resource_set_implementation(vp->resource, &vp_impl, vp, vp_resource_destroy);
}

static void manager_create(struct wl_client *client, struct wl_resource *resource,
			   struct wl_resource *seat, uint32_t id)
{
	create_pointer(client, resource, NULL, id);
}

static void manager_create_with_output(struct wl_client *client, struct wl_resource *resource,
				       struct wl_resource *seat, struct wl_resource *output,
				       uint32_t id)
{
	create_pointer(client, resource, output, id);
}

static const struct zwlr_virtual_pointer_manager_v1_interface manager_impl = {
	.create_virtual_pointer = manager_create,
	.destroy = garnet_resource_destroy_request,
	.create_virtual_pointer_with_output = manager_create_with_output,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;
	struct wl_resource *resource;

	if (!garnet_global_check_bind(c, client, &zwlr_virtual_pointer_manager_v1_interface))
		return;
	resource = wl_resource_create(client, &zwlr_virtual_pointer_manager_v1_interface,
				      (int)version, id);
	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, c, NULL);
}

bool garnet_virtual_pointer_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwlr_virtual_pointer_manager_v1_interface, 2, c,
				    manager_bind, true) != NULL;
}
