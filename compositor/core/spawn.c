// SPDX-License-Identifier: MIT
// Launching clients: a clean child with WAYLAND_DISPLAY set, nothing inherited but stdio.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "internal.h"

static void close_inherited_fds(void)
{
	struct rlimit lim;

	if (close_range(3, ~0u, 0) == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &lim) < 0)
		lim.rlim_cur = 1024;
	for (int fd = 3; fd < (int)lim.rlim_cur && fd < 65536; fd++)
		close(fd);
}

int garnet_compositor_spawn(struct garnet_compositor *c, const char *command)
{
	sigset_t all;
	pid_t pid;

	if (!c->socket) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "cannot start '%s': no socket", command);
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "spawn", "fork for '%s': %s", command,
			   strerror(errno));
		return -1;
	}
	if (pid == 0) {
		/* The loop blocks signals it handles through signalfd; a child must not inherit
		 * that mask. Double fork so the compositor never has to reap. */
		sigemptyset(&all);
		sigprocmask(SIG_SETMASK, &all, NULL);
		if (fork() != 0)
			_exit(0);
		setsid();
		close_inherited_fds();
		/* The compositor may have raised its descriptor limit; clients get the usual
		 * one (some still use select()). */
		if (c->nofile.rlim_cur)
			setrlimit(RLIMIT_NOFILE, &c->nofile);
		setenv("WAYLAND_DISPLAY", c->socket, 1);
		execl("/bin/sh", "/bin/sh", "-c", command, (char *)NULL);
		_exit(127);
	}
	/* The intermediate child exits at once; reap it so no zombie stays. */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	garnet_log(c, GARNET_LOG_INFO, "spawn", "started '%s'", command);
	return 0;
}
