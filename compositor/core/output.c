// SPDX-License-Identifier: MIT
// Outputs: wl_output, the repaint loop (repaint window, frame events, idle when unchanged).
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "transform.h"
#include "view.h"
#include "seat.h"
#include "buffer.h"
#include "../render/damage-ring.h"
#include "../render/renderer.h"
#include "shell-hooks.h"

void garnet_output_send_info(struct garnet_output *output, struct wl_resource *resource)
{
	int version = wl_resource_get_version(resource);
	int32_t mode_w = output->mode.width, mode_h = output->mode.height;

	wl_output_send_geometry(resource, output->x, output->y, 0, 0,
				WL_OUTPUT_SUBPIXEL_UNKNOWN, "garnet", output->name,
				output->mode.transform);
	wl_output_send_mode(resource, WL_OUTPUT_MODE_CURRENT | WL_OUTPUT_MODE_PREFERRED, mode_w,
			    mode_h, output->mode.refresh_mhz);
	if (version >= WL_OUTPUT_SCALE_SINCE_VERSION)
		wl_output_send_scale(resource, output->mode.scale);
	if (version >= WL_OUTPUT_NAME_SINCE_VERSION)
		wl_output_send_name(resource, output->name);
	if (version >= WL_OUTPUT_DESCRIPTION_SINCE_VERSION)
		wl_output_send_description(resource, output->description);
	if (version >= WL_OUTPUT_DONE_SINCE_VERSION)
		wl_output_send_done(resource);
}

static const struct wl_output_interface output_impl = {
	.release = garnet_resource_destroy_request,
};

static void output_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_output *output = data;
	struct wl_resource *resource = wl_resource_create(client, &wl_output_interface, version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &output_impl, output, garnet_resource_unlink);
	wl_list_insert(&output->resources, wl_resource_get_link(resource));
	garnet_output_send_info(output, resource);
	if (output->compositor->protocol_hooks.output_bound)
		output->compositor->protocol_hooks.output_bound(output, resource);
}

struct garnet_output *garnet_output_from_resource(struct wl_resource *resource)
{
	if (!wl_resource_instance_of(resource, &wl_output_interface, &output_impl))
		return NULL;
	return wl_resource_get_user_data(resource);
}

struct wl_resource *garnet_output_resource_for_client(struct garnet_output *output,
						      struct wl_client *client)
{
	struct wl_resource *resource;

	wl_resource_for_each(resource, &output->resources) {
		if (wl_resource_get_client(resource) == client)
			return resource;
	}
	return NULL;
}

void garnet_output_matrix(struct garnet_output *output, struct pixman_f_transform *m)
{
	struct pixman_f_transform step;
	int32_t s = output->mode.scale;

	pixman_f_transform_init_translate(m, -output->x, -output->y);
	pixman_f_transform_init_scale(&step, s, s);
	pixman_f_transform_multiply(m, &step, m);
	garnet_transform_matrix(&step, output->mode.transform, output->width * s,
				output->height * s);
	pixman_f_transform_multiply(m, &step, m);
}

static void output_place(struct garnet_output *output)
{
	struct garnet_compositor *c = output->compositor;
	struct garnet_output *other;
	int32_t right = 0;

	wl_list_for_each(other, &c->outputs, link) {
		if (other != output && other->x + other->width > right)
			right = other->x + other->width;
	}
	output->x = right;
	output->y = 0;
}

void garnet_output_update_logical_size(struct garnet_output *output)
{
	int32_t w = output->mode.width, h = output->mode.height;

	if (garnet_transform_swaps_axes(output->mode.transform)) {
		w = output->mode.height;
		h = output->mode.width;
	}
	output->width = w / output->mode.scale;
	output->height = h / output->mode.scale;
}

