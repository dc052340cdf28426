// SPDX-License-Identifier: MIT
// The smaller protocols: presentation feedback, viewporter, single-pixel buffers, xdg-output,
// xdg-decoration, and the globals and versions garnet advertises.
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

struct feedback_state {
	bool presented, discarded, synced;
	uint64_t sec;
	uint32_t nsec, refresh, seq_lo;
};

static void fb_sync_output(void *data, struct wp_presentation_feedback *fb,
			   struct wl_output *output)
{
	struct feedback_state *st = data;

	st->synced = true;
}

static void fb_presented(void *data, struct wp_presentation_feedback *fb, uint32_t sec_hi,
			 uint32_t sec_lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi,
			 uint32_t seq_lo, uint32_t flags)
{
	struct feedback_state *st = data;

	st->presented = true;
	st->sec = (uint64_t)sec_hi << 32 | sec_lo;
	st->nsec = nsec;
	st->refresh = refresh;
	st->seq_lo = seq_lo;
	wp_presentation_feedback_destroy(fb);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *fb)
{
	struct feedback_state *st = data;

	st->discarded = true;
	wp_presentation_feedback_destroy(fb);
}

static const struct wp_presentation_feedback_listener fb_listener = {
	fb_sync_output, fb_presented, fb_discarded,
};

TEST_WITH(presentation_feedback_reports_real_timestamps, NULL, {320, 240, 1, 0, 60000})
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 32, 32, 0xff00ff00, &b);
	struct feedback_state st = {0};
	struct wp_presentation_feedback *fb;
	struct timespec before, after;

	check(t, c->has_presentation_clock);
	check_int(t, c->presentation_clock, ==, CLOCK_MONOTONIC);
	clock_gettime(CLOCK_MONOTONIC, &before);
	fb = wp_presentation_feedback(c->presentation, s->wl_surface);
	wp_presentation_feedback_add_listener(fb, &fb_listener, &st);
	buffer_fill(b, 0xff0000ff);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 32, 32);
	check(t, surface_commit_and_wait_frame(s));
	client_dispatch_until(c, &st.presented);
	clock_gettime(CLOCK_MONOTONIC, &after);
	check(t, st.presented);
	check(t, st.synced);
	check(t, st.sec * 1000000000ull + st.nsec >=
			 (uint64_t)before.tv_sec * 1000000000ull + (uint64_t)before.tv_nsec);
	check(t, st.sec * 1000000000ull + st.nsec <=
			 (uint64_t)after.tv_sec * 1000000000ull + (uint64_t)after.tv_nsec);
	/* 60 Hz: 16.67 ms per frame. */
	check_int(t, st.refresh, ==, 16666666);
	check_int(t, st.seq_lo, >=, 1);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(replaced_commit_feedback_is_discarded)
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 32, 32, 0xff00ff00, &b);
	struct feedback_state first = {0}, second = {0};
	struct wp_presentation_feedback *fb;

	/* Two commits before any repaint: the first content is never shown. */
	fb = wp_presentation_feedback(c->presentation, s->wl_surface);
	wp_presentation_feedback_add_listener(fb, &fb_listener, &first);
	wl_surface_commit(s->wl_surface);
	fb = wp_presentation_feedback(c->presentation, s->wl_surface);
	wp_presentation_feedback_add_listener(fb, &fb_listener, &second);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 32, 32);
	wl_surface_commit(s->wl_surface);
	client_dispatch_until(c, &second.presented);
	check(t, first.discarded);
	check(t, second.presented);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(repaint_waits_for_the_repaint_window, NULL, {320, 240, 1, 0, 2000})
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 32, 32, 0xff00ff00, &b);
	struct feedback_state first = {0}, second = {0};
	struct wp_presentation_feedback *fb;

	/* Right after a vblank (2 Hz: 500 ms apart, so a loaded machine has time), two commits
	 * 50 ms apart. Painting at once would show the first and push the second a frame later;
	 * painting late, just before the next vblank, shows only the second in that frame. */
	check(t, surface_commit_and_wait_frame(s));
	fb = wp_presentation_feedback(c->presentation, s->wl_surface);
	wp_presentation_feedback_add_listener(fb, &fb_listener, &first);
	buffer_fill(b, 0xff0000ff);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 32, 32);
	wl_surface_commit(s->wl_surface);
	wl_display_flush(c->display);
	usleep(50000);
	fb = wp_presentation_feedback(c->presentation, s->wl_surface);
	wp_presentation_feedback_add_listener(fb, &fb_listener, &second);
	buffer_fill(b, 0xffff0000);
	wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 32, 32);
	wl_surface_commit(s->wl_surface);
	check(t, client_dispatch_until(c, &second.presented));
	check(t, first.discarded);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST_WITH(frame_callbacks_are_paced_by_refresh, NULL, {320, 240, 1, 0, 100000})
{
	struct client *c = client_create(t);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 32, 32, 0xff00ff00, &b);
	struct timespec start, end;
	int64_t elapsed_ms;

	check(t, surface_commit_and_wait_frame(s));
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < 10; i++) {
		buffer_fill(b, 0xff000000u | (uint32_t)(i * 20));
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage(s->wl_surface, 0, 0, 32, 32);
		check(t, surface_commit_and_wait_frame(s));
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	elapsed_ms = (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000;
	/* 10 frames at 100 Hz take about 100 ms: never faster than the refresh allows. */
	check_int(t, elapsed_ms, >=, 85);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(viewport_scales_and_crops)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 20, 20, WL_SHM_FORMAT_XRGB8888);
	struct wp_viewport *vp = wp_viewporter_get_viewport(c->viewporter, s->wl_surface);
	pixman_image_t *shot;

	buffer_fill(b, 0xffff0000);
	buffer_fill_rect(b, 10, 0, 10, 20, 0xff00ff00);
	garnet_test_move_surface(c->garnet_test, s->wl_surface, 0, 0);
	/* The right half (green) scaled to 100x50. */
	wp_viewport_set_source(vp, wl_fixed_from_int(10), wl_fixed_from_int(0),
			       wl_fixed_from_int(10), wl_fixed_from_int(20));
	wp_viewport_set_destination(vp, 100, 50);
	surface_show(s, b);
	shot = capture_output(c, client_first_output(c));
	/* Away from the crop edge, where filtering may blend in the red neighbour. */
	check_int(t, image_pixel(shot, 8, 8), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 98, 48), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 101, 10), ==, 0xff203040u);
	check_int(t, image_pixel(shot, 10, 51), ==, 0xff203040u);
	pixman_image_unref(shot);
	wp_viewport_destroy(vp);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

