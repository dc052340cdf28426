// SPDX-License-Identifier: MIT
/* Runs the integration example of doc/wmac.md against real clients and a real policy file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "wmac-doc-example.h"

static int connect_client(const char *path, int lfd, bool exec_sleep, pid_t *pid)
{
	*pid = fork();
	if (*pid == 0) {
		struct sockaddr_un addr = {.sun_family = AF_UNIX};
		snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
			_exit(1);
		if (exec_sleep)
			execl("/bin/sleep", "sleep", "1000", (char *)NULL);
		pause();
		_exit(0);
	}
	return accept(lfd, NULL, NULL);
}

static void wait_for_exe(pid_t pid, const char *exe)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	for (int i = 0; i < 500; i++) {
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n > 0 && (target[n] = '\0', strcmp(target, exe) == 0))
			return;
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
}

static bool write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : write(fd, text, strlen(text));

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(text);
}

/* The example's policy must be owned by root: an ordinary user becomes root of a user namespace
 * of its own, where the files it writes are root's. */
static bool become_root(void)
{
	char map[64];
	uid_t uid = geteuid();
	gid_t gid = getegid();

	if (uid == 0)
		return true;
	if (unshare(CLONE_NEWUSER) < 0)
		return false;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)uid);
	if (!write_file("/proc/self/uid_map", map) || !write_file("/proc/self/setgroups", "deny"))
		return false;
	snprintf(map, sizeof(map), "0 %u 1\n", (unsigned int)gid);
	return write_file("/proc/self/gid_map", map);
}

int main(void)
{
	if (!become_root()) {
		printf("the example loads a root-owned system policy: not root, and no user "
		       "namespace: %s\n",
		       strerror(errno));
		return 1;
	}
	char sleep_exe[PATH_MAX], dir[] = "/tmp/wmac-example-XXXXXX", policy[256], sock[100];
	if (!realpath("/bin/sleep", sleep_exe) || !mkdtemp(dir))
		return 99;
	snprintf(policy, sizeof(policy), "%s/wmac.policy", dir);
	snprintf(sock, sizeof(sock), "%s/socket", dir);
	FILE *f = fopen(policy, "w");
	fprintf(f, "version 1\nallow screenshot exe=%s\n", sleep_exe);
	fclose(f);
	chmod(policy, 0644);

	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", sock);
	int lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(lfd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(lfd, 4) < 0)
		return 99;

	pid_t trusted, other;
	int trusted_fd = connect_client(sock, lfd, true, &trusted);
	wait_for_exe(trusted, sleep_exe);
	int other_fd = connect_client(sock, lfd, false, &other);
	bool trusted_ok = may_screenshot(policy, NULL, trusted_fd, "HDMI-A-1");
	bool other_ok = may_screenshot(policy, NULL, other_fd, "HDMI-A-1");
	kill(trusted, SIGKILL);
	kill(other, SIGKILL);
	waitpid(trusted, NULL, 0);
	waitpid(other, NULL, 0);
	unlink(policy);
	unlink(sock);
	rmdir(dir);
	printf("client running %s: %s; other client: %s\n", sleep_exe,
	       trusted_ok ? "allowed" : "denied", other_ok ? "allowed" : "denied");
	return trusted_ok && !other_ok ? 0 : 1;
}