bool garnet_output_init(struct garnet_output *output, struct garnet_compositor *c,
			const struct garnet_output_impl *impl, const struct garnet_output_mode *mode,
			const char *name, const char *description)
{
	uint32_t index = 0;

	while (index < 32 && (c->output_indices & (1u << index)))
		index++;
	if (index == 32) {
		garnet_log(c, GARNET_LOG_ERROR, "output", "no room for output %s (32 at most)",
			   name);
		return false;
	}
	c->output_indices |= 1u << index;
	output->index = index;
	output->compositor = c;
	output->impl = impl;
	output->mode = *mode;
	if (output->mode.scale < 1)
		output->mode.scale = 1;
	output->name = strdup(name);
	output->description = strdup(description);
	wl_list_init(&output->resources);
	wl_list_init(&output->pending_captures);
	wl_list_init(&output->frame_callbacks);
	wl_list_init(&output->feedbacks);
	wl_signal_init(&output->events.destroy);
	wl_signal_init(&output->events.gone);
	wl_signal_init(&output->events.frame);
	wl_signal_init(&output->events.power);
	wl_signal_init(&output->events.change);
	pixman_region32_init(&output->damage);
	pixman_region32_init(&output->shown_damage);
	garnet_damage_ring_init(&output->ring);
	garnet_repaint_clock_init(&output->repaint_clock,
				  c->options.repaint_window_ms < 0
					  ? -1
					  : (int64_t)c->options.repaint_window_ms * 1000000);
	garnet_output_update_logical_size(output);
	output_place(output);
	wl_list_insert(c->outputs.prev, &output->link);
	output->global = wl_global_create(c->display, &wl_output_interface, 4, output, output_bind);
	clock_gettime(c->clock, &output->last_present);
	garnet_output_damage_whole(output);
	garnet_log(c, GARNET_LOG_INFO, "output", "%s: %dx%d scale %d transform %d refresh %d mHz",
		   name, mode->width, mode->height, output->mode.scale, mode->transform,
		   mode->refresh_mhz);
	if (c->protocol_hooks.output_changed)
		c->protocol_hooks.output_changed(output);
	return true;
}

static bool leave_output(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct garnet_output *output = data;
	struct wl_resource *resource;

	if (!(surface->output_mask & (1u << output->index)))
		return true;
	surface->output_mask &= ~(1u << output->index);
	wl_resource_for_each(resource, &output->resources) {
		if (wl_resource_get_client(resource) == wl_resource_get_client(surface->resource))
			wl_surface_send_leave(surface->resource, resource);
	}
	return true;
}

void garnet_output_leave_layout(struct garnet_output *output)
{
	struct wl_resource *resource, *tmp;
	struct garnet_capture *capture, *tmp_capture;

	struct garnet_compositor *c = output->compositor;
	struct garnet_seat *seat = c->seat;
	struct garnet_surface *images[GARNET_POINTER_IMAGES];
	size_t image_count;

	wl_signal_emit_mutable(&output->events.destroy, output);
	garnet_scene_for_each_surface(c, leave_output, output);
	image_count = garnet_seat_pointer_images(seat, images);
	for (size_t i = 0; i < image_count; i++)
		leave_output(images[i], 0, 0, output);
	wl_list_remove(&output->link);
	wl_list_init(&output->link);
	if (c->shell)
		c->shell_hooks->output_removed(c->shell);
	/* What waited for this output's frame will not see it. */
	wl_resource_for_each_safe(resource, tmp, &output->frame_callbacks)
		wl_resource_destroy(resource);
	garnet_surface_discard_feedback(&output->feedbacks);
	/* The callback's destroy handler unlinks and frees the capture. */
	wl_list_for_each_safe(capture, tmp_capture, &output->pending_captures, link)
		wl_resource_destroy(capture->callback);
	/* The clients still own their wl_output objects. */
	garnet_resources_make_inert(&output->resources);
	if (output->global)
		wl_global_destroy(output->global);
	output->global = NULL;
	if (output->repaint_timer)
		wl_event_source_remove(output->repaint_timer);
	output->repaint_timer = NULL;
	if (output->repaint_idle)
		wl_event_source_remove(output->repaint_idle);
	output->repaint_idle = NULL;
	output->repaint_state = GARNET_REPAINT_IDLE;
	output->repaint_needed = false;
	/* Its frame may have been the one releases waited for. */
	garnet_buffer_send_pending_releases(output->compositor);
}

