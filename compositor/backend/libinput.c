// SPDX-License-Identifier: MIT
// libinput on the seat: keyboards, pointers, tablets-as-pointers and touch screens, with the
// [libinput] settings applied to each device as it appears.
#include <errno.h>
#include <libinput.h>
#include <libudev.h>
#include <stdlib.h>
#include <string.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/seat.h"
#include "libinput.h"
#include "session.h"

struct garnet_libinput {
	struct garnet_compositor *compositor;
	struct garnet_session *session;
	struct garnet_input_config config;
	struct udev *udev;
	struct libinput *libinput;
	struct wl_event_source *source;
	struct wl_listener session_active;
};

static int open_restricted(const char *path, int flags, void *data)
{
	struct garnet_libinput *input = data;
	int fd = garnet_session_open_device(input->session, path);

	return fd < 0 ? -errno : fd;
}

static void close_restricted(int fd, void *data)
{
	struct garnet_libinput *input = data;

	garnet_session_close_device(input->session, fd);
}

static const struct libinput_interface libinput_impl = {
	.open_restricted = open_restricted,
	.close_restricted = close_restricted,
};

static void configure_device(struct garnet_libinput *input, struct libinput_device *device)
{
	const struct garnet_input_config *cfg = &input->config;

	if (cfg->tap >= 0 && libinput_device_config_tap_get_finger_count(device) > 0)
		libinput_device_config_tap_set_enabled(device, cfg->tap ? LIBINPUT_CONFIG_TAP_ENABLED
									: LIBINPUT_CONFIG_TAP_DISABLED);
	if (cfg->natural_scroll >= 0 && libinput_device_config_scroll_has_natural_scroll(device))
		libinput_device_config_scroll_set_natural_scroll_enabled(device,
									 cfg->natural_scroll);
	if (cfg->accel_set && libinput_device_config_accel_is_available(device))
		libinput_device_config_accel_set_speed(device, cfg->accel_speed);
	if (cfg->accel_flat >= 0 && libinput_device_config_accel_is_available(device))
		libinput_device_config_accel_set_profile(
			device, cfg->accel_flat ? LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT
						: LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE);
	if (cfg->left_handed >= 0 && libinput_device_config_left_handed_is_available(device))
		libinput_device_config_left_handed_set(device, cfg->left_handed);
	garnet_log(input->compositor, GARNET_LOG_INFO, "input", "device added: %s%s%s%s",
		   libinput_device_get_name(device),
		   libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_KEYBOARD)
			   ? " (keyboard)" : "",
		   libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_POINTER)
			   ? " (pointer)" : "",
		   libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH)
			   ? " (touch)" : "");
}

/* The bounding box of all outputs: where the pointer may go and what absolute devices map to. */
static void layout_box(struct garnet_compositor *c, pixman_box32_t *box)
{
	struct garnet_output *output;
	bool first = true;

	*box = (pixman_box32_t){0, 0, 1, 1};
	wl_list_for_each(output, &c->outputs, link) {
		if (first) {
			*box = (pixman_box32_t){output->x, output->y, output->x + output->width,
						output->y + output->height};
			first = false;
			continue;
		}
		if (output->x < box->x1)
			box->x1 = output->x;
		if (output->y < box->y1)
			box->y1 = output->y;
		if (output->x + output->width > box->x2)
			box->x2 = output->x + output->width;
		if (output->y + output->height > box->y2)
			box->y2 = output->y + output->height;
	}
}

static void pointer_motion(struct garnet_libinput *input, struct libinput_event_pointer *ev)
{
	garnet_seat_notify_motion(input->compositor->seat, libinput_event_pointer_get_time(ev),
				  libinput_event_pointer_get_dx(ev), libinput_event_pointer_get_dy(ev),
				  libinput_event_pointer_get_dx_unaccelerated(ev),
				  libinput_event_pointer_get_dy_unaccelerated(ev));
}

