// SPDX-License-Identifier: MIT
// garnet-panel: the sample panel garnet launches as its panel [launcher] entry. A bar along
// the top of the screen (a layer-shell surface on the top layer whose exclusive zone keeps
// windows below it) with the launcher buttons of garnet.ini's [panel] section, a lock button,
// the window list (foreign-toplevel: the activated window highlighted, a click asks garnet to
// activate one) and a clock.
//
// The panel runs nothing itself: garnet_panel_v1 tells it the launchers' names and garnet runs
// a launcher's command when the panel asks for it by name, and locks when the panel asks it
// to. garnet offers that protocol and the window list only to the panel it launched; started
// any other way, garnet-panel says so and exits.
//
// usage: garnet-panel   (GARNET_PANEL_TIME=HH:MM shows that time instead of the clock's)
#include <errno.h>
#include <linux/input-event-codes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-panel-v1-client-protocol.h"
#include "panel-font.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"

#define HEIGHT 24
#define SCALE 2 /* font pixels are 2x2: 14 px tall text */
#define PAD 8
#define GAP 4
#define MAX_NAME 64
#define MAX_TITLE_CHARS 16
#define MAX_LAUNCHERS 32
#define MAX_AREAS 128

static const pixman_color_t bar_colour = {0x1c00, 0x1f00, 0x2600, 0xffff};
static const pixman_color_t button_colour = {0x3b00, 0x4200, 0x5200, 0xffff};
static const pixman_color_t lock_colour = {0x8800, 0x3000, 0x3000, 0xffff};
static const pixman_color_t active_colour = {0x5e00, 0x8100, 0xac00, 0xffff};
static const pixman_color_t text_colour = {0xec00, 0xef00, 0xf400, 0xffff};

struct toplevel {
	struct panel *panel;
	struct zwlr_foreign_toplevel_handle_v1 *handle;
	char *title, *pending_title;
	bool activated, pending_activated;
	struct wl_list link; /* panel.toplevels, oldest first */
};

enum area_kind { AREA_LAUNCHER, AREA_LOCK, AREA_WINDOW };

/* A button drawn in the last frame, for the pointer to hit. */
struct area {
	int x0, x1;
	enum area_kind kind;
	int launcher;
	struct toplevel *toplevel;
};

struct panel {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_shm *shm;
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct zwlr_layer_shell_v1 *layer_shell;
	struct zwlr_foreign_toplevel_manager_v1 *toplevels_manager;
	struct garnet_panel_manager_v1 *manager;
	struct wl_surface *surface;
	struct zwlr_layer_surface_v1 *layer_surface;
	struct wl_buffer *attached; /* the last buffer drawn, until garnet releases it */
	uint32_t width;
	bool configured, closed, dirty, shown;
	struct wl_list toplevels;
	char launchers[MAX_LAUNCHERS][MAX_NAME + 1];
	int launcher_count;
	struct area areas[MAX_AREAS];
	int area_count;
	double pointer_x;
	const char *fixed_time;
};

static void die(const char *what)
{
	fprintf(stderr, "garnet-panel: %s\n", what);
	exit(1);
}

/* ---- drawing ---- */

static void fill(pixman_image_t *image, int x, int y, int w, int h, const pixman_color_t *colour)
{
	pixman_box32_t box = {x, y, x + w, y + h};

	pixman_image_fill_boxes(PIXMAN_OP_SRC, image, colour, 1, &box);
}

/* A button with text from x; returns where the next one goes, or -1 when it does not fit
 * before limit. */
static int button(struct panel *p, pixman_image_t *image, int x, int limit, const char *text,
		  int max_chars, const pixman_color_t *colour, enum area_kind kind, int launcher,
		  struct toplevel *toplevel)
{
	int text_w = font_text_width(text, max_chars, SCALE), w = text_w + 2 * PAD;

	if (x + w > limit || p->area_count == MAX_AREAS)
		return -1;
	fill(image, x, 2, w, HEIGHT - 4, colour);
	font_draw_text(image, x + PAD, (HEIGHT - FONT_HEIGHT * SCALE) / 2, text, max_chars, SCALE,
		       &text_colour);
	p->areas[p->area_count++] = (struct area){x, x + w, kind, launcher, toplevel};
	return x + w + GAP;
}