void garnet_output_join_layout(struct garnet_output *output)
{
	struct garnet_compositor *c = output->compositor;

	wl_list_insert(c->outputs.prev, &output->link);
	output->global = wl_global_create(c->display, &wl_output_interface, 4, output, output_bind);
	clock_gettime(c->clock, &output->last_present);
	garnet_output_damage_whole(output);
}

void garnet_output_finish(struct garnet_output *output)
{
	/* A disabled output left the layout when it was disabled. */
	if (!output->disabled)
		garnet_output_leave_layout(output);
	wl_signal_emit_mutable(&output->events.gone, output);
	output->compositor->output_indices &= ~(1u << output->index);
	pixman_region32_fini(&output->damage);
	pixman_region32_fini(&output->shown_damage);
	garnet_damage_ring_finish(&output->ring);
	free(output->name);
	free(output->description);
}

void garnet_output_destroy(struct garnet_output *output)
{
	if (output)
		output->impl->destroy(output);
}

const char *garnet_output_get_name(struct garnet_output *output)
{
	return output->name;
}

bool garnet_output_repaint_pending(struct garnet_output *output)
{
	return output->repaint_needed;
}

struct wl_signal *garnet_output_get_frame_signal(struct garnet_output *output)
{
	return &output->events.frame;
}

static void output_box(struct garnet_output *output, pixman_box32_t *box)
{
	*box = (pixman_box32_t){output->x, output->y, output->x + output->width,
				output->y + output->height};
}

bool garnet_compositor_cursor_on_planes(struct garnet_compositor *c)
{
	struct garnet_output *output;

	wl_list_for_each(output, &c->outputs, link) {
		if (!output->cursor_on_plane)
			return false;
	}
	return !wl_list_empty(&c->outputs);
}

void garnet_compositor_cursor_moved(struct garnet_compositor *c)
{
	struct garnet_output *output;

	wl_list_for_each(output, &c->outputs, link) {
		output->cursor_moved = true;
		garnet_output_schedule_repaint(output);
	}
}

void garnet_output_damage_whole(struct garnet_output *output)
{
	pixman_box32_t box;

	output_box(output, &box);
	pixman_region32_union_rect(&output->damage, &output->damage, box.x1, box.y1,
				   output->width, output->height);
	garnet_output_schedule_repaint(output);
}

void garnet_compositor_damage_region(struct garnet_compositor *c, const pixman_region32_t *r)
{
	struct garnet_output *output;
	pixman_region32_t part;

	pixman_region32_init(&part);
	wl_list_for_each(output, &c->outputs, link) {
		pixman_region32_intersect_rect(&part, (pixman_region32_t *)r, output->x, output->y,
					       output->width, output->height);
		if (!pixman_region32_not_empty(&part))
			continue;
		pixman_region32_union(&output->damage, &output->damage, &part);
		garnet_output_schedule_repaint(output);
	}
	pixman_region32_fini(&part);
}

void garnet_compositor_damage_box(struct garnet_compositor *c, const pixman_box32_t *box)
{
	pixman_region32_t r;

	if (box->x2 <= box->x1 || box->y2 <= box->y1)
		return;
	pixman_region32_init_rect(&r, box->x1, box->y1, box->x2 - box->x1, box->y2 - box->y1);
	garnet_compositor_damage_region(c, &r);
	pixman_region32_fini(&r);
}

void garnet_compositor_schedule_repaint(struct garnet_compositor *c)
{
	struct garnet_output *output;

	wl_list_for_each(output, &c->outputs, link)
		garnet_output_schedule_repaint(output);
}

