// SPDX-License-Identifier: MIT
// zwlr_screencopy_manager_v1: copies of an output's picture into a client's shm buffer. The
// global is privileged, and every copy is authorised again at the moment it is made (the
// capture_output hook), so a grant withdrawn by a policy reload stops the next picture. When
// the hook says ask, the copy waits for the user's answer in garnet's consent dialog, and a
// granted copy is made from the first frame shown after the dialog went away.
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/consent.h"
#include "client-protocols.h"
#include "wlr-screencopy-unstable-v1-server-protocol.h"

struct screencopy_frame {
	struct wl_resource *resource;
	struct garnet_compositor *compositor;
	char *output_name; /* looked up again at copy: the output may be gone by then */
	pixman_box32_t box;  /* in output buffer pixels */
	bool used;
	/* The user allowed this copy in the consent dialog: it is made without asking again. */
	bool granted;
	bool holding; /* the next consent question waits for this copy */
	uint32_t renders_at_grant; /* output->renders when allowed: that frame held the dialog */
	bool with_damage;
	struct garnet_consent_request *asking; /* the question the copy waits on, or NULL */
	/* The buffer waiting for the output's next change of the box (copy_with_damage), or for
	 * the user's answer and then the next frame. */
	struct wl_resource *buffer;
	struct wl_listener output_frame, output_destroy, buffer_destroy;
};

static void stop_waiting(struct screencopy_frame *frame)
{
	if (frame->asking)
		garnet_consent_withdraw(frame->asking);
	frame->asking = NULL;
	/* Made (or failed): the next question may come; the copy reads the frame on screen
	 * now, which has no dialog yet. */
	if (frame->holding)
		garnet_consent_release(frame->compositor);
	frame->holding = false;
	garnet_list_unlink(&frame->output_frame.link);
	garnet_list_unlink(&frame->output_destroy.link);
	garnet_list_unlink(&frame->buffer_destroy.link);
	frame->buffer = NULL;
}

static void frame_destroy_resource(struct wl_resource *resource)
{
	struct screencopy_frame *frame = wl_resource_get_user_data(resource);

	stop_waiting(frame);
	free(frame->output_name);
	free(frame);
}

/* This file's state (the compositor's screencopy). */
struct screencopy {
	struct wl_list recording_grants; /* recording_grant.link */
	struct wl_listener compositor_destroy;
};

/* A recording the user allowed once: it goes on for this client and output until the client
 * disconnects (a recorder asks for every frame; the question is about the recording). */
struct recording_grant {
	struct wl_client *client;
	char *output_name;
	struct wl_listener client_destroy;
	struct wl_list link; /* screencopy.recording_grants */
};

static void grant_free(struct recording_grant *g)
{
	wl_list_remove(&g->client_destroy.link);
	wl_list_remove(&g->link);
	free(g->output_name);
	free(g);
}

static void grant_client_destroyed(struct wl_listener *listener, void *data)
{
	grant_free(wl_container_of(listener, (struct recording_grant *)NULL, client_destroy));
}

static bool recording_granted(struct garnet_compositor *c, struct wl_client *client,
			      const char *output_name)
{
	struct recording_grant *g;

	wl_list_for_each(g, &c->screencopy->recording_grants, link) {
		if (g->client == client && strcmp(g->output_name, output_name) == 0)
			return true;
	}
	return false;
}

static void grant_recording(struct garnet_compositor *c, struct wl_client *client,
			    const char *output_name)
{
	struct recording_grant *g;

	if (recording_granted(c, client, output_name) || !(g = calloc(1, sizeof(*g))))
		return;
	g->output_name = strdup(output_name);
	if (!g->output_name) {
		free(g);
		return; /* the next frame asks again */
	}
	g->client = client;
	g->client_destroy.notify = grant_client_destroyed;
	wl_client_add_destroy_listener(client, &g->client_destroy);
	wl_list_insert(&c->screencopy->recording_grants, &g->link);
}

static enum garnet_decision capture_decision(struct garnet_compositor *c,
					    struct wl_client *client, const char *output_name,
					    bool stream)
{
	enum garnet_decision d = c->hooks.capture_output
					 ? c->hooks.capture_output(c->hooks.data, client,
								   output_name, stream)
					 : GARNET_ALLOW;

	if (d == GARNET_ASK && stream && recording_granted(c, client, output_name))
		return GARNET_ALLOW;
	return d;
}

/* Fills buffer from the output's picture; false (with the reason logged) when it cannot. */
static bool copy_pixels(struct screencopy_frame *frame, struct garnet_output *output,
			struct wl_shm_buffer *shm)
{
	int32_t w = frame->box.x2 - frame->box.x1, h = frame->box.y2 - frame->box.y1;
	pixman_image_t *front = output->impl->front_image(output), *target;

