// SPDX-License-Identifier: MIT
// garnet-rogue against buffers shown in place (garnet reads the client's memory at every
// repaint and holds the buffer until nothing shows it): a 64 MiB pool shown on many windows, a
// 2 GiB sparse buffer, a pool truncated while shown, a buffer or pool destroyed while shown,
// surfaces destroyed right after their commit and their ids reused, commits that never wait
// for a release. Each prints what it saw and how its connection ended.
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "xdg-shell-client-protocol.h"

struct globals {
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct globals *g = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		g->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		g->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		g->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static struct wl_display *connect_with(struct globals *g)
{
	struct wl_display *display = rogue_connect();

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, g);
	if (wl_display_roundtrip(display) < 0 || !g->compositor || !g->shm || !g->wm_base) {
		fprintf(stderr, "garnet-rogue: missing globals\n");
		exit(2);
	}
	xdg_wm_base_add_listener(g->wm_base, &wm_listener, NULL);
	return display;
}

static uint64_t now_ms(void)
{
	return rogue_now_us() / 1000;
}

/* Prints how the connection ended; 1 when garnet cut it. */
static int report(struct wl_display *display, const char *what)
{
	return rogue_report_connection(display, what) ? 1 : 0;
}

/* A memfd of size bytes; its first rows rows of width pixels filled with argb (the rest left
 * sparse). */
static int make_file(size_t size, int32_t width, int32_t rows, uint32_t argb)
{
	int fd = memfd_create("garnet-rogue-zerocopy", MFD_CLOEXEC);
	size_t filled = (size_t)width * 4 * (size_t)rows;
	uint32_t *pixels;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		perror("garnet-rogue: pool");
		exit(2);
	}
	if (filled > size)
		filled = size;
	if (filled) {
		pixels = mmap(NULL, filled, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (pixels == MAP_FAILED) {
			perror("garnet-rogue: mmap");
			exit(2);
		}
		for (size_t i = 0; i < filled / 4; i++)
			pixels[i] = argb;
		munmap(pixels, filled);
	}
	return fd;
}

struct window {
	struct wl_surface *surface;
	struct xdg_surface *xdg;
	struct xdg_toplevel *toplevel;
	bool configured, framed;
};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct window *w = data;

	xdg_surface_ack_configure(xs, serial);
	w->configured = true;
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct window *w = data;

	w->framed = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = {frame_done};

static void window_open(struct wl_display *display, struct globals *g, struct window *w)
{
	w->surface = wl_compositor_create_surface(g->compositor);
	w->xdg = xdg_wm_base_get_xdg_surface(g->wm_base, w->surface);
	xdg_surface_add_listener(w->xdg, &xs_listener, w);
	w->toplevel = xdg_surface_get_toplevel(w->xdg);
	xdg_toplevel_set_title(w->toplevel, "garnet-rogue zerocopy");
	wl_surface_commit(w->surface);
	while (!w->configured && wl_display_dispatch(display) >= 0)
		;
}

/* Commits buffer on the window and waits (at most timeout ms) for the frame that shows it. */
static bool window_show(struct wl_display *display, struct window *w, struct wl_buffer *buffer,
			int timeout_ms)
{
	uint64_t end = now_ms() + (uint64_t)timeout_ms;

	w->framed = false;
	wl_callback_add_listener(wl_surface_frame(w->surface), &frame_listener, w);
	wl_surface_attach(w->surface, buffer, 0, 0);
	wl_surface_damage_buffer(w->surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(w->surface);
	while (!w->framed && now_ms() < end) {
		struct pollfd p = {wl_display_get_fd(display), POLLIN, 0};

		if (wl_display_flush(display) < 0 && errno != EAGAIN)
			return false;
		if (poll(&p, 1, 50) > 0 && wl_display_dispatch(display) < 0)
			return false;
	}
	return w->framed;
}

/* Keeps answering garnet for seconds. */
static void stay(struct wl_display *display, int seconds)
{
	uint64_t end = now_ms() + (uint64_t)seconds * 1000;

	while (now_ms() < end && wl_display_roundtrip(display) >= 0)
		usleep(50000);
}

/* shown-pool WINDOWS SECONDS: one 64 MiB pool, one 4096x4096 buffer in it, shown on WINDOWS
 * toplevels (each waits for its frame), then stays SECONDS. */
static int cmd_shown_pool(int windows, int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	int fd = make_file(4096u * 4096u * 4u, 4096, 4096, 0xff336699);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, 4096 * 4096 * 4);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, 4096, 4096, 4096 * 4, WL_SHM_FORMAT_XRGB8888);
	struct window *w = calloc((size_t)windows, sizeof(*w));
	char what[64];
	int shown = 0;

	close(fd);
	for (; shown < windows; shown++) {
		window_open(display, &g, &w[shown]);
		if (!window_show(display, &w[shown], buffer, 5000))
			break;
	}
	printf("shown\n");
	fflush(stdout);
	stay(display, seconds);
	snprintf(what, sizeof(what), "shown on %d of %d windows", shown, windows);
	return report(display, what);
}