static void pointer_motion_absolute(struct garnet_libinput *input,
				    struct libinput_event_pointer *ev)
{
	pixman_box32_t box;
	double x, y;

	layout_box(input->compositor, &box);
	x = box.x1 + libinput_event_pointer_get_absolute_x_transformed(ev, box.x2 - box.x1);
	y = box.y1 + libinput_event_pointer_get_absolute_y_transformed(ev, box.y2 - box.y1);
	garnet_seat_notify_motion_absolute(input->compositor->seat,
					   libinput_event_pointer_get_time(ev), x, y);
}

static void pointer_scroll(struct garnet_libinput *input, struct libinput_event_pointer *ev,
			   enum libinput_event_type type)
{
	static const enum libinput_pointer_axis axes[] = {
		LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL,
		LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL,
	};
	static const uint32_t wl_axes[] = {WL_POINTER_AXIS_VERTICAL_SCROLL,
					   WL_POINTER_AXIS_HORIZONTAL_SCROLL};
	double value;

	for (int i = 0; i < 2; i++) {
		if (!libinput_event_pointer_has_axis(ev, axes[i]))
			continue;
		value = libinput_event_pointer_get_scroll_value(ev, axes[i]);
		/* A wheel click is 120 units of value120 and 15 of wl_pointer's axis scale. */
		if (type == LIBINPUT_EVENT_POINTER_SCROLL_WHEEL) {
			double v120 = libinput_event_pointer_get_scroll_value_v120(ev, axes[i]);

			garnet_seat_notify_axis_wheel(input->compositor->seat,
						      libinput_event_pointer_get_time(ev),
						      wl_axes[i], v120 * 15.0 / 120.0,
						      (int32_t)v120);
			continue;
		}
		garnet_seat_notify_axis(input->compositor->seat,
					libinput_event_pointer_get_time(ev), wl_axes[i], value);
	}
}

/* A touchpad gesture as the seat takes it; deltas are libinput's accelerated ones, like the
 * pointer's. */
static void gesture_event(struct garnet_libinput *input, struct libinput_event *event)
{
	struct libinput_event_gesture *ev = libinput_event_get_gesture_event(event);
	enum libinput_event_type type = libinput_event_get_type(event);
	struct garnet_gesture g = {
		.time_msec = libinput_event_gesture_get_time(ev),
		.fingers = (uint32_t)libinput_event_gesture_get_finger_count(ev),
	};

	switch (type) {
	case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN:
	case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE:
	case LIBINPUT_EVENT_GESTURE_SWIPE_END:
		g.kind = GARNET_GESTURE_SWIPE;
		g.phase = type - LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN;
		break;
	case LIBINPUT_EVENT_GESTURE_PINCH_BEGIN:
	case LIBINPUT_EVENT_GESTURE_PINCH_UPDATE:
	case LIBINPUT_EVENT_GESTURE_PINCH_END:
		g.kind = GARNET_GESTURE_PINCH;
		g.phase = type - LIBINPUT_EVENT_GESTURE_PINCH_BEGIN;
		break;
	case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN:
		g.kind = GARNET_GESTURE_HOLD;
		g.phase = GARNET_GESTURE_BEGIN;
		break;
	case LIBINPUT_EVENT_GESTURE_HOLD_END:
		g.kind = GARNET_GESTURE_HOLD;
		g.phase = GARNET_GESTURE_END;
		break;
	default:
		return;
	}
	if (g.phase == GARNET_GESTURE_UPDATE) {
		g.dx = libinput_event_gesture_get_dx(ev);
		g.dy = libinput_event_gesture_get_dy(ev);
		if (g.kind == GARNET_GESTURE_PINCH) {
			g.scale = libinput_event_gesture_get_scale(ev);
			g.rotation = libinput_event_gesture_get_angle_delta(ev);
		}
	}
	if (g.phase == GARNET_GESTURE_END)
		g.cancelled = libinput_event_gesture_get_cancelled(ev) != 0;
	garnet_seat_notify_gesture(input->compositor->seat, &g);
}

