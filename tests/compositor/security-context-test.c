// SPDX-License-Identifier: MIT
// security-context-v1 in libgarnet: every error the protocol defines, the identity handed to
// the security hook for each accepted connection, a sandbox that cannot see or bind the
// manager, a context that outlives its engine's connection, and close_fd ending it.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "garnet/security.h"
#include "harness.h"
#include "security-context-v1-client-protocol.h"

#define MANAGER "wp_security_context_manager_v1"

struct seen_identity {
	atomic_int calls;
	char engine[64], app_id[64], instance_id[64];
	bool refuse;
};

static bool record_sandbox(void *data, struct wl_client *client, const char *engine,
			   const char *app_id, const char *instance_id)
{
	struct seen_identity *seen = data;

	snprintf(seen->engine, sizeof(seen->engine), "%s", engine);
	snprintf(seen->app_id, sizeof(seen->app_id), "%s", app_id ? app_id : "(null)");
	snprintf(seen->instance_id, sizeof(seen->instance_id), "%s",
		 instance_id ? instance_id : "(null)");
	atomic_fetch_add(&seen->calls, 1);
	return !seen->refuse;
}

static void setup_recording(struct garnet_compositor *c, struct test_context *t)
{
	struct seen_identity *seen = calloc(1, sizeof(*seen));
	struct garnet_security_hooks hooks = {.client_sandboxed = record_sandbox, .data = seen};

	test_set_data(t, seen);
	garnet_compositor_set_security_hooks(c, &hooks);
}

static void setup_refusing(struct garnet_compositor *c, struct test_context *t)
{
	setup_recording(c, t);
	((struct seen_identity *)test_data(t))->refuse = true;
}

static struct wp_security_context_manager_v1 *bind_manager(struct client *c)
{
	uint32_t name = client_find_global(c, MANAGER);

	check(c->test, name != 0);
	return wl_registry_bind(c->registry, name, &wp_security_context_manager_v1_interface, 1);
}

struct sandbox_socket {
	char path[108];
	int listen_fd, keep_fd, close_fd;
};

