// SPDX-License-Identifier: MIT
// The nested backend: each output is an xdg_toplevel of a parent Wayland compositor, painted
// into shm buffers and paced by the parent's frame callbacks; the parent's seat is garnet's input.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/seat.h"
#include "garnet/wayland.h"
#include "xdg-shell-client-protocol.h"

struct nested_backend {
	struct garnet_backend base;
	struct garnet_compositor *compositor;
	struct wl_display *parent;
	struct wl_registry *registry;
	struct wl_compositor *wl_compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard;
	struct wl_event_source *source;
	struct wl_list outputs; /* nested_output.link */
	struct nested_output *pointer_output;
	/* The wheel's 120ths of a click of the frame being received, per axis: they come before
	 * that frame's axis event (axis_value120 from a v8 parent, axis_discrete from older). */
	int32_t value120[2];
};

struct nested_buffer {
	struct wl_buffer *buffer;
	pixman_image_t *image;
	void *data;
	size_t size;
	bool busy; /* the parent may still read it */
	int age;
};

struct nested_output {
	struct garnet_output base;
	struct nested_backend *backend;
	struct wl_list link;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_callback *frame;
	struct nested_buffer buffers[2];
	int front, back;
	bool configured;
	struct wl_event_source *idle_frame;
};

static struct nested_output *nested_output(struct garnet_output *base)
{
	return wl_container_of(base, (struct nested_output *)NULL, base);
}

static void flush(struct nested_backend *b)
{
	if (wl_display_flush(b->parent) < 0 && errno != EAGAIN) {
		garnet_log(b->compositor, GARNET_LOG_ERROR, "wayland",
			   "lost the parent compositor: %s", strerror(errno));
		garnet_compositor_terminate(b->compositor);
	}
}

