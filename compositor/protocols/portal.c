// SPDX-License-Identifier: MIT
// garnet_portal_v1: screen casts and screenshots the desktop portal's backend asks for on an
// application's behalf. The application is the subject of the decision (the capture_for_app
// hook), the user answers in garnet's consent dialog, garnet picks the output; while any cast
// runs garnet draws an indicator over everything, the stop binding ends every cast, and a
// locked session pauses them all (no frame of the lock screen is ever copied).
#include <stdio.h>
#include <stdlib.h>
#include <sys/param.h>
#include <string.h>
#include <time.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/subsurface.h"
#include "../render/renderer.h"
#include "../core/region.h"
#include "../core/transform.h"
#include "../core/cast-indicator.h"
#include "../core/consent.h"
#include "../render/cast-list.h"
#include "portal.h"
#include "portal-pointer.h"
#include "portal-target.h"
#include "xdg-shell.h"
#include "garnet-portal-v1-server-protocol.h"

struct portal {
	struct garnet_compositor *compositor;
	struct wl_list captures; /* portal_capture.link: granted screencasts */
	bool paused; /* the session was locked when the casts last heard */
	struct wl_listener compositor_destroy, lock_changed;
};

enum capture_state {
	CAPTURE_ASKING,
	CAPTURE_GRANTED,
	CAPTURE_REFUSED,
	CAPTURE_STOPPED, /* by the user, its output going, or the lock of a screenshot */
};

/* More changed boxes than this in one frame are sent as the box around them. */
#define MAX_DAMAGE_BOXES 16
/* A window cast's frames are at most this wide and high (a window may claim any size). */
#define MAX_WINDOW_SIZE 8192
/* At most one resized event this often: a window changing size at every commit does not make
 * the backend (and every consumer) renegotiate its stream at every commit. */
#define RESIZE_INTERVAL_MS 250

struct portal_capture {
	struct wl_resource *resource;
	struct portal *portal;
	bool stream;
	enum capture_state state;
	char *output_name;
	char who[512]; /* the application as garnet verified it */
	char *app_id; /* as the portal claimed it */
	uint32_t pid;
	char *shown_as; /* "who: what", the line in the list of who records */
	int32_t width, height;
	/* The size before the last resized event (version 3): a copy into a buffer of that
	 * size crossed the event, and is answered failed. */
	int32_t old_width, old_height;
	/* When the last resized went; a size that changed sooner waits for the timer. */
	uint32_t resized_msec;
	bool resized_once;
	struct wl_event_source *resize_timer;
	/* A part of the output the user dragged out (the output's coordinates); empty: all. */
	pixman_box32_t region;
	struct garnet_consent_request *asking;
	/* Granted in the dialog: the first copy waits for a frame painted after the dialog
	 * went, and the next question waits for that copy. */
	bool holding;
	uint32_t renders_at_grant;
	bool copied; /* a copy was made: later ones wait for the output to change */
	struct wl_resource *buffer; /* the copy waiting for a frame, or NULL */
	struct wl_listener output_frame, buffer_destroy;
	struct wl_listener hold_frame; /* lets the hold go at the first frame without the dialog */
	struct wl_listener output_destroy; /* the granted output unplugged: the cast stops */
	/* A window cast: that window's surface tree alone, at its size at grant, a frame at each
	 * of its commits; it stops when the window goes. */
	struct garnet_surface *window;
	struct wl_listener window_destroy, window_commit;
	/* The window (or the output without the pointer, or with a pointer that is on a cursor
	 * plane) drawn by garnet, before it is copied out. */
	pixman_image_t *own_image;
	uint32_t copy_flags; /* of the waiting copy */
	/* The pointer beside the picture (pointer_metadata copies): what the backend was told,
	 * and, for a window's cast, any output's frame, at which a waiting copy is made when
	 * only the pointer changed. */
	struct cast_pointer pointer;
	struct wl_listener pointer_frame;
	struct wl_list link; /* portal.captures, or itself */
};

static bool portal_recording(struct portal *p)
{
	return !wl_list_empty(&p->captures);
}

/* The indicator lists every running cast; false when it could not be drawn (logged). */
static bool show_casts(struct portal *p)
{
	const char *lines[GARNET_CAST_LIST_LINES];
	struct portal_capture *cap;
	size_t count = 0;

	wl_list_for_each (cap, &p->captures, link) {
		if (count < GARNET_CAST_LIST_LINES)
			lines[count] = cap->shown_as;
		count++;
	}
	return garnet_cast_indicator_set(p->compositor, lines, count);
}

/* cap is recording now, listed by the indicator; false (and not listed) when the user could
 * not be shown that. */