static void clock_text(struct panel *p, char out[6])
{
	time_t now = time(NULL);
	struct tm tm;

	if (p->fixed_time) {
		snprintf(out, 6, "%.5s", p->fixed_time);
		return;
	}
	localtime_r(&now, &tm);
	snprintf(out, 6, "%02d:%02d", tm.tm_hour, tm.tm_min);
}

static void draw_bar(struct panel *p, pixman_image_t *image)
{
	char clock[6];
	int x = GAP, clock_x;
	struct toplevel *t;

	p->area_count = 0;
	fill(image, 0, 0, (int)p->width, HEIGHT, &bar_colour);
	clock_text(p, clock);
	clock_x = (int)p->width - PAD - font_text_width(clock, 5, SCALE);
	font_draw_text(image, clock_x, (HEIGHT - FONT_HEIGHT * SCALE) / 2, clock, 5, SCALE,
		       &text_colour);
	for (int i = 0; i < p->launcher_count && x >= 0; i++)
		x = button(p, image, x, clock_x - PAD, p->launchers[i], MAX_NAME, &button_colour,
			   AREA_LAUNCHER, i, NULL);
	if (x >= 0)
		x = button(p, image, x, clock_x - PAD, "Lock", 4, &lock_colour, AREA_LOCK, 0, NULL);
	if (x >= 0)
		x += 2 * GAP;
	wl_list_for_each (t, &p->toplevels, link) {
		if (x < 0)
			break;
		x = button(p, image, x, clock_x - PAD, t->title ? t->title : "?", MAX_TITLE_CHARS,
			   t->activated ? &active_colour : &button_colour, AREA_WINDOW, 0, t);
	}
}

static void buffer_release(void *data, struct wl_buffer *buffer)
{
	struct panel *p = data;

	if (p->attached == buffer)
		p->attached = NULL;
	wl_buffer_destroy(buffer);
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

/* A new buffer per frame: the panel redraws at most once a minute or when a window changes. */
static void redraw(struct panel *p)
{
	int stride = (int)p->width * 4;
	size_t size = (size_t)stride * HEIGHT;
	int fd = memfd_create("garnet-panel", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	pixman_image_t *image;
	void *pixels;

	p->dirty = false;
	if (!p->configured || p->width == 0)
		return;
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die("no memory for the bar");
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED)
		die("no memory for the bar");
	image = pixman_image_create_bits(PIXMAN_x8r8g8b8, (int)p->width, HEIGHT, pixels, stride);
	if (!image)
		die("no memory for the bar");
	draw_bar(p, image);
	pixman_image_unref(image);
	munmap(pixels, size);
	pool = wl_shm_create_pool(p->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)p->width, HEIGHT, stride,
					   WL_SHM_FORMAT_XRGB8888);
	wl_buffer_add_listener(buffer, &buffer_listener, p);
	p->attached = buffer;
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_surface_attach(p->surface, buffer, 0, 0);
	wl_surface_damage_buffer(p->surface, 0, 0, (int32_t)p->width, HEIGHT);
	wl_surface_commit(p->surface);
	/* Said once, for whoever reads garnet's output (a test waits for the bar this way). */
	if (!p->shown)
		fprintf(stderr, "garnet-panel: the bar is shown, %d px wide, %d launchers\n",
			(int)p->width, p->launcher_count);
	p->shown = true;
}

/* ---- the layer surface ---- */

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *surface, uint32_t serial,
			    uint32_t width, uint32_t height)
{
	struct panel *p = data;

	zwlr_layer_surface_v1_ack_configure(surface, serial);
	p->width = width;
	p->configured = true;
	p->dirty = true;
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *surface)
{
	((struct panel *)data)->closed = true;
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {layer_configure, layer_closed};

/* ---- the window list ---- */

static void toplevel_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *h, const char *title)
{
	struct toplevel *t = data;

	free(t->pending_title);
	t->pending_title = strdup(title);
}

static void toplevel_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
			    const char *app_id)
{
}