static void sandbox_socket_make(struct test_context *t, struct sandbox_socket *s)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int pipe_fds[2];

	snprintf(s->path, sizeof(s->path), "%s/sc-%s", getenv("XDG_RUNTIME_DIR"), test_name(t));
	unlink(s->path);
	strcpy(addr.sun_path, s->path);
	s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	check(t, s->listen_fd >= 0);
	check(t, bind(s->listen_fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
	check(t, listen(s->listen_fd, 8) == 0);
	check(t, pipe2(pipe_fds, O_CLOEXEC) == 0);
	s->close_fd = pipe_fds[0];
	s->keep_fd = pipe_fds[1];
}

/* Commits a context for s and gives garnet the only copies of its fds. */
static void commit_context(struct client *c, struct sandbox_socket *s, const char *app_id)
{
	struct wp_security_context_manager_v1 *manager = bind_manager(c);
	struct wp_security_context_v1 *context =
		wp_security_context_manager_v1_create_listener(manager, s->listen_fd, s->close_fd);

	wp_security_context_v1_set_sandbox_engine(context, "org.example.engine");
	if (app_id)
		wp_security_context_v1_set_app_id(context, app_id);
	wp_security_context_v1_set_instance_id(context, "instance-7");
	wp_security_context_v1_commit(context);
	wp_security_context_v1_destroy(context);
	wp_security_context_manager_v1_destroy(manager);
	client_roundtrip(c);
	close(s->listen_fd);
	close(s->close_fd);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* True once connect() on path is refused (nobody listens any more), within 5 s. */
static bool becomes_refused(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	uint64_t deadline = now_ms() + 5000;

	strcpy(addr.sun_path, path);
	while (now_ms() < deadline) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int ret = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
		int err = errno;

		close(fd);
		if (ret < 0 && err == ECONNREFUSED)
			return true;
		poll(NULL, 0, 20);
	}
	return false;
}

TEST(listen_fd_that_is_not_a_listening_socket_is_an_error)
{
	struct client *c = client_create(t);
	struct wp_security_context_manager_v1 *manager = bind_manager(c);
	struct wp_security_context_v1 *context;
	int fds[2];

	check(t, pipe2(fds, O_CLOEXEC) == 0);
	context = wp_security_context_manager_v1_create_listener(manager, fds[0], fds[1]);
	close(fds[0]);
	close(fds[1]);
	client_expect_protocol_error(c, &wp_security_context_manager_v1_interface,
				     WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD);
	wl_proxy_destroy((struct wl_proxy *)context);
	wl_proxy_destroy((struct wl_proxy *)manager);
	client_destroy(c);
}

enum misuse { SET_TWICE, SET_AFTER_COMMIT, COMMIT_TWICE, NO_ENGINE, EMPTY_APP_ID };

static void expect_context_error(struct test_context *t, enum misuse misuse, uint32_t code)
{
	struct client *c = client_create(t);
	struct wp_security_context_manager_v1 *manager = bind_manager(c);
	struct wp_security_context_v1 *context;
	struct sandbox_socket s;

	sandbox_socket_make(t, &s);
	context = wp_security_context_manager_v1_create_listener(manager, s.listen_fd, s.close_fd);
	if (misuse != NO_ENGINE)
		wp_security_context_v1_set_sandbox_engine(context, "org.example.engine");
	switch (misuse) {
	case SET_TWICE:
		wp_security_context_v1_set_app_id(context, "a");
		wp_security_context_v1_set_app_id(context, "b");
		break;
	case SET_AFTER_COMMIT:
		wp_security_context_v1_commit(context);
		wp_security_context_v1_set_instance_id(context, "late");
		break;
	case COMMIT_TWICE:
		wp_security_context_v1_commit(context);
		wp_security_context_v1_commit(context);
		break;
	case NO_ENGINE:
		wp_security_context_v1_set_app_id(context, "a");
		wp_security_context_v1_commit(context);
		break;
	case EMPTY_APP_ID:
		wp_security_context_v1_set_app_id(context, "");
		break;
	}
	client_expect_protocol_error(c, &wp_security_context_v1_interface, code);
	/* After the error nothing is sent: the proxies are only freed. */
	wl_proxy_destroy((struct wl_proxy *)context);
	wl_proxy_destroy((struct wl_proxy *)manager);
	client_destroy(c);
	close(s.listen_fd);
	close(s.close_fd);
	close(s.keep_fd);
	unlink(s.path);
}

TEST(metadata_set_twice_is_an_error)
{
	expect_context_error(t, SET_TWICE, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET);
}

TEST(request_after_commit_is_an_error)
{
	expect_context_error(t, SET_AFTER_COMMIT, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED);
}

TEST(second_commit_is_an_error)
{
	expect_context_error(t, COMMIT_TWICE, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED);
}

TEST(commit_without_engine_is_an_error)
{
	expect_context_error(t, NO_ENGINE, WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA);
}

TEST(empty_metadata_is_an_error)
{
	expect_context_error(t, EMPTY_APP_ID, WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA);
}

TEST_WITH(connections_carry_the_identity_and_outlive_the_engine, setup_recording,
	  DEFAULT_OUTPUT)
{
	struct seen_identity *seen = test_data(t);
	struct client *engine = client_create(t), *app;
	struct sandbox_socket s;

	sandbox_socket_make(t, &s);
	commit_context(engine, &s, "org.example.App");
	/* The context lives on after the engine's connection ends. */
	client_destroy(engine);
	app = client_connect_path(t, s.path);
	check(t, app != NULL);
	check_int(t, atomic_load(&seen->calls), ==, 1);
	check(t, strcmp(seen->engine, "org.example.engine") == 0);
	check(t, strcmp(seen->app_id, "org.example.App") == 0);
	check(t, strcmp(seen->instance_id, "instance-7") == 0);
	/* Ordinary globals are there; the manager is not, and a guessed name is refused. */
	check(t, client_has_global(app, "wl_compositor"));
	check(t, !client_has_global(app, MANAGER));
	client_destroy(app);
	close(s.keep_fd);
	check(t, becomes_refused(s.path));
	unlink(s.path);
}

TEST(sandboxed_client_cannot_bind_the_manager_by_its_name)
{
	struct client *engine = client_create(t), *app;
	struct wp_security_context_manager_v1 *nested;
	uint32_t name = client_find_global(engine, MANAGER);
	struct sandbox_socket s;

	sandbox_socket_make(t, &s);
	commit_context(engine, &s, NULL);
	app = client_connect_path(t, s.path);
	check(t, app != NULL);
	nested = wl_registry_bind(app->registry, name, &wp_security_context_manager_v1_interface, 1);
	client_expect_protocol_error(app, &wl_registry_interface, WL_DISPLAY_ERROR_INVALID_OBJECT);
	wl_proxy_destroy((struct wl_proxy *)nested);
	client_destroy(app);
	client_destroy(engine);
	close(s.keep_fd);
	unlink(s.path);
}

TEST_WITH(refused_identity_drops_the_connection, setup_refusing, DEFAULT_OUTPUT)
{
	struct seen_identity *seen = test_data(t);
	struct client *engine = client_create(t);
	struct sandbox_socket s;
	struct wl_display *display;

	sandbox_socket_make(t, &s);
	commit_context(engine, &s, "org.example.App");
	display = wl_display_connect(s.path);
	check(t, display != NULL);
	/* garnet closed the connection: the roundtrip fails, nothing was ever delivered. */
	check(t, wl_display_roundtrip(display) < 0);
	check_int(t, atomic_load(&seen->calls), ==, 1);
	wl_display_disconnect(display);
	client_destroy(engine);
	close(s.keep_fd);
	unlink(s.path);
}
