// SPDX-License-Identifier: MIT
// wl_surface semantics, repaint pacing, damage and the renderer, seen from real clients.
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

#define BACKGROUND 0xff203040u

TEST(surface_shows_buffer_at_its_place)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 20, 30, 100, 50, 0xffff0000, NULL);
	pixman_image_t *shot = capture_output(c, client_first_output(c));

	check_int(t, image_pixel(shot, 20, 30), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 119, 79), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 19, 30), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 120, 79), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 20, 80), ==, BACKGROUND);
	check_int(t, s->entered_outputs, ==, 1);
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST(stacking_and_alpha_match_reference)
{
	struct client *c = client_create(t);
	struct client_surface *below = surface_create_placed(c, 40, 40, 160, 120, 0xff0000ff, NULL);
	/* Premultiplied half-transparent red above. */
	struct client_surface *above = surface_create_placed(c, 120, 80, 150, 100, 0x80800000,
							     NULL);
	pixman_image_t *shot = capture_output(c, client_first_output(c));

	/* red 0x80 over blue 0xff * (1 - 0.5) */
	check_int(t, image_pixel(shot, 150, 100), ==, 0xff80007fu);
	check_int(t, image_pixel(shot, 50, 50), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 260, 170), ==, 0xff901820u);
	check_screenshot(t, shot, "surface-stacking");
	pixman_image_unref(shot);
	surface_destroy(above);
	surface_destroy(below);
	client_destroy(c);
}

TEST(frame_callback_fires_once_per_repaint)
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 64, 64, 0xff00ff00, &b);

	buffer_fill(b, 0xff00ffff);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 64, 64);
	check(t, surface_commit_and_wait_frame(s));
	/* A callback with nothing new still gets its frame (the client asked), but only one. */
	check(t, surface_commit_and_wait_frame(s));
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

static void count_done(void *data, struct wl_callback *cb, uint32_t time)
{
	(*(int *)data)++;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener count_listener = {count_done};

TEST(no_frame_callback_for_unmapped_surface)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	int done = 0;
	struct wl_callback *cb = wl_surface_frame(s->wl_surface);

	wl_callback_add_listener(cb, &count_listener, &done);
	wl_surface_commit(s->wl_surface);
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	check_int(t, done, ==, 0);
	wl_callback_destroy(cb);
	surface_destroy(s);
	client_roundtrip(c);
	client_destroy(c);
}

TEST(no_frame_callback_for_surface_outside_every_output)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 1000, 1000, 20, 20, 0xffff0000, NULL);
	int done = 0;
	struct wl_callback *cb = wl_surface_frame(s->wl_surface);

	wl_callback_add_listener(cb, &count_listener, &done);
	wl_surface_commit(s->wl_surface);
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	check_int(t, done, ==, 0);
	check_int(t, s->entered_outputs, ==, 0);
	/* Moved onto the output, it is drawn and its callback fires. */
	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	check_int(t, done, ==, 1);
	surface_destroy(s);
	client_destroy(c);
}

TEST(unchanged_scene_is_not_repainted)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct client_surface *s = surface_create_placed(c, 10, 10, 50, 50, 0xffffffff, NULL);
	uint32_t frames, renders;

	pixman_image_unref(capture_output(c, out));
	query_output_stats(c, out);
	frames = c->stats[0];
	renders = c->stats[1];
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	query_output_stats(c, out);
	check_int(t, c->stats[0], ==, frames);
	check_int(t, c->stats[1], ==, renders);
	/* A commit without damage and without callbacks repaints nothing either. */
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	client_dispatch_for(c, NEGATIVE_WAIT_MS);
	query_output_stats(c, out);
	check_int(t, c->stats[1], ==, renders);
	surface_destroy(s);
	client_destroy(c);
}

/* The render benchmark's scene (compositor_render_bench): a translucent full-screen window
 * over twenty others. A small damaged corner must repaint that corner and nothing else,
 * counted in pixels rather than timed. */