static bool start_recording(struct portal_capture *cap, const char *what)
{
	struct portal *p = cap->portal;
	char line[640];

	snprintf(line, sizeof(line), "%s: %s", cap->who, what);
	free(cap->shown_as);
	cap->shown_as = strdup(line);
	if (!cap->shown_as)
		return false;
	wl_list_insert(&p->captures, &cap->link);
	if (show_casts(p)) {
		garnet_log(p->compositor, GARNET_LOG_INFO, "portal", "recording now: %s", line);
		return true;
	}
	wl_list_remove(&cap->link);
	wl_list_init(&cap->link);
	show_casts(p);
	return false;
}

static void release_hold(struct portal_capture *cap)
{
	garnet_list_unlink(&cap->hold_frame.link);
	if (cap->holding)
		garnet_consent_release(cap->portal->compositor);
	cap->holding = false;
}

static void stop_waiting(struct portal_capture *cap)
{
	garnet_list_unlink(&cap->output_frame.link);
	garnet_list_unlink(&cap->pointer_frame.link);
	garnet_list_unlink(&cap->buffer_destroy.link);
	cap->buffer = NULL;
}

/* The capture does nothing more: withdrawn question, waiting copy and hold let go. */
static void make_inert(struct portal_capture *cap, enum capture_state state)
{
	bool was_listed = !wl_list_empty(&cap->link);

	if (cap->asking)
		garnet_consent_withdraw(cap->asking);
	cap->asking = NULL;
	stop_waiting(cap);
	release_hold(cap);
	garnet_list_unlink(&cap->output_destroy.link);
	garnet_list_unlink(&cap->window_destroy.link);
	garnet_list_unlink(&cap->window_commit.link);
	cap->window = NULL;
	if (cap->resize_timer)
		wl_event_source_remove(cap->resize_timer);
	cap->resize_timer = NULL;
	if (cap->own_image)
		pixman_image_unref(cap->own_image);
	cap->own_image = NULL;
	wl_list_remove(&cap->link);
	wl_list_init(&cap->link);
	cap->state = state;
	if (was_listed)
		show_casts(cap->portal);
}

static void capture_resource_destroy(struct wl_resource *resource)
{
	struct portal_capture *cap = wl_resource_get_user_data(resource);

	make_inert(cap, CAPTURE_STOPPED);
	cast_pointer_fini(&cap->pointer);
	free(cap->output_name);
	free(cap->shown_as);
	free(cap->app_id);
	free(cap);
}

static void stop(struct portal_capture *cap, const char *why)
{
	if (cap->state != CAPTURE_GRANTED)
		return;
	garnet_log(cap->portal->compositor, GARNET_LOG_INFO, "portal", "cast of %s stopped: %s",
		   cap->output_name, why);
	if (cap->buffer)
		garnet_portal_capture_v1_send_failed(cap->resource);
	make_inert(cap, CAPTURE_STOPPED);
	garnet_portal_capture_v1_send_stopped(cap->resource);
}

/* Its frame listeners are on the output: they must go before it does. */
static void on_output_destroy(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, output_destroy);

	(void)data;
	stop(cap, "its output is gone");
}

static bool has_region(const struct portal_capture *cap)
{
	return cap->region.x2 > cap->region.x1 && cap->region.y2 > cap->region.y1;
}

/* Copies picture, from x, y on, into the target, never more than the buffer holds (it was
 * made for the size at grant; the output may have changed mode since). What lies outside the
 * picture (the output shrank) is black: pixman reads nothing there. */
static bool copy_into(pixman_image_t *picture, int32_t x, int32_t y, struct cast_target *t)
{
	pixman_image_t *target;

	if (!cast_target_begin(t))
		return false;
	target = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, t->width, t->height,
						   t->pixels, t->stride);
	if (target) {
		pixman_image_composite32(PIXMAN_OP_SRC, picture, NULL, target, x, y, 0, 0, 0, 0,
					 t->width, t->height);
		pixman_image_unref(target);
	}
	cast_target_end(t);
	return target != NULL;
}

/* garnet's own image of the cast, w x h (kept from copy to copy); NULL: no memory. */
static pixman_image_t *own_image(struct portal_capture *cap, int32_t w, int32_t h)
{
	if (cap->own_image && (pixman_image_get_width(cap->own_image) != w ||
			       pixman_image_get_height(cap->own_image) != h)) {
		pixman_image_unref(cap->own_image);
		cap->own_image = NULL;
	}
	if (!cap->own_image)
		cap->own_image = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, w, h, NULL, 0);
	return cap->own_image;
}

