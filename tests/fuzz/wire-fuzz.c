// SPDX-License-Identifier: MIT
// The wire-protocol fuzzer: a fresh libgarnet on the headless backend for every input, and up
// to four hand-made clients on socket pairs whose requests, disconnects and the user's input
// in between all come from the fuzzer's bytes. One client may be trusted (the policy lets it
// bind the privileged globals: lock, screencopy, virtual keyboard...), so their code is
// attacked too. After every step the invariants must hold; after the last client is gone,
// nothing of theirs may be left.
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include <garnet/headless.h>
#include "../../compositor/core/compositor.h"
#include "../../compositor/core/output.h"
#include "../../compositor/core/surface.h"
#include "../../compositor/core/seat.h"
#include "fuzz-input.h"
#include "invariants.h"
#include "wire-client.h"
#include "wire-scenes.h"

#define MAX_CLIENTS 4
#define MAX_STEPS 4000
#define MAX_INTERFACES 64

struct fuzz_client {
	struct wire_client wire;
	struct wl_client *server; /* NULL once libwayland destroyed it */
	struct wl_listener destroy;
	bool trusted;
};

struct fuzz_run {
	struct garnet_compositor *c;
	struct wl_event_loop *loop;
	struct fuzz_client clients[MAX_CLIENTS];
	int client_count;
	bool trust_first, ask_captures;
	struct garnet_output *extra_output;
	const struct wl_interface *interfaces[MAX_INTERFACES];
	int interface_count;
};

static FILE *devnull;

/* libwayland's own complaints about the fuzzed clients ("error in client communication"). */
static void wayland_log(const char *fmt, va_list ap)
{
	if (getenv("GARNET_FUZZ_LOG"))
		vfprintf(stderr, fmt, ap);
}

/* ---- the policy: one client may be trusted, the rest are ordinary ---- */

static bool trusted(struct fuzz_run *run, const struct wl_client *client)
{
	for (int i = 0; i < run->client_count; i++)
		if (run->clients[i].server == client)
			return run->clients[i].trusted;
	return false;
}

static bool global_visible(void *data, const struct wl_client *client,
			   const struct wl_interface *interface, bool privileged)
{
	struct fuzz_run *run = data;
	int i;

	for (i = 0; i < run->interface_count; i++)
		if (run->interfaces[i] == interface)
			break;
	if (i == run->interface_count && i < MAX_INTERFACES)
		run->interfaces[run->interface_count++] = interface;
	return !privileged || trusted(run, client);
}

static bool bind_privileged(void *data, struct wl_client *client,
			    const struct wl_interface *interface)
{
	return trusted(data, client);
}

static bool allow(void *data, struct wl_client *client)
{
	return trusted(data, client);
}

static bool deliver_input(void *data, struct wl_client *client, struct garnet_surface *surface,
			  enum garnet_input_kind kind)
{
	return true;
}

static bool read_selection(void *data, struct wl_client *client, struct wl_client *owner,
			   enum garnet_selection_kind kind)
{
	return true;
}

static bool write_selection(void *data, struct wl_client *client, enum garnet_selection_kind kind)
{
	return trusted(data, client);
}

static enum garnet_decision capture_output(void *data, struct wl_client *client,
					   const char *output_name, bool stream)
{
	struct fuzz_run *run = data;

	if (!trusted(run, client))
		return GARNET_DENY;
	return run->ask_captures ? GARNET_ASK : GARNET_ALLOW;
}

/* The portal's captures for an application, decided as the trusted client's own. */
static enum garnet_decision capture_for_app(void *data, struct wl_client *client,
					    const char *app_id, uint32_t pid,
					    const char *output_name, bool stream, char *who,
					    size_t who_size)
{
	snprintf(who, who_size, "pid %u", pid);
	return capture_output(data, client, output_name, stream);
}

static bool configure_output(void *data, struct wl_client *client, const char *output)
{
	return trusted(data, client);
}

static bool global_shortcut(void *data, struct wl_client *client, const char *action)
{
	return trusted(data, client);
}

static bool client_sandboxed(void *data, struct wl_client *client, const char *engine,
			     const char *app_id, const char *instance_id)
{
	return true;
}

