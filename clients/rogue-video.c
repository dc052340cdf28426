// SPDX-License-Identifier: MIT
// garnet-rogue video FILE WIDTH HEIGHT: a window playing a "video" as players do, in a
// desynchronised subsurface that commits alone (the window's own surface never commits again
// after it maps): a square at 10,10 that changes colour every 100 ms. Logs "mapped" and
// "frames N" every ten frames; runs until killed or disconnected. With a menu open: a popup of
// the window (80x60, magenta) at 150,100 of it, as a player's context menu. Growing: once the
// file FILE.grow exists the window grows by 100x60 ("grown WxH"), as a player does for a
// larger video. Throbbing (throb): once FILE.grow exists the window grows and shrinks back at
// every frame, ten changes a second, until FILE.still exists ("still WxH"). A video in the menu (menu-video): the frames are the menu's, and the window and
// its subsurface never commit after mapping (a menu that animates alone).
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"

#define VIDEO_SIZE 64
#define FRAME_MS 100

struct video {
	FILE *log;
	struct wl_compositor *compositor;
	struct wl_subcompositor *subcompositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct wl_surface *surface, *picture, *menu;
	struct xdg_surface *xs, *menu_xs;
	struct wl_buffer *menu_buffer; /* the menu's picture, freed when the next replaces it */
	bool menu_mapped, video_in_menu;
	struct wl_buffer *shown; /* the video's frame on screen, freed when the next replaces it */
	struct wp_viewport *viewport; /* the window's own surface's: its size */
	struct wl_buffer *window_buffer; /* its colour, freed when the next replaces it */
	int32_t width, height;
	bool mapped;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct video *v = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		v->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_subcompositor_interface.name) == 0)
		v->subcompositor = wl_registry_bind(r, name, &wl_subcompositor_interface, 1);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		v->pixels = wl_registry_bind(r, name, &wp_single_pixel_buffer_manager_v1_interface,
					     1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		v->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, xdg_wm_base_interface.name) == 0)
		v->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void ping(void *d, struct xdg_wm_base *b, uint32_t serial)
{
	xdg_wm_base_pong(b, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {ping};

/* surface shows buffer (a single pixel); the one it showed before, *shown, is freed. */
static void show_pixel(struct wl_surface *surface, struct wl_buffer *buffer,
		       struct wl_buffer **shown)
{
	wl_surface_attach(surface, buffer, 0, 0);
	wl_surface_damage_buffer(surface, 0, 0, 1, 1);
	wl_surface_commit(surface);
	if (*shown)
		wl_buffer_destroy(*shown);
	*shown = buffer;
}

/* The window's own surface, one colour at its size. */
static void fill_window(struct video *v)
{
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		v->pixels, 0x40404040u, 0x80808080u, 0xc0c0c0c0u, 0xffffffffu);

	if (!v->viewport)
		v->viewport = wp_viewporter_get_viewport(v->viewporter, v->surface);
	wp_viewport_set_destination(v->viewport, v->width, v->height);
	show_pixel(v->surface, buffer, &v->window_buffer);
}

static void configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct video *v = data;

	xdg_surface_ack_configure(xs, serial);
	if (v->mapped)
		return;
	fill_window(v);
	v->mapped = true;
	fprintf(v->log, "mapped\n");
	fflush(v->log);
}

static const struct xdg_surface_listener xdg_surface_listener = {configure};

static void menu_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct video *v = data;
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		v->pixels, 0xc0c0c0c0u, 0x20202020u, 0xc0c0c0c0u, 0xffffffffu);

	xdg_surface_ack_configure(xs, serial);
	show_pixel(v->menu, buffer, &v->menu_buffer);
	v->menu_mapped = true;
	fprintf(v->log, "menu\n");
	fflush(v->log);
}

static const struct xdg_surface_listener menu_listener = {menu_configure};

static void popup_configure(void *d, struct xdg_popup *p, int32_t x, int32_t y, int32_t w,
			    int32_t h)
{
}

static void popup_done(void *d, struct xdg_popup *p)
{
}

static const struct xdg_popup_listener popup_listener = {popup_configure, popup_done};