/* A 20x20 buffer shown through a viewport with this source must end in error code. */
static void expect_source_error(struct test_context *t, double x, double w, uint32_t code)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct buffer *b = buffer_create(c, 20, 20, WL_SHM_FORMAT_XRGB8888);
	struct wp_viewport *vp = wp_viewporter_get_viewport(c->viewporter, s->wl_surface);

	wp_viewport_set_source(vp, wl_fixed_from_double(x), 0, wl_fixed_from_double(w),
			       wl_fixed_from_int(10));
	surface_show(s, b);
	client_expect_protocol_error(c, &wp_viewport_interface, code);
	wp_viewport_destroy(vp);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(fractional_source_without_destination_is_an_error)
{
	expect_source_error(t, 0, 10.5, WP_VIEWPORT_ERROR_BAD_SIZE);
}

TEST(source_outside_buffer_is_an_error)
{
	expect_source_error(t, 10, 20, WP_VIEWPORT_ERROR_OUT_OF_BUFFER);
}

TEST(second_viewport_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct wp_viewport *a = wp_viewporter_get_viewport(c->viewporter, s->wl_surface);
	struct wp_viewport *b = wp_viewporter_get_viewport(c->viewporter, s->wl_surface);

	client_expect_protocol_error(c, &wp_viewporter_interface,
				     WP_VIEWPORTER_ERROR_VIEWPORT_EXISTS);
	wp_viewport_destroy(a);
	wp_viewport_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

TEST(single_pixel_buffer_fills_viewport_destination)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct wl_buffer *b = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		c->single_pixel, 0, 0, UINT32_MAX, UINT32_MAX);
	struct wp_viewport *vp = wp_viewporter_get_viewport(c->viewporter, s->wl_surface);
	pixman_image_t *shot;

	garnet_test_move_surface(c->garnet_test, s->wl_surface, 10, 10);
	wp_viewport_set_destination(vp, 30, 20);
	wl_surface_attach(s->wl_surface, b, 0, 0);
	wl_surface_damage(s->wl_surface, 0, 0, 30, 20);
	wl_surface_commit(s->wl_surface);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 10, 10), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 39, 29), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 40, 29), ==, 0xff203040u);
	pixman_image_unref(shot);
	wp_viewport_destroy(vp);
	wl_buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}

struct xdg_output_state {
	int32_t x, y, w, h;
	char name[32];
};

static void xo_position(void *data, struct zxdg_output_v1 *o, int32_t x, int32_t y)
{
	struct xdg_output_state *st = data;

	st->x = x;
	st->y = y;
}

static void xo_size(void *data, struct zxdg_output_v1 *o, int32_t w, int32_t h)
{
	struct xdg_output_state *st = data;

	st->w = w;
	st->h = h;
}

static void xo_done(void *data, struct zxdg_output_v1 *o)
{
}

