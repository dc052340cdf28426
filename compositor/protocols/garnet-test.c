// SPDX-License-Identifier: MIT
// garnet_test: input injection, placement and output capture for the test harness. Created only
// in --test-mode, and privileged: the security layer decides who may bind it.
#include <stdlib.h>

#include "../core/seat.h"
#include "garnet-test-server-protocol.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "text-input.h"
#include "garnet-test.h"

static void test_move_surface(struct wl_client *client, struct wl_resource *resource,
			      struct wl_resource *surface_resource, int32_t x, int32_t y)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);

	if (garnet_compositor_place_surface(c, surface_resource, x, y))
		return;
	if (surface->role)
		wl_resource_post_error(resource, GARNET_TEST_ERROR_BAD_SURFACE,
				       "wl_surface@%u is a %s, which cannot be placed",
				       wl_resource_get_id(surface_resource), surface->role->name);
	else
		wl_resource_post_no_memory(resource);
}

static void test_activate_surface(struct wl_client *client, struct wl_resource *resource,
				  struct wl_resource *surface_resource)
{
	garnet_compositor_focus_surface(wl_resource_get_user_data(resource), surface_resource);
}

static void test_pointer_motion(struct wl_client *client, struct wl_resource *resource,
				wl_fixed_t x, wl_fixed_t y)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_motion_absolute(c->seat, garnet_now_msec(c), wl_fixed_to_double(x),
					   wl_fixed_to_double(y));
}

static void test_pointer_motion_relative(struct wl_client *client, struct wl_resource *resource,
					 wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t dx_unaccel,
					 wl_fixed_t dy_unaccel)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_motion(c->seat, garnet_now_msec(c), wl_fixed_to_double(dx),
				  wl_fixed_to_double(dy), wl_fixed_to_double(dx_unaccel),
				  wl_fixed_to_double(dy_unaccel));
}

static void test_pointer_button(struct wl_client *client, struct wl_resource *resource,
				uint32_t button, uint32_t state)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_button(c->seat, garnet_now_msec(c), button,
				  state == WL_POINTER_BUTTON_STATE_PRESSED);
}

static void test_pointer_axis(struct wl_client *client, struct wl_resource *resource,
			      uint32_t axis, wl_fixed_t value)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_axis(c->seat, garnet_now_msec(c), axis, wl_fixed_to_double(value));
}

static void test_pointer_axis_wheel(struct wl_client *client, struct wl_resource *resource,
				    uint32_t axis, int32_t value120)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_axis_wheel(c->seat, garnet_now_msec(c), axis, value120 * 15.0 / 120.0,
				      value120);
}

static void test_key(struct wl_client *client, struct wl_resource *resource, uint32_t key,
		     uint32_t state)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_key(c->seat, garnet_now_msec(c), key,
			       state == WL_KEYBOARD_KEY_STATE_PRESSED);
}

static void test_touch_down(struct wl_client *client, struct wl_resource *resource, int32_t id,
			    wl_fixed_t x, wl_fixed_t y)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_touch_down(c->seat, garnet_now_msec(c), id, wl_fixed_to_double(x),
				      wl_fixed_to_double(y));
}

static void test_touch_motion(struct wl_client *client, struct wl_resource *resource, int32_t id,
			      wl_fixed_t x, wl_fixed_t y)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_touch_motion(c->seat, garnet_now_msec(c), id, wl_fixed_to_double(x),
					wl_fixed_to_double(y));
}

static void test_touch_up(struct wl_client *client, struct wl_resource *resource, int32_t id)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_touch_up(c->seat, garnet_now_msec(c), id);
}

static void test_touch_frame(struct wl_client *client, struct wl_resource *resource)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);

	garnet_seat_notify_touch_frame(c->seat);
}

static void capture_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_capture *capture = wl_container_of(listener, capture, buffer_destroy);

	garnet_list_unlink(&capture->buffer_destroy.link);
	capture->buffer = NULL;
}

