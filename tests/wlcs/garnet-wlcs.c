// SPDX-License-Identifier: MIT
// The wlcs integration module: libgarnet on one headless output, its loop on a thread of its
// own, clients connected through socketpairs, and pointer and touch input injected through the
// seat as a backend would. Every call from wlcs is carried to the compositor's thread and
// waited for, because libgarnet is single-threaded.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <wayland-server.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

#include "garnet/compositor.h"
#include "garnet/headless.h"
#include "garnet/log.h"
#include "garnet/seat.h"

/* A call may wait this many loop turns for what a client sent to arrive (1 ms apart). */
#define CALL_RETRIES 2000

struct server;
/* Runs on the compositor's thread; false: not possible yet, try again after the loop turns. */
typedef bool (*server_fn)(struct server *s, void *arg);

struct client_link {
	struct wl_list link;
	int client_fd; /* the fd wlcs got, which its wl_display reports */
	struct wl_client *client;
	struct wl_listener destroy;
};

struct server {
	WlcsDisplayServer base;
	pthread_t thread;
	struct garnet_compositor *c;
	bool started, failed;
	int call_fd;
	struct wl_event_source *call_source, *retry_source;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pthread_mutex_t call_serial; /* one call at a time */
	server_fn fn;
	void *arg;
	bool done;
	int retries;
	struct wl_list clients; /* client_link.link, touched on the compositor thread only */
	int32_t next_touch_id;
};

static uint32_t now_msec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* ---- calls to the compositor's thread ---- */

static void finish_call(struct server *s)
{
	pthread_mutex_lock(&s->lock);
	s->fn = NULL;
	s->done = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
}

static void attempt_call(struct server *s)
{
	if (s->fn(s, s->arg) || ++s->retries >= CALL_RETRIES) {
		if (s->retries >= CALL_RETRIES)
			fprintf(stderr, "garnet-wlcs: a call found nothing to act on\n");
		finish_call(s);
		return;
	}
	wl_event_source_timer_update(s->retry_source, 1);
}

static int call_retry(void *data)
{
	attempt_call(data);
	return 0;
}

static int call_requested(int fd, uint32_t mask, void *data)
{
	struct server *s = data;
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		return 0;
	s->retries = 0;
	attempt_call(s);
	return 0;
}

static void run_on_server(struct server *s, server_fn fn, void *arg)
{
	uint64_t one = 1;

	pthread_mutex_lock(&s->call_serial);
	pthread_mutex_lock(&s->lock);
	s->fn = fn;
	s->arg = arg;
	s->done = false;
	pthread_mutex_unlock(&s->lock);
	if (write(s->call_fd, &one, sizeof(one)) != sizeof(one))
		abort();
	pthread_mutex_lock(&s->lock);
	while (!s->done)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_unlock(&s->call_serial);
}

/* ---- the compositor's thread ---- */

static void *server_thread(void *data)
{
	struct server *s = data;
	struct garnet_options options;
	struct garnet_output_mode mode = {.width = 1920, .height = 1080, .scale = 1};
	struct wl_event_loop *loop;

	garnet_options_init(&options);
	options.no_socket = true;
	options.builtin_cursor = false;
	/* Debian's wlcs 1.5 attaches buffers before acking the first configure (later wlcs
	 * releases wait for it); see doc/testing.md. */
	options.accept_unacked_first_buffer = true;
	s->c = garnet_compositor_create(&options);
	if (s->c && !garnet_headless_add_output(s->c, &mode)) {
		garnet_compositor_destroy(s->c);
		s->c = NULL;
	}
	if (s->c) {
		garnet_log_set_level(s->c, getenv("GARNET_WLCS_DEBUG") ? GARNET_LOG_DEBUG
									: GARNET_LOG_ERROR);
		loop = garnet_compositor_get_loop(s->c);
		s->call_source = wl_event_loop_add_fd(loop, s->call_fd, WL_EVENT_READABLE,
						      call_requested, s);
		s->retry_source = wl_event_loop_add_timer(loop, call_retry, s);
	}
	pthread_mutex_lock(&s->lock);
	s->started = true;
	s->failed = !s->c || !s->call_source || !s->retry_source;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->failed)
		return NULL;
	garnet_compositor_run(s->c);
	wl_event_source_remove(s->call_source);
	wl_event_source_remove(s->retry_source);
	garnet_compositor_destroy(s->c);
	s->c = NULL;
	return NULL;
}

static void server_start(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);

	s->started = false;
	if (pthread_create(&s->thread, NULL, server_thread, s) != 0)
		abort();
	pthread_mutex_lock(&s->lock);
	while (!s->started)
		pthread_cond_wait(&s->cond, &s->lock);
	pthread_mutex_unlock(&s->lock);
	if (s->failed) {
		fprintf(stderr, "garnet-wlcs: the compositor did not start\n");
		abort();
	}
}

static bool terminate(struct server *s, void *arg)
{
	garnet_compositor_terminate(s->c);
	return true;
}

