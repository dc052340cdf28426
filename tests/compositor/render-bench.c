// SPDX-License-Identifier: MIT
// How long a frame takes, from commit to frame callback, on a 1920x1080 output: one full-screen
// translucent window over twenty others (everything repainted), then the same scene with a
// small damaged corner (damage tracking and culling at work); and the compositor's CPU per
// frame with ten windows like weston-simple-shm (250x250, two buffers each, all redrawn every
// frame). Prints Go-benchmark lines.
#include <stdio.h>
#include <time.h>

#include "harness.h"

#define FRAMES 40
#define SHM_WINDOWS 10
#define SHM_FRAMES 200

static double clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
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

/* The compositor runs in this process, the test body (the clients) in a thread of its own: the
 * process's CPU time less this thread's is what the compositor spent. */
TEST_WITH(ten_shm_windows_compositor_cpu_per_frame, NULL, {1920, 1080, 1, 0, 0})
{
	struct client *c = client_create(t);
	struct client_surface *w[SHM_WINDOWS];
	struct buffer *b[SHM_WINDOWS][2];
	double process, thread, wall;

	for (int i = 0; i < SHM_WINDOWS; i++) {
		w[i] = surface_create_placed(c, (i % 5) * 300 + 50, (i / 5) * 300 + 50, 250, 250,
					     0xff000000u, &b[i][0]);
		b[i][1] = buffer_create(c, 250, 250, WL_SHM_FORMAT_XRGB8888);
	}
	pixman_image_unref(capture_output(c, client_first_output(c)));
	process = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	thread = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	wall = now_ms();
	for (int f = 0; f < SHM_FRAMES; f++) {
		for (int i = 0; i < SHM_WINDOWS; i++) {
			struct buffer *next = b[i][(f + 1) & 1];

			buffer_fill(next, 0xff000000u | (uint32_t)(f * 0x010203 + i * 0x0a0000));
			wl_surface_attach(w[i]->wl_surface, next->wl_buffer, 0, 0);
			wl_surface_damage_buffer(w[i]->wl_surface, 0, 0, 250, 250);
			/* All ten in the frame the last one waits for. */
			if (i < SHM_WINDOWS - 1)
				wl_surface_commit(w[i]->wl_surface);
		}
		check(t, surface_commit_and_wait_frame(w[SHM_WINDOWS - 1]));
	}
	wall = now_ms() - wall;
	thread = clock_ms(CLOCK_THREAD_CPUTIME_ID) - thread;
	process = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - process;
	printf("# BenchmarkRender/ten_shm_windows %d %.3f ms/frame %.3f ms-compositor-cpu/frame\n",
	       SHM_FRAMES, wall / SHM_FRAMES, (process - thread) / SHM_FRAMES);

	for (int i = 0; i < SHM_WINDOWS; i++) {
		buffer_destroy(b[i][0]);
		buffer_destroy(b[i][1]);
		surface_destroy(w[i]);
	}
	client_destroy(c);
}