static void capture_callback_destroyed(struct wl_resource *resource)
{
	struct garnet_capture *capture = wl_resource_get_user_data(resource);

	if (!capture)
		return;
	wl_list_remove(&capture->link);
	wl_list_remove(&capture->buffer_destroy.link);
	free(capture);
}

void garnet_capture_complete(struct garnet_output *output)
{
	struct garnet_capture *capture, *tmp;
	pixman_image_t *front = output->impl->front_image(output);

	wl_list_for_each_safe(capture, tmp, &output->pending_captures, link) {
		struct wl_shm_buffer *shm = capture->buffer ? wl_shm_buffer_get(capture->buffer)
							    : NULL;

		if (shm) {
			pixman_image_t *dst;

			wl_shm_buffer_begin_access(shm);
			dst = pixman_image_create_bits(PIXMAN_a8r8g8b8,
						       wl_shm_buffer_get_width(shm),
						       wl_shm_buffer_get_height(shm),
						       wl_shm_buffer_get_data(shm),
						       wl_shm_buffer_get_stride(shm));
			if (dst) {
				pixman_image_composite32(PIXMAN_OP_SRC, front, NULL, dst, 0, 0, 0, 0,
							 0, 0, pixman_image_get_width(front),
							 pixman_image_get_height(front));
				pixman_image_unref(dst);
			}
			wl_shm_buffer_end_access(shm);
		}
		wl_callback_send_done(capture->callback, output->frames);
		wl_resource_set_user_data(capture->callback, NULL);
		wl_resource_destroy(capture->callback);
		wl_list_remove(&capture->link);
		wl_list_remove(&capture->buffer_destroy.link);
		free(capture);
	}
}

static void test_capture_output(struct wl_client *client, struct wl_resource *resource,
				struct wl_resource *output_resource,
				struct wl_resource *buffer_resource, uint32_t id)
{
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer_resource);
	struct garnet_capture *capture;
	uint32_t format;

	if (!output) {
		/* The output is gone: answer at once, nothing was copied. */
		struct wl_resource *cb = wl_resource_create(client, &wl_callback_interface, 1, id);

		if (cb) {
			wl_callback_send_done(cb, 0);
			wl_resource_destroy(cb);
		}
		return;
	}
	format = shm ? wl_shm_buffer_get_format(shm) : 0;
	if (!shm || (format != WL_SHM_FORMAT_ARGB8888 && format != WL_SHM_FORMAT_XRGB8888) ||
	    wl_shm_buffer_get_width(shm) != output->mode.width ||
	    wl_shm_buffer_get_height(shm) != output->mode.height) {
		wl_resource_post_error(resource, GARNET_TEST_ERROR_BAD_BUFFER,
				       "capture needs an xrgb/argb8888 shm buffer of %dx%d",
				       output->mode.width, output->mode.height);
		return;
	}
	capture = calloc(1, sizeof(*capture));
	if (!capture) {
		wl_resource_post_no_memory(resource);
		return;
	}
	capture->callback = wl_resource_create(client, &wl_callback_interface, 1, id);
	if (!capture->callback) {
		free(capture);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(capture->callback, NULL, capture,
				       capture_callback_destroyed);
	capture->buffer = buffer_resource;
	capture->buffer_destroy.notify = capture_buffer_destroyed;
	wl_resource_add_destroy_listener(buffer_resource, &capture->buffer_destroy);
	wl_list_insert(output->pending_captures.prev, &capture->link);
	garnet_output_schedule_repaint(output);
}

static void test_query_output(struct wl_client *client, struct wl_resource *resource,
			      struct wl_resource *output_resource)
{
	struct garnet_output *output = garnet_output_from_resource(output_resource);

	if (!output) {
		garnet_test_send_output_stats(resource, 0, 0, 0, 0, 0, 0);
		return;
	}
	garnet_test_send_output_stats(resource, output->frames, output->renders,
				      output->painted_area, output->mode.width,
				      output->mode.height, output->painted_surfaces);
}

