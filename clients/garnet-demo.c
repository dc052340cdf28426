// SPDX-License-Identifier: MIT
// garnet-demo: a small xdg-shell window drawn with wl_shm, for ./run and for trying garnet out.
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "xdg-shell-client-protocol.h"

struct demo {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct xdg_wm_base *wm_base;
	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	int32_t width, height;
	bool configured, closed;
};

static void buffer_release(void *data, struct wl_buffer *buffer)
{
	wl_buffer_destroy(buffer);
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static void draw(struct demo *d)
{
	int32_t stride = d->width * 4;
	size_t size = (size_t)stride * (size_t)d->height;
	int fd = memfd_create("garnet-demo", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	uint32_t *pixels;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		fprintf(stderr, "garnet-demo: shared memory: %s\n", strerror(errno));
		exit(1);
	}
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED) {
		fprintf(stderr, "garnet-demo: mmap: %s\n", strerror(errno));
		exit(1);
	}
	/* A title bar, then a garnet-red gradient with a lighter diagonal band. */
	for (int32_t y = 0; y < d->height; y++) {
		for (int32_t x = 0; x < d->width; x++) {
			uint32_t r = 0x73 + (uint32_t)(0x60 * y / d->height);
			uint32_t g = 0x10 + (uint32_t)(0x20 * x / d->width);
			uint32_t b = 0x20;

			if (y < 28)
				r = g = b = 0x30;
			else if (((x + y) / 24) % 4 == 0)
				g += 0x30, b += 0x20;
			pixels[y * d->width + x] = 0xff000000u | r << 16 | g << 8 | b;
		}
	}
	munmap(pixels, size);
	pool = wl_shm_create_pool(d->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, d->width, d->height, stride,
					   WL_SHM_FORMAT_XRGB8888);
	wl_buffer_add_listener(buffer, &buffer_listener, NULL);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(d->surface, buffer, 0, 0);
	wl_surface_damage_buffer(d->surface, 0, 0, d->width, d->height);
	wl_surface_commit(d->surface);
}

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct demo *d = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	d->configured = true;
	draw(d);
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
			       struct wl_array *states)
{
	struct demo *d = data;

	if (w > 0 && h > 0) {
		d->width = w;
		d->height = h;
	}
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct demo *d = data;

	d->closed = true;
}

static void toplevel_bounds(void *data, struct xdg_toplevel *t, int32_t w, int32_t h)
{
}

static void toplevel_capabilities(void *data, struct xdg_toplevel *t, struct wl_array *caps)
{
}

static const struct xdg_toplevel_listener toplevel_listener = {
	toplevel_configure, toplevel_close, toplevel_bounds, toplevel_capabilities,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct demo *d = data;

	if (strcmp(interface, "wl_compositor") == 0)
		d->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, "wl_shm") == 0)
		d->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, "xdg_wm_base") == 0) {
		d->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(d->wm_base, &wm_base_listener, d);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							       registry_global_remove};

int main(void)
{
	struct demo d = {.width = 480, .height = 320};
	struct wl_registry *registry;

	d.display = wl_display_connect(NULL);
	if (!d.display) {
		fprintf(stderr, "garnet-demo: cannot connect to a Wayland display "
				"(WAYLAND_DISPLAY=%s)\n", getenv("WAYLAND_DISPLAY") ?: "unset");
		return 1;
	}
	registry = wl_display_get_registry(d.display);
	wl_registry_add_listener(registry, &registry_listener, &d);
	wl_display_roundtrip(d.display);
	if (!d.compositor || !d.shm || !d.wm_base) {
		fprintf(stderr, "garnet-demo: the compositor lacks wl_compositor, wl_shm or "
				"xdg_wm_base\n");
		return 1;
	}
	d.surface = wl_compositor_create_surface(d.compositor);
	d.xdg_surface = xdg_wm_base_get_xdg_surface(d.wm_base, d.surface);
	xdg_surface_add_listener(d.xdg_surface, &xdg_surface_listener, &d);
	d.toplevel = xdg_surface_get_toplevel(d.xdg_surface);
	xdg_toplevel_add_listener(d.toplevel, &toplevel_listener, &d);
	xdg_toplevel_set_title(d.toplevel, "garnet demo");
	xdg_toplevel_set_app_id(d.toplevel, "garnet-demo");
	wl_surface_commit(d.surface);
	while (!d.closed && wl_display_dispatch(d.display) >= 0)
		;
	/* Closed, or the compositor went away: the proxies go either way. */
	xdg_toplevel_destroy(d.toplevel);
	xdg_surface_destroy(d.xdg_surface);
	wl_surface_destroy(d.surface);
	xdg_wm_base_destroy(d.wm_base);
	wl_shm_destroy(d.shm);
	wl_compositor_destroy(d.compositor);
	wl_registry_destroy(registry);
	wl_display_disconnect(d.display);
	return 0;
}