static void server_stop(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);

	run_on_server(s, terminate, NULL);
	pthread_join(s->thread, NULL);
}

/* ---- clients ---- */

static void client_destroyed(struct wl_listener *listener, void *data)
{
	struct client_link *link = wl_container_of(listener, link, destroy);

	wl_list_remove(&link->link);
	free(link);
}

struct new_client {
	int server_fd, client_fd;
	bool ok;
};

static bool add_client(struct server *s, void *arg)
{
	struct new_client *nc = arg;
	struct client_link *link = calloc(1, sizeof(*link));

	if (!link)
		return true;
	link->client = wl_client_create(garnet_compositor_get_display(s->c), nc->server_fd);
	if (!link->client) {
		free(link);
		return true;
	}
	link->client_fd = nc->client_fd;
	link->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(link->client, &link->destroy);
	/* Newest first: a reused fd number finds its current client. */
	wl_list_insert(&s->clients, &link->link);
	nc->ok = true;
	return true;
}

static int server_create_client_socket(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);
	struct new_client nc = {0};
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return -1;
	nc.server_fd = fds[0];
	nc.client_fd = fds[1];
	run_on_server(s, add_client, &nc);
	if (!nc.ok) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	return fds[1];
}

struct placement {
	int client_fd;
	uint32_t surface_id;
	int x, y;
};

static bool place(struct server *s, void *arg)
{
	struct placement *p = arg;
	struct client_link *link;
	struct wl_resource *surface;

	wl_list_for_each(link, &s->clients, link) {
		if (link->client_fd != p->client_fd)
			continue;
		surface = wl_client_get_object(link->client, p->surface_id);
		/* Not there yet: the client's requests are still on their way. */
		if (!surface)
			return false;
		if (!garnet_compositor_place_surface(s->c, surface, p->x, p->y))
			fprintf(stderr, "garnet-wlcs: wl_surface@%u cannot be placed\n",
				p->surface_id);
		return true;
	}
	return true;
}

static void server_position_window(WlcsDisplayServer *base, struct wl_display *client,
				   struct wl_surface *surface, int x, int y)
{
	struct server *s = wl_container_of(base, s, base);
	struct placement p = {
		.client_fd = wl_display_get_fd(client),
		.surface_id = wl_proxy_get_id((struct wl_proxy *)surface),
		.x = x,
		.y = y,
	};

	wl_display_flush(client);
	run_on_server(s, place, &p);
}

/* ---- pointer ---- */

struct pointer {
	WlcsPointer base;
	struct server *server;
};

struct pointer_event {
	double x, y; /* where to, or by how much when relative */
	int button;
	bool pressed, is_button, relative;
};

static bool inject_pointer(struct server *s, void *arg)
{
	struct pointer_event *e = arg;
	struct garnet_seat *seat = garnet_compositor_get_seat(s->c);

	if (e->is_button)
		garnet_seat_notify_button(seat, now_msec(), (uint32_t)e->button, e->pressed);
	else if (e->relative) /* a mouse: wlcs has no acceleration */
		garnet_seat_notify_motion(seat, now_msec(), e->x, e->y, e->x, e->y);
	else
		garnet_seat_notify_motion_absolute(seat, now_msec(), e->x, e->y);
	return true;
}

static void pointer_move_absolute(WlcsPointer *base, wl_fixed_t x, wl_fixed_t y)
{
	struct pointer *p = wl_container_of(base, p, base);
	struct pointer_event e = {.x = wl_fixed_to_double(x), .y = wl_fixed_to_double(y)};

	run_on_server(p->server, inject_pointer, &e);
}

static void pointer_move_relative(WlcsPointer *base, wl_fixed_t dx, wl_fixed_t dy)
{
	struct pointer *p = wl_container_of(base, p, base);
	struct pointer_event e = {.x = wl_fixed_to_double(dx), .y = wl_fixed_to_double(dy),
				  .relative = true};

	run_on_server(p->server, inject_pointer, &e);
}

static void pointer_button(WlcsPointer *base, int button, bool pressed)
{
	struct pointer *p = wl_container_of(base, p, base);
	struct pointer_event e = {.button = button, .pressed = pressed, .is_button = true};

	run_on_server(p->server, inject_pointer, &e);
}

static void pointer_button_down(WlcsPointer *base, int button)
{
	pointer_button(base, button, true);
}

static void pointer_button_up(WlcsPointer *base, int button)
{
	pointer_button(base, button, false);
}

static void pointer_destroy(WlcsPointer *base)
{
	free(wl_container_of(base, (struct pointer *)NULL, base));
}

static WlcsPointer *server_create_pointer(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);
	struct pointer *p = calloc(1, sizeof(*p));

	if (!p)
		abort();
	p->base = (WlcsPointer){
		.version = WLCS_POINTER_VERSION,
		.move_absolute = pointer_move_absolute,
		.move_relative = pointer_move_relative,
		.button_up = pointer_button_up,
		.button_down = pointer_button_down,
		.destroy = pointer_destroy,
	};
	p->server = s;
	return &p->base;
}

