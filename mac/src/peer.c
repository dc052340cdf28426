// SPDX-License-Identifier: MIT
/*
 * Subjects from a socket: who is at the other end, established by the kernel and checked
 * twice so that a pid reused or a program exec'd in between is caught (see wmac.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "private.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD 77
#endif

void (*peer_resolve_hook)(pid_t pid, void *data);
void *peer_resolve_hook_data;
bool peer_pretend_no_peerpidfd;

/* What /proc says about a process at one moment. */
struct snapshot {
	unsigned long long start_time;
	char exe[4096];
	uid_t euid;
	gid_t egid;
	char label[256];
	bool has_label;
};

static ssize_t read_at(int dirfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t used = 0;
	while (used + 1 < size) {
		ssize_t r = read(fd, buf + used, size - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		used += (size_t)r;
	}
	close(fd);
	buf[used] = '\0';
	return (ssize_t)used;
}

/* Field 22 of /proc/PID/stat; the command name before it may contain spaces and ')'. */
static int read_start_time(int dirfd, unsigned long long *start_time)
{
	char buf[2048];
	if (read_at(dirfd, "stat", buf, sizeof(buf)) <= 0)
		return -ESRCH;
	char *p = strrchr(buf, ')');
	if (!p)
		return -EINVAL;
	p++;
	/* After ')': state is field 3, start time is field 22. */
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EINVAL;
	}
	if (sscanf(p, " %llu", start_time) != 1)
		return -EINVAL;
	return 0;
}

static int read_effective_ids(int dirfd, uid_t *euid, gid_t *egid)
{
	char buf[4096];
	if (read_at(dirfd, "status", buf, sizeof(buf)) <= 0)
		return -ESRCH;
	unsigned int ruid, uid, rgid, gid;
	const char *u = strstr(buf, "\nUid:");
	const char *g = strstr(buf, "\nGid:");
	if (!u || !g || sscanf(u, "\nUid: %u %u", &ruid, &uid) != 2 ||
	    sscanf(g, "\nGid: %u %u", &rgid, &gid) != 2)
		return -EINVAL;
	*euid = uid;
	*egid = gid;
	return 0;
}

static int take_snapshot(int dirfd, struct snapshot *snap)
{
	memset(snap, 0, sizeof(*snap));
	int ret = read_start_time(dirfd, &snap->start_time);
	if (ret < 0)
		return ret;
	ssize_t n = readlinkat(dirfd, "exe", snap->exe, sizeof(snap->exe) - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= sizeof(snap->exe) - 1)
		return -ENAMETOOLONG;
	snap->exe[n] = '\0';
	ret = read_effective_ids(dirfd, &snap->euid, &snap->egid);
	if (ret < 0)
		return ret;
	n = read_at(dirfd, "attr/current", snap->label, sizeof(snap->label));
	if (n > 0) {
		while (n > 0 && (snap->label[n - 1] == '\n' || snap->label[n - 1] == '\0'))
			snap->label[--n] = '\0';
		snap->has_label = n > 0;
	}
	return 0;
}

static bool process_alive(int pidfd)
{
	struct pollfd p = {.fd = pidfd, .events = POLLIN};
	/* A pidfd becomes readable when its process exits. */
	return poll(&p, 1, 0) == 0;
}

/* The "Pid:" line of a pidfd's fdinfo: the pid it refers to, -1 once the process is gone. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", pidfd);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *line = strstr(buf, "Pid:");
	int pid;
	if (!line || sscanf(line, "Pid: %d", &pid) != 1)
		return -1;
	return pid;
}

/* Does the process hold the socket with this inode in its file table? */
static bool holds_socket(int dirfd, uint64_t ino)
{
	int fddir = openat(dirfd, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fddir < 0)
		return false;
	DIR *dir = fdopendir(fddir);
	if (!dir) {
		close(fddir);
		return false;
	}
	char want[64];
	snprintf(want, sizeof(want), "socket:[%" PRIu64 "]", ino);
	bool found = false;
	struct dirent *d;
	while (!found && (d = readdir(dir))) {
		char link[64];
		ssize_t n = readlinkat(fddir, d->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue;
		link[n] = '\0';
		found = strcmp(link, want) == 0;
	}
	closedir(dir);
	return found;
}

static int open_pidfd(int fd, pid_t pid, const char **reason)
{
	if (!peer_pretend_no_peerpidfd) {
		int pidfd = -1;
		socklen_t len = sizeof(pidfd);
		if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pidfd, &len) == 0)
			return pidfd;
		if (errno != ENOPROTOOPT) {
			/* The kernel knows the connecting process and says it is gone. */
			*reason = "the process that connected has exited";
			return -1;
		}
	}
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0)
		*reason = errno == ESRCH ? "the process that connected has exited"
					 : "cannot open a pidfd for the peer";
	return pidfd;
}

