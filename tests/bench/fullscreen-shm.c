// SPDX-License-Identifier: MIT
// A fullscreen weston-simple-shm for the side-by-side benchmark: one xdg toplevel, fullscreen,
// redrawn whole from wl_shm every frame (up to three buffers), paced by frame callbacks, for -t seconds.
// Prints "frames N presented N missed N" (missed: vblanks without a new frame, from
// wp_presentation; "-" where the compositor only discards). Weston 10's own clients cannot be
// made fullscreen on a desktop shell.
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "presentation-time-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct buffer {
	struct wl_buffer *wl_buffer;
	uint32_t *pixels;
	bool busy;
};

struct app {
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wp_presentation *presentation;
	struct wl_surface *surface;
	struct wl_output *output;
	int32_t width, height, output_width, output_height;
	bool configured, closed, frame_due;
	struct buffer buffers[3];
	uint32_t *pattern; /* width + 256 pixels */
	uint64_t frames, presented, discarded, missed;
	int64_t last_presented_ns;
};

static void buffer_release(void *data, struct wl_buffer *wl_buffer)
{
	((struct buffer *)data)->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static bool buffers_create(struct app *a)
{
	size_t stride = (size_t)a->width * 4, size = stride * (size_t)a->height;
	int fd = memfd_create("fullscreen-shm", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	uint8_t *data;

	if (fd < 0 || ftruncate(fd, (off_t)(size * 3)) < 0)
		return false;
	data = mmap(NULL, size * 3, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (data == MAP_FAILED)
		return false;
	pool = wl_shm_create_pool(a->shm, fd, (int32_t)(size * 3));
	for (int i = 0; i < 3; i++) {
		a->buffers[i].pixels = (uint32_t *)(data + size * (size_t)i);
		a->buffers[i].wl_buffer = wl_shm_pool_create_buffer(
			pool, (int32_t)(size * (size_t)i), a->width, a->height, (int32_t)stride,
			WL_SHM_FORMAT_XRGB8888);
		wl_buffer_add_listener(a->buffers[i].wl_buffer, &buffer_listener, &a->buffers[i]);
	}
	wl_shm_pool_destroy(pool);
	close(fd);
	a->pattern = malloc(((size_t)a->width + 256) * 4);
	if (!a->pattern)
		return false;
	for (int32_t x = 0; x < a->width + 256; x++)
		a->pattern[x] = 0xff000000u | ((uint32_t)x & 0xff) << 16 |
				((uint32_t)x * 3 & 0xff) << 8 | ((uint32_t)x * 7 & 0xff);
	return true;
}

/* A pattern that moves every frame, every pixel written; rows are copies of one wider row at a
 * moving offset, so that the client's own cost stays a memcpy and the figures are the
 * compositor's. */
static void paint(struct app *a, struct buffer *b)
{
	uint32_t t = (uint32_t)a->frames * 4;

	for (int32_t y = 0; y < a->height; y++)
		memcpy(b->pixels + (size_t)y * (size_t)a->width,
		       a->pattern + ((uint32_t)y + t) % 256, (size_t)a->width * 4);
}

static void fb_sync_output(void *data, struct wp_presentation_feedback *fb,
			   struct wl_output *output)
{
}

static void fb_presented(void *data, struct wp_presentation_feedback *fb, uint32_t sec_hi,
			 uint32_t sec_lo, uint32_t nsec, uint32_t refresh, uint32_t seq_hi,
			 uint32_t seq_lo, uint32_t flags)
{
	struct app *a = data;
	int64_t ns = (int64_t)((uint64_t)sec_hi << 32 | sec_lo) * 1000000000 + nsec;

	if (a->last_presented_ns && refresh) {
		int64_t gap = ns - a->last_presented_ns;

		if (gap > (int64_t)refresh * 3 / 2)
			a->missed += (uint64_t)((gap + refresh / 2) / refresh) - 1;
	}
	a->last_presented_ns = ns;
	a->presented++;
	wp_presentation_feedback_destroy(fb);
}

static void fb_discarded(void *data, struct wp_presentation_feedback *fb)
{
	((struct app *)data)->discarded++;
	wp_presentation_feedback_destroy(fb);
}

static const struct wp_presentation_feedback_listener fb_listener = {fb_sync_output, fb_presented,
								     fb_discarded};

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	((struct app *)data)->frame_due = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = {frame_done};

static void draw(struct app *a)
{
	struct buffer *b = NULL;
	struct wl_callback *cb;

	for (int i = 0; i < 3 && !b; i++) {
		if (!a->buffers[i].busy)
			b = &a->buffers[i];
	}
	if (!b)
		return; /* all held: the next release draws */
	a->frame_due = false;
	paint(a, b);
	wl_surface_attach(a->surface, b->wl_buffer, 0, 0);
	wl_surface_damage_buffer(a->surface, 0, 0, a->width, a->height);
	cb = wl_surface_frame(a->surface);
	wl_callback_add_listener(cb, &frame_listener, a);
	if (a->presentation)
		wp_presentation_feedback_add_listener(
			wp_presentation_feedback(a->presentation, a->surface), &fb_listener, a);
	wl_surface_commit(a->surface);
	b->busy = true;
	a->frames++;
}

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct app *a = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	a->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *toplevel, int32_t width,
			       int32_t height, struct wl_array *states)
{
	struct app *a = data;

	/* The first size is kept: the buffers are made once. */
	if (width > 0 && height > 0 && !a->buffers[0].wl_buffer) {
		a->width = width;
		a->height = height;
	}
}

static void toplevel_close(void *data, struct xdg_toplevel *toplevel)
{
	((struct app *)data)->closed = true;
}

static const struct xdg_toplevel_listener toplevel_listener = {toplevel_configure,
							       toplevel_close};

static void output_geometry(void *data, struct wl_output *output, int32_t x, int32_t y,
			    int32_t pw, int32_t ph, int32_t subpixel, const char *make,
			    const char *model, int32_t transform)
{
}

/* The output's size, for compositors whose first configure says 0x0 (sway: the size comes
 * once the window is mapped). */
static void output_mode(void *data, struct wl_output *output, uint32_t flags, int32_t width,
			int32_t height, int32_t refresh)
{
	struct app *a = data;

	if (flags & WL_OUTPUT_MODE_CURRENT) {
		a->output_width = width;
		a->output_height = height;
	}
}

static const struct wl_output_listener output_listener = {output_geometry, output_mode};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct app *a = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		a->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		a->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		a->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !a->output)
		wl_output_add_listener(a->output = wl_registry_bind(registry, name,
								   &wl_output_interface, 1),
				       &output_listener, a);
	else if (strcmp(interface, wp_presentation_interface.name) == 0)
		a->presentation = wl_registry_bind(registry, name, &wp_presentation_interface, 1);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							      registry_global_remove};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct app a = {0};
	struct wl_display *display;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	double seconds = 10, end;

	if (argc == 3 && strcmp(argv[1], "-t") == 0) {
		seconds = atof(argv[2]);
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [-t SECONDS]\n", argv[0]);
		return 2;
	}
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "fullscreen-shm: no compositor\n");
		return 1;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &a);
	wl_display_roundtrip(display);
	wl_display_roundtrip(display);
	if (!a.compositor || !a.shm || !a.wm_base) {
		fprintf(stderr, "fullscreen-shm: wl_compositor, wl_shm or xdg_wm_base missing\n");
		return 1;
	}
	xdg_wm_base_add_listener(a.wm_base, &wm_base_listener, &a);
	a.surface = wl_compositor_create_surface(a.compositor);
	xdg_surface = xdg_wm_base_get_xdg_surface(a.wm_base, a.surface);
	xdg_surface_add_listener(xdg_surface, &xdg_surface_listener, &a);
	toplevel = xdg_surface_get_toplevel(xdg_surface);
	xdg_toplevel_add_listener(toplevel, &toplevel_listener, &a);
	xdg_toplevel_set_title(toplevel, "fullscreen-shm");
	xdg_toplevel_set_fullscreen(toplevel, NULL);
	wl_surface_commit(a.surface);
	while (!a.configured && wl_display_dispatch(display) >= 0)
		;
	if (a.width <= 0) {
		a.width = a.output_width;
		a.height = a.output_height;
	}
	if (a.width <= 0 || !buffers_create(&a)) {
		fprintf(stderr, "fullscreen-shm: no fullscreen size or no buffers\n");
		return 1;
	}
	a.frame_due = true;
	end = now_s() + seconds;
	while (!a.closed && now_s() < end) {
		struct pollfd pfd = {wl_display_get_fd(display), POLLIN, 0};

		if (a.frame_due)
			draw(&a);
		wl_display_flush(display);
		if (poll(&pfd, 1, 100) > 0 && wl_display_dispatch(display) < 0)
			break;
		wl_display_dispatch_pending(display);
	}
	printf("size %dx%d frames %llu presented %llu missed ", a.width, a.height,
	       (unsigned long long)a.frames, (unsigned long long)a.presented);
	if (a.presented)
		printf("%llu\n", (unsigned long long)a.missed);
	else
		printf("-\n");
	wl_display_disconnect(display);
	return 0;
}