static void toplevel_output_enter(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
				  struct wl_output *output)
{
}

static void toplevel_output_leave(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
				  struct wl_output *output)
{
}

static void toplevel_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
			   struct wl_array *state)
{
	struct toplevel *t = data;
	uint32_t *s;

	t->pending_activated = false;
	wl_array_for_each (s, state) {
		if (*s == ZWLR_FOREIGN_TOPLEVEL_HANDLE_V1_STATE_ACTIVATED)
			t->pending_activated = true;
	}
}

static void toplevel_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct toplevel *t = data;

	t->panel->dirty = true;
	if (t->pending_title) {
		free(t->title);
		t->title = t->pending_title;
		t->pending_title = NULL;
	}
	t->activated = t->pending_activated;
}

static void toplevel_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct toplevel *t = data;

	t->panel->dirty = true;
	wl_list_remove(&t->link);
	zwlr_foreign_toplevel_handle_v1_destroy(t->handle);
	free(t->title);
	free(t->pending_title);
	free(t);
}

static void toplevel_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
			    struct zwlr_foreign_toplevel_handle_v1 *parent)
{
}

static const struct zwlr_foreign_toplevel_handle_v1_listener toplevel_listener = {
	toplevel_title, toplevel_app_id, toplevel_output_enter, toplevel_output_leave,
	toplevel_state, toplevel_done,	 toplevel_closed,	toplevel_parent,
};

static void manager_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *m,
			     struct zwlr_foreign_toplevel_handle_v1 *handle)
{
	struct panel *p = data;
	struct toplevel *t = calloc(1, sizeof(*t));

	if (!t)
		die("no memory for a window");
	t->panel = p;
	t->handle = handle;
	wl_list_insert(p->toplevels.prev, &t->link);
	zwlr_foreign_toplevel_handle_v1_add_listener(handle, &toplevel_listener, t);
}

static void manager_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *m)
{
	struct panel *p = data;

	zwlr_foreign_toplevel_manager_v1_destroy(m);
	p->toplevels_manager = NULL;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {manager_toplevel,
										  manager_finished};

/* ---- garnet_panel_v1: the launchers' names ---- */

static void panel_launcher(void *data, struct garnet_panel_manager_v1 *m, const char *name)
{
	struct panel *p = data;

	if (p->launcher_count == MAX_LAUNCHERS)
		return;
	snprintf(p->launchers[p->launcher_count++], MAX_NAME + 1, "%s", name);
	p->dirty = true;
}

static void panel_done(void *data, struct garnet_panel_manager_v1 *m)
{
	((struct panel *)data)->dirty = true;
}

static const struct garnet_panel_manager_v1_listener panel_listener = {panel_launcher, panel_done};

/* ---- pointer: clicks on the buttons ---- */

static void pointer_enter(void *data, struct wl_pointer *ptr, uint32_t serial, struct wl_surface *s,
			  wl_fixed_t x, wl_fixed_t y)
{
	((struct panel *)data)->pointer_x = wl_fixed_to_double(x);
}

static void pointer_leave(void *data, struct wl_pointer *ptr, uint32_t serial, struct wl_surface *s)
{
}

static void pointer_motion(void *data, struct wl_pointer *ptr, uint32_t time, wl_fixed_t x,
			   wl_fixed_t y)
{
	((struct panel *)data)->pointer_x = wl_fixed_to_double(x);
}

static void click(struct panel *p, const struct area *a)
{
	switch (a->kind) {
	case AREA_LAUNCHER:
		garnet_panel_manager_v1_launch(p->manager, p->launchers[a->launcher]);
		break;
	case AREA_LOCK:
		garnet_panel_manager_v1_lock(p->manager);
		break;
	case AREA_WINDOW:
		/* garnet decides: it refuses while the lock or one of its dialogs is up. */
		zwlr_foreign_toplevel_handle_v1_activate(a->toplevel->handle, p->seat);
		break;
	}
}

static void pointer_button(void *data, struct wl_pointer *ptr, uint32_t serial, uint32_t time,
			   uint32_t button, uint32_t state)
{
	struct panel *p = data;

	if (button != BTN_LEFT || state != WL_POINTER_BUTTON_STATE_PRESSED)
		return;
	for (int i = 0; i < p->area_count; i++) {
		if (p->pointer_x >= p->areas[i].x0 && p->pointer_x < p->areas[i].x1) {
			click(p, &p->areas[i]);
			return;
		}
	}
}

static void pointer_axis(void *data, struct wl_pointer *ptr, uint32_t time, uint32_t axis,
			 wl_fixed_t value)
{
}

static void pointer_frame(void *data, struct wl_pointer *ptr)
{
}

static void pointer_axis_source(void *data, struct wl_pointer *ptr, uint32_t source)
{
}

static void pointer_axis_stop(void *data, struct wl_pointer *ptr, uint32_t time, uint32_t axis)
{
}

static void pointer_axis_discrete(void *data, struct wl_pointer *ptr, uint32_t axis,
				  int32_t discrete)
{
}

/* Every event of wl_pointer version 5, the version bound. */
static const struct wl_pointer_listener pointer_listener = {
	pointer_enter, pointer_leave,	    pointer_motion,    pointer_button,	      pointer_axis,
	pointer_frame, pointer_axis_source, pointer_axis_stop, pointer_axis_discrete,
};

/* ---- setup ---- */

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct panel *p = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		p->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		p->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !p->seat)
		p->seat = wl_registry_bind(registry, name, &wl_seat_interface, min_u32(version, 5));
	else if (strcmp(interface, zwlr_layer_shell_v1_interface.name) == 0)
		p->layer_shell = wl_registry_bind(registry, name, &zwlr_layer_shell_v1_interface,
						  min_u32(version, 4));
	else if (strcmp(interface, zwlr_foreign_toplevel_manager_v1_interface.name) == 0)
		p->toplevels_manager = wl_registry_bind(registry, name,
							&zwlr_foreign_toplevel_manager_v1_interface,
							min_u32(version, 3));
	else if (strcmp(interface, garnet_panel_manager_v1_interface.name) == 0)
		p->manager =
			wl_registry_bind(registry, name, &garnet_panel_manager_v1_interface, 1);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {registry_global,
							      registry_global_remove};