/* As the shipped policy: the overlay and an exclusive keyboard for trusted clients only, so
 * untrusted ones reach the refusals (a closed surface, on_demand instead of exclusive). */
static bool layer(void *data, struct wl_client *client, const char *name)
{
	return strcmp(name, "overlay") != 0 || trusted(data, client);
}

static bool exclusive_keyboard(void *data, struct wl_client *client)
{
	return trusted(data, client);
}

static const struct wl_interface *lookup_interface(void *data, const char *name)
{
	struct fuzz_run *run = data;

	for (int i = 0; i < run->interface_count; i++)
		if (strcmp(run->interfaces[i]->name, name) == 0)
			return run->interfaces[i];
	return NULL;
}

/* ---- clients ---- */

static void client_destroyed(struct wl_listener *listener, void *data)
{
	struct fuzz_client *fc = wl_container_of(listener, fc, destroy);

	wl_list_remove(&fc->destroy.link);
	fc->server = NULL;
}

static void add_client(struct fuzz_run *run)
{
	struct fuzz_client *fc;
	int fds[2];

	if (run->client_count == MAX_CLIENTS)
		return;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return;
	fc = &run->clients[run->client_count];
	fc->trusted = run->client_count == 0 && run->trust_first;
	wire_client_init(&fc->wire, fds[0], lookup_interface, run);
	fc->server = wl_client_create(garnet_compositor_get_display(run->c), fds[1]);
	if (!fc->server) {
		close(fds[1]);
		wire_client_finish(&fc->wire);
		return;
	}
	fc->destroy.notify = client_destroyed;
	wl_client_add_destroy_listener(fc->server, &fc->destroy);
	run->client_count++;
	wire_client_start(&fc->wire);
}

/* Lets garnet handle what was sent (and repaint), then reads what it answered. */
static void pump(struct fuzz_run *run)
{
	for (int round = 0; round < 2; round++) {
		wl_event_loop_dispatch(run->loop, 0);
		wl_display_flush_clients(garnet_compositor_get_display(run->c));
		for (int i = 0; i < run->client_count; i++)
			if (!run->clients[i].wire.dead)
				wire_client_read(&run->clients[i].wire);
	}
}

/* ---- the user's input ---- */

static double coordinate(struct fuzz_input *in)
{
	return (double)take_below(in, 400) - 40.0 + take_u8(in) / 256.0;
}

static void user_input(struct fuzz_run *run, uint8_t op, struct fuzz_input *in)
{
	struct garnet_seat *seat = garnet_compositor_get_seat(run->c);
	uint32_t now = garnet_now_msec(run->c);
	int32_t id = (int32_t)take_below(in, 12);
	double x, y;

	switch (op) {
	case 0:
		garnet_seat_notify_key(seat, now, 1 + take_below(in, 127), take_u8(in) & 1);
		break;
	case 1:
		x = coordinate(in);
		y = coordinate(in);
		garnet_seat_notify_motion_absolute(seat, now, x, y);
		break;
	case 2:
		garnet_seat_notify_button(seat, now, 0x110 + take_below(in, 3), take_u8(in) & 1);
		break;
	case 3:
		garnet_seat_notify_axis(seat, now, take_u8(in) & 1, (double)(int8_t)take_u8(in));
		break;
	case 4:
		x = coordinate(in);
		y = coordinate(in);
		garnet_seat_notify_touch_down(seat, now, id, x, y);
		break;
	case 5:
		x = coordinate(in);
		y = coordinate(in);
		garnet_seat_notify_touch_motion(seat, now, id, x, y);
		break;
	case 6:
		garnet_seat_notify_touch_up(seat, now, id);
		break;
	default:
		garnet_seat_notify_touch_frame(seat);
		break;
	}
}

/* A second output comes and goes (hotplug): surfaces on it must follow. */
static void hotplug(struct fuzz_run *run)
{
	static const struct garnet_output_mode mode = {200, 150, 0, 1, 0};

	if (run->extra_output) {
		garnet_output_destroy(run->extra_output);
		run->extra_output = NULL;
	} else {
		run->extra_output = garnet_headless_add_output(run->c, &mode);
	}
}

/* ---- one input ---- */

