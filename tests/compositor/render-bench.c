// SPDX-License-Identifier: MIT
// How long a frame takes, from commit to frame callback, on a 1920x1080 output: one full-screen
// translucent window over twenty others (everything repainted), then the same scene with a
// small damaged corner (damage tracking and culling at work). Prints Go-benchmark lines.
#include <stdio.h>
#include <time.h>

#include "harness.h"

#define FRAMES 40

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double run(struct test_context *t, struct client_surface *s, struct buffer *b, int32_t w,
		  int32_t h)
{
	double start = now_ms();

	for (int i = 0; i < FRAMES; i++) {
		buffer_fill_rect(b, 0, 0, w, h, 0x80000000u | (uint32_t)(i * 5));
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 0, 0, w, h);
		check(t, surface_commit_and_wait_frame(s));
	}
	return (now_ms() - start) / FRAMES;
}

TEST_WITH(render_cost_per_frame, NULL, {1920, 1080, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct client_surface *below[20], *top;
	struct buffer *top_buffer;
	double full, small;

	for (int i = 0; i < 20; i++)
		below[i] = surface_create_placed(c, (i % 5) * 380, (i / 5) * 260, 500, 500,
						 0xff000000u | (uint32_t)(i * 0x0a0b0c), NULL);
	top = surface_create_placed(c, 0, 0, 1920, 1080, 0x80202020, &top_buffer);
	pixman_image_unref(capture_output(c, client_first_output(c)));

	full = run(t, top, top_buffer, 1920, 1080);
	small = run(t, top, top_buffer, 64, 64);
	printf("# BenchmarkRender/fullscreen_over_20 %d %.3f ms/frame\n", FRAMES, full);
	printf("# BenchmarkRender/damage_64x64 %d %.3f ms/frame\n", FRAMES, small);
	/* That the small update repaints only its corner is a test (surface_test,
	 * small_damage_over_a_translucent_full_screen_scene_repaints_only_it): here, figures. */

	buffer_destroy(top_buffer);
	surface_destroy(top);
	for (int i = 0; i < 20; i++)
		surface_destroy(below[i]);
	client_destroy(c);
}