/*
 * The output as the user sees it. The frame on screen serves when it holds the pointer as
 * asked; otherwise garnet draws the output again, with the pointer (it is on a cursor plane,
 * not in the frame) or without it (the consumer asked for none). Drawing opens clients'
 * pools, so it goes into garnet's own image first, as for a window.
 */
static bool copy_pixels(struct portal_capture *cap, struct garnet_output *output,
			struct cast_target *t)
{
	pixman_image_t *front = output->impl->front_image(output), *picture;
	bool pointer = !(cap->copy_flags & (GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_HIDE_POINTER |
					    GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA));

	if (pointer && !output->cursor_on_plane)
		return copy_into(front, cap->region.x1, cap->region.y1, t);
	picture = own_image(cap, pixman_image_get_width(front), pixman_image_get_height(front));
	if (!picture)
		return false;
	garnet_render_output_picture(output, picture, pointer);
	return copy_into(picture, cap->region.x1, cap->region.y1, t);
}

/* The size the cast's buffers must have now: the window's, or the output's (a part of it keeps
 * its own). */
static void current_size(struct portal_capture *cap, struct garnet_output *output, int32_t *w,
			 int32_t *h)
{
	*w = cap->width;
	*h = cap->height;
	if (cap->window) {
		*w = MIN(cap->window->width, MAX_WINDOW_SIZE);
		*h = MIN(cap->window->height, MAX_WINDOW_SIZE);
	} else if (output && !has_region(cap)) {
		*w = pixman_image_get_width(output->impl->front_image(output));
		*h = pixman_image_get_height(output->impl->front_image(output));
	}
}

static int on_resize_due(void *data);

/* Too soon after the last resized: the timer follows the size when the interval is over (a
 * window that stops changing ends at its last size). */
static bool resize_held(struct portal_capture *cap)
{
	struct garnet_compositor *c = cap->portal->compositor;
	uint32_t since = garnet_now_msec(c) - cap->resized_msec;

	if (!cap->resized_once || since >= RESIZE_INTERVAL_MS)
		return false;
	if (!cap->resize_timer)
		cap->resize_timer = wl_event_loop_add_timer(c->loop, on_resize_due, cap);
	/* No timer (no memory): the next commit or frame after the interval follows it. */
	if (cap->resize_timer)
		wl_event_source_timer_update(cap->resize_timer,
					     (int)(RESIZE_INTERVAL_MS - since));
	return true;
}

/* From version 3 the cast follows its window's (or output's) size: a waiting copy, into a
 * buffer of the old size, is answered failed first. Before, the size stays the granted one. */
static void follow_size(struct portal_capture *cap, struct garnet_output *output)
{
	int32_t w, h;

	current_size(cap, output, &w, &h);
	if ((w == cap->width && h == cap->height) || w <= 0 || h <= 0 ||
	    wl_resource_get_version(cap->resource) <
		    GARNET_PORTAL_CAPTURE_V1_RESIZED_SINCE_VERSION ||
	    resize_held(cap))
		return;
	if (cap->buffer) {
		stop_waiting(cap);
		garnet_portal_capture_v1_send_failed(cap->resource);
	}
	garnet_log(cap->portal->compositor, GARNET_LOG_INFO, "portal",
		   "cast of %s for %s: now %dx%d (was %dx%d)", cap->output_name, cap->who, w, h,
		   cap->width, cap->height);
	cap->old_width = cap->width;
	cap->old_height = cap->height;
	cap->width = w;
	cap->height = h;
	cap->resized_msec = garnet_now_msec(cap->portal->compositor);
	cap->resized_once = true;
	garnet_portal_capture_v1_send_resized(cap->resource, w, h);
}

static int on_resize_due(void *data)
{
	struct portal_capture *cap = data;
	struct garnet_output *output = NULL;

	if (cap->state != CAPTURE_GRANTED)
		return 0;
	if (!cap->window &&
	    !(output = garnet_compositor_find_output(cap->portal->compositor, cap->output_name)))
		return 0;
	follow_size(cap, output);
	return 0;
}

/* A popup of the window (a menu it opened), or a subsurface of one: part of the window's
 * picture. The window's own tree is drawn apart. */
static bool popup_of(struct garnet_surface *surface, void *data)
{
	struct garnet_surface *window = data, *top = surface;

	while (top->subsurface && top->subsurface->parent)
		top = top->subsurface->parent;
	return top != window && garnet_xdg_root_surface(surface) == window;
}

/*
 * The window alone, never what covers it. It is drawn into garnet's own image, then copied
 * into the buffer: drawing opens the window's pools (wl_shm_buffer_begin_access), and
 * libwayland aborts the process that opens a second pool while another is open, unless the
 * pool's memfd is sealed against shrinking, which neither toolkits nor garnet-portal promise.
 */