static void step(struct fuzz_run *run, struct fuzz_input *in)
{
	uint8_t op = take_u8(in) % 40;
	struct fuzz_client *fc = NULL;

	if (run->client_count)
		fc = &run->clients[take_below(in, (uint32_t)run->client_count)];
	if (op >= 32) {
		user_input(run, op - 32, in);
		return;
	}
	if (op == 24) {
		add_client(run);
		return;
	}
	if (op == 25) {
		hotplug(run);
		return;
	}
	if (!fc || fc->wire.dead)
		return;
	if (op < 14)
		wire_client_fuzz_request(&fc->wire, in);
	else if (op < 20)
		wire_scene(&fc->wire, in);
	else if (op < 23)
		wire_client_fuzz_bind(&fc->wire, in);
	else if (op == 23)
		wire_client_truncate_file(&fc->wire, in);
	else if (op == 26)
		wire_client_send_raw(&fc->wire, in);
	else if (op == 27)
		wire_client_finish(&fc->wire); /* disconnect */
	else if (op == 28)
		wire_client_hang_up_mid_request(&fc->wire);
	/* 29..31: nothing sent; garnet only runs its loop (repaints, frame callbacks) */
}

static void end_run(struct fuzz_run *run)
{
	for (int i = 0; i < run->client_count; i++)
		wire_client_finish(&run->clients[i].wire);
	/* libwayland notices the hang-ups in its loop; a client it still has is destroyed. */
	for (int round = 0; round < 4; round++)
		wl_event_loop_dispatch(run->loop, 0);
	for (int i = 0; i < run->client_count; i++)
		if (run->clients[i].server)
			wl_client_destroy(run->clients[i].server);
	wl_event_loop_dispatch(run->loop, 0);
	check_nothing_left(run->c);
	garnet_compositor_destroy(run->c);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char runtime[] = "/tmp/garnet-wire-fuzz-XXXXXX";

	devnull = fopen("/dev/null", "w");
	wl_log_set_handler_server(wayland_log);
	if (!getenv("XDG_RUNTIME_DIR") && mkdtemp(runtime))
		setenv("XDG_RUNTIME_DIR", runtime, 1);
	/* A fuzzed input must not depend on the machine's keyboard settings. */
	unsetenv("XKB_DEFAULT_LAYOUT");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct garnet_output_mode mode = {320, 240, 0, 1, 0};
	struct fuzz_input in = {data, size, 0};
	struct garnet_security_hooks hooks = {
		.global_visible = global_visible,
		.bind_privileged = bind_privileged,
		.deliver_input = deliver_input,
		.read_selection = read_selection,
		.write_selection = write_selection,
		.capture_output = capture_output,
		.lock_session = allow,
		.inject_keys = allow,
		.input_method = allow,
		.global_shortcut = global_shortcut,
		.client_sandboxed = client_sandboxed,
		.layer = layer,
		.exclusive_keyboard = exclusive_keyboard,
		.capture_for_app = capture_for_app,
		.configure_output = configure_output,
	};
	struct garnet_options options;
	struct fuzz_run run = {0};
	uint8_t setup = take_u8(&in);
	int steps = 0;

	garnet_options_init(&options);
	options.no_socket = true;
	options.repaint_window_ms = 0;
	/* The fuzzer's keys answer garnet's dialog, and what a granted capture does is fuzzed. */
	options.consent_arm_ms = 1;
	run.trust_first = setup & 1;
	run.ask_captures = setup & 2;
	run.c = garnet_compositor_create(&options);
	if (!run.c)
		abort();
	garnet_log_set_stream(run.c, getenv("GARNET_FUZZ_LOG") ? stderr : devnull);
	hooks.data = &run;
	garnet_compositor_set_security_hooks(run.c, &hooks);
	run.loop = garnet_compositor_get_loop(run.c);
	if (!garnet_headless_add_output(run.c, &mode))
		abort();
	add_client(&run);
	if (setup & 4)
		add_client(&run);
	pump(&run);
	while (!fuzz_done(&in) && steps++ < MAX_STEPS) {
		step(&run, &in);
		pump(&run);
		check_invariants(run.c);
	}
	end_run(&run);
	return 0;
}
