// SPDX-License-Identifier: MIT
// The security layer's call sites: global filter, privileged bind, input delivery and selection
// reads all ask the hooks, and a refusal is honoured. Hooks here refuse; the real policy comes
// with libwmac.
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "garnet/security.h"
#include "harness.h"

struct hook_counts {
	atomic_int visible_privileged, bind, keyboard, pointer, selection;
};

static bool hide_privileged(void *data, const struct wl_client *client,
			    const struct wl_interface *interface, bool privileged)
{
	struct hook_counts *n = data;

	if (privileged)
		atomic_fetch_add(&n->visible_privileged, 1);
	return !privileged;
}

static bool show_all(void *data, const struct wl_client *client,
		     const struct wl_interface *interface, bool privileged)
{
	return true;
}

static bool refuse_bind(void *data, struct wl_client *client, const struct wl_interface *iface)
{
	struct hook_counts *n = data;

	atomic_fetch_add(&n->bind, 1);
	return false;
}

static bool refuse_keyboard(void *data, struct wl_client *client, struct garnet_surface *surface,
			    enum garnet_input_kind kind)
{
	struct hook_counts *n = data;

	if (kind == GARNET_INPUT_KEYBOARD) {
		atomic_fetch_add(&n->keyboard, 1);
		return false;
	}
	atomic_fetch_add(&n->pointer, 1);
	return true;
}

static bool refuse_selection(void *data, struct wl_client *client, struct wl_client *owner,
			     enum garnet_selection_kind kind)
{
	struct hook_counts *n = data;

	atomic_fetch_add(&n->selection, 1);
	return client == owner;
}

/* The harness frees it once the compositor is gone (hooks run until then). */
static struct hook_counts *counts_for(struct test_context *t)
{
	struct hook_counts *n = calloc(1, sizeof(*n));

	test_set_data(t, n);
	return n;
}

static void setup_hidden(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.global_visible = hide_privileged,
					      .data = counts_for(t)};

	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(global_filter_hides_privileged_globals, setup_hidden, DEFAULT_OUTPUT)
{
	struct hook_counts *n = test_data(t);
	struct client *c = client_create(t);

	check(t, c->garnet_test == NULL);
	check(t, c->compositor != NULL && c->wm_base != NULL);
	check_int(t, atomic_load(&n->visible_privileged), >=, 1);
	client_destroy(c);
}

static void setup_refuse_bind(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.global_visible = show_all,
					      .bind_privileged = refuse_bind,
					      .data = counts_for(t)};

	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(privileged_bind_is_refused_when_the_hook_says_no, setup_refuse_bind, DEFAULT_OUTPUT)
{
	struct hook_counts *n = test_data(t);
	struct client *c = client_create_bare(t);
	uint32_t name = client_find_global(c, "garnet_test");
	struct wl_registry *registry = wl_display_get_registry(c->display);
	struct garnet_test *test;

	/* Visible (the filter allows it) but the bind itself is refused. */
	check(t, name != 0);
	test = wl_registry_bind(registry, name, &garnet_test_interface, 1);
	client_expect_protocol_error(c, &wl_display_interface, WL_DISPLAY_ERROR_IMPLEMENTATION);
	check_int(t, atomic_load(&n->bind), ==, 1);
	garnet_test_destroy(test);
	wl_registry_destroy(registry);
	client_destroy(c);
}

/* A security layer that decides one thing and forgot every other hook. */
static void setup_deny_unset(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.deliver_input = refuse_keyboard,
					      .data = counts_for(t),
					      .deny_unset = true};

	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(hooks_a_security_layer_leaves_unset_deny, setup_deny_unset, DEFAULT_OUTPUT)
{
	struct client *c = client_create_bare(t);

	/* garnet_test is privileged: hidden without a global_visible hook that shows it. */
	check(t, client_find_global(c, "garnet_test") == 0);
	check(t, client_find_global(c, "wl_compositor") != 0);
	client_destroy(c);
}

static void setup_refuse_keyboard(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.deliver_input = refuse_keyboard,
					      .data = counts_for(t)};

	garnet_compositor_set_security_hooks(c, &hooks);
}

TEST_WITH(input_delivery_asks_the_hook_and_honours_a_refusal, setup_refuse_keyboard,
	  DEFAULT_OUTPUT)
{
	struct hook_counts *n = test_data(t);
	struct client *c = client_create(t);
	struct client_surface *s = toplevel_create(c, 50, 50, 0xffff0000, NULL);

	client_tap_key(c, KEY_A);
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(160), wl_fixed_from_int(120));
	client_roundtrip(c);
	/* Refused: no keyboard enter, no keys. Allowed: the pointer. */
	check_int(t, c->input.keyboard_enters, ==, 0);
	check_int(t, c->input.keys, ==, 0);
	check_int(t, atomic_load(&n->keyboard), >=, 3);
	check(t, c->input.pointer_focus == s->wl_surface);
	check_int(t, atomic_load(&n->pointer), >=, 1);
	surface_destroy(s);
	client_destroy(c);
}

static void setup_refuse_selection(struct garnet_compositor *c, struct test_context *t)
{
	struct garnet_security_hooks hooks = {.read_selection = refuse_selection,
					      .data = counts_for(t)};

	garnet_compositor_set_security_hooks(c, &hooks);
}

static void source_send(void *data, struct wl_data_source *s, const char *mime, int32_t fd)
{
	int *sends = data;

	(*sends)++;
	if (write(fd, "secret", 6) < 0) {
		/* reader gone */
	}
	close(fd);
}

static void source_ignore(void *data, struct wl_data_source *s)
{
}

static void source_target(void *data, struct wl_data_source *s, const char *mime)
{
}