/* sparse WIDTH HEIGHT SECONDS: a WIDTHxHEIGHT XRGB buffer in a sparse file (only its first 64
 * rows written), committed once in a window; says how long until its frame came. */
static int cmd_sparse(int32_t width, int32_t height, int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	size_t size = (size_t)width * 4 * (size_t)height;
	int fd = make_file(size, width, 64, 0xff00ff00);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, (int32_t)size);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4,
							     WL_SHM_FORMAT_XRGB8888);
	struct window w = {0};
	uint64_t start;
	char what[96];
	bool shown;

	close(fd);
	window_open(display, &g, &w);
	start = now_ms();
	shown = window_show(display, &w, buffer, 20000);
	snprintf(what, sizeof(what), "%zu-byte buffer %s in %llu ms", size,
		 shown ? "shown" : "not shown", (unsigned long long)(now_ms() - start));
	printf("%s\n", what);
	fflush(stdout);
	stay(display, seconds);
	return report(display, what);
}

/* truncate-shown: a window shows a buffer, then the pool's file is cut to nothing and the
 * window damaged again, so that garnet reads it. */
static int cmd_truncate_shown(void)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	int fd = make_file(256 * 256 * 4, 256, 256, 0xffff0000);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, 256 * 256 * 4);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, 256, 256, 256 * 4, WL_SHM_FORMAT_XRGB8888);
	struct window w = {0};

	window_open(display, &g, &w);
	if (!window_show(display, &w, buffer, 5000))
		return report(display, "never shown");
	printf("shown\n");
	if (ftruncate(fd, 0) < 0) {
		perror("garnet-rogue: ftruncate");
		return 2;
	}
	window_show(display, &w, buffer, 2000);
	for (int i = 0; i < 20 && wl_display_get_error(display) == 0; i++) {
		wl_display_roundtrip(display);
		usleep(50000);
	}
	return report(display, "truncated the pool of a shown buffer");
}

/* destroy-shown buffer|pool: a window shows a 200x200 buffer of colour ARGB, then the
 * wl_buffer (and its pool and file) or the pool alone is destroyed; the window stays (its
 * last picture should too) for SECONDS. */
static int cmd_destroy_shown(const char *what, uint32_t argb, int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	int fd = make_file(200 * 200 * 4, 200, 200, argb);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, 200 * 200 * 4);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, 200, 200, 200 * 4, WL_SHM_FORMAT_XRGB8888);
	struct window w = {0};

	window_open(display, &g, &w);
	if (!window_show(display, &w, buffer, 5000))
		return report(display, "never shown");
	wl_shm_pool_destroy(pool);
	if (strcmp(what, "buffer") == 0) {
		wl_buffer_destroy(buffer);
		wl_display_roundtrip(display);
		/* The client may no longer touch it: whatever it does to the file now must not
		 * reach the screen. */
		if (ftruncate(fd, 0) < 0)
			return 2;
	}
	close(fd);
	/* Something else on screen changes: garnet repaints around the window. */
	wl_surface_damage_buffer(w.surface, 0, 0, 200, 200);
	wl_surface_commit(w.surface);
	wl_display_roundtrip(display);
	printf("destroyed the %s while shown\n", what);
	fflush(stdout);
	stay(display, seconds);
	return report(display, "destroy-shown");
}

/* reuse-ids COUNT: COUNT times a surface that commits a buffer and is destroyed at once with
 * its buffer, the next one made before garnet answered (libwayland hands the freed ids out
 * again as garnet confirms them). */
