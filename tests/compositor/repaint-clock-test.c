// SPDX-License-Identifier: MIT
// The repaint clock from the outside: with a slow renderer (garnet_test.set_repaint) a fixed
// 7 ms window misses every vblank and the measured window none; with a light scene the
// measured window starts the repaint later than 7 ms before the vblank.
#include <stdlib.h>

#include "harness.h"

struct presented {
	bool presented, discarded;
	int64_t ns;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *fb,
			   struct wl_output *output)
{
}

static void fb_presented(void *data, struct wp_presentation_feedback *fb, uint32_t sec_hi,
			 uint32_t sec_lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi,
			 uint32_t seq_lo, uint32_t flags)
{
	struct presented *p = data;

	p->presented = true;
	p->ns = (int64_t)((uint64_t)sec_hi << 32 | sec_lo) * 1000000000 + nsec;
	wp_presentation_feedback_destroy(fb);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *fb)
{
	struct presented *p = data;

	p->discarded = true;
	wp_presentation_feedback_destroy(fb);
}

static const struct wp_presentation_feedback_listener fb_listener = {
	fb_sync_output, fb_presented, fb_discarded,
};

/* Like weston-presentation-shm -f: a new frame as soon as the last one is shown, for frames
 * frames; returns how many vblanks passed without one of them (a gap between two presented
 * frames longer than 1.5 periods counts each whole period beyond the first). */
static int missed_vblanks(struct test_context *t, struct client_surface *s, struct buffer *b,
			  int frames, int64_t period_ns)
{
	struct presented *p = calloc((size_t)frames, sizeof(*p));
	int missed = 0;

	check(t, p);
	for (int i = 0; i < frames; i++) {
		struct wp_presentation_feedback *fb =
			wp_presentation_feedback(s->client->presentation, s->wl_surface);

		wp_presentation_feedback_add_listener(fb, &fb_listener, &p[i]);
		buffer_fill(b, 0xff000000u | (uint32_t)(i * 0x102030));
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 0, 0, 64, 64);
		check(t, surface_commit_and_wait_frame(s));
		check(t, client_dispatch_until(s->client, &p[i].presented));
	}
	for (int i = 1; i < frames; i++) {
		int64_t gap = p[i].ns - p[i - 1].ns;

		if (gap > period_ns * 3 / 2)
			missed += (int)((gap + period_ns / 2) / period_ns) - 1;
	}
	free(p);
	return missed;
}

/* 5 Hz and 80 ms renders: wide margins for a loaded machine. A fixed 7 ms window starts the
 * render 7 ms before the vblank, so every frame lands a vblank late; the measured window starts
 * it about 100 ms before, and every frame makes its vblank. */
TEST_WITH(slow_renders_start_early_and_miss_no_frame, NULL, {320, 240, 1, 0, 5000})
{
	struct client *c = client_create(t);
	struct client_output *o = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 64, 64, 0xff00ff00, &b);
	const int64_t period = 200000000;
	int missed;

	check(t, surface_commit_and_wait_frame(s));
	garnet_test_set_repaint(c->garnet_test, o->wl_output, 80000, 7000);
	missed = missed_vblanks(t, s, b, 6, period);
	/* 5 gaps of two periods each: the fixed window misses every time. */
	check_int(t, missed, >=, 4);

	garnet_test_set_repaint(c->garnet_test, o->wl_output, 80000, -1);
	/* The first slow frames teach the clock (recent ones count first: see the unit test). */
	check_int(t, missed_vblanks(t, s, b, 2, period), <=, 1);
	query_repaint(c, o);
	check_int(t, c->render_p90_us, >=, 80000);
	check_int(t, c->repaint_window_us, >=, 80000 + 80000 / 4);
	check_int(t, missed_vblanks(t, s, b, 8, period), ==, 0);

	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(light_renders_start_later_than_a_fixed_7ms, NULL, {320, 240, 1, 0, 60000})
{
	struct client *c = client_create(t);
	struct client_output *o = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 64, 64, 0xff00ff00, &b);

	query_repaint(c, o);
	/* Nothing measured yet: the prior, Weston's 7 ms. */
	check_int(t, c->render_p90_us, ==, -1);
	check_int(t, c->repaint_window_us, ==, 7000);
	for (int i = 0; i < 20; i++) {
		buffer_fill(b, 0xff000000u | (uint32_t)(i * 0x0a0b0c));
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 0, 0, 64, 64);
		check(t, surface_commit_and_wait_frame(s));
	}
	query_repaint(c, o);
	check_int(t, c->render_p90_us, >=, 0);
	check_int(t, c->repaint_window_us, <, 7000);
	check_int(t, c->repaint_window_us, >=, 3000);

	/* A fixed window is what it says. */
	garnet_test_set_repaint(c->garnet_test, o->wl_output, 0, 7000);
	query_repaint(c, o);
	check_int(t, c->repaint_window_us, ==, 7000);

	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}