static void source_action(void *data, struct wl_data_source *s, uint32_t a)
{
}

static const struct wl_data_source_listener source_listener = {
	source_target, source_send, source_ignore, source_ignore, source_ignore, source_action,
};

TEST_WITH(selection_read_asks_the_hook_and_a_refused_reader_gets_nothing,
	  setup_refuse_selection, DEFAULT_OUTPUT)
{
	struct hook_counts *n = test_data(t);
	struct client *owner = client_create(t), *reader = client_create(t);
	struct client_surface *so = toplevel_create(owner, 40, 40, 0xffff0000, NULL);
	struct client_surface *sr = toplevel_create(reader, 40, 40, 0xff00ff00, NULL);
	struct wl_data_source *source;
	char buf[16];
	int fds[2], sends = 0;

	garnet_test_activate_surface(owner->garnet_test, so->wl_surface);
	client_roundtrip(owner);
	source = wl_data_device_manager_create_data_source(owner->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, &sends);
	wl_data_source_offer(source, "text/plain");
	wl_data_device_set_selection(owner->data_device, source, 0);
	client_roundtrip(owner);
	garnet_test_activate_surface(reader->garnet_test, sr->wl_surface);
	client_roundtrip(reader);
	check(t, reader->selection_offer != NULL);
	check(t, pipe2(fds, O_CLOEXEC) == 0);
	wl_data_offer_receive(reader->selection_offer, "text/plain", fds[1]);
	close(fds[1]);
	client_roundtrip(reader);
	client_roundtrip(owner);
	/* The compositor closed its end without asking the owner: end of file, no data. */
	check_int(t, read(fds[0], buf, sizeof(buf)), ==, 0);
	close(fds[0]);
	check_int(t, sends, ==, 0);
	check_int(t, atomic_load(&n->selection), ==, 1);
	wl_data_source_destroy(source);
	surface_destroy(sr);
	surface_destroy(so);
	client_destroy(reader);
	client_destroy(owner);
}

static void *run_compositor(void *data)
{
	garnet_compositor_run(data);
	return NULL;
}

TEST(test_protocol_exists_only_in_test_mode_and_compositors_coexist)
{
	struct garnet_options options;
	struct garnet_compositor *second;
	struct client *here = client_create(t);
	struct wl_display *display;
	struct wl_registry *registry;
	pthread_t thread;
	char socket[64];

	/* A second compositor in the same process, alongside the harness's: no shared state. */
	snprintf(socket, sizeof(socket), "%s-second", test_socket(t));
	garnet_options_init(&options);
	options.socket = socket;
	second = garnet_compositor_create(&options);
	check(t, second != NULL);
	check(t, pthread_create(&thread, NULL, run_compositor, second) == 0);

	display = wl_display_connect(socket);
	check(t, display != NULL);
	{
		struct client probe = {.test = t, .display = display};

		wl_list_init(&probe.outputs);
		check(t, client_has_global(&probe, "wl_compositor"));
		check(t, !client_has_global(&probe, "garnet_test"));
	}
	registry = wl_display_get_registry(display);
	wl_display_roundtrip(display);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);

	check(t, client_has_global(here, "garnet_test"));
	garnet_compositor_terminate(second);
	pthread_join(thread, NULL);
	garnet_compositor_destroy(second);
	client_destroy(here);
}

struct trusted {
	struct wl_client *launched;
	struct wl_listener launched_destroy;
};

/* A later client may get the same address: forget the launched one when it goes. */
static void launched_destroyed(struct wl_listener *listener, void *data)
{
	struct trusted *tr = wl_container_of(listener, tr, launched_destroy);

	tr->launched = NULL;
}

static bool show_privileged_to_launched(void *data, const struct wl_client *client,
					const struct wl_interface *interface, bool privileged)
{
	struct trusted *tr = data;

	return !privileged || client == tr->launched;
}

static void setup_trust_launched(struct garnet_compositor *c, struct test_context *t)
{
	struct trusted *tr = calloc(1, sizeof(*tr));
	struct garnet_security_hooks hooks = {.global_visible = show_privileged_to_launched,
					      .data = tr};

	test_set_data(t, tr);
	garnet_compositor_set_security_hooks(c, &hooks);
}

static void launch_list_globals(struct garnet_compositor *c, void *data)
{
	struct trusted *tr = data;
	char command[512];

	snprintf(command, sizeof(command), "%s > \"$XDG_RUNTIME_DIR/launched.tmp\" && "
		 "mv \"$XDG_RUNTIME_DIR/launched.tmp\" \"$XDG_RUNTIME_DIR/launched-globals\"",
		 LIST_GLOBALS);
	tr->launched = garnet_compositor_spawn_client(c, "/bin/sh", (char *const[]){"/bin/sh", "-c", command,
								       NULL});
	if (tr->launched) {
		tr->launched_destroy.notify = launched_destroyed;
		wl_client_add_destroy_listener(tr->launched, &tr->launched_destroy);
	}
}

TEST_WITH(program_launched_on_its_own_socket_is_the_one_the_policy_trusts,
	  setup_trust_launched, DEFAULT_OUTPUT)
{
	struct trusted *tr = test_data(t);
	struct client *c = client_create(t);
	char globals[2048];

	runtime_file_remove("launched-globals");
	test_run_on_compositor(t, launch_list_globals, tr);
	check(t, tr->launched != NULL);
	runtime_file_wait(t, "launched-globals", globals, sizeof(globals));
	/* The launched program sees the privileged global; a client of the public socket, even
	 * in the same process, does not. */
	check(t, strstr(globals, "garnet_test\n") != NULL);
	check(t, strstr(globals, "wl_compositor\n") != NULL);
	check(t, !client_has_global(c, "garnet_test"));
	client_destroy(c);
}