TEST_WITH(small_damage_over_a_translucent_full_screen_scene_repaints_only_it, NULL,
	  {1920, 1080, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct client_surface *below[20], *top;
	struct buffer *b;

	for (int i = 0; i < 20; i++)
		below[i] = surface_create_placed(c, (i % 5) * 380, (i / 5) * 260, 500, 500,
						 0xff000000u | (uint32_t)(i * 0x0a0b0c), NULL);
	top = surface_create_placed(c, 0, 0, 1920, 1080, 0x80202020, &b);
	/* Three times, so that the last paints into a buffer that saw the ones before (its age). */
	for (int i = 0; i < 3; i++) {
		buffer_fill_rect(b, 0, 0, 64, 64, 0x80000000u | (uint32_t)(i * 5));
		wl_surface_attach(top->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(top->wl_surface, 0, 0, 64, 64);
		check(t, surface_commit_and_wait_frame(top));
	}
	query_output_stats(c, out);
	check_int(t, c->stats[2], >=, 64 * 64);
	check_int(t, c->stats[2], <=, 2 * 64 * 64); /* this frame's and the last one's, at most */
	buffer_destroy(b);
	surface_destroy(top);
	for (int i = 0; i < 20; i++)
		surface_destroy(below[i]);
	client_destroy(c);
}

TEST(damage_repaints_only_the_damaged_area)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 100, 100, 100, 100, 0xff000000, &b);
	pixman_image_t *shot;

	/* Two small updates: the second paints into a buffer two frames old, which lacks
	 * this frame's 32 pixels and the previous frame's 32 pixels, nothing else. */
	for (int i = 0; i < 2; i++) {
		buffer_fill_rect(b, 10, 10 + i * 4, 8, 4, 0xffffffff);
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 10, 10 + i * 4, 8, 4);
		check(t, surface_commit_and_wait_frame(s));
	}
	query_output_stats(c, out);
	check_int(t, c->stats[2], <=, 64);
	check_int(t, c->stats[2], >=, 32);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 110, 110), ==, 0xffffffffu);
	check_int(t, image_pixel(shot, 117, 117), ==, 0xffffffffu);
	check_int(t, image_pixel(shot, 118, 117), ==, 0xff000000u);
	check_int(t, image_pixel(shot, 117, 118), ==, 0xff000000u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(surface_damage_in_surface_coordinates_updates_content)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 40, 40, 0xff000000, &b);
	pixman_image_t *shot;

	buffer_fill(b, 0xff00ff00);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(s->wl_surface);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 39, 39), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

/* garnet reads the buffer in place at every repaint: it stays garnet's while shown, and
 * is the client's again once another buffer replaced it. */
TEST(buffer_is_held_while_shown_and_released_when_replaced)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b, *next = buffer_create(c, 16, 16, WL_SHM_FORMAT_ARGB8888);
	struct client_surface *s = surface_create_placed(c, 0, 0, 16, 16, 0xff123456, &b);
	pixman_image_t *shot;

	shot = capture_output(c, out);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check(t, !b->released);
	buffer_fill(next, 0xff654321);
	surface_show(s, next);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 8, 8), ==, 0xff654321u);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check(t, b->released);
	check(t, !next->released);
	surface_show(s, NULL);
	client_roundtrip(c);
	check(t, next->released);
	buffer_destroy(next);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(null_attach_unmaps_surface)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 30, 30, 0xffff00ff, NULL);
	pixman_image_t *shot;

	surface_show(s, NULL);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10, 10), ==, BACKGROUND);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check_int(t, s->entered_outputs, ==, 0);
	surface_destroy(s);
	client_destroy(c);
}

TEST(input_region_decides_pointer_target)
{
	struct client *c = client_create(t);
	struct client_surface *below = surface_create_placed(c, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *above = surface_create_placed(c, 0, 0, 100, 100, 0x40404040, NULL);
	struct wl_region *region = wl_compositor_create_region(c->compositor);

	wl_region_add(region, 0, 0, 50, 100);
	wl_surface_set_input_region(above->wl_surface, region);
	wl_surface_commit(above->wl_surface);
	wl_region_destroy(region);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(75), wl_fixed_from_int(10));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == below->wl_surface);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(25), wl_fixed_from_int(10));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == above->wl_surface);
	surface_destroy(above);
	surface_destroy(below);
	client_destroy(c);
}

