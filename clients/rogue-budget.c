// SPDX-License-Identifier: MIT
// garnet-rogue against garnet's per-client budget and its reading of client memory: a big shm
// pool shown on many surfaces, a region of ever more rectangles, a pool truncated under its
// buffer, a virtual keymap shorter than it claims, a stream of huge full-damage commits; and
// the honest side: a window with a big buffer, a client timing its round trips.
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
#include "virtual-keyboard-unstable-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct globals {
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct xdg_wm_base *wm_base;
	struct zwp_virtual_keyboard_manager_v1 *vk_manager;
	struct wl_data_device_manager *data_device_manager;
	struct wl_subcompositor *subcompositor;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct globals *g = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		g->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		g->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !g->seat)
		g->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		g->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(interface, wl_data_device_manager_interface.name) == 0)
		g->data_device_manager =
			wl_registry_bind(r, name, &wl_data_device_manager_interface, 3);
	else if (strcmp(interface, wl_subcompositor_interface.name) == 0)
		g->subcompositor = wl_registry_bind(r, name, &wl_subcompositor_interface, 1);
	else if (strcmp(interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0)
		g->vk_manager = wl_registry_bind(r, name,
						 &zwp_virtual_keyboard_manager_v1_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static struct wl_display *connect_with(struct globals *g)
{
	struct wl_display *display = rogue_connect();

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, g);
	if (wl_display_roundtrip(display) < 0 || !g->compositor || !g->shm) {
		fprintf(stderr, "garnet-rogue: missing globals\n");
		exit(2);
	}
	return display;
}

/* Prints how the connection ended; 0 when garnet cut it (the attack failed). */
static int report(struct wl_display *display, const char *what)
{
	return rogue_report_connection(display, what) ? 0 : 1;
}

/* A pool of size bytes filled with argb; its fd stays open in *fd_out when asked. */
static struct wl_shm_pool *make_pool(struct globals *g, size_t size, uint32_t argb, int *fd_out)
{
	int fd = memfd_create("garnet-rogue-pool", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	uint32_t *pixels;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		perror("garnet-rogue: pool");
		exit(2);
	}
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		perror("garnet-rogue: mmap");
		exit(2);
	}
	for (size_t i = 0; i < size / 4; i++)
		pixels[i] = argb;
	munmap(pixels, size);
	pool = wl_shm_create_pool(g->shm, fd, (int32_t)size);
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return pool;
}

/* pool FILE SURFACES: one 64 MiB pool, a 4096x4096 buffer in it, attached to SURFACES surfaces
 * without a role (with buffers copied, every one of them was a copy in garnet). */
static int cmd_pool(int surfaces)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct wl_shm_pool *pool = make_pool(&g, 4096u * 4096u * 4u, 0xff336699, NULL);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, 4096, 4096, 4096 * 4, WL_SHM_FORMAT_ARGB8888);
	char what[64];
	int shown = 0;

	for (; shown < surfaces; shown++) {
		struct wl_surface *s = wl_compositor_create_surface(g.compositor);

		wl_surface_attach(s, buffer, 0, 0);
		wl_surface_damage_buffer(s, 0, 0, 4096, 4096);
		wl_surface_commit(s);
		if (wl_display_roundtrip(display) < 0)
			break;
	}
	/* Give garnet the frames to copy what it took. */
	for (int i = 0; i < 10 && wl_display_get_error(display) == 0; i++) {
		usleep(100000);
		wl_display_roundtrip(display);
	}
	snprintf(what, sizeof(what), "shown on %d of %d surfaces", shown, surfaces);
	return report(display, what);
}

/* objects KIND COUNT: COUNT surfaces, subsurfaces (of one parent) or mime types (offered by
 * one data source), each held at once. */