/* ---- buffers ---- */

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	struct nested_buffer *buffer = data;

	buffer->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static bool buffer_init(struct nested_backend *b, struct nested_buffer *buffer, int32_t w,
			int32_t h)
{
	int32_t stride = w * 4;
	int fd = memfd_create("garnet-nested", MFD_CLOEXEC);
	struct wl_shm_pool *pool;

	buffer->size = (size_t)stride * (size_t)h;
	if (fd < 0 || ftruncate(fd, (off_t)buffer->size) < 0)
		goto err_fd;
	buffer->data = mmap(NULL, buffer->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (buffer->data == MAP_FAILED)
		goto err_fd;
	buffer->image = pixman_image_create_bits(PIXMAN_x8r8g8b8, w, h, buffer->data, stride);
	if (!buffer->image)
		goto err_map;
	pool = wl_shm_create_pool(b->shm, fd, (int32_t)buffer->size);
	buffer->buffer = wl_shm_pool_create_buffer(pool, 0, w, h, stride, WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(buffer->buffer, &buffer_listener, buffer);
	return true;

err_map:
	munmap(buffer->data, buffer->size);
err_fd:
	garnet_log(b->compositor, GARNET_LOG_ERROR, "wayland", "shared memory for %dx%d: %s", w,
		   h, strerror(errno));
	if (fd >= 0)
		close(fd);
	buffer->data = NULL;
	return false;
}

static void buffer_finish(struct nested_buffer *buffer)
{
	if (!buffer->data)
		return;
	wl_buffer_destroy(buffer->buffer);
	pixman_image_unref(buffer->image);
	munmap(buffer->data, buffer->size);
	buffer->data = NULL;
}

/* ---- repaint ---- */

static pixman_image_t *nested_begin_frame(struct garnet_output *base, int *age)
{
	struct nested_output *output = nested_output(base);

	/* The buffer not on screen, unless the parent still holds it: then the other one, which
	 * it has released (it keeps only what it shows). */
	output->back = !output->front;
	if (output->buffers[output->back].busy && !output->buffers[output->front].busy)
		output->back = output->front;
	*age = output->buffers[output->back].age;
	return output->buffers[output->back].image;
}

static void frame_shown(struct nested_output *output)
{
	struct timespec now;

	clock_gettime(output->base.compositor->clock, &now);
	garnet_output_finish_frame(&output->base, &now);
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	struct nested_output *output = data;

	wl_callback_destroy(callback);
	output->frame = NULL;
	frame_shown(output);
}

static const struct wl_callback_listener frame_listener = {frame_done};

static int idle_frame_done(void *data)
{
	frame_shown(data);
	return 0;
}

static void nested_present(struct garnet_output *base, bool painted)
{
	struct nested_output *output = nested_output(base);
	struct nested_buffer *buffer = &output->buffers[output->back];
	int ms;

	if (!painted) {
		ms = base->mode.refresh_mhz > 0 ? (int)(1000000 / base->mode.refresh_mhz) : 16;
		wl_event_source_timer_update(output->idle_frame, ms < 1 ? 1 : ms);
		return;
	}
	for (int i = 0; i < 2; i++) {
		if (output->buffers[i].age > 0)
			output->buffers[i].age++;
	}
	buffer->age = 1;
	buffer->busy = true;
	output->front = output->back;
	wl_surface_attach(output->surface, buffer->buffer, 0, 0);
	wl_surface_damage_buffer(output->surface, 0, 0, INT32_MAX, INT32_MAX);
	output->frame = wl_surface_frame(output->surface);
	wl_callback_add_listener(output->frame, &frame_listener, output);
	wl_surface_commit(output->surface);
	flush(output->backend);
}

static pixman_image_t *nested_front_image(struct garnet_output *base)
{
	struct nested_output *output = nested_output(base);

	return output->buffers[output->front].image;
}

static void nested_output_destroy(struct garnet_output *base)
{
	struct nested_output *output = nested_output(base);

	garnet_output_finish(base);
	wl_list_remove(&output->link);
	if (output->backend->pointer_output == output)
		output->backend->pointer_output = NULL;
	wl_event_source_remove(output->idle_frame);
	if (output->frame)
		wl_callback_destroy(output->frame);
	xdg_toplevel_destroy(output->toplevel);
	xdg_surface_destroy(output->xdg_surface);
	wl_surface_destroy(output->surface);
	for (int i = 0; i < 2; i++)
		buffer_finish(&output->buffers[i]);
	flush(output->backend);
	free(output);
}

/* The same limit as the headless backend's: two buffers of 8K UHD at most. */
#define MAX_MODE_PIXELS (7680 * 4320)

/* A new mode is a new size of the window: garnet sets its window's size (min = max), and the
 * parent shows the next frame at that size. Any size up to the limit, at any nominal
 * refresh: the parent's frame callbacks pace the output whatever the mode says. The buffers
 * the parent may still read are destroyed: it keeps what it took of them (wl_shm) or shows
 * the next frame instead, which is painted whole (age 0). */
static bool nested_set_mode(struct garnet_output *base, const struct garnet_output_mode *mode,
			    bool test)
{
	struct nested_output *output = nested_output(base);
	struct nested_buffer fresh[2] = {0};

	if ((int64_t)mode->width * mode->height > MAX_MODE_PIXELS)
		return false;
	if (test)
		return true;
	for (int i = 0; i < 2; i++) {
		if (!buffer_init(output->backend, &fresh[i], mode->width, mode->height)) {
			buffer_finish(&fresh[0]);
			return false;
		}
	}
	for (int i = 0; i < 2; i++) {
		buffer_finish(&output->buffers[i]);
		output->buffers[i] = fresh[i];
		/* The listener's data is the buffer's address: it moved into the output. */
		wl_buffer_set_user_data(output->buffers[i].buffer, &output->buffers[i]);
	}
	output->front = output->back = 0;
	xdg_toplevel_set_min_size(output->toplevel, mode->width, mode->height);
	xdg_toplevel_set_max_size(output->toplevel, mode->width, mode->height);
	return true;
}

static const struct garnet_output_impl nested_output_impl = {
	.begin_frame = nested_begin_frame,
	.present = nested_present,
	.front_image = nested_front_image,
	.set_mode = nested_set_mode,
	.destroy = nested_output_destroy,
};

/* ---- windows ---- */

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct nested_output *output = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	output->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t w, int32_t h,
			       struct wl_array *states)
{
	/* The window keeps the output's size: its mode changes only through an output
	 * configuration (nested_set_mode), never by the parent's resizing. */
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	struct nested_output *output = data;

	garnet_log(output->base.compositor, GARNET_LOG_INFO, "wayland",
		   "%s: window closed: shutting down", output->base.name);
	garnet_compositor_terminate(output->base.compositor);
}

static const struct xdg_toplevel_listener toplevel_listener = {
	.configure = toplevel_configure,
	.close = toplevel_close,
};

static bool add_output(struct nested_backend *b, const struct garnet_output_mode *mode)
{
	struct nested_output *output = calloc(1, sizeof(*output));
	char name[32], title[64];

	if (!output)
		return false;
	output->backend = b;
	for (int i = 0; i < 2; i++) {
		if (!buffer_init(b, &output->buffers[i], mode->width, mode->height))
			goto err;
	}
	output->idle_frame = wl_event_loop_add_timer(b->compositor->loop, idle_frame_done, output);
	if (!output->idle_frame)
		goto err;
	snprintf(name, sizeof(name), "WL-%u", ++b->compositor->next_output_number);
	snprintf(title, sizeof(title), "garnet - %s", name);
	output->surface = wl_compositor_create_surface(b->wl_compositor);
	wl_surface_set_user_data(output->surface, output);
	output->xdg_surface = xdg_wm_base_get_xdg_surface(b->wm_base, output->surface);
	xdg_surface_add_listener(output->xdg_surface, &xdg_surface_listener, output);
	output->toplevel = xdg_surface_get_toplevel(output->xdg_surface);
	xdg_toplevel_add_listener(output->toplevel, &toplevel_listener, output);
	xdg_toplevel_set_title(output->toplevel, title);
	xdg_toplevel_set_app_id(output->toplevel, "garnet");
	xdg_toplevel_set_min_size(output->toplevel, mode->width, mode->height);
	xdg_toplevel_set_max_size(output->toplevel, mode->width, mode->height);
	wl_surface_commit(output->surface);
	/* No buffer before the first configure is acknowledged. */
	while (!output->configured) {
		if (wl_display_dispatch(b->parent) < 0) {
			garnet_log(b->compositor, GARNET_LOG_ERROR, "wayland",
				   "the parent compositor went away");
			goto err_window;
		}
	}
	wl_list_insert(b->outputs.prev, &output->link);
	garnet_output_init(&output->base, b->compositor, &nested_output_impl, mode, name,
			   "garnet window in a parent Wayland compositor");
	return true;

err_window:
	xdg_toplevel_destroy(output->toplevel);
	xdg_surface_destroy(output->xdg_surface);
	wl_surface_destroy(output->surface);
err:
	if (output->idle_frame)
		wl_event_source_remove(output->idle_frame);
	for (int i = 0; i < 2; i++)
		buffer_finish(&output->buffers[i]);
	free(output);
	return false;
}

/* ---- input from the parent's seat ---- */

static uint32_t now_msec(struct nested_backend *b)
{
	return garnet_now_msec(b->compositor);
}

static void pointer_at(struct nested_backend *b, wl_fixed_t sx, wl_fixed_t sy)
{
	struct nested_output *output = b->pointer_output;

	if (!output)
		return;
	/* Window pixels are output pixels; the layout is in logical units. */
	garnet_seat_notify_motion_absolute(
		b->compositor->seat, now_msec(b),
		output->base.x + wl_fixed_to_double(sx) / output->base.mode.scale,
		output->base.y + wl_fixed_to_double(sy) / output->base.mode.scale);
}

static void pointer_enter(void *data, struct wl_pointer *pointer, uint32_t serial,
			  struct wl_surface *surface, wl_fixed_t sx, wl_fixed_t sy)
{
	struct nested_backend *b = data;
	struct nested_output *output;

	b->pointer_output = NULL;
	wl_list_for_each(output, &b->outputs, link) {
		if (output->surface == surface)
			b->pointer_output = output;
	}
	/* garnet draws clients' cursors itself. */
	wl_pointer_set_cursor(pointer, serial, NULL, 0, 0);
	pointer_at(b, sx, sy);
}

static void pointer_leave(void *data, struct wl_pointer *pointer, uint32_t serial,
			  struct wl_surface *surface)
{
	struct nested_backend *b = data;

	b->pointer_output = NULL;
}

static void pointer_motion(void *data, struct wl_pointer *pointer, uint32_t time, wl_fixed_t sx,
			   wl_fixed_t sy)
{
	pointer_at(data, sx, sy);
}

static void pointer_button(void *data, struct wl_pointer *pointer, uint32_t serial, uint32_t time,
			   uint32_t button, uint32_t state)
{
	struct nested_backend *b = data;

	garnet_seat_notify_button(b->compositor->seat, now_msec(b), button,
				  state == WL_POINTER_BUTTON_STATE_PRESSED);
}

static void pointer_axis(void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis,
			 wl_fixed_t value)
{
	struct nested_backend *b = data;

	if (axis > WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		return;
	/* A wheel's scroll goes on as a wheel's: garnet's clients hear its clicks too. */
	if (b->value120[axis]) {
		garnet_seat_notify_axis_wheel(b->compositor->seat, now_msec(b), axis,
					      wl_fixed_to_double(value), b->value120[axis]);
		b->value120[axis] = 0;
		return;
	}
	garnet_seat_notify_axis(b->compositor->seat, now_msec(b), axis, wl_fixed_to_double(value));
}

/* Every event of the bound version has a handler (libwayland aborts on a NULL one). garnet's
 * seat takes each event as it comes and sends its own frames: a frame ends what a wheel told
 * of it, a source is implied by the wheel's clicks, a stop has no counterpart. */
static void pointer_frame(void *data, struct wl_pointer *pointer)
{
	struct nested_backend *b = data;

	b->value120[0] = b->value120[1] = 0;
}

static void pointer_axis_source(void *data, struct wl_pointer *pointer, uint32_t source)
{
}

static void pointer_axis_stop(void *data, struct wl_pointer *pointer, uint32_t time,
			      uint32_t axis)
{
}

static void pointer_axis_discrete(void *data, struct wl_pointer *pointer, uint32_t axis,
				  int32_t discrete)
{
	struct nested_backend *b = data;

	if (axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		b->value120[axis] = discrete * 120;
}

static void pointer_axis_value120(void *data, struct wl_pointer *pointer, uint32_t axis,
				  int32_t value120)
{
	struct nested_backend *b = data;

	if (axis <= WL_POINTER_AXIS_HORIZONTAL_SCROLL)
		b->value120[axis] = value120;
}

static const struct wl_pointer_listener pointer_listener = {
	.enter = pointer_enter,
	.leave = pointer_leave,
	.motion = pointer_motion,
	.button = pointer_button,
	.axis = pointer_axis,
	.frame = pointer_frame,
	.axis_source = pointer_axis_source,
	.axis_stop = pointer_axis_stop,
	.axis_discrete = pointer_axis_discrete,
	.axis_value120 = pointer_axis_value120,
};

static void keyboard_keymap(void *data, struct wl_keyboard *keyboard, uint32_t format, int32_t fd,
			    uint32_t size)
{
	/* garnet uses its own keymap ([keyboard] in garnet.ini) on the parent's key codes. */
	close(fd);
}

static void keyboard_enter(void *data, struct wl_keyboard *keyboard, uint32_t serial,
			   struct wl_surface *surface, struct wl_array *keys)
{
}

static void release_all_keys(struct nested_backend *b)
{
	struct garnet_seat *seat = b->compositor->seat;
	uint32_t held[64];
	size_t n = 0;
	uint32_t *k;

	/* Keys held when the window lost the keyboard would otherwise stay down for ever. */
	wl_array_for_each(k, &seat->keys) {
		if (n < GARNET_ARRAY_LENGTH(held))
			held[n++] = *k;
	}
	for (size_t i = 0; i < n; i++)
		garnet_seat_notify_key(seat, now_msec(b), held[i], false);
}

static void keyboard_leave(void *data, struct wl_keyboard *keyboard, uint32_t serial,
			   struct wl_surface *surface)
{
	release_all_keys(data);
}

static void keyboard_key(void *data, struct wl_keyboard *keyboard, uint32_t serial, uint32_t time,
			 uint32_t key, uint32_t state)
{
	struct nested_backend *b = data;

	garnet_seat_notify_key(b->compositor->seat, now_msec(b), key,
			       state == WL_KEYBOARD_KEY_STATE_PRESSED);
}

static void keyboard_modifiers(void *data, struct wl_keyboard *keyboard, uint32_t serial,
			       uint32_t depressed, uint32_t latched, uint32_t locked,
			       uint32_t group)
{
}

static void keyboard_repeat_info(void *data, struct wl_keyboard *keyboard, int32_t rate,
				 int32_t delay)
{
}

static const struct wl_keyboard_listener keyboard_listener = {
	.keymap = keyboard_keymap,
	.enter = keyboard_enter,
	.leave = keyboard_leave,
	.key = keyboard_key,
	.modifiers = keyboard_modifiers,
	.repeat_info = keyboard_repeat_info,
};

static void seat_capabilities(void *data, struct wl_seat *seat, uint32_t caps)
{
	struct nested_backend *b = data;

	if ((caps & WL_SEAT_CAPABILITY_POINTER) && !b->pointer) {
		b->pointer = wl_seat_get_pointer(seat);
		wl_pointer_add_listener(b->pointer, &pointer_listener, b);
	} else if (!(caps & WL_SEAT_CAPABILITY_POINTER) && b->pointer) {
		wl_pointer_destroy(b->pointer);
		b->pointer = NULL;
		b->pointer_output = NULL;
	}
	if ((caps & WL_SEAT_CAPABILITY_KEYBOARD) && !b->keyboard) {
		b->keyboard = wl_seat_get_keyboard(seat);
		wl_keyboard_add_listener(b->keyboard, &keyboard_listener, b);
	} else if (!(caps & WL_SEAT_CAPABILITY_KEYBOARD) && b->keyboard) {
		release_all_keys(b);
		wl_keyboard_destroy(b->keyboard);
		b->keyboard = NULL;
	}
}

static void seat_name(void *data, struct wl_seat *seat, const char *name)
{
}

static const struct wl_seat_listener seat_listener = {seat_capabilities, seat_name};

/* ---- the connection ---- */

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct nested_backend *b = data;

	if (strcmp(interface, "wl_compositor") == 0 && !b->wl_compositor) {
		b->wl_compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, "wl_shm") == 0 && !b->shm) {
		b->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, "xdg_wm_base") == 0 && !b->wm_base) {
		b->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(b->wm_base, &wm_base_listener, b);
	} else if (strcmp(interface, "wl_seat") == 0 && !b->seat) {
		b->seat = wl_registry_bind(registry, name, &wl_seat_interface,
					   version < 8 ? version : 8);
		wl_seat_add_listener(b->seat, &seat_listener, b);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							       registry_global_remove};

static int parent_readable(int fd, uint32_t mask, void *data)
{
	struct nested_backend *b = data;

	if ((mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) || wl_display_dispatch(b->parent) < 0) {
		garnet_log(b->compositor, GARNET_LOG_ERROR, "wayland",
			   "the parent compositor went away: shutting down");
		wl_event_source_remove(b->source);
		b->source = NULL;
		garnet_compositor_terminate(b->compositor);
		return 0;
	}
	flush(b);
	return 0;
}

static void nested_backend_destroy(struct garnet_backend *base)
{
	struct nested_backend *b = wl_container_of(base, b, base);
	struct nested_output *output, *tmp;

	wl_list_for_each_safe(output, tmp, &b->outputs, link)
		garnet_output_destroy(&output->base);
	if (b->source)
		wl_event_source_remove(b->source);
	if (b->pointer)
		wl_pointer_destroy(b->pointer);
	if (b->keyboard)
		wl_keyboard_destroy(b->keyboard);
	if (b->seat)
		wl_seat_destroy(b->seat);
	if (b->wm_base)
		xdg_wm_base_destroy(b->wm_base);
	if (b->shm)
		wl_shm_destroy(b->shm);
	if (b->wl_compositor)
		wl_compositor_destroy(b->wl_compositor);
	if (b->registry)
		wl_registry_destroy(b->registry);
	wl_display_disconnect(b->parent);
	free(b);
}

bool garnet_wayland_backend_create(struct garnet_compositor *c, const char *parent_display,
				   const struct garnet_output_mode *modes, int count)
{
	struct nested_backend *b = calloc(1, sizeof(*b));

	if (!b)
		return false;
	b->compositor = c;
	b->base.destroy = nested_backend_destroy;
	wl_list_init(&b->outputs);
	if (!parent_display)
		parent_display = getenv("WAYLAND_DISPLAY");
	if (!parent_display || !*parent_display) {
		garnet_log(c, GARNET_LOG_ERROR, "wayland",
			   "cannot connect to the parent compositor: WAYLAND_DISPLAY is not set");
		free(b);
		return false;
	}
	/* libwayland would find garnet's own socket and wait for itself for ever. */
	if (garnet_compositor_get_socket(c) &&
	    strcmp(parent_display, garnet_compositor_get_socket(c)) == 0) {
		garnet_log(c, GARNET_LOG_ERROR, "wayland",
			   "cannot connect to the parent compositor %s: that is garnet's own socket",
			   parent_display);
		free(b);
		return false;
	}
	b->parent = wl_display_connect(parent_display);
	if (!b->parent) {
		garnet_log(c, GARNET_LOG_ERROR, "wayland",
			   "cannot connect to the parent compositor %s: %s", parent_display,
			   strerror(errno));
		free(b);
		return false;
	}
	b->registry = wl_display_get_registry(b->parent);
	wl_registry_add_listener(b->registry, &registry_listener, b);
	if (wl_display_roundtrip(b->parent) < 0 || wl_display_roundtrip(b->parent) < 0)
		goto err;
	if (!b->wl_compositor || !b->shm || !b->wm_base) {
		garnet_log(c, GARNET_LOG_ERROR, "wayland",
			   "the parent compositor lacks wl_compositor, wl_shm or xdg_wm_base");
		goto err;
	}
	for (int i = 0; i < count; i++) {
		if (!add_output(b, &modes[i]))
			goto err;
	}
	b->source = wl_event_loop_add_fd(c->loop, wl_display_get_fd(b->parent), WL_EVENT_READABLE,
					 parent_readable, b);
	if (!b->source)
		goto err;
	/* Events that came with the roundtrips are queued already. */
	wl_display_dispatch_pending(b->parent);
	flush(b);
	wl_list_insert(&c->backends, &b->base.link);
	return true;

err:
	nested_backend_destroy(&b->base);
	return false;
}