static void test_set_repaint(struct wl_client *client, struct wl_resource *resource,
			     struct wl_resource *output_resource, uint32_t render_delay_us,
			     int32_t window_us)
{
	struct garnet_output *output = garnet_output_from_resource(output_resource);

	if (!output)
		return;
	/* A second at most: a test hook, not a way to stop the compositor. */
	output->test_render_delay_us = render_delay_us < 1000000 ? render_delay_us : 1000000;
	output->repaint_clock.fixed_ns = window_us < 0 ? -1 : (int64_t)window_us * 1000;
}

static void test_query_repaint(struct wl_client *client, struct wl_resource *resource,
			       struct wl_resource *output_resource)
{
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	int64_t window = 0, p90 = -1;

	if (output) {
		p90 = garnet_repaint_clock_p90(&output->repaint_clock);
		if (output->mode.refresh_mhz > 0)
			window = garnet_repaint_clock_window(&output->repaint_clock,
							     1000000000000LL /
								     output->mode.refresh_mhz);
	}
	garnet_test_send_repaint_window(resource, (uint32_t)(window / 1000),
					p90 < 0 ? -1 : (int32_t)(p90 / 1000));
}

static void test_text_input_edit(struct wl_client *client, struct wl_resource *resource,
				 const char *preedit, int32_t preedit_begin, int32_t preedit_end,
				 const char *commit, uint32_t delete_before, uint32_t delete_after)
{
	struct garnet_text_edit edit = {
		.preedit = *preedit ? preedit : NULL,
		.preedit_begin = preedit_begin,
		.preedit_end = preedit_end,
		.commit = *commit ? commit : NULL,
		.delete_before = delete_before,
		.delete_after = delete_after,
	};

	garnet_text_input_deliver(wl_resource_get_user_data(resource), &edit);
}

static void test_pointer_gesture(struct wl_client *client, struct wl_resource *resource,
				 uint32_t kind, uint32_t phase, uint32_t fingers, wl_fixed_t dx,
				 wl_fixed_t dy, wl_fixed_t scale, wl_fixed_t rotation,
				 uint32_t cancelled)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_gesture g = {
		.kind = kind,
		.phase = phase,
		.time_msec = garnet_now_msec(c),
		.fingers = fingers,
		.dx = wl_fixed_to_double(dx),
		.dy = wl_fixed_to_double(dy),
		.scale = wl_fixed_to_double(scale),
		.rotation = wl_fixed_to_double(rotation),
		.cancelled = cancelled != 0,
	};

	if (kind > GARNET_GESTURE_HOLD || phase > GARNET_GESTURE_END) {
		wl_resource_post_error(resource, GARNET_TEST_ERROR_BAD_GESTURE,
				       "gesture kind %u or phase %u out of range", kind, phase);
		return;
	}
	garnet_seat_notify_gesture(c->seat, &g);
}

static const struct garnet_test_interface test_impl = {
	.destroy = garnet_resource_destroy_request,
	.move_surface = test_move_surface,
	.activate_surface = test_activate_surface,
	.pointer_motion = test_pointer_motion,
	.pointer_button = test_pointer_button,
	.pointer_axis = test_pointer_axis,
	.pointer_axis_wheel = test_pointer_axis_wheel,
	.pointer_gesture = test_pointer_gesture,
	.key = test_key,
	.touch_down = test_touch_down,
	.touch_motion = test_touch_motion,
	.touch_up = test_touch_up,
	.touch_frame = test_touch_frame,
	.capture_output = test_capture_output,
	.pointer_motion_relative = test_pointer_motion_relative,
	.query_output = test_query_output,
	.text_input_edit = test_text_input_edit,
	.set_repaint = test_set_repaint,
	.query_repaint = test_query_repaint,
};

static void test_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (garnet_global_check_bind(c, client, &garnet_test_interface))
		garnet_resource_create(client, &garnet_test_interface, (int)version, id, &test_impl,
				       c, NULL);
}

bool garnet_test_protocol_init(struct garnet_compositor *c)
{
	c->test_global = garnet_global_create(c, &garnet_test_interface, 6, c, test_bind, true);
	garnet_log(c, GARNET_LOG_INFO, "core", "test mode: garnet_test global exposed");
	return c->test_global != NULL;
}