static void read_socket_label(int fd, struct wmac_subject *s)
{
	char label[256];
	socklen_t len = sizeof(label) - 1;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, label, &len) < 0 || len == 0)
		return;
	label[len] = '\0';
	size_t n = strlen(label);
	while (n > 0 && label[n - 1] == '\n')
		label[--n] = '\0';
	if (n > 0)
		s->label = strdup(label);
}

/* Fills s->executable and returns NULL, or returns why the peer cannot be trusted. */
static const char *verify_peer(int fd, struct wmac_subject *s)
{
	/* Pid 0: the peer runs in a pid namespace this process cannot see into. */
	if (s->pid <= 0)
		return "the peer's pid is not visible from this pid namespace";
	if (s->pid == getpid())
		return "the peer is this process (a socketpair made here): use a launch record";

	const char *reason = NULL;
	s->pidfd = open_pidfd(fd, s->pid, &reason);
	if (s->pidfd < 0)
		return reason;
	if (pidfd_pid(s->pidfd) != s->pid || !process_alive(s->pidfd))
		return "the process that connected has exited";

	uint64_t peer_ino;
	if (unix_peer_inode(fd, &peer_ino) < 0)
		return "cannot find the other end of the connection";

	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)s->pid);
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return "cannot inspect the peer process";

	struct snapshot before, after;
	const char *why = NULL;
	if (take_snapshot(dirfd, &before) < 0)
		why = "cannot inspect the peer process";
	else if (strstr(before.exe, " (deleted)"))
		why = "the peer's executable was deleted or replaced";
	else if (!holds_socket(dirfd, peer_ino))
		why = "the peer process no longer holds the connection (exec, pid reuse or "
		      "fd passing)";

	if (!why && peer_resolve_hook)
		peer_resolve_hook(s->pid, peer_resolve_hook_data);

	/* Everything read above is only meaningful if the pid still names the same process. */
	if (why)
		;
	else if (!process_alive(s->pidfd) || pidfd_pid(s->pidfd) != s->pid)
		why = "the process exited during resolution (pid may be reused)";
	else if (take_snapshot(dirfd, &after) < 0)
		why = "cannot inspect the peer process";
	else if (after.start_time != before.start_time)
		why = "pid reused during resolution";
	else if (strcmp(after.exe, before.exe) != 0)
		why = "exec during resolution";
	else if (!holds_socket(dirfd, peer_ino))
		why = "the peer process no longer holds the connection (exec, pid reuse or "
		      "fd passing)";
	else if (after.euid != s->uid || after.egid != s->gid)
		why = "credentials changed since connecting (setuid or setgid exec?)";
	else if (s->label && after.has_label && strcmp(s->label, after.label) != 0)
		why = "security label changed since connecting (exec into another profile)";
	close(dirfd);
	if (why)
		return why;

	s->executable = strdup(before.exe);
	if (!s->executable)
		return "out of memory";
	return NULL;
}

WMAC_EXPORT struct wmac_subject *wmac_subject_from_socket(int fd)
{
	struct sockaddr_storage addr;
	socklen_t addr_len = sizeof(addr);
	if (getsockname(fd, (struct sockaddr *)&addr, &addr_len) < 0)
		return NULL;
	if (addr.ss_family != AF_UNIX) {
		errno = EINVAL;
		return NULL;
	}
	/* Refuse unconnected sockets before asking who is at the other end. */
	if (getpeername(fd, (struct sockaddr *)&addr, &(socklen_t){sizeof(addr)}) < 0)
		return NULL;
	struct ucred cred;
	socklen_t len = sizeof(cred);
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0)
		return NULL;

	struct wmac_subject *s = subject_alloc();
	if (!s)
		return NULL;
	s->pid = cred.pid;
	s->uid = cred.uid;
	s->gid = cred.gid;
	read_socket_label(fd, s);
	s->unverified_reason = verify_peer(fd, s);
	s->verified = s->unverified_reason == NULL;
	if (!s->verified) {
		/* After a failed check the pidfd may name some other process: do not offer it. */
		free(s->executable);
		s->executable = NULL;
		if (s->pidfd >= 0)
			close(s->pidfd);
		s->pidfd = -1;
	}
	return s;
}

WMAC_EXPORT struct wmac_subject *wmac_subject_from_pid(pid_t pid, uid_t uid)
{
	if (pid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	struct wmac_subject *s = subject_alloc();
	if (!s)
		return NULL;
	s->pid = pid;
	s->uid = uid;
	s->gid = (gid_t)-1;
	s->unverified_reason = "named by pid, not by a connection of its own";

	/* Nothing here ties the pid to the process that asked: it stays unverified. What
	 * is checked is that it is a live process of the expected user, so that a pid of
	 * another user's process (or none) cannot be named at all. */
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct snapshot snap;
	int ret = dirfd < 0 ? -ESRCH : take_snapshot(dirfd, &snap);
	if (dirfd >= 0)
		close(dirfd);
	if (ret < 0 || snap.euid != uid) {
		wmac_subject_destroy(s);
		errno = ret < 0 ? -ret : EPERM;
		return NULL;
	}
	s->gid = snap.egid;
	return s;
}