TEST(surface_state_is_double_buffered)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct wl_region *empty = wl_compositor_create_region(c->compositor);
	pixman_image_t *shot;

	/* Scale and input region set but not committed: nothing changes yet. */
	wl_surface_set_buffer_scale(s->wl_surface, 2);
	wl_surface_set_input_region(s->wl_surface, empty);
	wl_region_destroy(empty);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(80), wl_fixed_from_int(80));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == s->wl_surface);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 80, 80), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	/* Committed: half the size, and no input anywhere. */
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 80, 80), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 40, 40), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(20), wl_fixed_from_int(20));
	client_roundtrip(c);
	check(t, c->input.pointer_focus == NULL);
	surface_destroy(s);
	client_destroy(c);
}

TEST(opaque_region_lets_alpha_buffer_hide_what_is_below)
{
	struct client *c = client_create(t);
	struct client_surface *below = surface_create_placed(c, 0, 0, 60, 60, 0xffff0000, NULL);
	struct buffer *b;
	struct client_surface *above = surface_create_placed(c, 0, 0, 60, 60, 0xff00ff00, &b);
	struct wl_region *region = wl_compositor_create_region(c->compositor);
	pixman_image_t *shot;

	wl_region_add(region, 0, 0, 60, 60);
	wl_surface_set_opaque_region(above->wl_surface, region);
	wl_region_destroy(region);
	wl_surface_attach(above->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(above->wl_surface, 0, 0, 60, 60);
	wl_surface_commit(above->wl_surface);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 30, 30), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(above);
	surface_destroy(below);
	client_destroy(c);
}

TEST(surface_hidden_by_opaque_surface_is_not_painted)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct client_surface *below = surface_create_placed(c, 10, 10, 50, 50, 0xffff0000, NULL);
	struct client_surface *above = surface_create(c);
	struct buffer *b = buffer_create(c, 100, 100, WL_SHM_FORMAT_XRGB8888);

	buffer_fill(b, 0xff00ff00);
	garnet_test_move_surface(c->garnet_test, above->wl_surface, 0, 0);
	surface_show(above, b);
	pixman_image_unref(capture_output(c, out));
	/* Damage both: only the one on top is drawn, the one it covers is culled. */
	wl_surface_damage(below->wl_surface, 0, 0, 50, 50);
	wl_surface_commit(below->wl_surface);
	wl_surface_damage(above->wl_surface, 0, 0, 100, 100);
	check(t, surface_commit_and_wait_frame(above));
	query_output_stats(c, out);
	check_int(t, c->stats[5], ==, 1);
	buffer_destroy(b);
	surface_destroy(above);
	surface_destroy(below);
	client_destroy(c);
}

TEST(invalid_buffer_scale_is_a_protocol_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);

	wl_surface_set_buffer_scale(s->wl_surface, 0);
	client_expect_protocol_error(c, &wl_surface_interface, WL_SURFACE_ERROR_INVALID_SCALE);
	surface_destroy(s);
	client_destroy(c);
}

TEST(invalid_buffer_transform_is_a_protocol_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);

	wl_surface_set_buffer_transform(s->wl_surface, 8);
	client_expect_protocol_error(c, &wl_surface_interface,
				     WL_SURFACE_ERROR_INVALID_TRANSFORM);
	surface_destroy(s);
	client_destroy(c);
}