	wl_shm_buffer_begin_access(shm);
	target = pixman_image_create_bits_no_clear(PIXMAN_x8r8g8b8, w, h,
						   wl_shm_buffer_get_data(shm),
						   wl_shm_buffer_get_stride(shm));
	if (target) {
		pixman_image_composite32(PIXMAN_OP_SRC, front, NULL, target, frame->box.x1,
					 frame->box.y1, 0, 0, 0, 0, w, h);
		pixman_image_unref(target);
	}
	wl_shm_buffer_end_access(shm);
	return target != NULL;
}

/* Copies the picture on screen into buffer, asking the hook first; damage (buffer pixels of
 * the output, NULL for none) is reported relative to the frame's box. */
static void copy_now(struct screencopy_frame *frame, struct garnet_output *output,
		     struct wl_resource *buffer, const pixman_region32_t *damage)
{
	struct garnet_compositor *c = frame->compositor;
	struct wl_resource *resource = frame->resource;
	struct wl_client *client = wl_resource_get_client(resource);
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct timespec now;

	/* A question now (a policy changed while a copy waited for damage) is a refusal. */
	if (!shm ||
	    (!frame->granted && capture_decision(c, client, frame->output_name,
						 frame->with_damage) != GARNET_ALLOW) ||
	    !copy_pixels(frame, output, shm)) {
		garnet_log(c, GARNET_LOG_WARNING, "screencopy", "capture of %s refused or failed",
			   frame->output_name);
		zwlr_screencopy_frame_v1_send_failed(resource);
		return;
	}
	zwlr_screencopy_frame_v1_send_flags(resource, 0);
	if (damage) {
		int n = 0;
		const pixman_box32_t *rects = pixman_region32_rectangles(
			(pixman_region32_t *)damage, &n);

		for (int i = 0; i < n; i++)
			zwlr_screencopy_frame_v1_send_damage(
				resource, (uint32_t)(rects[i].x1 - frame->box.x1),
				(uint32_t)(rects[i].y1 - frame->box.y1),
				(uint32_t)(rects[i].x2 - rects[i].x1),
				(uint32_t)(rects[i].y2 - rects[i].y1));
	}
	clock_gettime(c->clock, &now);
	zwlr_screencopy_frame_v1_send_ready(resource, (uint32_t)((uint64_t)now.tv_sec >> 32),
					    (uint32_t)now.tv_sec, (uint32_t)now.tv_nsec);
}

/* A frame of the output was shown: if it changed the box, the waiting copy is made. */
static void on_output_frame(struct wl_listener *listener, void *data)
{
	struct screencopy_frame *frame = wl_container_of(listener, frame, output_frame);
	struct garnet_output *output = data;
	struct wl_resource *buffer = frame->buffer;
	pixman_region32_t damage;

	pixman_region32_init(&damage);
	pixman_region32_intersect_rect(&damage, &output->shown_damage, frame->box.x1,
				       frame->box.y1, frame->box.x2 - frame->box.x1,
				       frame->box.y2 - frame->box.y1);
	/* A granted copy takes the first frame painted after the dialog went (which damaged
	 * everything); the one in flight at the answer still shows the dialog. */
	if (frame->granted ? output->renders != frame->renders_at_grant
			   : pixman_region32_not_empty(&damage)) {
		stop_waiting(frame);
		copy_now(frame, output, buffer, frame->with_damage ? &damage : NULL);
	}
	pixman_region32_fini(&damage);
}

static void on_output_destroy(struct wl_listener *listener, void *data)
{
	struct screencopy_frame *frame = wl_container_of(listener, frame, output_destroy);

	stop_waiting(frame);
	zwlr_screencopy_frame_v1_send_failed(frame->resource);
}

/* The client destroyed the buffer it asked us to fill: nothing left to copy into. */
static void on_buffer_destroy(struct wl_listener *listener, void *data)
{
	struct screencopy_frame *frame = wl_container_of(listener, frame, buffer_destroy);

	stop_waiting(frame);
	zwlr_screencopy_frame_v1_send_failed(frame->resource);
}

/* The user answered: refused, the copy fails; allowed, it waits for the next frame shown,
 * which no longer holds the dialog. */
static void on_answer(void *data, bool allowed)
{
	struct screencopy_frame *frame = data;
	struct garnet_output *output;

	frame->asking = NULL;
	output = garnet_compositor_find_output(frame->compositor, frame->output_name);
	if (!allowed || !output) {
		stop_waiting(frame);
		zwlr_screencopy_frame_v1_send_failed(frame->resource);
		return;
	}
	frame->granted = true;
	frame->holding = true;
	garnet_consent_hold(frame->compositor);
	frame->renders_at_grant = output->renders;
	if (frame->with_damage)
		grant_recording(frame->compositor, wl_resource_get_client(frame->resource),
				frame->output_name);
	wl_signal_add(&output->events.frame, &frame->output_frame);
	wl_signal_add(&output->events.destroy, &frame->output_destroy);
}