static int cmd_objects(const char *kind, long count)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct wl_surface *parent = wl_compositor_create_surface(g.compositor);
	struct wl_data_source *source = NULL;
	char what[96];
	long made = 0;

	if (strcmp(kind, "mime-types") == 0) {
		if (!g.data_device_manager)
			return 2;
		source = wl_data_device_manager_create_data_source(g.data_device_manager);
	} else if (strcmp(kind, "subsurfaces") == 0 && !g.subcompositor) {
		return 2;
	}
	while (made < count) {
		/* Batches that fit libwayland's 4 KiB buffer, so that garnet's answer to the one
		 * that goes over is read, not lost in a broken pipe. */
		for (long i = 0; i < 100 && made < count; i++, made++) {
			if (source) {
				char mime[48];

				snprintf(mime, sizeof(mime), "text/x-rogue-%ld", made);
				wl_data_source_offer(source, mime);
			} else if (strcmp(kind, "subsurfaces") == 0) {
				wl_subcompositor_get_subsurface(
					g.subcompositor, wl_compositor_create_surface(g.compositor),
					parent);
			} else {
				wl_compositor_create_surface(g.compositor);
			}
		}
		if (wl_display_roundtrip(display) < 0)
			break;
	}
	snprintf(what, sizeof(what), "made %ld of %ld %s", made, count, kind);
	return report(display, what);
}

/* regions COUNT: one wl_region, COUNT single-pixel rectangles added, none touching. */
static int cmd_regions(long count)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct wl_region *region = wl_compositor_create_region(g.compositor);
	uint64_t start = rogue_now_us();
	char what[64];
	long added = 0;

	while (added < count && rogue_now_us() - start < 20000000) {
		/* Big batches, each a long stretch of garnet's time where adds cost more and
		 * more; garnet's error may then end in a broken pipe instead of being read. */
		for (long i = 0; i < 2000 && added < count; i++, added++)
			wl_region_add(region, (int32_t)(added % 2000) * 2,
				      (int32_t)(added / 2000) * 2, 1, 1);
		if (wl_display_roundtrip(display) < 0)
			break;
	}
	snprintf(what, sizeof(what), "added %ld of %ld rectangles in %llu ms", added, count,
		 (unsigned long long)((rogue_now_us() - start) / 1000));
	return report(display, what);
}

/* ping SECONDS: an honest client timing its round trips ("rtt MICROSECONDS"). */
static int cmd_ping(int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	uint64_t end = rogue_now_us() + (uint64_t)seconds * 1000000;

	while (rogue_now_us() < end) {
		uint64_t t = rogue_now_us();

		if (wl_display_roundtrip(display) < 0)
			return report(display, "ping");
		printf("rtt %llu\n", (unsigned long long)(rogue_now_us() - t));
		fflush(stdout);
		usleep(5000);
	}
	wl_display_disconnect(display);
	return 0;
}

struct window {
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	bool configured, framed, released;
};

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct window *w = data;

	xdg_surface_ack_configure(xs, serial);
	w->configured = true;
}

static const struct xdg_surface_listener xs_listener = {xs_configure};