/* The pointer's image as a cursor plane can show it: one buffer, unscaled and unturned, on an
 * output that is neither. *image is NULL when nothing is to be shown. False when the image needs
 * the renderer (a drag icon, subsurfaces, a viewport, a scale or a transform). */
static bool cursor_for_plane(struct garnet_output *output, struct garnet_surface **surface,
			     pixman_image_t **image, int32_t *x, int32_t *y)
{
	struct garnet_seat *seat = output->compositor->seat;
	struct garnet_surface *s = seat ? seat->cursor : NULL;
	pixman_box32_t box;
	int32_t width, height;
	bool garnets;

	*image = NULL;
	*surface = NULL;
	if (!seat)
		return true;
	/* Over the consent dialog and the lock only garnet's arrow (garnet_seat_pointer_images). */
	garnets = garnet_seat_pointer_is_garnets(seat);
	if (garnets)
		s = NULL;
	if ((seat->drag_icon && !garnets) || output->mode.scale != 1 ||
	    output->mode.transform != WL_OUTPUT_TRANSFORM_NORMAL)
		return false;
	if (s) {
		if (!s->content || !garnet_surface_position(s, x, y))
			return true;
		if (!wl_list_empty(&s->children) || s->width != s->buffer_width ||
		    s->height != s->buffer_height)
			return false;
		/* Read (copied onto the plane) between begin and end, by the caller. */
		*surface = s;
	} else if (garnet_seat_builtin_cursor_box(seat, &box)) {
		*image = output->compositor->builtin_cursor;
		*x = box.x1;
		*y = box.y1;
	} else {
		return true;
	}
	*x -= output->x;
	*y -= output->y;
	width = *surface ? (*surface)->buffer_width : pixman_image_get_width(*image);
	height = *surface ? (*surface)->buffer_height : pixman_image_get_height(*image);
	if (*x >= output->width || *y >= output->height || *x + width <= 0 || *y + height <= 0) {
		*image = NULL; /* on another output */
		*surface = NULL;
	}
	return true;
}

/* Puts the pointer image on the backend's cursor plane when it can take it; a change between
 * plane and renderer repaints the whole output (frame_damage grows to all of it). */
static void update_cursor_plane(struct garnet_output *output, pixman_region32_t *frame_damage)
{
	struct garnet_surface *surface;
	pixman_image_t *image;
	int32_t x = 0, y = 0;
	bool on_plane = false;

	if (!output->impl->show_cursor)
		return;
	if (cursor_for_plane(output, &surface, &image, &x, &y)) {
		if (surface)
			image = garnet_surface_begin_read(surface);
		/* An unreadable cursor buffer shows no cursor, as it would on the renderer. */
		on_plane = output->impl->show_cursor(output, image, x, y);
		if (surface)
			garnet_surface_end_read(surface);
	}
	if (!on_plane && output->cursor_on_plane)
		output->impl->show_cursor(output, NULL, 0, 0);
	if (on_plane != output->cursor_on_plane)
		pixman_region32_union_rect(frame_damage, frame_damage, 0, 0, output->mode.width,
					   output->mode.height);
	output->cursor_on_plane = on_plane;
}

/* A frame that is one client buffer, unscaled and opaque, is shown as it is, by a backend
 * that can (direct scanout): nothing is painted, and the buffer is the client's until the
 * display has moved on from it. */
static bool try_scanout(struct garnet_output *output)
{
	struct garnet_scanout_buffer buffer;
	struct garnet_surface *surface;
	struct garnet_content *hold;
	bool shown;

	surface = output->impl->scanout ? garnet_render_sole_surface(output) : NULL;
	shown = surface && garnet_surface_scanout_info(surface, &buffer);
	if (shown) {
		hold = garnet_surface_hold_content(surface);
		shown = output->impl->scanout(output, &buffer, hold);
		if (!shown)
			garnet_content_drop_hold(hold);
	}
	if (shown != output->scanning_out)
		garnet_log(output->compositor, GARNET_LOG_INFO, "output", "%s: %s", output->name,
			   shown ? "direct scanout of a client's buffer" : "composited again");
	output->scanning_out = shown;
	output->scanouts += shown;
	return shown;
}