/* A menu of the window, without a grab (nothing is clicked in a test). */
static void open_menu(struct video *v)
{
	struct xdg_positioner *pos = xdg_wm_base_create_positioner(v->wm_base);
	struct xdg_popup *popup;

	xdg_positioner_set_size(pos, 80, 60);
	xdg_positioner_set_anchor_rect(pos, 150, 100, 1, 1);
	xdg_positioner_set_anchor(pos, XDG_POSITIONER_ANCHOR_TOP_LEFT);
	xdg_positioner_set_gravity(pos, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
	v->menu = wl_compositor_create_surface(v->compositor);
	wp_viewport_set_destination(wp_viewporter_get_viewport(v->viewporter, v->menu), 80, 60);
	v->menu_xs = xdg_wm_base_get_xdg_surface(v->wm_base, v->menu);
	xdg_surface_add_listener(v->menu_xs, &menu_listener, v);
	popup = xdg_surface_get_popup(v->menu_xs, v->xs, pos);
	xdg_popup_add_listener(popup, &popup_listener, v);
	xdg_positioner_destroy(pos);
	wl_surface_commit(v->menu);
}

/* The next frame of the video: the subsurface alone commits. */
static void show_frame(struct video *v, uint32_t rgb)
{
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		v->pixels, ((rgb >> 16) & 0xff) * 0x01010101u, ((rgb >> 8) & 0xff) * 0x01010101u,
		(rgb & 0xff) * 0x01010101u, 0xffffffffu);

	if (!v->video_in_menu)
		show_pixel(v->picture, buffer, &v->shown);
	else if (v->menu_mapped)
		show_pixel(v->menu, buffer, &v->menu_buffer);
	else
		wl_buffer_destroy(buffer);
}

/* The window's own surface commits again, larger or smaller (the video goes on in its
 * subsurface). */
static void grow(struct video *v, int32_t by)
{
	v->width += 100 * by;
	v->height += 60 * by;
	fill_window(v);
	fprintf(v->log, "grown %dx%d\n", v->width, v->height);
	fflush(v->log);
}

int rogue_video(const char *path, int32_t width, int32_t height, const char *extra)
{
	bool video_in_menu = extra && strcmp(extra, "menu-video") == 0;
	bool menu = video_in_menu || (extra && strcmp(extra, "menu") == 0);
	bool throbbing = extra && strcmp(extra, "throb") == 0;
	bool growing = throbbing || (extra && strcmp(extra, "grow") == 0);
	char grow_path[4096], still_path[4096];
	int32_t throb = 1;
	struct video v = {.width = width, .height = height, .video_in_menu = video_in_menu};
	struct wl_display *display = rogue_connect();
	struct wl_subsurface *sub;
	unsigned frames = 0;
	uint64_t next_us;

	snprintf(grow_path, sizeof(grow_path), "%s.grow", path);
	snprintf(still_path, sizeof(still_path), "%s.still", path);
	v.log = fopen(path, "a");
	if (!v.log) {
		perror(path);
		return 2;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &v);
	if (wl_display_roundtrip(display) < 0 || !v.compositor || !v.subcompositor || !v.pixels ||
	    !v.viewporter || !v.wm_base) {
		fprintf(stderr, "garnet-rogue: missing globals for a video window\n");
		return 2;
	}
	xdg_wm_base_add_listener(v.wm_base, &wm_base_listener, &v);
	v.surface = wl_compositor_create_surface(v.compositor);
	v.picture = wl_compositor_create_surface(v.compositor);
	sub = wl_subcompositor_get_subsurface(v.subcompositor, v.picture, v.surface);
	wl_subsurface_set_position(sub, 10, 10);
	wl_subsurface_set_desync(sub);
	wp_viewport_set_destination(wp_viewporter_get_viewport(v.viewporter, v.picture), VIDEO_SIZE,
				    VIDEO_SIZE);
	v.xs = xdg_wm_base_get_xdg_surface(v.wm_base, v.surface);
	xdg_surface_add_listener(v.xs, &xdg_surface_listener, &v);
	xdg_toplevel_set_title(xdg_surface_get_toplevel(v.xs), "garnet-rogue video");
	wl_surface_commit(v.surface);
	next_us = rogue_now_us();
	for (;;) {
		uint64_t now = rogue_now_us();
		int wait_ms = now >= next_us ? 0 : (int)((next_us - now + 999) / 1000);

		if (rogue_dispatch_timeout(display, wait_ms) < 0)
			break;
		if (!v.mapped || rogue_now_us() < next_us)
			continue;
		if (menu && !v.menu)
			open_menu(&v);
		/* Ten a second from now on, not a burst to catch up on the time before mapping. */
		next_us = next_us + 2 * FRAME_MS * 1000 < now ? now + FRAME_MS * 1000
							     : next_us + FRAME_MS * 1000;
		show_frame(&v, frames++ % 2 ? 0xe0e020 : 0x20e020);
		if (growing && access(grow_path, F_OK) == 0) {
			growing = throbbing;
			grow(&v, throb);
			throb = -throb;
		}
		if (throbbing && growing && access(still_path, F_OK) == 0) {
			growing = false;
			fprintf(v.log, "still %dx%d\n", v.width, v.height);
			fflush(v.log);
		}
		if (frames % 10 == 0) {
			fprintf(v.log, "frames %u\n", frames);
			fflush(v.log);
		}
	}
	fclose(v.log);
	return 0;
}