/* A timer that fires at the start of each minute. */
static int minute_timer(void)
{
	int fd = timerfd_create(CLOCK_REALTIME, TFD_CLOEXEC | TFD_NONBLOCK);
	struct timespec now;
	struct itimerspec spec = {.it_interval = {60, 0}};

	if (fd < 0)
		die("no timer for the clock");
	clock_gettime(CLOCK_REALTIME, &now);
	spec.it_value.tv_sec = now.tv_sec - now.tv_sec % 60 + 60;
	if (timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL) < 0)
		die("no timer for the clock");
	return fd;
}

static void create_bar(struct panel *p)
{
	p->surface = wl_compositor_create_surface(p->compositor);
	p->layer_surface = zwlr_layer_shell_v1_get_layer_surface(
		p->layer_shell, p->surface, NULL, ZWLR_LAYER_SHELL_V1_LAYER_TOP, "panel");
	zwlr_layer_surface_v1_add_listener(p->layer_surface, &layer_listener, p);
	zwlr_layer_surface_v1_set_anchor(p->layer_surface,
					 ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
						 ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
						 ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
	zwlr_layer_surface_v1_set_size(p->layer_surface, 0, HEIGHT);
	zwlr_layer_surface_v1_set_exclusive_zone(p->layer_surface, HEIGHT);
	wl_surface_commit(p->surface);
}

/* Dispatches Wayland events and the clock until the bar is closed or garnet goes away. */
static void run(struct panel *p)
{
	int timer = p->fixed_time ? -1 : minute_timer();
	struct pollfd fds[2] = {{wl_display_get_fd(p->display), POLLIN, 0}, {timer, POLLIN, 0}};

	while (!p->closed) {
		if (p->dirty)
			redraw(p);
		while (wl_display_prepare_read(p->display) != 0)
			wl_display_dispatch_pending(p->display);
		if (wl_display_flush(p->display) < 0 && errno != EAGAIN) {
			wl_display_cancel_read(p->display);
			break;
		}
		if (poll(fds, timer >= 0 ? 2 : 1, -1) < 0) {
			wl_display_cancel_read(p->display);
			if (errno == EINTR)
				continue;
			break;
		}
		if (fds[0].revents & POLLIN) {
			if (wl_display_read_events(p->display) < 0)
				break;
		} else {
			wl_display_cancel_read(p->display);
		}
		if (fds[0].revents & (POLLERR | POLLHUP))
			break;
		if (wl_display_dispatch_pending(p->display) < 0)
			break;
		if (timer >= 0 && (fds[1].revents & POLLIN)) {
			uint64_t expirations;

			/* ECANCELED: the wall clock was set; start again on the new minute. */
			if (read(timer, &expirations, sizeof(expirations)) < 0 &&
			    errno == ECANCELED) {
				close(timer);
				fds[1].fd = timer = minute_timer();
			}
			p->dirty = true;
		}
	}
	if (timer >= 0)
		close(timer);
}

/* Every proxy goes before the display: libwayland frees none of them at disconnect. */
static void teardown(struct panel *p, struct wl_registry *registry)
{
	struct toplevel *t, *tmp;

	wl_list_for_each_safe (t, tmp, &p->toplevels, link) {
		wl_list_remove(&t->link);
		zwlr_foreign_toplevel_handle_v1_destroy(t->handle);
		free(t->title);
		free(t->pending_title);
		free(t);
	}
	if (p->attached)
		wl_buffer_destroy(p->attached);
	if (p->layer_surface)
		zwlr_layer_surface_v1_destroy(p->layer_surface);
	if (p->surface)
		wl_surface_destroy(p->surface);
	if (p->pointer)
		wl_pointer_destroy(p->pointer);
	if (p->toplevels_manager)
		zwlr_foreign_toplevel_manager_v1_destroy(p->toplevels_manager);
	if (p->manager)
		garnet_panel_manager_v1_destroy(p->manager);
	if (p->layer_shell)
		zwlr_layer_shell_v1_destroy(p->layer_shell);
	if (p->seat)
		wl_seat_destroy(p->seat);
	if (p->shm)
		wl_shm_destroy(p->shm);
	if (p->compositor)
		wl_compositor_destroy(p->compositor);
	wl_registry_destroy(registry);
	wl_display_disconnect(p->display);
}

int main(void)
{
	struct panel p = {0};
	struct wl_registry *registry;
	int error;

	wl_list_init(&p.toplevels);
	p.fixed_time = getenv("GARNET_PANEL_TIME");
	p.display = wl_display_connect(NULL);
	if (!p.display)
		die("cannot connect to a Wayland display");
	registry = wl_display_get_registry(p.display);
	wl_registry_add_listener(registry, &registry_listener, &p);
	wl_display_roundtrip(p.display);
	if (!p.compositor || !p.shm || !p.seat || !p.layer_shell)
		die("the compositor lacks wl_compositor, wl_shm, wl_seat or zwlr_layer_shell_v1");
	if (!p.manager || !p.toplevels_manager)
		die("no window list and no launchers (garnet_panel_manager_v1 and "
		    "zwlr_foreign_toplevel_manager_v1): garnet offers them only to the panel it "
		    "launches itself (garnet.ini [launcher] panel=garnet-panel)");
	garnet_panel_manager_v1_add_listener(p.manager, &panel_listener, &p);
	zwlr_foreign_toplevel_manager_v1_add_listener(p.toplevels_manager, &manager_listener, &p);
	p.pointer = wl_seat_get_pointer(p.seat);
	wl_pointer_add_listener(p.pointer, &pointer_listener, &p);
	create_bar(&p);
	run(&p);
	/* EPIPE: garnet went away, the panel's usual end. */
	error = wl_display_get_error(p.display);
	if (error && error != EPIPE)
		fprintf(stderr, "garnet-panel: the connection to garnet failed: %s\n",
			strerror(error));
	else if (p.closed)
		fprintf(stderr, "garnet-panel: garnet closed the bar\n");
	teardown(&p, registry);
	return error && error != EPIPE ? 1 : 0;
}