TEST(attach_offset_on_v5_is_a_protocol_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 4, 4, WL_SHM_FORMAT_ARGB8888);

	wl_surface_attach(s->wl_surface, b->wl_buffer, 1, 0);
	client_expect_protocol_error(c, &wl_surface_interface, WL_SURFACE_ERROR_INVALID_OFFSET);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(buffer_scale_2_halves_surface_size)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 80, 60, WL_SHM_FORMAT_XRGB8888);
	pixman_image_t *shot;

	buffer_fill(b, 0xff00ff00);
	buffer_fill_rect(b, 40, 0, 40, 60, 0xffff0000);
	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	wl_surface_set_buffer_scale(s->wl_surface, 2);
	surface_show(s, b);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10, 10), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 29, 39), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 30, 10), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 49, 39), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 50, 10), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 10, 40), ==, BACKGROUND);
	pixman_image_unref(shot);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

static void quadrant_buffer(struct buffer *b)
{
	int32_t hw = b->width / 2, hh = b->height / 2;

	buffer_fill_rect(b, 0, 0, hw, hh, 0xffff0000);
	buffer_fill_rect(b, hw, 0, hw, hh, 0xff00ff00);
	buffer_fill_rect(b, 0, hh, hw, hh, 0xff0000ff);
	buffer_fill_rect(b, hw, hh, hw, hh, 0xffffffff);
}

TEST(buffer_transforms_match_reference)
{
	struct client *c = client_create(t);
	struct client_surface *s[8];
	struct buffer *b[8];
	pixman_image_t *shot;

	for (int i = 0; i < 8; i++) {
		s[i] = surface_create(c);
		b[i] = buffer_create(c, 40, 24, WL_SHM_FORMAT_XRGB8888);
		quadrant_buffer(b[i]);
		garnet_test_move_surface(c->garnet_test, s[i]->wl_surface, 10 + (i % 4) * 70,
					 20 + (i / 4) * 100);
		wl_surface_set_buffer_transform(s[i]->wl_surface, i);
		surface_show(s[i], b[i]);
	}
	shot = capture_output(c, client_first_output(c));
	/* Transform 90: the buffer's top-left (red) quadrant ends up at the top right. */
	check_int(t, image_pixel(shot, 80 + 24 - 2, 21), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 80 + 1, 21), ==, 0xff0000ffu);
	check_screenshot(t, shot, "surface-buffer-transforms");
	pixman_image_unref(shot);
	for (int i = 0; i < 8; i++) {
		buffer_destroy(b[i]);
		surface_destroy(s[i]);
	}
	client_destroy(c);
}

TEST_WITH(output_scale_2_doubles_pixels, NULL, {200, 160, 2, 0, 0})
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct client_surface *s = surface_create_placed(c, 10, 10, 20, 20, 0xffffff00, NULL);
	pixman_image_t *shot = capture_output(c, out);

	check_int(t, out->scale, ==, 2);
	check_int(t, pixman_image_get_width(shot), ==, 200);
	check_int(t, image_pixel(shot, 20, 20), ==, 0xffffff00u);
	check_int(t, image_pixel(shot, 59, 59), ==, 0xffffff00u);
	check_int(t, image_pixel(shot, 60, 60), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 19, 19), ==, BACKGROUND);
	check_screenshot(t, shot, "output-scale-2");
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(output_transform_90_turns_the_picture, NULL, {200, 100, 1, 1, 0})
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct client_surface *s = surface_create_placed(c, 0, 0, 10, 20, 0xffff0000, NULL);
	pixman_image_t *shot = capture_output(c, out);

	/* The logical output is 100x200; its top-left corner is the framebuffer's top-right
	 * for a 90 degree output, which the framebuffer holds turned. */
	check_int(t, pixman_image_get_width(shot), ==, 200);
	check_int(t, image_pixel(shot, 0, 99), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 19, 90), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 20, 99), ==, BACKGROUND);
	check_int(t, image_pixel(shot, 0, 0), ==, BACKGROUND);
	check_screenshot(t, shot, "output-transform-90");
	pixman_image_unref(shot);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(partial_damage_on_turned_scaled_output, NULL, {200, 120, 2, 3, 0})
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 10, 10, 40, 40, 0xff000000, &b);
	pixman_image_t *full, *shot;
	int32_t changed = 0;

	full = capture_output(c, out);
	buffer_fill_rect(b, 5, 5, 2, 2, 0xffffffff);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 5, 5, 2, 2);
	check(t, surface_commit_and_wait_frame(s));
	shot = capture_output(c, out);
	query_output_stats(c, out);
	/* 2x2 logical pixels at scale 2 are 16 framebuffer pixels, wherever the turn puts them;
	 * this buffer is two frames old, so the map's damage is repainted too, but no more. */
	for (int32_t y = 0; y < 120; y++) {
		for (int32_t x = 0; x < 200; x++)
			changed += image_pixel(shot, x, y) != image_pixel(full, x, y);
	}
	check_int(t, changed, ==, 16);
	check_int(t, c->stats[2], <=, 16 + 80 * 80);
	pixman_image_unref(shot);
	pixman_image_unref(full);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(truncated_shm_pool_is_an_error_and_compositor_survives)
{
	struct client *c = client_create(t);
	struct client *other;
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 64, 64, WL_SHM_FORMAT_ARGB8888);
	struct client_surface *ok;
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 0, 0);
	/* Shrink the file under the pool: reading it would raise SIGBUS. */
	if (ftruncate(b->fd, 0) < 0)
		check(t, false);
	surface_show(s, b);
	client_expect_protocol_error(c, &wl_buffer_interface, WL_SHM_ERROR_INVALID_FD);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);

	other = client_create(t);
	ok = surface_create_placed(other, 0, 0, 10, 10, 0xff00ff00, NULL);
	shot = capture_output(other, client_first_output(other));
	check_int(t, image_pixel(shot, 5, 5), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	surface_destroy(ok);
	client_destroy(other);
}

