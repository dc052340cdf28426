// SPDX-License-Identifier: MIT
// Launching clients: a clean child (empty signal mask, no inherited descriptors but stdio, the
// original descriptor limit), connected through the public socket or through a socketpair of
// its own, so that the compositor knows exactly which wl_client it started.
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compositor.h"

extern char **environ;

/* The environment for the child, built before fork: after it, only async-signal-safe calls.
 * token_var (may be NULL) replaces any activation token garnet itself inherited; with X11
 * support on, x_vars (may be NULL) replace the X display garnet inherited. */
static char **child_environment(const char *wayland_var, const char *token_var, bool x11,
				char *const *x_vars)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 5, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], "WAYLAND_DISPLAY=", 16) != 0 &&
		    strncmp(environ[i], "WAYLAND_SOCKET=", 15) != 0 &&
		    strncmp(environ[i], "XDG_ACTIVATION_TOKEN=", 21) != 0 &&
		    !(x11 && (strncmp(environ[i], "DISPLAY=", 8) == 0 ||
			      strncmp(environ[i], "XAUTHORITY=", 11) == 0)))
			env[k++] = environ[i];
	}
	env[k++] = (char *)wayland_var;
	for (int i = 0; x_vars && i < 2; i++)
		env[k++] = x_vars[i];
	env[k] = (char *)token_var;
	return env;
}

static void close_from(int first)
{
	struct rlimit lim;

	if (close_range((unsigned)first, ~0u, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &lim) < 0)
		lim.rlim_cur = 1024;
	for (int fd = first; fd < (int)lim.rlim_cur && fd < 65536; fd++)
		close(fd);
}

/* Executes path with argv, no shell in between; command names it in the log; client_fd >= 0
 * becomes the child's WAYLAND_SOCKET (fd 3). */
static bool launch(struct garnet_compositor *c, const char *command, const char *path,
		   char *const argv[], int client_fd)
{
	char var[128], token_var[128], display_var[32], auth_var[PATH_MAX + 16];
	char *x_vars[] = {display_var, auth_var};
	char token[64], **env;
	bool x11;
	sigset_t all;
	pid_t pid;

	if (client_fd >= 0)
		snprintf(var, sizeof(var), "WAYLAND_SOCKET=3");
	else
		snprintf(var, sizeof(var), "WAYLAND_DISPLAY=%s", c->socket);
	/* The program was started by the user's binding or by garnet's own configuration: its
	 * first window may take the keyboard (xdg-activation), like one a launcher hands on. */
	if (c->protocol_hooks.mint_activation &&
	    c->protocol_hooks.mint_activation(c, token, sizeof(token)))
		snprintf(token_var, sizeof(token_var), "XDG_ACTIVATION_TOKEN=%s", token);
	else
		token_var[0] = '\0';
	x11 = c->protocol_hooks.x11_launch_env &&
	      c->protocol_hooks.x11_launch_env(c, command, display_var, sizeof(display_var),
					       auth_var, sizeof(auth_var));
	env = child_environment(var, token_var[0] ? token_var : NULL, c->xwayland != NULL,
				x11 ? x_vars : NULL);
	if (!env) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "cannot start '%s': out of memory",
			   command);
		return false;
	}
	pid = fork();
	if (pid < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "fork for '%s': %s", command,
			   strerror(errno));
		free(env);
		return false;
	}
	if (pid == 0) {
		/* The loop blocks signals it handles through signalfd; a child must not inherit
		 * that mask. Double fork so the compositor never has to reap. */
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (fork() != 0)
			_exit(0);
		setsid();
		if (client_fd >= 0) {
			if (client_fd == 3)
				fcntl(3, F_SETFD, 0);
			else if (dup2(client_fd, 3) < 0)
				_exit(127);
			close_from(4);
		} else {
			close_from(3);
		}
		/* The compositor may have raised its descriptor limit; clients get the usual
		 * one (some still use select()). */
		if (c->nofile.rlim_cur)
			setrlimit(RLIMIT_NOFILE, &c->nofile);
		execve(path, argv, env);
		_exit(127);
	}
	free(env);
	/* The intermediate child exits at once; reap it so no zombie stays. */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	garnet_log(c, GARNET_LOG_INFO, "spawn", "started '%s'%s", command,
		   client_fd >= 0 ? " on a socket of its own" : "");
	return true;
}

int garnet_compositor_spawn(struct garnet_compositor *c, const char *command)
{
	if (!c->socket) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "cannot start '%s': no socket", command);
		return -1;
	}
	return launch(c, command, "/bin/sh", (char *const[]){"/bin/sh", "-c", (char *)command, NULL}, -1)
		       ? 0
		       : -1;
}

struct wl_client *garnet_compositor_spawn_client(struct garnet_compositor *c, const char *path,
						 char *const argv[])
{
	const char *command = path;
	struct wl_client *client;
	int fds[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "socketpair for '%s': %s", command,
			   strerror(errno));
		return NULL;
	}
	client = wl_client_create(c->display, fds[0]);
	if (!client) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "no client for '%s'", command);
		close(fds[0]);
		close(fds[1]);
		return NULL;
	}
	if (!launch(c, command, path, argv, fds[1])) {
		close(fds[1]);
		wl_client_destroy(client);
		return NULL;
	}
	close(fds[1]);
	return client;
}