static void buffer_release(void *data, struct wl_buffer *buffer)
{
	struct window *w = data;

	w->released = true;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static void frame_done(void *data, struct wl_callback *cb, uint32_t time)
{
	struct window *w = data;

	w->framed = true;
	wl_callback_destroy(cb);
}

static const struct wl_callback_listener frame_listener = {frame_done};

static void open_toplevel(struct wl_display *display, struct globals *g, struct window *w)
{
	struct xdg_toplevel *toplevel;

	if (!g->wm_base) {
		fprintf(stderr, "garnet-rogue: no xdg_wm_base\n");
		exit(2);
	}
	xdg_wm_base_add_listener(g->wm_base, &wm_listener, NULL);
	w->surface = wl_compositor_create_surface(g->compositor);
	w->xdg_surface = xdg_wm_base_get_xdg_surface(g->wm_base, w->surface);
	xdg_surface_add_listener(w->xdg_surface, &xs_listener, w);
	toplevel = xdg_surface_get_toplevel(w->xdg_surface);
	xdg_toplevel_set_title(toplevel, "garnet-rogue budget");
	wl_surface_commit(w->surface);
	while (!w->configured && wl_display_dispatch(display) >= 0)
		;
}

/* truncated-pool: a window's buffer whose pool file is cut to nothing before it is committed
 * (garnet reads what a window shows at its next repaint). */
static int cmd_truncated_pool(void)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	int fd;
	struct wl_shm_pool *pool = make_pool(&g, 256 * 256 * 4, 0xffff0000, &fd);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, 256, 256, 256 * 4, WL_SHM_FORMAT_ARGB8888);
	struct window w = {0};
	struct wl_surface *s;

	open_toplevel(display, &g, &w);
	s = w.surface;
	wl_display_roundtrip(display);
	if (ftruncate(fd, 0) < 0) {
		perror("garnet-rogue: ftruncate");
		return 2;
	}
	wl_surface_attach(s, buffer, 0, 0);
	wl_surface_damage_buffer(s, 0, 0, 256, 256);
	wl_surface_commit(s);
	for (int i = 0; i < 30 && wl_display_get_error(display) == 0; i++) {
		wl_display_roundtrip(display);
		usleep(100000);
	}
	return report(display, "committed a buffer of a truncated pool");
}

/* big WIDTH HEIGHT: an honest window with one big green buffer; says when it was shown
 * (frame callback), then stays until killed. garnet holds the buffer while it shows it. */
static int cmd_big(int32_t width, int32_t height)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct window w = {0};
	size_t size = (size_t)width * (size_t)height * 4;
	struct wl_shm_pool *pool = make_pool(&g, size, 0xff00ff00, NULL);
	struct wl_buffer *buffer = wl_shm_pool_create_buffer(pool, 0, width, height, width * 4,
							     WL_SHM_FORMAT_XRGB8888);

	wl_buffer_add_listener(buffer, &buffer_listener, &w);
	open_toplevel(display, &g, &w);
	wl_callback_add_listener(wl_surface_frame(w.surface), &frame_listener, &w);
	wl_surface_attach(w.surface, buffer, 0, 0);
	wl_surface_damage_buffer(w.surface, 0, 0, width, height);
	wl_surface_commit(w.surface);
	while (!w.framed && wl_display_dispatch(display) >= 0)
		;
	wl_display_roundtrip(display);
	if (w.framed) {
		printf("shown, %s\n", w.released ? "released" : "held");
		fflush(stdout);
	}
	while (wl_display_dispatch(display) >= 0)
		;
	return report(display, "big window");
}

/* Commits per second of commit-flood: three requests each, inside garnet's default budget of
 * 100,000 requests a second. */
#define FLOOD_COMMITS_PER_SECOND 10000

/* commit-flood WIDTH HEIGHT SECONDS: a window committing two WIDTHxHEIGHT buffers in turn,
 * all damaged, as fast as the request budget allows, never waiting for a frame. */
static int cmd_commit_flood(int32_t width, int32_t height, int seconds)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct window w = {0};
	size_t size = (size_t)width * (size_t)height * 4;
	struct wl_shm_pool *pool = make_pool(&g, 2 * size, 0xff884422, NULL);
	struct wl_buffer *buffers[2];
	uint64_t end = rogue_now_us() + (uint64_t)seconds * 1000000, start;
	long commits = 0;
	char what[64];

	for (int i = 0; i < 2; i++)
		buffers[i] = wl_shm_pool_create_buffer(pool, (int32_t)(i * size), width, height,
						       width * 4, WL_SHM_FORMAT_XRGB8888);
	open_toplevel(display, &g, &w);
	start = rogue_now_us();
	while (rogue_now_us() < end && wl_display_get_error(display) == 0) {
		struct pollfd p = {wl_display_get_fd(display), POLLOUT, 0};
		uint64_t due = start + (uint64_t)commits * 1000000 / FLOOD_COMMITS_PER_SECOND;
		uint64_t now = rogue_now_us();

		if (now < due)
			usleep((useconds_t)(due - now));

		wl_surface_attach(w.surface, buffers[commits & 1], 0, 0);
		wl_surface_damage_buffer(w.surface, 0, 0, width, height);
		wl_surface_commit(w.surface);
		commits++;
		while (wl_display_flush(display) < 0 && errno == EAGAIN)
			poll(&p, 1, 100);
		wl_display_dispatch_pending(display);
		/* Read what garnet sent (releases, pings), without waiting for it. */
		if (wl_display_prepare_read(display) == 0) {
			struct pollfd in = {wl_display_get_fd(display), POLLIN, 0};

			if (poll(&in, 1, 0) > 0)
				wl_display_read_events(display);
			else
				wl_display_cancel_read(display);
		}
	}
	snprintf(what, sizeof(what), "%ld commits of %dx%d", commits, width, height);
	return report(display, what);
}

