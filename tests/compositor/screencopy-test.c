// SPDX-License-Identifier: MIT
// zwlr_screencopy_frame_v1.copy_with_damage: the copy waits for the output's next change of
// the captured rectangle and reports what changed; copy answers at once.
#include <string.h>

#include "harness.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"

struct frame_state {
	uint32_t width, height, stride;
	bool buffer_done, ready, failed;
	int damage_events;
	int32_t damage_x1, damage_y1, damage_x2, damage_y2; /* union of damage events */
};

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

static struct zwlr_screencopy_manager_v1 *bind_manager(struct client *c)
{
	uint32_t name = client_find_global(c, zwlr_screencopy_manager_v1_interface.name);

	return name ? wl_registry_bind(c->registry, name, &zwlr_screencopy_manager_v1_interface, 3)
		    : NULL;
}

/* Starts a capture of the first output and makes the buffer it asks for. */
static struct zwlr_screencopy_frame_v1 *start_capture(struct test_context *t, struct client *c,
						      struct zwlr_screencopy_manager_v1 *m,
						      struct frame_state *st, struct buffer **b)
{
	struct zwlr_screencopy_frame_v1 *frame = zwlr_screencopy_manager_v1_capture_output(
		m, 0, client_first_output(c)->wl_output);

	zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, st);
	check(t, client_dispatch_until(c, &st->buffer_done));
	check_int(t, st->width, ==, 320);
	*b = buffer_create(c, (int32_t)st->width, (int32_t)st->height, WL_SHM_FORMAT_XRGB8888);
	return frame;
}

TEST(copy_with_damage_waits_for_the_next_change)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = bind_manager(c);
	struct frame_state st = {0};
	struct buffer *shown, *target, *green;
	struct client_surface *s = surface_create_placed(c, 40, 30, 50, 20, 0xffff0000, &shown);
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	check(t, surface_commit_and_wait_frame(s));
	frame = start_capture(t, c, m, &st, &target);
	zwlr_screencopy_frame_v1_copy_with_damage(frame, target->wl_buffer);
	/* Nothing changes on screen: no answer, however long we wait. */
	client_dispatch_for(c, 3 * NEGATIVE_WAIT_MS);
	check(t, !st.ready && !st.failed);

	/* The surface turns green: the copy is made from that frame, its damage reported. */
	green = buffer_create(c, 50, 20, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(green, 0xff00ff00);
	surface_show(s, green);
	check(t, client_dispatch_until(c, &st.ready));
	check(t, !st.failed);
	check_int(t, st.damage_events, >=, 1);
	check(t, st.damage_x1 <= 40 && st.damage_y1 <= 30 && st.damage_x2 >= 90 &&
		 st.damage_y2 >= 50);
	/* Only what changed: not the whole output. */
	check(t, st.damage_x2 - st.damage_x1 < 320 || st.damage_y2 - st.damage_y1 < 240);
	check_int(t, image_pixel(target->image, 60, 40) & 0xffffff, ==, 0x00ff00);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	buffer_destroy(green);
	buffer_destroy(shown);
	surface_destroy(s);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}

TEST(copy_answers_at_once)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = bind_manager(c);
	struct frame_state st = {0};
	struct buffer *shown, *target;
	struct client_surface *s = surface_create_placed(c, 10, 10, 30, 30, 0xff0000ff, &shown);
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	check(t, surface_commit_and_wait_frame(s));
	frame = start_capture(t, c, m, &st, &target);
	zwlr_screencopy_frame_v1_copy(frame, target->wl_buffer);
	check(t, client_dispatch_until(c, &st.ready));
	check_int(t, st.damage_events, ==, 0);
	check_int(t, image_pixel(target->image, 20, 20) & 0xffffff, ==, 0x0000ff);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	buffer_destroy(shown);
	surface_destroy(s);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}

TEST(copy_with_damage_fails_when_the_buffer_goes)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = bind_manager(c);
	struct frame_state st = {0};
	struct buffer *target;
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	frame = start_capture(t, c, m, &st, &target);
	zwlr_screencopy_frame_v1_copy_with_damage(frame, target->wl_buffer);
	buffer_destroy(target);
	check(t, client_dispatch_until(c, &st.failed));
	check(t, !st.ready);
	zwlr_screencopy_frame_v1_destroy(frame);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}