static bool paint_window(struct portal_capture *cap, struct cast_target *t)
{
	pixman_image_t *picture = own_image(cap, t->width, t->height);

	if (!picture)
		return false;
	garnet_render_surface_tree(cap->window, picture, popup_of, cap->window);
	return copy_into(picture, 0, 0, t);
}

static bool pointer_apart(const struct portal_capture *cap)
{
	return cap->copy_flags & GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA;
}

static void look_at_pointer(struct portal_capture *cap, struct garnet_output *output,
			    struct cast_pointer_look *look)
{
	cast_pointer_look(cap->portal->compositor, cap->window ? NULL : output, &cap->region,
			  cap->width, cap->height, cap->window, look);
}

/* The waiting copy carries the pointer apart, which moved or changed its image since the
 * backend last heard. */
static bool pointer_changed(struct portal_capture *cap, struct garnet_output *output)
{
	struct cast_pointer_look look;
	bool changed;

	if (!pointer_apart(cap))
		return false;
	look_at_pointer(cap, output, &look);
	changed = cast_pointer_changed(&cap->pointer, &look);
	cast_pointer_look_fini(&look);
	return changed;
}

/* The output's (or the window's) picture into the waiting buffer, with damage (NULL: all of
 * it), and the pointer told apart when the copy asked for that. */
static void copy_now(struct portal_capture *cap, struct garnet_output *output,
		     const pixman_region32_t *damage)
{
	struct garnet_compositor *c = cap->portal->compositor;
	struct cast_target t;
	bool usable = cast_target_get(cap->buffer, wl_resource_get_version(cap->resource), &t);
	struct timespec now;
	int n = 0;
	const pixman_box32_t *rects;
	pixman_box32_t all = {0, 0, cap->width, cap->height};

	stop_waiting(cap);
	release_hold(cap);
	if (!usable || !(cap->window ? paint_window(cap, &t) : copy_pixels(cap, output, &t))) {
		garnet_portal_capture_v1_send_failed(cap->resource);
		return;
	}
	rects = damage ? pixman_region32_rectangles((pixman_region32_t *)damage, &n) : &all;
	if (!damage)
		n = 1;
	if (n > MAX_DAMAGE_BOXES) {
		/* A frame of a thousand changed boxes is not a thousand events. */
		rects = pixman_region32_extents((pixman_region32_t *)damage);
		n = 1;
	}
	for (int i = 0; i < n; i++)
		garnet_portal_capture_v1_send_damage(cap->resource, (uint32_t)rects[i].x1,
						     (uint32_t)rects[i].y1,
						     (uint32_t)(rects[i].x2 - rects[i].x1),
						     (uint32_t)(rects[i].y2 - rects[i].y1));
	if (pointer_apart(cap)) {
		struct cast_pointer_look look;

		look_at_pointer(cap, output, &look);
		cast_pointer_tell(cap->resource, &cap->pointer, &look);
		cast_pointer_look_fini(&look);
	}
	cap->copied = true;
	clock_gettime(c->clock, &now);
	garnet_portal_capture_v1_send_ready(cap->resource, (uint32_t)((uint64_t)now.tv_sec >> 32),
					    (uint32_t)now.tv_sec, (uint32_t)now.tv_nsec);
}

/* A copy of an unchanged picture, for a pointer that moved: it has no damage. */
static void copy_for_pointer(struct portal_capture *cap, struct garnet_output *output)
{
	pixman_region32_t none;

	pixman_region32_init(&none);
	copy_now(cap, output, &none);
	pixman_region32_fini(&none);
}

/* A frame was shown: the waiting copy is made when it is the first after the dialog went,
 * or changed the output (or moved a pointer told apart); never while locked (the frame shows
 * the lock screen). */
static void on_output_frame(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, output_frame);
	struct garnet_output *output = data;
	pixman_region32_t damage;

	if (strcmp(output->name, cap->output_name) != 0 || cap->portal->compositor->locked)
		return;
	follow_size(cap, output);
	if (!cap->buffer)
		return; /* answered failed: its buffer is of the old size */
	if (cap->holding) {
		if (output->renders != cap->renders_at_grant)
			copy_now(cap, output, NULL);
		return;
	}
	if (cap->renders_at_grant && output->renders == cap->renders_at_grant)
		return;
	if (!has_region(cap)) {
		if (pixman_region32_not_empty(&output->shown_damage))
			copy_now(cap, output, &output->shown_damage);
		else if (pointer_changed(cap, output))
			copy_for_pointer(cap, output);
		return;
	}
	/* Only a change inside the region is a new frame of it, in its own coordinates. */
	pixman_region32_init(&damage);
	pixman_region32_intersect_rect(&damage, &output->shown_damage, cap->region.x1,
				       cap->region.y1, cap->width, cap->height);
	pixman_region32_translate(&damage, -cap->region.x1, -cap->region.y1);
	if (pixman_region32_not_empty(&damage))
		copy_now(cap, output, &damage);
	else if (pointer_changed(cap, output))
		copy_for_pointer(cap, output);
	pixman_region32_fini(&damage);
}