static int cmd_reuse_ids(int count)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	int fd = make_file(64 * 64 * 4 * 2, 64, 128, 0xff0000ff);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, 64 * 64 * 4 * 2);
	char what[64];
	int i;

	close(fd);
	for (i = 0; i < count && wl_display_get_error(display) == 0; i++) {
		struct window w = {0};
		struct wl_buffer *b = wl_shm_pool_create_buffer(pool, (i & 1) * 64 * 64 * 4, 64, 64,
								64 * 4, WL_SHM_FORMAT_XRGB8888);

		window_open(display, &g, &w);
		wl_surface_attach(w.surface, b, 0, 0);
		wl_surface_damage_buffer(w.surface, 0, 0, 64, 64);
		wl_surface_commit(w.surface);
		/* The buffer goes while its surface shows it, then the window. */
		wl_buffer_destroy(b);
		xdg_toplevel_destroy(w.toplevel);
		xdg_surface_destroy(w.xdg);
		wl_surface_destroy(w.surface);
		if ((i & 15) == 15)
			wl_display_roundtrip(display);
	}
	wl_display_roundtrip(display);
	snprintf(what, sizeof(what), "%d surfaces committed and destroyed", i);
	return report(display, what);
}

struct flood_buffer {
	struct wl_buffer *buffer;
	bool busy;
	long releases;
};

static void flood_release(void *data, struct wl_buffer *buffer)
{
	struct flood_buffer *b = data;

	b->busy = false;
	b->releases++;
}

static const struct wl_buffer_listener flood_listener = {flood_release};

/* release-flood SECONDS: a 512x512 window commits four buffers in turn as fast as its
 * request budget allows, never waiting for a release; by the next frame after the last commit
 * every buffer but the one shown must have come back. */
static int cmd_release_flood(int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	size_t size = 512 * 512 * 4;
	int fd = make_file(4 * size, 512, 4 * 512, 0xff224488);
	struct wl_shm_pool *pool = wl_shm_create_pool(g.shm, fd, (int32_t)(4 * size));
	struct flood_buffer b[4] = {0};
	struct window w = {0};
	uint64_t end = now_ms() + (uint64_t)seconds * 1000, start = now_ms();
	long commits = 0, releases = 0, busy = 0;
	char what[128];

	close(fd);
	for (int i = 0; i < 4; i++) {
		b[i].buffer = wl_shm_pool_create_buffer(pool, (int32_t)(i * size), 512, 512,
							512 * 4, WL_SHM_FORMAT_XRGB8888);
		wl_buffer_add_listener(b[i].buffer, &flood_listener, &b[i]);
	}
	window_open(display, &g, &w);
	while (now_ms() < end && wl_display_get_error(display) == 0) {
		struct flood_buffer *next = &b[commits & 3];
		struct pollfd p = {wl_display_get_fd(display), POLLOUT, 0};
		uint64_t due = start + (uint64_t)commits / 5; /* 5000 commits a second */

		if (now_ms() < due)
			usleep(1000);
		next->busy = true;
		wl_surface_attach(w.surface, next->buffer, 0, 0);
		wl_surface_damage_buffer(w.surface, 0, 0, 512, 512);
		wl_surface_commit(w.surface);
		commits++;
		while (wl_display_flush(display) < 0 && errno == EAGAIN)
			poll(&p, 1, 100);
		if (wl_display_prepare_read(display) == 0) {
			struct pollfd in = {wl_display_get_fd(display), POLLIN, 0};

			if (poll(&in, 1, 0) > 0)
				wl_display_read_events(display);
			else
				wl_display_cancel_read(display);
		}
		wl_display_dispatch_pending(display);
	}
	/* Releases go with the next frame's events: the shown buffer once more, and that frame. */
	if (commits > 0)
		window_show(display, &w, b[(commits - 1) & 3].buffer, 2000);
	wl_display_roundtrip(display);
	for (int i = 0; i < 4; i++) {
		releases += b[i].releases;
		/* The last committed one is still shown, and so still garnet's. */
		busy += b[i].busy && &b[i] != &b[(commits - 1) & 3];
	}
	snprintf(what, sizeof(what), "%ld commits, %ld releases, %ld buffers never given back",
		 commits, releases, busy);
	report(display, what);
	return wl_display_get_error(display) || busy != 0;
}

int rogue_zerocopy(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "shown-pool") == 0)
		return cmd_shown_pool(atoi(argv[2]), atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "sparse") == 0)
		return cmd_sparse(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 2 && strcmp(argv[1], "truncate-shown") == 0)
		return cmd_truncate_shown();
	if (argc == 5 && strcmp(argv[1], "destroy-shown") == 0)
		return cmd_destroy_shown(argv[2], (uint32_t)strtoul(argv[3], NULL, 16),
					 atoi(argv[4]));
	if (argc == 3 && strcmp(argv[1], "reuse-ids") == 0)
		return cmd_reuse_ids(atoi(argv[2]));
	if (argc == 3 && strcmp(argv[1], "release-flood") == 0)
		return cmd_release_flood(atoi(argv[2]));
	return -1;
}