static void xo_name(void *data, struct zxdg_output_v1 *o, const char *name)
{
	struct xdg_output_state *st = data;

	snprintf(st->name, sizeof(st->name), "%s", name);
}

static void xo_description(void *data, struct zxdg_output_v1 *o, const char *d)
{
}

static const struct zxdg_output_v1_listener xo_listener = {xo_position, xo_size, xo_done,
							   xo_name, xo_description};

TEST_WITH(xdg_output_reports_logical_geometry, NULL, {400, 300, 2, 0, 0}, {200, 100, 1, 1, 0})
{
	struct client *c = client_create(t);
	struct client_output *out;
	int seen = 0;

	wl_list_for_each(out, &c->outputs, link) {
		struct xdg_output_state st = {0};
		struct zxdg_output_v1 *xo =
			zxdg_output_manager_v1_get_xdg_output(c->xdg_output_manager, out->wl_output);

		zxdg_output_v1_add_listener(xo, &xo_listener, &st);
		client_roundtrip(c);
		if (strcmp(st.name, "HEADLESS-1") == 0) {
			check_int(t, st.x, ==, 0);
			check_int(t, st.w, ==, 200);
			check_int(t, st.h, ==, 150);
			seen++;
		} else if (strcmp(st.name, "HEADLESS-2") == 0) {
			/* Turned 90 degrees: 100 wide, 200 tall, right of the first. */
			check_int(t, st.x, ==, 200);
			check_int(t, st.w, ==, 100);
			check_int(t, st.h, ==, 200);
			seen++;
		}
		zxdg_output_v1_destroy(xo);
	}
	check_int(t, seen, ==, 2);
	client_destroy(c);
}

struct decoration_state {
	uint32_t mode;
};

static void deco_configure(void *data, struct zxdg_toplevel_decoration_v1 *d, uint32_t mode)
{
	struct decoration_state *st = data;

	st->mode = mode;
}

static const struct zxdg_toplevel_decoration_v1_listener deco_listener = {deco_configure};

TEST(decoration_is_client_side)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct zxdg_toplevel_decoration_v1 *deco;
	struct decoration_state st = {0};

	s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
	s->xdg_toplevel = xdg_surface_get_toplevel(s->xdg_surface);
	deco = zxdg_decoration_manager_v1_get_toplevel_decoration(c->decoration_manager,
								   s->xdg_toplevel);
	zxdg_toplevel_decoration_v1_add_listener(deco, &deco_listener, &st);
	zxdg_toplevel_decoration_v1_set_mode(deco, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE);
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	check_int(t, st.mode, ==, ZXDG_TOPLEVEL_DECORATION_V1_MODE_CLIENT_SIDE);
	zxdg_toplevel_decoration_v1_destroy(deco);
	surface_destroy(s);
	client_destroy(c);
}

struct version_probe {
	const char *name;
	uint32_t min_version;
	uint32_t found;
};

static void probe_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
			 uint32_t version)
{
	struct version_probe *p = data;

	for (; p->name; p++) {
		if (strcmp(p->name, iface) == 0)
			p->found = version;
	}
}

static void probe_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

static const struct wl_registry_listener probe_listener = {probe_global, probe_remove};

TEST(core_globals_are_advertised_with_the_versions_clients_need)
{
	struct client *c = client_create_bare(t);
	struct version_probe probes[] = {
		{"wl_compositor", 5},
		{"wl_subcompositor", 1},
		{"wl_shm", 1},
		{"wl_seat", 7},
		{"wl_output", 4},
		{"wl_data_device_manager", 3},
		{"xdg_wm_base", 4},
		{"zxdg_decoration_manager_v1", 1},
		{"zxdg_output_manager_v1", 3},
		{"wp_viewporter", 1},
		{"wp_presentation", 1},
		{"zwp_primary_selection_device_manager_v1", 1},
		{"wp_single_pixel_buffer_manager_v1", 1},
		{NULL, 0},
	};
	struct wl_registry *registry = wl_display_get_registry(c->display);

	wl_registry_add_listener(registry, &probe_listener, probes);
	client_roundtrip(c);
	for (struct version_probe *p = probes; p->name; p++) {
		if (p->found < p->min_version)
			test_fail(t, __FILE__, __LINE__, "%s: version %u, need %u", p->name,
				  p->found, p->min_version);
	}
	wl_registry_destroy(registry);
	client_destroy(c);
}

TEST(shm_offers_argb_xrgb_and_more)
{
	struct client *c = client_create(t);

	check(t, c->shm_formats & (1u << WL_SHM_FORMAT_ARGB8888));
	check(t, c->shm_formats & (1u << WL_SHM_FORMAT_XRGB8888));
	client_destroy(c);
}