/* Any output showed a frame (the pointer moving repaints the outputs): a window's cast
 * waiting with the pointer apart is copied when only the pointer changed. */
static void on_pointer_frame(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, pointer_frame);

	(void)data;
	if (cap->buffer && cap->window && !cap->portal->compositor->locked &&
	    pointer_changed(cap, NULL))
		copy_for_pointer(cap, NULL);
}

/* A frame without the dialog was shown: the next question may come even if the backend has
 * not copied yet (it may never: an application that starts a cast and reads nothing), but
 * this frame stays copyable. */
static void on_hold_frame(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, hold_frame);
	struct garnet_output *output = data;

	if (strcmp(output->name, cap->output_name) == 0 &&
	    output->renders != cap->renders_at_grant && !cap->buffer)
		release_hold(cap);
}

static void on_buffer_destroy(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, buffer_destroy);

	stop_waiting(cap);
	garnet_portal_capture_v1_send_failed(cap->resource);
}

static uint32_t known_copy_flags(struct wl_resource *resource)
{
	uint32_t known = GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_NOW;
	int version = wl_resource_get_version(resource);

	if (version >= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_HIDE_POINTER_SINCE_VERSION)
		known |= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_HIDE_POINTER;
	if (version >= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA_SINCE_VERSION)
		known |= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA;
	return known;
}

static void handle_copy(struct wl_client *client, struct wl_resource *resource,
			struct wl_resource *buffer, uint32_t flags)
{
	struct portal_capture *cap = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = cap->portal->compositor;
	struct garnet_output *output;
	struct cast_target t;
	bool usable;

	if (cap->state == CAPTURE_STOPPED) {
		/* Stopped (maybe before any copy) while the backend had not heard yet: a failed
		 * copy, no error. */
		garnet_portal_capture_v1_send_failed(resource);
		return;
	}
	if (cap->state != CAPTURE_GRANTED) {
		wl_resource_post_error(resource, GARNET_PORTAL_CAPTURE_V1_ERROR_NOT_GRANTED,
				       "copy before the capture was granted");
		return;
	}
	if (cap->buffer) {
		wl_resource_post_error(resource, GARNET_PORTAL_CAPTURE_V1_ERROR_BUSY,
				       "copy while another copy waits");
		return;
	}
	if (flags & ~known_copy_flags(resource)) {
		wl_resource_post_error(resource, GARNET_PORTAL_CAPTURE_V1_ERROR_INVALID_FLAGS,
				       "copy flags 0x%x: unknown in version %d", flags,
				       wl_resource_get_version(resource));
		return;
	}
	output = cap->window ? NULL : garnet_compositor_find_output(c, cap->output_name);
	if (!cap->window && !output) {
		stop(cap, "its output is gone");
		return;
	}
	follow_size(cap, output);
	usable = cast_target_get(buffer, wl_resource_get_version(resource), &t);
	if (usable && cap->old_width && t.width == cap->old_width &&
	    t.height == cap->old_height) {
		/* Sent before the backend heard of the new size. */
		garnet_portal_capture_v1_send_failed(resource);
		return;
	}
	if (!usable || t.width != cap->width || t.height != cap->height ||
	    t.stride < cap->width * 4) {
		wl_resource_post_error(resource, GARNET_PORTAL_CAPTURE_V1_ERROR_INVALID_BUFFER,
				       "the buffer must be a %dx%d xrgb8888 or argb8888 wl_shm "
				       "buffer%s",
				       cap->width, cap->height,
				       wl_resource_get_version(resource) >=
						       CAST_TARGET_GEM_SINCE_VERSION
					       ? " or garnet.ko buffer garnet can write"
					       : "");
		return;
	}
	cap->copy_flags = flags;
	if (cap->window) {
		cap->buffer = buffer;
		wl_resource_add_destroy_listener(buffer, &cap->buffer_destroy);
		if (pointer_apart(cap))
			wl_signal_add(&c->events.output_frame, &cap->pointer_frame);
		if ((!cap->copied || (flags & GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_NOW)) &&
		    !c->locked)
			copy_now(cap, NULL, NULL);
		return;
	}
	cap->buffer = buffer;
	wl_resource_add_destroy_listener(buffer, &cap->buffer_destroy);
	wl_signal_add(&output->events.frame, &cap->output_frame);
	/* The first copy, or one asked for now: now, unless the frame on screen still shows
	 * the dialog. */
	if ((!cap->copied || (flags & GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_NOW)) && !c->locked &&
	    (!cap->holding || output->renders != cap->renders_at_grant))
		copy_now(cap, output, NULL);
}