static void wait_for_buffer(struct screencopy_frame *frame, struct wl_resource *buffer)
{
	frame->buffer = buffer;
	wl_resource_add_destroy_listener(buffer, &frame->buffer_destroy);
}

static void frame_copy(struct wl_client *client, struct wl_resource *resource,
		       struct wl_resource *buffer, bool with_damage)
{
	struct screencopy_frame *frame = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = frame->compositor;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	uint32_t w = (uint32_t)(frame->box.x2 - frame->box.x1);
	uint32_t h = (uint32_t)(frame->box.y2 - frame->box.y1);
	struct garnet_output *output;
	uint32_t format;

	if (frame->used) {
		wl_resource_post_error(resource, ZWLR_SCREENCOPY_FRAME_V1_ERROR_ALREADY_USED,
				       "copy was already sent on this frame");
		return;
	}
	frame->used = true;
	format = shm ? wl_shm_buffer_get_format(shm) : 0;
	if (!shm || (format != WL_SHM_FORMAT_XRGB8888 && format != WL_SHM_FORMAT_ARGB8888) ||
	    (uint32_t)wl_shm_buffer_get_width(shm) != w ||
	    (uint32_t)wl_shm_buffer_get_height(shm) != h ||
	    wl_shm_buffer_get_stride(shm) < (int32_t)(w * 4)) {
		wl_resource_post_error(resource, ZWLR_SCREENCOPY_FRAME_V1_ERROR_INVALID_BUFFER,
				       "the buffer must be a %ux%u xrgb8888 or argb8888 wl_shm "
				       "buffer with a stride of at least %u", w, h, w * 4);
		return;
	}
	output = garnet_compositor_find_output(c, frame->output_name);
	if (!output) {
		zwlr_screencopy_frame_v1_send_failed(resource);
		return;
	}
	frame->with_damage = with_damage;
	if (capture_decision(c, client, frame->output_name, with_damage) == GARNET_ASK) {
		wait_for_buffer(frame, buffer);
		frame->asking = garnet_consent_ask(
			c, client, with_damage ? GARNET_ASK_RECORD_OUTPUT : GARNET_ASK_CAPTURE_OUTPUT,
			frame->output_name, on_answer, frame);
		if (!frame->asking) {
			stop_waiting(frame);
			garnet_log(c, GARNET_LOG_DEBUG, "screencopy",
				   "capture of %s refused without asking", frame->output_name);
			zwlr_screencopy_frame_v1_send_failed(resource);
		}
		return;
	}
	if (!with_damage) {
		copy_now(frame, output, buffer, NULL);
		return;
	}
	/* The spec: wait until the output next changes (within the box), then copy. */
	wait_for_buffer(frame, buffer);
	wl_signal_add(&output->events.frame, &frame->output_frame);
	wl_signal_add(&output->events.destroy, &frame->output_destroy);
}

static void handle_copy(struct wl_client *client, struct wl_resource *resource,
			struct wl_resource *buffer)
{
	frame_copy(client, resource, buffer, false);
}

static void handle_copy_with_damage(struct wl_client *client, struct wl_resource *resource,
				    struct wl_resource *buffer)
{
	frame_copy(client, resource, buffer, true);
}

static const struct zwlr_screencopy_frame_v1_interface frame_impl = {
	.copy = handle_copy,
	.destroy = garnet_resource_destroy_request,
	.copy_with_damage = handle_copy_with_damage,
};

/* The region in output buffer pixels: logical rectangle through the output's matrix, clipped. */
static pixman_box32_t region_box(struct garnet_output *output, int32_t x, int32_t y, int32_t w,
				 int32_t h)
{
	pixman_image_t *front = output->impl->front_image(output);
	struct pixman_f_transform m;
	pixman_box32_t box;
	struct pixman_f_vector corners[2] = {
		{{output->x + (double)x, output->y + (double)y, 1}},
		{{output->x + (double)x + w, output->y + (double)y + h, 1}},
	};

	garnet_output_matrix(output, &m);
	pixman_f_transform_point(&m, &corners[0]);
	pixman_f_transform_point(&m, &corners[1]);
	box.x1 = (int32_t)(corners[0].v[0] < corners[1].v[0] ? corners[0].v[0] : corners[1].v[0]);
	box.x2 = (int32_t)(corners[0].v[0] < corners[1].v[0] ? corners[1].v[0] : corners[0].v[0]);
	box.y1 = (int32_t)(corners[0].v[1] < corners[1].v[1] ? corners[0].v[1] : corners[1].v[1]);
	box.y2 = (int32_t)(corners[0].v[1] < corners[1].v[1] ? corners[1].v[1] : corners[0].v[1]);
	if (box.x1 < 0)
		box.x1 = 0;
	if (box.y1 < 0)
		box.y1 = 0;
	if (box.x2 > pixman_image_get_width(front))
		box.x2 = pixman_image_get_width(front);
	if (box.y2 > pixman_image_get_height(front))
		box.y2 = pixman_image_get_height(front);
	return box;
}