static struct garnet_output *touch_output(struct garnet_compositor *c)
{
	return garnet_compositor_first_output(c);
}

static void touch_event(struct garnet_libinput *input, struct libinput_event *event)
{
	struct libinput_event_touch *ev = libinput_event_get_touch_event(event);
	struct garnet_seat *seat = input->compositor->seat;
	struct garnet_output *output = touch_output(input->compositor);
	enum libinput_event_type type = libinput_event_get_type(event);
	double x = 0, y = 0;

	if (type == LIBINPUT_EVENT_TOUCH_FRAME) {
		garnet_seat_notify_touch_frame(seat);
		return;
	}
	if (type == LIBINPUT_EVENT_TOUCH_CANCEL)
		return;
	if (type != LIBINPUT_EVENT_TOUCH_UP) {
		if (!output)
			return;
		x = output->x + libinput_event_touch_get_x_transformed(ev, output->width);
		y = output->y + libinput_event_touch_get_y_transformed(ev, output->height);
	}
	switch (type) {
	case LIBINPUT_EVENT_TOUCH_DOWN:
		garnet_seat_notify_touch_down(seat, libinput_event_touch_get_time(ev),
					      libinput_event_touch_get_seat_slot(ev), x, y);
		break;
	case LIBINPUT_EVENT_TOUCH_MOTION:
		garnet_seat_notify_touch_motion(seat, libinput_event_touch_get_time(ev),
						libinput_event_touch_get_seat_slot(ev), x, y);
		break;
	case LIBINPUT_EVENT_TOUCH_UP:
		garnet_seat_notify_touch_up(seat, libinput_event_touch_get_time(ev),
					    libinput_event_touch_get_seat_slot(ev));
		break;
	default:
		break;
	}
}

static void handle_event(struct garnet_libinput *input, struct libinput_event *event)
{
	struct garnet_seat *seat = input->compositor->seat;
	enum libinput_event_type type = libinput_event_get_type(event);
	struct libinput_event_keyboard *key;
	struct libinput_event_pointer *ptr;

	switch (type) {
	case LIBINPUT_EVENT_DEVICE_ADDED:
		configure_device(input, libinput_event_get_device(event));
		break;
	case LIBINPUT_EVENT_DEVICE_REMOVED:
		garnet_log(input->compositor, GARNET_LOG_INFO, "input", "device removed: %s",
			   libinput_device_get_name(libinput_event_get_device(event)));
		break;
	case LIBINPUT_EVENT_KEYBOARD_KEY:
		key = libinput_event_get_keyboard_event(event);
		garnet_seat_notify_key(seat, libinput_event_keyboard_get_time(key),
				       libinput_event_keyboard_get_key(key),
				       libinput_event_keyboard_get_key_state(key) ==
					       LIBINPUT_KEY_STATE_PRESSED);
		break;
	case LIBINPUT_EVENT_POINTER_MOTION:
		pointer_motion(input, libinput_event_get_pointer_event(event));
		break;
	case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
		pointer_motion_absolute(input, libinput_event_get_pointer_event(event));
		break;
	case LIBINPUT_EVENT_POINTER_BUTTON:
		ptr = libinput_event_get_pointer_event(event);
		garnet_log(input->compositor, GARNET_LOG_DEBUG, "input", "button %u %s at %.0f,%.0f",
			   libinput_event_pointer_get_button(ptr),
			   libinput_event_pointer_get_button_state(ptr) ==
					   LIBINPUT_BUTTON_STATE_PRESSED ? "pressed" : "released",
			   seat->x, seat->y);
		garnet_seat_notify_button(seat, libinput_event_pointer_get_time(ptr),
					  libinput_event_pointer_get_button(ptr),
					  libinput_event_pointer_get_button_state(ptr) ==
						  LIBINPUT_BUTTON_STATE_PRESSED);
		break;
	case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
	case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
	case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
		pointer_scroll(input, libinput_event_get_pointer_event(event), type);
		break;
	case LIBINPUT_EVENT_TOUCH_DOWN:
	case LIBINPUT_EVENT_TOUCH_UP:
	case LIBINPUT_EVENT_TOUCH_MOTION:
	case LIBINPUT_EVENT_TOUCH_CANCEL:
	case LIBINPUT_EVENT_TOUCH_FRAME:
		touch_event(input, event);
		break;
	case LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN:
	case LIBINPUT_EVENT_GESTURE_SWIPE_UPDATE:
	case LIBINPUT_EVENT_GESTURE_SWIPE_END:
	case LIBINPUT_EVENT_GESTURE_PINCH_BEGIN:
	case LIBINPUT_EVENT_GESTURE_PINCH_UPDATE:
	case LIBINPUT_EVENT_GESTURE_PINCH_END:
	case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN:
	case LIBINPUT_EVENT_GESTURE_HOLD_END:
		gesture_event(input, event);
		break;
	default:
		/* LIBINPUT_EVENT_POINTER_AXIS repeats the scroll events above; tablets and
		 * switches have no client protocol in garnet yet. */
		break;
	}
}