/* A consumer came and has nothing: the waiting copy is made now. A copy already answered
 * is not made again (its answer is on its way), so every copy keeps exactly one answer. */
static void handle_hurry(struct wl_client *client, struct wl_resource *resource)
{
	struct portal_capture *cap = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = cap->portal->compositor;
	struct garnet_output *output;

	if (cap->state != CAPTURE_GRANTED || !cap->buffer || c->locked)
		return;
	if (cap->window) {
		copy_now(cap, NULL, NULL);
		return;
	}
	output = garnet_compositor_find_output(c, cap->output_name);
	if (output && (!cap->holding || output->renders != cap->renders_at_grant))
		copy_now(cap, output, NULL);
}

static const struct garnet_portal_capture_v1_interface capture_impl = {
	.destroy = garnet_resource_destroy_request,
	.copy = handle_copy,
	.hurry = handle_hurry,
};

static void refuse(struct portal_capture *cap);

static void grant(struct portal_capture *cap, struct garnet_output *output)
{
	pixman_image_t *front = output->impl->front_image(output);
	char what[128];

	if (has_region(cap))
		snprintf(what, sizeof(what), "%s, a part %dx%d at %d,%d", cap->output_name,
			 cap->region.x2 - cap->region.x1, cap->region.y2 - cap->region.y1,
			 cap->region.x1, cap->region.y1);
	else
		snprintf(what, sizeof(what), "%s", cap->output_name);
	/* No cast the user cannot see. */
	if (cap->stream && !start_recording(cap, what)) {
		refuse(cap);
		return;
	}
	cap->state = CAPTURE_GRANTED;
	/* Whoever granted it (the user or the policy), a cast of an output that goes stops: its
	 * waiting copy hangs on the output's frame signal. */
	garnet_list_unlink(&cap->output_destroy.link);
	wl_signal_add(&output->events.destroy, &cap->output_destroy);
	cap->width = pixman_image_get_width(front);
	cap->height = pixman_image_get_height(front);
	if (has_region(cap)) {
		cap->width = cap->region.x2 - cap->region.x1;
		cap->height = cap->region.y2 - cap->region.y1;
	}
	if (cap->stream && cap->portal->compositor->locked)
		garnet_portal_capture_v1_send_paused(cap->resource);
	garnet_portal_capture_v1_send_granted(cap->resource, cap->output_name, cap->width,
					      cap->height);
}

static void refuse(struct portal_capture *cap)
{
	make_inert(cap, CAPTURE_REFUSED);
	garnet_portal_capture_v1_send_refused(cap->resource);
}

static void on_answer(void *data, bool allowed)
{
	struct portal_capture *cap = data;
	struct garnet_compositor *c = cap->portal->compositor;
	struct garnet_output *output = garnet_compositor_find_output(c, cap->output_name);

	cap->asking = NULL;
	if (!allowed || !output) {
		refuse(cap);
		return;
	}
	/* The frame on screen now still shows the dialog. */
	cap->holding = true;
	garnet_consent_hold(c);
	cap->renders_at_grant = output->renders;
	wl_signal_add(&output->events.frame, &cap->hold_frame);
	grant(cap, output);
}

static void on_window_destroy(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, window_destroy);

	stop(cap, "its window is gone");
}

/* The window or one of its subsurfaces drew (a video in a desynchronised subsurface commits
 * alone): the waiting copy is made (never while locked); an unmapped window is gone for the
 * cast. */
static void on_window_commit(struct wl_listener *listener, void *data)
{
	struct portal_capture *cap = wl_container_of(listener, cap, window_commit);

	if (!garnet_surface_is_mapped(cap->window)) {
		stop(cap, "its window is gone");
		return;
	}
	follow_size(cap, NULL);
	if (cap->buffer && !cap->portal->compositor->locked)
		copy_now(cap, NULL, NULL);
}