/* ---- touch ---- */

struct touch {
	WlcsTouch base;
	struct server *server;
	int32_t id;
};

struct touch_event {
	int32_t id;
	double x, y;
	enum { TOUCH_DOWN, TOUCH_MOTION, TOUCH_UP } kind;
};

static bool inject_touch(struct server *s, void *arg)
{
	struct touch_event *e = arg;
	struct garnet_seat *seat = garnet_compositor_get_seat(s->c);

	switch (e->kind) {
	case TOUCH_DOWN:
		garnet_seat_notify_touch_down(seat, now_msec(), e->id, e->x, e->y);
		break;
	case TOUCH_MOTION:
		garnet_seat_notify_touch_motion(seat, now_msec(), e->id, e->x, e->y);
		break;
	case TOUCH_UP:
		garnet_seat_notify_touch_up(seat, now_msec(), e->id);
		break;
	}
	garnet_seat_notify_touch_frame(seat);
	return true;
}

static void touch_send(WlcsTouch *base, int kind, wl_fixed_t x, wl_fixed_t y)
{
	struct touch *t = wl_container_of(base, t, base);
	/* The header says wl_fixed_t, but the runner passes whole pixels (its down_at and
	 * move_to hand their ints straight through), unlike the pointer's move_absolute. */
	struct touch_event e = {.id = t->id, .x = x, .y = y, .kind = kind};

	run_on_server(t->server, inject_touch, &e);
}

static void touch_down(WlcsTouch *base, wl_fixed_t x, wl_fixed_t y)
{
	touch_send(base, TOUCH_DOWN, x, y);
}

static void touch_move(WlcsTouch *base, wl_fixed_t x, wl_fixed_t y)
{
	touch_send(base, TOUCH_MOTION, x, y);
}

static void touch_up(WlcsTouch *base)
{
	touch_send(base, TOUCH_UP, 0, 0);
}

static void touch_destroy(WlcsTouch *base)
{
	free(wl_container_of(base, (struct touch *)NULL, base));
}

static WlcsTouch *server_create_touch(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);
	struct touch *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->base = (WlcsTouch){
		.version = WLCS_TOUCH_VERSION,
		.touch_down = touch_down,
		.touch_move = touch_move,
		.touch_up = touch_up,
		.destroy = touch_destroy,
	};
	t->server = s;
	/* Each touch device is one finger; ids stay small, as the seat keeps a few slots. */
	t->id = s->next_touch_id++ % 8;
	return &t->base;
}

/* ---- what garnet offers (wlcs skips tests of anything else) ---- */

static const WlcsExtensionDescriptor extensions[] = {
	{"wl_compositor", 5},
	{"wl_subcompositor", 1},
	{"wl_shm", 1},
	{"wl_seat", 8},
	{"wl_output", 4},
	{"wl_data_device_manager", 3},
	{"xdg_wm_base", 4},
	{"zxdg_output_manager_v1", 3},
	{"zxdg_decoration_manager_v1", 1},
	{"wp_viewporter", 1},
	{"wp_presentation", 1},
	{"wp_single_pixel_buffer_manager_v1", 1},
	{"zwp_primary_selection_device_manager_v1", 1},
	{"zwp_relative_pointer_manager_v1", 1},
	{"zwp_pointer_constraints_v1", 1},
	{"xdg_activation_v1", 1},
	{"wp_fractional_scale_manager_v1", 1},
	{"zwp_idle_inhibit_manager_v1", 1},
	{"ext_idle_notifier_v1", 1},
	{"zwlr_layer_shell_v1", 4},
};

static const WlcsIntegrationDescriptor descriptor = {
	.version = WLCS_INTEGRATION_DESCRIPTOR_VERSION,
	.num_extensions = sizeof(extensions) / sizeof(extensions[0]),
	.supported_extensions = extensions,
};

static const WlcsIntegrationDescriptor *server_get_descriptor(const WlcsDisplayServer *base)
{
	return &descriptor;
}

static WlcsDisplayServer *create_server(int argc, const char **argv)
{
	struct server *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->base = (WlcsDisplayServer){
		.version = 2,
		.start = server_start,
		.stop = server_stop,
		.create_client_socket = server_create_client_socket,
		.position_window_absolute = server_position_window,
		.create_pointer = server_create_pointer,
		.create_touch = server_create_touch,
		.get_descriptor = server_get_descriptor,
	};
	s->call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->call_fd < 0) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	pthread_mutex_init(&s->call_serial, NULL);
	wl_list_init(&s->clients);
	return &s->base;
}

static void destroy_server(WlcsDisplayServer *base)
{
	struct server *s = wl_container_of(base, s, base);

	close(s->call_fd);
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->call_serial);
	free(s);
}

/* The symbol wlcs looks up; its name and layout are wlcs's. */
__attribute__((visibility("default"))) const WlcsServerIntegration wlcs_server_integration = {
	.version = WLCS_SERVER_INTEGRATION_VERSION,
	.create_server = create_server,
	.destroy_server = destroy_server,
};