static int libinput_readable(int fd, uint32_t mask, void *data)
{
	struct garnet_libinput *input = data;
	struct libinput_event *event;

	if (libinput_dispatch(input->libinput) != 0)
		garnet_log(input->compositor, GARNET_LOG_WARNING, "input",
			   "libinput dispatch failed");
	while ((event = libinput_get_event(input->libinput))) {
		handle_event(input, event);
		libinput_event_destroy(event);
	}
	return 0;
}

static void session_active_changed(struct wl_listener *listener, void *data)
{
	struct garnet_libinput *input = wl_container_of(listener, input, session_active);

	if (garnet_session_is_active(input->session)) {
		if (libinput_resume(input->libinput) != 0)
			garnet_log(input->compositor, GARNET_LOG_ERROR, "input",
				   "cannot resume input devices");
	} else {
		/* Keys still held are released to clients as the devices go away. */
		libinput_suspend(input->libinput);
		libinput_readable(-1, 0, input);
	}
}

struct garnet_libinput *garnet_libinput_create(struct garnet_compositor *c,
					       struct garnet_session *session,
					       const struct garnet_input_config *config)
{
	struct garnet_libinput *input = calloc(1, sizeof(*input));
	const char *seat = garnet_session_seat_name(session);

	if (!input)
		return NULL;
	input->compositor = c;
	input->session = session;
	input->config = *config;
	input->udev = udev_new();
	if (!input->udev) {
		garnet_log(c, GARNET_LOG_ERROR, "input", "udev_new failed: %s", strerror(errno));
		goto err_input;
	}
	input->libinput = libinput_udev_create_context(&libinput_impl, input, input->udev);
	if (!input->libinput) {
		garnet_log(c, GARNET_LOG_ERROR, "input", "cannot create a libinput context");
		goto err_udev;
	}
	if (libinput_udev_assign_seat(input->libinput, seat) != 0) {
		garnet_log(c, GARNET_LOG_ERROR, "input", "cannot assign libinput to seat %s", seat);
		goto err_libinput;
	}
	input->source = wl_event_loop_add_fd(c->loop, libinput_get_fd(input->libinput),
					     WL_EVENT_READABLE, libinput_readable, input);
	if (!input->source)
		goto err_libinput;
	input->session_active.notify = session_active_changed;
	wl_signal_add(garnet_session_get_active_signal(session), &input->session_active);
	/* Devices found while assigning the seat are queued already. */
	libinput_readable(-1, 0, input);
	return input;

err_libinput:
	libinput_unref(input->libinput);
err_udev:
	udev_unref(input->udev);
err_input:
	free(input);
	return NULL;
}

void garnet_libinput_destroy(struct garnet_libinput *input)
{
	if (!input)
		return;
	wl_list_remove(&input->session_active.link);
	wl_event_source_remove(input->source);
	libinput_unref(input->libinput);
	udev_unref(input->udev);
	free(input);
}
