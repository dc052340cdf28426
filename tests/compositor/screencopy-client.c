// SPDX-License-Identifier: MIT
// A zwlr_screencopy client for compositor tests.
#include "screencopy-client.h"

static void on_buffer(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format,
		      uint32_t width, uint32_t height, uint32_t stride)
{
	struct frame_state *st = data;

	st->width = width;
	st->height = height;
	st->stride = stride;
}

static void on_flags(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t flags)
{
}

static void on_ready(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t hi, uint32_t lo,
		     uint32_t nsec)
{
	((struct frame_state *)data)->ready = true;
}

static void on_failed(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	((struct frame_state *)data)->failed = true;
}

static void on_damage(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h)
{
	struct frame_state *st = data;
	int32_t x2 = (int32_t)(x + w), y2 = (int32_t)(y + h);

	if (st->damage_events++ == 0) {
		st->damage_x1 = (int32_t)x;
		st->damage_y1 = (int32_t)y;
		st->damage_x2 = x2;
		st->damage_y2 = y2;
		return;
	}
	st->damage_x1 = (int32_t)x < st->damage_x1 ? (int32_t)x : st->damage_x1;
	st->damage_y1 = (int32_t)y < st->damage_y1 ? (int32_t)y : st->damage_y1;
	st->damage_x2 = x2 > st->damage_x2 ? x2 : st->damage_x2;
	st->damage_y2 = y2 > st->damage_y2 ? y2 : st->damage_y2;
}

static void on_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *f, uint32_t format,
		      uint32_t width, uint32_t height)
{
}

static void on_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *f)
{
	((struct frame_state *)data)->buffer_done = true;
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
	on_buffer, on_flags, on_ready, on_failed, on_damage, on_dmabuf, on_buffer_done,
};

struct zwlr_screencopy_manager_v1 *screencopy_bind(struct client *c)
{
	uint32_t name = client_find_global(c, zwlr_screencopy_manager_v1_interface.name);

	return name ? wl_registry_bind(c->registry, name, &zwlr_screencopy_manager_v1_interface, 3)
		    : NULL;
}

struct zwlr_screencopy_frame_v1 *screencopy_start(struct test_context *t, struct client *c,
						  struct zwlr_screencopy_manager_v1 *m,
						  struct frame_state *st, struct buffer **b)
{
	return screencopy_start_on(t, c, m, client_first_output(c)->wl_output, st, b);
}

struct zwlr_screencopy_frame_v1 *screencopy_start_on(struct test_context *t, struct client *c,
						     struct zwlr_screencopy_manager_v1 *m,
						     struct wl_output *output, struct frame_state *st,
						     struct buffer **b)
{
	struct zwlr_screencopy_frame_v1 *frame =
		zwlr_screencopy_manager_v1_capture_output(m, 0, output);

	zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, st);
	check(t, client_dispatch_until(c, &st->buffer_done));
	*b = buffer_create(c, (int32_t)st->width, (int32_t)st->height, WL_SHM_FORMAT_XRGB8888);
	return frame;
}