/* The user chose one window in the dialog. */
static void grant_window(struct portal_capture *cap, struct garnet_surface *window)
{
	struct garnet_compositor *c = cap->portal->compositor;
	char *name = strdup("window"), what[64];
	pid_t pid = 0;

	wl_client_get_credentials(wl_resource_get_client(window->resource), &pid, NULL, NULL);
	snprintf(what, sizeof(what), "the window of pid %d", (int)pid);
	if (!name || window->width <= 0 || window->height <= 0 ||
	    !start_recording(cap, what)) {
		free(name);
		refuse(cap);
		return;
	}
	free(cap->output_name);
	cap->output_name = name;
	cap->window = window;
	cap->width = MIN(window->width, MAX_WINDOW_SIZE);
	cap->height = MIN(window->height, MAX_WINDOW_SIZE);
	wl_signal_add(&window->events.destroy, &cap->window_destroy);
	wl_signal_add(&window->events.tree_commit, &cap->window_commit);
	cap->state = CAPTURE_GRANTED;
	if (c->locked)
		garnet_portal_capture_v1_send_paused(cap->resource);
	garnet_portal_capture_v1_send_granted(cap->resource, "window", cap->width, cap->height);
}

/* The user chose another output than the one the policy was asked about: the policy is asked
 * about that one too, and its no holds (the dialog's yes answered its ask). */
static bool policy_allows_output(struct portal_capture *cap, const char *output)
{
	struct garnet_compositor *c = cap->portal->compositor;
	char who[sizeof(cap->who)];

	if (!c->hooks.capture_for_app)
		return !c->hooks.deny_unset;
	return c->hooks.capture_for_app(c->hooks.data, wl_resource_get_client(cap->resource),
					cap->app_id, cap->pid, output, true, who,
					sizeof(who)) != GARNET_DENY;
}

/* The part of output the user chose (its logical coordinates) in the pixels of its picture:
 * a scaled or turned output's picture is not laid out like the global space. An empty part
 * (the output went) leaves the cast of all of it, and its answer finds it gone. */
static void set_region(struct portal_capture *cap, const char *name, const pixman_box32_t *box)
{
	struct garnet_output *o = garnet_compositor_find_output(cap->portal->compositor, name);
	struct pixman_f_transform m;
	pixman_region32_t part;

	if (!o)
		return;
	garnet_output_matrix(o, &m);
	pixman_region32_init_rect(&part, o->x + box->x1, o->y + box->y1,
				  (unsigned)(box->x2 - box->x1), (unsigned)(box->y2 - box->y1));
	garnet_region_transform(&part, &part, &m);
	cap->region = *pixman_region32_extents(&part);
	pixman_region32_fini(&part);
}

static void on_cast_answer(void *data, bool allowed, const char *output,
			   const pixman_box32_t *region, struct garnet_surface *window)
{
	struct portal_capture *cap = data;
	char *name;

	if (window) {
		cap->asking = NULL;
		if (!allowed)
			refuse(cap);
		else
			grant_window(cap, window);
		return;
	}
	if (allowed && strcmp(output, cap->output_name) != 0) {
		if (!policy_allows_output(cap, output) || !(name = strdup(output))) {
			cap->asking = NULL;
			garnet_log(cap->portal->compositor, GARNET_LOG_WARNING, "portal",
				   "the user chose %s for %s: the policy refuses it", output,
				   cap->who);
			refuse(cap);
			return;
		}
		free(cap->output_name);
		cap->output_name = name;
	}
	if (allowed && region)
		set_region(cap, output, region);
	on_answer(data, allowed);
}

/* The output garnet shares: the first (the consent dialog names it). */
static struct garnet_output *chosen_output(struct garnet_compositor *c)
{
	if (wl_list_empty(&c->outputs))
		return NULL;
	return wl_container_of(c->outputs.next, (struct garnet_output *)NULL, link);
}