TEST_WITH(surface_spanning_two_outputs_shows_on_both, NULL, {160, 120, 1, 0, 0},
	  {160, 120, 2, 0, 0})
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 140, 20, 40, 20, 0xff00ff00, NULL);
	struct client_output *out;
	int checked = 0;

	client_roundtrip(c);
	check_int(t, s->entered_outputs, ==, 2);
	wl_list_for_each(out, &c->outputs, link) {
		pixman_image_t *shot = capture_output(c, out);

		if (strcmp(out->name, "HEADLESS-1") == 0) {
			check_int(t, image_pixel(shot, 150, 30), ==, 0xff00ff00u);
			check_int(t, image_pixel(shot, 139, 30), ==, BACKGROUND);
			checked++;
		} else {
			/* The second output starts at x=160 and has scale 2: the surface's right
			 * 20 pixels are 40 there. */
			check_int(t, image_pixel(shot, 0, 40), ==, 0xff00ff00u);
			check_int(t, image_pixel(shot, 39, 79), ==, 0xff00ff00u);
			check_int(t, image_pixel(shot, 40, 40), ==, BACKGROUND);
			checked++;
		}
		pixman_image_unref(shot);
	}
	check_int(t, checked, ==, 2);
	surface_destroy(s);
	client_destroy(c);
}

/* A stride too small for the width would have garnet read beyond the pool (a crash, not a
 * SIGBUS libwayland can turn into an error): the buffer is refused with invalid_stride. */
TEST(buffer_with_a_stride_shorter_than_its_rows_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	int fd = memfd_create("garnet-short-stride", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;

	check(t, fd >= 0 && ftruncate(fd, 4096) == 0);
	pool = wl_shm_create_pool(c->shm, fd, 4096);
	close(fd);
	/* 4096 pixels of 4 bytes need 16384 bytes a row; the client says 4096. */
	buffer = wl_shm_pool_create_buffer(pool, 0, 4096, 1, 4096, WL_SHM_FORMAT_ARGB8888);
	wl_surface_attach(s->wl_surface, buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 4096, 1);
	wl_surface_commit(s->wl_surface);
	client_expect_protocol_error(c, &wl_buffer_interface, WL_SHM_ERROR_INVALID_STRIDE);
	wl_buffer_destroy(buffer);
	wl_shm_pool_destroy(pool);
	surface_destroy(s);
	client_destroy(c);
	check_compositor_serves(t);
}