static void capture(struct wl_client *client, struct wl_resource *manager, uint32_t id,
		    struct wl_resource *output_resource, int32_t x, int32_t y, int32_t w, int32_t h,
		    bool whole)
{
	struct garnet_compositor *c = wl_resource_get_user_data(manager);
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	struct screencopy_frame *frame = calloc(1, sizeof(*frame));
	struct wl_resource *resource;
	pixman_image_t *front;

	resource = wl_resource_create(client, &zwlr_screencopy_frame_v1_interface,
				      wl_resource_get_version(manager), id);
	if (!frame || !resource) {
		free(frame);
		if (resource)
			wl_resource_destroy(resource);
		wl_client_post_no_memory(client);
		return;
	}
	frame->resource = resource;
	frame->compositor = c;
	garnet_listener_init(&frame->output_frame, on_output_frame);
	garnet_listener_init(&frame->output_destroy, on_output_destroy);
	garnet_listener_init(&frame->buffer_destroy, on_buffer_destroy);
	wl_resource_set_implementation(resource, &frame_impl, frame, frame_destroy_resource);
	if (!output) {
		/* The output went away: the frame can only fail. */
		zwlr_screencopy_frame_v1_send_failed(resource);
		return;
	}
	frame->output_name = strdup(output->name);
	front = output->impl->front_image(output);
	frame->box = whole ? (pixman_box32_t){0, 0, pixman_image_get_width(front),
					      pixman_image_get_height(front)}
			   : region_box(output, x, y, w, h);
	if (!frame->output_name || w < 0 || h < 0 || frame->box.x2 <= frame->box.x1 ||
	    frame->box.y2 <= frame->box.y1) {
		zwlr_screencopy_frame_v1_send_failed(resource);
		return;
	}
	zwlr_screencopy_frame_v1_send_buffer(resource, WL_SHM_FORMAT_XRGB8888,
					     (uint32_t)(frame->box.x2 - frame->box.x1),
					     (uint32_t)(frame->box.y2 - frame->box.y1),
					     (uint32_t)(frame->box.x2 - frame->box.x1) * 4);
	if (wl_resource_get_version(resource) >= 3)
		zwlr_screencopy_frame_v1_send_buffer_done(resource);
}

static void handle_capture_output(struct wl_client *client, struct wl_resource *manager,
				  uint32_t id, int32_t overlay_cursor, struct wl_resource *output)
{
	capture(client, manager, id, output, 0, 0, 0, 0, true);
}

static void handle_capture_output_region(struct wl_client *client, struct wl_resource *manager,
					 uint32_t id, int32_t overlay_cursor,
					 struct wl_resource *output, int32_t x, int32_t y,
					 int32_t width, int32_t height)
{
	capture(client, manager, id, output, x, y, width, height, false);
}

static const struct zwlr_screencopy_manager_v1_interface manager_impl = {
	.capture_output = handle_capture_output,
	.capture_output_region = handle_capture_output_region,
	.destroy = garnet_resource_destroy_request,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (!garnet_global_check_bind(c, client, &zwlr_screencopy_manager_v1_interface))
		return;
	garnet_resource_create(client, &zwlr_screencopy_manager_v1_interface, (int)version, id,
			       &manager_impl, c, NULL);
}

/* Clients, and with them their grants, are gone by now. */
static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_compositor *c = data;
	struct recording_grant *g, *tmp;

	wl_list_for_each_safe(g, tmp, &c->screencopy->recording_grants, link)
		grant_free(g);
	wl_list_remove(&c->screencopy->compositor_destroy.link);
	free(c->screencopy);
	c->screencopy = NULL;
}

bool garnet_screencopy_init(struct garnet_compositor *c)
{
	struct screencopy *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return false;
	wl_list_init(&sc->recording_grants);
	sc->compositor_destroy.notify = compositor_destroyed;
	wl_signal_add(&c->events.destroy, &sc->compositor_destroy);
	c->screencopy = sc;
	return garnet_global_create(c, &zwlr_screencopy_manager_v1_interface, 3, c, bind_manager,
				    true) != NULL;
}