static void handle_capture(struct wl_client *client, struct wl_resource *manager, uint32_t id,
			   const char *app_id, uint32_t pid, uint32_t kind)
{
	struct portal *p = wl_resource_get_user_data(manager);
	struct garnet_compositor *c = p->compositor;
	struct portal_capture *cap;
	struct garnet_output *output;
	enum garnet_decision d;

	if (kind != GARNET_PORTAL_V1_KIND_SCREENCAST && kind != GARNET_PORTAL_V1_KIND_SCREENSHOT) {
		wl_resource_post_error(manager, GARNET_PORTAL_V1_ERROR_INVALID_KIND,
				       "unknown kind %u", kind);
		return;
	}
	cap = calloc(1, sizeof(*cap));
	if (!cap) {
		wl_client_post_no_memory(client);
		return;
	}
	cap->resource = wl_resource_create(client, &garnet_portal_capture_v1_interface,
					   wl_resource_get_version(manager), id);
	if (!cap->resource) {
		free(cap);
		wl_client_post_no_memory(client);
		return;
	}
	cap->portal = p;
	cap->stream = kind == GARNET_PORTAL_V1_KIND_SCREENCAST;
	cap->state = CAPTURE_ASKING;
	wl_list_init(&cap->link);
	garnet_listener_init(&cap->output_frame, on_output_frame);
	garnet_listener_init(&cap->buffer_destroy, on_buffer_destroy);
	garnet_listener_init(&cap->hold_frame, on_hold_frame);
	garnet_listener_init(&cap->output_destroy, on_output_destroy);
	garnet_listener_init(&cap->window_destroy, on_window_destroy);
	garnet_listener_init(&cap->window_commit, on_window_commit);
	garnet_listener_init(&cap->pointer_frame, on_pointer_frame);
	wl_resource_set_implementation(cap->resource, &capture_impl, cap, capture_resource_destroy);
	cap->pid = pid;
	output = chosen_output(c);
	if (!output || !(cap->output_name = strdup(output->name)) ||
	    !(cap->app_id = strdup(app_id))) {
		refuse(cap);
		return;
	}
	snprintf(cap->who, sizeof(cap->who), "pid %u", pid);
	d = c->hooks.capture_for_app
		    ? c->hooks.capture_for_app(c->hooks.data, client, app_id, pid, cap->output_name,
					       cap->stream, cap->who, sizeof(cap->who))
		    : (c->hooks.deny_unset ? GARNET_DENY : GARNET_ALLOW);
	if (d == GARNET_ALLOW) {
		grant(cap, output);
		return;
	}
	if (d == GARNET_ASK && cap->stream)
		cap->asking = garnet_consent_ask_cast_for_app(c, client, cap->output_name, cap->who,
							      on_cast_answer, cap);
	else if (d == GARNET_ASK)
		cap->asking = garnet_consent_ask_for_app(c, client, GARNET_ASK_CAPTURE_OUTPUT,
							 cap->output_name, cap->who, on_answer, cap);
	if (!cap->asking) {
		garnet_log(c, GARNET_LOG_WARNING, "portal", "capture of %s for %s refused",
			   cap->output_name, cap->who);
		refuse(cap);
	}
}

static const struct garnet_portal_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.capture = handle_capture,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = ((struct portal *)data)->compositor;

	if (!garnet_global_check_bind(c, client, &garnet_portal_v1_interface))
		return;
	garnet_resource_create(client, &garnet_portal_v1_interface, (int)version, id, &manager_impl,
			       data, NULL);
}

void garnet_portal_stop_all(struct garnet_compositor *c)
{
	struct portal_capture *cap, *tmp;

	if (!c->portal)
		return;
	wl_list_for_each_safe (cap, tmp, &c->portal->captures, link)
		stop(cap, "the user's stop binding");
}

/* The session locked or unlocked: every cast pauses or resumes. */
static void on_lock_changed(struct wl_listener *listener, void *data)
{
	struct portal *p = wl_container_of(listener, p, lock_changed);
	struct garnet_compositor *c = p->compositor;
	struct portal_capture *cap;

	if (p->paused == c->locked)
		return;
	p->paused = c->locked;
	wl_list_for_each (cap, &p->captures, link) {
		if (c->locked)
			garnet_portal_capture_v1_send_paused(cap->resource);
		else
			garnet_portal_capture_v1_send_resumed(cap->resource);
	}
	if (portal_recording(p))
		garnet_log(c, GARNET_LOG_INFO, "portal", "every cast %s",
			   c->locked ? "paused: the session is locked" : "resumed");
}

static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct portal *p = wl_container_of(listener, p, compositor_destroy);

	wl_list_remove(&p->compositor_destroy.link);
	wl_list_remove(&p->lock_changed.link);
	garnet_cast_indicator_set(p->compositor, NULL, 0);
	p->compositor->portal = NULL;
	free(p);
}

bool garnet_portal_init(struct garnet_compositor *c)
{
	struct portal *p = calloc(1, sizeof(*p));

	if (!p)
		return false;
	p->compositor = c;
	wl_list_init(&p->captures);
	p->compositor_destroy.notify = compositor_destroyed;
	wl_signal_add(&c->events.destroy, &p->compositor_destroy);
	p->lock_changed.notify = on_lock_changed;
	wl_signal_add(garnet_compositor_get_lock_signal(c), &p->lock_changed);
	c->portal = p;
	return garnet_global_create(c, &garnet_portal_v1_interface, 5, p, bind_manager, true) !=
	       NULL;
}