static void kb_keymap(void *data, struct wl_keyboard *k, uint32_t format, int32_t fd,
		      uint32_t size)
{
	int *out = data;

	out[0] = fd;
	out[1] = (int)size;
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
}

static const struct wl_keyboard_listener kb_listener = {
	kb_keymap,
	kb_enter,
	rogue_ignore_keyboard_leave,
	rogue_ignore_keyboard_key,
	rogue_ignore_keyboard_modifiers,
	rogue_ignore_keyboard_repeat,
};

/* bad-keymap (a trusted virtual keyboard): first garnet's own keymap, which must be taken,
 * then a keymap whose file is shorter than the size it claims. */
static int cmd_bad_keymap(void)
{
	struct globals g = {0};
	struct wl_display *display = connect_with(&g);
	struct zwp_virtual_keyboard_v1 *vk;
	int keymap[2] = {-1, 0};
	char page[4096];
	int fd;

	if (!g.vk_manager || !g.seat) {
		printf("no virtual keyboard manager\n");
		return 2;
	}
	wl_keyboard_add_listener(wl_seat_get_keyboard(g.seat), &kb_listener, keymap);
	while (keymap[0] < 0 && wl_display_dispatch(display) >= 0)
		;
	vk = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(g.vk_manager, g.seat);
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, keymap[0],
				       (uint32_t)keymap[1]);
	zwp_virtual_keyboard_v1_key(vk, 0, 30, WL_KEYBOARD_KEY_STATE_PRESSED);
	zwp_virtual_keyboard_v1_key(vk, 1, 30, WL_KEYBOARD_KEY_STATE_RELEASED);
	if (wl_display_roundtrip(display) < 0)
		return report(display, "an honest keymap was refused");
	printf("an honest keymap was taken\n");
	/* One page without a NUL: a reader looking for the end runs off the file. */
	fd = memfd_create("garnet-rogue-keymap", MFD_CLOEXEC);
	memset(page, 'x', sizeof(page));
	if (fd < 0 || write(fd, page, sizeof(page)) != (ssize_t)sizeof(page))
		return 2;
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, 1 << 20);
	wl_display_roundtrip(display);
	return report(display, "sent a 4096-byte keymap file as 1 MiB");
}

int rogue_budget(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "pool") == 0)
		return cmd_pool(atoi(argv[2]));
	if (argc == 4 && strcmp(argv[1], "objects") == 0)
		return cmd_objects(argv[2], atol(argv[3]));
	if (argc == 3 && strcmp(argv[1], "regions") == 0)
		return cmd_regions(atol(argv[2]));
	if (argc == 3 && strcmp(argv[1], "ping") == 0)
		return cmd_ping(atoi(argv[2]));
	if (argc == 2 && strcmp(argv[1], "truncated-pool") == 0)
		return cmd_truncated_pool();
	if (argc == 4 && strcmp(argv[1], "big") == 0)
		return cmd_big(atoi(argv[2]), atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "commit-flood") == 0)
		return cmd_commit_flood(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (argc == 2 && strcmp(argv[1], "bad-keymap") == 0)
		return cmd_bad_keymap();
	return -1;
}
