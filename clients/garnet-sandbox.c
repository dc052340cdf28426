// SPDX-License-Identifier: MIT
// garnet-sandbox: runs a program on a Wayland socket of its own whose every connection garnet
// knows as a sandboxed app (security-context-v1), so that the security policy judges it by its
// app id instead of trusting its executable. The program gets no privileged global unless the
// policy grants that app id one, and cannot make a context of its own.
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <wayland-client.h>

#include "security-context-v1-client-protocol.h"

#define DEFAULT_ENGINE "garnet-sandbox"

struct options {
	const char *engine, *app_id, *instance_id, *socket_path;
	char **command;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: garnet-sandbox [--engine NAME] [--app-id ID] [--instance-id ID]\n"
		   "                      [--socket PATH] -- COMMAND [ARG...]\n"
		   "Runs COMMAND with WAYLAND_DISPLAY on a socket whose connections garnet treats\n"
		   "as the sandboxed app ID (engine NAME, default " DEFAULT_ENGINE ").\n"
		   "The compositor must allow this program wp_security_context_manager_v1.\n"
		   "Exit status: COMMAND's, or 2 when the context cannot be made.\n");
}

static bool parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{"engine", required_argument, NULL, 'e'},
		{"app-id", required_argument, NULL, 'a'},
		{"instance-id", required_argument, NULL, 'i'},
		{"socket", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int opt;

	*o = (struct options){.engine = DEFAULT_ENGINE};
	while ((opt = getopt_long(argc, argv, "+", longopts, NULL)) != -1) {
		switch (opt) {
		case 'e': o->engine = optarg; break;
		case 'a': o->app_id = optarg; break;
		case 'i': o->instance_id = optarg; break;
		case 's': o->socket_path = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: return false;
		}
	}
	if (optind >= argc)
		return false;
	o->command = argv + optind;
	return true;
}

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
		      const char *interface, uint32_t version)
{
	struct wp_security_context_manager_v1 **manager = data;

	if (strcmp(interface, wp_security_context_manager_v1_interface.name) == 0)
		*manager = wl_registry_bind(registry, name,
					    &wp_security_context_manager_v1_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

/* A listening socket at path (which must not exist yet); -1 with a message on failure. */
static int listen_at(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "garnet-sandbox: socket path too long: %s\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 16) < 0) {
		fprintf(stderr, "garnet-sandbox: %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Registers the context; returns the write end of the pipe that keeps it open, or -1. */
static int make_context(const struct options *o, const char *path)
{
	struct wl_display *display = wl_display_connect(NULL);
	struct wp_security_context_manager_v1 *manager = NULL;
	struct wp_security_context_v1 *context;
	struct wl_registry *registry;
	int listen_fd, pipe_fds[2];
	bool ok;

	if (!display) {
		fprintf(stderr, "garnet-sandbox: cannot connect to the compositor\n");
		return -1;
	}
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &manager);
	if (wl_display_roundtrip(display) < 0 || !manager) {
		fprintf(stderr, "garnet-sandbox: the compositor offers no "
				"wp_security_context_manager_v1 to this program\n");
		wl_registry_destroy(registry);
		wl_display_disconnect(display);
		return -1;
	}
	listen_fd = listen_at(path);
	if (listen_fd < 0 || pipe2(pipe_fds, O_CLOEXEC) < 0) {
		if (listen_fd >= 0)
			close(listen_fd);
		wp_security_context_manager_v1_destroy(manager);
		wl_registry_destroy(registry);
		wl_display_disconnect(display);
		return -1;
	}
	context = wp_security_context_manager_v1_create_listener(manager, listen_fd, pipe_fds[0]);
	wp_security_context_v1_set_sandbox_engine(context, o->engine);
	if (o->app_id)
		wp_security_context_v1_set_app_id(context, o->app_id);
	if (o->instance_id)
		wp_security_context_v1_set_instance_id(context, o->instance_id);
	wp_security_context_v1_commit(context);
	wp_security_context_v1_destroy(context);
	/* The compositor holds its own copies now; ours would keep the socket alive. */
	ok = wl_display_roundtrip(display) >= 0;
	close(listen_fd);
	close(pipe_fds[0]);
	if (!ok) {
		fprintf(stderr, "garnet-sandbox: the compositor refused the context: %s\n",
			strerror(wl_display_get_error(display)));
		close(pipe_fds[1]);
		pipe_fds[1] = -1;
	}
	/* The context outlives this connection. */
	wp_security_context_manager_v1_destroy(manager);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return pipe_fds[1];
}

int main(int argc, char **argv)
{
	char dir[PATH_MAX] = "", path[PATH_MAX];
	struct options o;
	int keep_fd, status;
	pid_t child;

	if (!parse_options(argc, argv, &o)) {
		usage(stderr);
		return 2;
	}
	if (o.socket_path) {
		snprintf(path, sizeof(path), "%s", o.socket_path);
	} else {
		const char *runtime = getenv("XDG_RUNTIME_DIR");

		if (!runtime || snprintf(dir, sizeof(dir), "%s/garnet-sandbox-XXXXXX", runtime) >=
					(int)sizeof(dir) || !mkdtemp(dir)) {
			fprintf(stderr, "garnet-sandbox: no private directory in XDG_RUNTIME_DIR\n");
			return 2;
		}
		if (snprintf(path, sizeof(path), "%s/wayland-0", dir) >= (int)sizeof(path)) {
			rmdir(dir);
			return 2;
		}
	}
	keep_fd = make_context(&o, path);
	if (keep_fd < 0) {
		unlink(path);
		if (dir[0])
			rmdir(dir);
		return 2;
	}
	child = fork();
	if (child == 0) {
		unsetenv("WAYLAND_SOCKET");
		setenv("WAYLAND_DISPLAY", path, 1);
		execvp(o.command[0], o.command);
		fprintf(stderr, "garnet-sandbox: %s: %s\n", o.command[0], strerror(errno));
		_exit(127);
	}
	status = 2;
	if (child < 0)
		perror("garnet-sandbox: fork");
	else if (waitpid(child, &status, 0) == child)
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	/* Closing the pipe ends the context: no new connection is accepted after this. */
	close(keep_fd);
	unlink(path);
	if (dir[0])
		rmdir(dir);
	return status;
}