static int64_t timespec_to_nsec(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void output_repaint(struct garnet_output *output)
{
	struct garnet_compositor *c = output->compositor;
	pixman_region32_t frame_damage, buffer_damage;
	struct pixman_f_transform m;
	pixman_box32_t whole = {0, 0, output->mode.width, output->mode.height};
	pixman_image_t *image;
	bool painted = false, scanned_out = false;
	int age = 0;
	struct timespec start, end;
	int64_t start_ns;

	if (output->power_off || output->disabled) {
		/* Dark: nothing is painted; powering on repaints the whole output. No frame
		 * comes from it either, for buffers to be released with. */
		output->repaint_state = GARNET_REPAINT_IDLE;
		garnet_buffer_send_pending_releases(c);
		return;
	}
	clock_gettime(c->clock, &start);
	output->repaint_needed = false;
	output->repaint_state = GARNET_REPAINT_PENDING;
	pixman_region32_init(&frame_damage);
	pixman_region32_init(&buffer_damage);
	garnet_output_matrix(output, &m);
	garnet_region_transform(&frame_damage, &output->damage, &m);
	pixman_region32_intersect_rect(&frame_damage, &frame_damage, 0, 0, output->mode.width,
				       output->mode.height);
	pixman_region32_clear(&output->damage);
	garnet_output_take_frame_events(output);

	if (pixman_region32_not_empty(&frame_damage) || output->cursor_moved)
		update_cursor_plane(output, &frame_damage);
	pixman_region32_copy(&output->shown_damage, &frame_damage);
	/* Only the plane moved: the frame on screen stays, the backend shows it again with the
	 * plane where the pointer is now. */
	output->cursor_only = output->cursor_moved && !pixman_region32_not_empty(&frame_damage);
	output->cursor_moved = false;
	if (pixman_region32_not_empty(&frame_damage) && try_scanout(output)) {
		scanned_out = true;
	} else if (pixman_region32_not_empty(&frame_damage)) {
		image = output->impl->begin_frame(output, &age);
		garnet_damage_ring_get_buffer_damage(&output->ring, age, &frame_damage, &whole,
						     &buffer_damage);
		output->painted_area = garnet_render_output(output, image, &buffer_damage);
		garnet_damage_ring_rotate(&output->ring, &frame_damage);
		output->renders++;
		painted = true;
		if (output->test_render_delay_us)
			usleep(output->test_render_delay_us);
	}
	pixman_region32_fini(&frame_damage);
	pixman_region32_fini(&buffer_damage);
	garnet_log(c, GARNET_LOG_DEBUG, "output", "%s: repaint (%s)", output->name,
		   scanned_out	       ? "scanned out"
		   : painted	       ? "painted"
		   : output->cursor_only ? "cursor only"
					 : "nothing damaged");
	output->impl->present(output, painted || scanned_out);
	/* Composite and submit, from when the timer was due: what the repaint window must leave
	 * room for, the loop's lateness in answering the timer (a busy machine) included. Frames
	 * that painted nothing (the cursor plane moved) cost next to nothing and are not what it
	 * is for. */
	start_ns = timespec_to_nsec(&start);
	if (output->repaint_due_ns && output->repaint_due_ns < start_ns)
		start_ns = output->repaint_due_ns;
	output->repaint_due_ns = 0;
	if (painted) {
		clock_gettime(c->clock, &end);
		garnet_repaint_clock_record(&output->repaint_clock,
					    timespec_to_nsec(&end) - start_ns);
	}
}

static int repaint_timer_fired(void *data)
{
	output_repaint(data);
	return 0;
}

static void repaint_idle_fired(void *data)
{
	struct garnet_output *output = data;

	output->repaint_idle = NULL;
	output_repaint(output);
}

void garnet_output_schedule_repaint(struct garnet_output *output)
{
	struct garnet_compositor *c = output->compositor;
	struct timespec now;
	int64_t period, next, delay_ms, window;

	/* Disabled: out of the layout, nothing to paint until enabled (a whole repaint then). */
	if (output->disabled)
		return;
	output->repaint_needed = true;
	if (output->repaint_state != GARNET_REPAINT_IDLE)
		return;
	output->repaint_state = GARNET_REPAINT_SCHEDULED;
	if (output->mode.refresh_mhz <= 0) {
		/* No vblank to wait for: paint once the loop has handled what is queued. */
		output->repaint_idle = wl_event_loop_add_idle(c->loop, repaint_idle_fired, output);
		return;
	}
	/* Paint late: at the repaint window before the next vblank, so clients' commits that
	 * arrive meanwhile still make this frame; the window is what recent frames took. */
	clock_gettime(c->clock, &now);
	period = 1000000000000LL / output->mode.refresh_mhz;
	next = timespec_to_nsec(&output->last_present) + period;
	if (next < timespec_to_nsec(&now))
		next += ((timespec_to_nsec(&now) - next) / period + 1) * period;
	window = garnet_repaint_clock_window(&output->repaint_clock, period);
	/* Rounded down: the timer's step is a millisecond, and early is safe where late is not. */
	delay_ms = (next - window - timespec_to_nsec(&now)) / 1000000;
	if (!output->repaint_timer)
		output->repaint_timer =
			wl_event_loop_add_timer(c->loop, repaint_timer_fired, output);
	if (delay_ms < 1) {
		/* wl_event_source_timer_update(0) disarms; 1 ms is the soonest. */
		delay_ms = 1;
	}
	output->repaint_due_ns = timespec_to_nsec(&now) + delay_ms * 1000000;
	wl_event_source_timer_update(output->repaint_timer, (int)delay_ms);
}

void garnet_output_finish_frame(struct garnet_output *output, const struct timespec *when)
{
	output->last_present = *when;
	output->msc++;
	output->frames++;
	output->repaint_state = GARNET_REPAINT_IDLE;
	/* Before the frame events: a client hears its buffer is free, then to draw. */
	garnet_buffer_send_pending_releases(output->compositor);
	/* The last frame before it was disabled: nobody waits for it any more. */
	if (output->disabled)
		return;
	garnet_output_send_frame_events(output, when);
	if (output->compositor->protocol_hooks.frame_shown)
		output->compositor->protocol_hooks.frame_shown(output);
	wl_signal_emit_mutable(&output->events.frame, output);
	wl_signal_emit_mutable(&output->compositor->events.output_frame, output);
	if (output->repaint_needed)
		garnet_output_schedule_repaint(output);
}

void garnet_output_center_box(struct garnet_output *o, int32_t width, int32_t height,
			      pixman_box32_t *box)
{
	box->x1 = o->x + (o->width - width) / 2;
	box->y1 = o->y + (o->height - height) / 2;
	box->x2 = box->x1 + width;
	box->y2 = box->y1 + height;
}

void garnet_output_usable_box(struct garnet_output *o, pixman_box32_t *box)
{
	/* layer-shell keeps the reserved edges within the output, so the box is never empty. */
	box->x1 = o->x + o->reserved.left;
	box->y1 = o->y + o->reserved.top;
	box->x2 = o->x + o->width - o->reserved.right;
	box->y2 = o->y + o->height - o->reserved.bottom;
	if (box->x2 <= box->x1 || box->y2 <= box->y1)
		*box = (pixman_box32_t){o->x, o->y, o->x + o->width, o->y + o->height};
}
