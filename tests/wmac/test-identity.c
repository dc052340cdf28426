// SPDX-License-Identifier: MIT
/*
 * Subjects from sockets, against real processes over real sockets, written as the attacker:
 * a client that connects and then execs a trusted binary, one that execs while the compositor
 * is resolving it, a reused pid, a setuid switch, a handed-off connection, and the socketpair
 * of a client the compositor launched itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "private.h"
#include "tap.h"

static char sock_path[108];
static char sleep_exe[PATH_MAX];
static char self_exe[PATH_MAX];

static int listen_at(const char *path)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	unlink(path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 8) < 0)
		abort();
	return fd;
}

static int connect_to(const char *path, int flags)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	int fd = socket(AF_UNIX, SOCK_STREAM | flags, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
		_exit(90);
	return fd;
}

static void exec_sleep(void)
{
	execl(sleep_exe, "sleep", "1000", (char *)NULL);
	_exit(91);
}

/* Waits until the process runs the executable at path (after an exec), up to five seconds. */
static bool wait_for_exe(pid_t pid, const char *path)
{
	char link[64], target[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	for (int i = 0; i < 500; i++) {
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strcmp(target, path) == 0)
				return true;
		}
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	return false;
}

static void wait_byte(int fd)
{
	char c;
	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

static void send_byte(int fd)
{
	char c = 1;
	if (write(fd, &c, 1) != 1)
		_exit(92);
}

/* Kills a child and everything it started (each child leads its own process group). */
static void reap(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* The decision a policy trusting the sleep binary gives: what an attacker wants is ALLOW. */
static enum wmac_decision decision_as_sleep(struct wmac_subject *s)
{
	char policy[PATH_MAX + 64];
	snprintf(policy, sizeof(policy), "version 1\nallow screenshot exe=%s\n", sleep_exe);
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	if (wmac_context_load_text(ctx, "p", policy, NULL, NULL, &err) < 0)
		tap_failed = true;
	enum wmac_decision d = wmac_check(ctx, s, "screenshot", "out");
	wmac_context_destroy(ctx);
	return d;
}

static void expect_unverified(struct wmac_subject *s, const char *why)
{
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK(!wmac_subject_is_verified(s));
	CHECK(wmac_subject_get_executable(s) == NULL);
	const char *reason = wmac_subject_get_unverified_reason(s);
	if (!reason || !strstr(reason, why)) {
		printf("# unverified reason \"%s\", expected it to mention \"%s\"\n",
		       reason ? reason : "(none)", why);
		tap_failed = true;
	}
	CHECK_INT(decision_as_sleep(s), WMAC_DENY);

	/* Nor can anything be remembered for it: it has no identity to remember by. */
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "p", "version 1\nask screenshot\n", NULL, NULL, &err),
		  0);
	CHECK_INT(wmac_check(ctx, s, "screenshot", "out"), WMAC_ASK);
	CHECK_INT(wmac_answer(ctx, s, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_SESSION), -EPERM);
	CHECK_INT(wmac_check(ctx, s, "screenshot", "out"), WMAC_ASK);
	wmac_context_destroy(ctx);
}

static void connected_client_is_identified_by_its_executable(void)
{
	for (int pass = 0; pass < 2; pass++) {
		peer_pretend_no_peerpidfd = pass == 1;
		int lfd = listen_at(sock_path), ready[2];
		if (pipe(ready) < 0)
			abort();
		pid_t child = fork();
		if (child == 0) {
			setpgid(0, 0);
			connect_to(sock_path, 0);
			send_byte(ready[1]);
			exec_sleep();
		}
		int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		wait_byte(ready[0]);
		CHECK(wait_for_exe(child, sleep_exe));
		struct wmac_subject *s = wmac_subject_from_socket(conn);
		CHECK(s && wmac_subject_is_verified(s));
		if (s && !wmac_subject_is_verified(s))
			printf("# pass %d: %s\n", pass, wmac_subject_get_unverified_reason(s));
		CHECK_STR(wmac_subject_get_executable(s), sleep_exe);
		CHECK_INT(wmac_subject_get_pid(s), child);
		CHECK_INT(wmac_subject_get_uid(s), geteuid());
		CHECK_INT(wmac_subject_get_gid(s), getegid());
		CHECK(wmac_subject_get_pidfd(s) >= 0);
		CHECK(!wmac_subject_is_launched(s));
		CHECK_INT(decision_as_sleep(s), WMAC_ALLOW);
		char buf[PATH_MAX + 64], want[PATH_MAX + 64];
		wmac_subject_describe(s, buf, sizeof(buf));
		snprintf(want, sizeof(want), "pid %d uid %u exe %s", (int)child,
			 (unsigned int)geteuid(), sleep_exe);
		CHECK_STR(buf, want);
		wmac_subject_destroy(s);
		reap(child);
		close(conn);
		close(lfd);
		close(ready[0]);
		close(ready[1]);
	}
	peer_pretend_no_peerpidfd = false;
}

/*
 * The classic spoof: connect with a close-on-exec socket, keep a copy in a forked child,
 * then exec the binary the policy trusts so that /proc names it as the peer.
 */
static void client_that_execs_a_trusted_binary_after_connecting_is_unverified(void)
{
	for (int pass = 0; pass < 2; pass++) {
		peer_pretend_no_peerpidfd = pass == 1;
		int lfd = listen_at(sock_path), ready[2];
		if (pipe(ready) < 0)
			abort();
		pid_t child = fork();
		if (child == 0) {
			setpgid(0, 0);
			connect_to(sock_path, SOCK_CLOEXEC);
			if (fork() == 0) {
				/* The attacker's half: it keeps the connection and would talk on it. */
				send_byte(ready[1]);
				pause();
				_exit(0);
			}
			wait_byte(ready[0]);
			send_byte(ready[1]);
			exec_sleep();
		}
		int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		CHECK(wait_for_exe(child, sleep_exe));
		struct wmac_subject *s = wmac_subject_from_socket(conn);
		expect_unverified(s, "no longer holds the connection");
		CHECK_INT(wmac_subject_get_pid(s), child);
		wmac_subject_destroy(s);
		reap(child);
		close(conn);
		close(lfd);
		close(ready[0]);
		close(ready[1]);
	}
	peer_pretend_no_peerpidfd = false;
}

struct exec_race {
	int go;
	pid_t pid;
};

static void exec_now(pid_t pid, void *data)
{
	struct exec_race *race = data;
	send_byte(race->go);
	if (!wait_for_exe(race->pid, sleep_exe))
		printf("# the peer did not exec in time\n");
}

/* The peer execs between the library's two looks at /proc: the second look must see it. */
static void exec_during_resolution_is_detected(void)
{
	for (int pass = 0; pass < 2; pass++) {
		peer_pretend_no_peerpidfd = pass == 1;
		int lfd = listen_at(sock_path), ready[2], go[2];
		if (pipe(ready) < 0 || pipe(go) < 0)
			abort();
		pid_t child = fork();
		if (child == 0) {
			setpgid(0, 0);
			/* Not close-on-exec: after the exec the peer still holds the socket. */
			connect_to(sock_path, 0);
			send_byte(ready[1]);
			wait_byte(go[0]);
			exec_sleep();
		}
		int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		wait_byte(ready[0]);
		struct exec_race race = {.go = go[1], .pid = child};
		peer_resolve_hook = exec_now;
		peer_resolve_hook_data = &race;
		struct wmac_subject *s = wmac_subject_from_socket(conn);
		peer_resolve_hook = NULL;
		expect_unverified(s, "exec during resolution");
		wmac_subject_destroy(s);
		reap(child);
		close(conn);
		close(lfd);
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
	peer_pretend_no_peerpidfd = false;
}

/* The peer exits between the two looks; its pid must not be trusted any more. */
static void exit_now(pid_t pid, void *data)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void exit_during_resolution_is_detected(void)
{
	int lfd = listen_at(sock_path), ready[2];
	if (pipe(ready) < 0)
		abort();
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		int fd = connect_to(sock_path, 0);
		if (fork() == 0) {
			pause();
			_exit(0);
		}
		(void)fd;
		send_byte(ready[1]);
		pause();
		_exit(0);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	wait_byte(ready[0]);
	peer_resolve_hook = exit_now;
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	peer_resolve_hook = NULL;
	expect_unverified(s, "exited during resolution");
	wmac_subject_destroy(s);
	reap(child);
	close(conn);
	close(lfd);
	close(ready[0]);
	close(ready[1]);
}

/* A process that connected, handed its connection to a child and dropped its own copy. */
static void handed_off_connection_is_unverified(void)
{
	int lfd = listen_at(sock_path), ready[2];
	if (pipe(ready) < 0)
		abort();
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		int fd = connect_to(sock_path, 0);
		if (fork() == 0) {
			pause();
			_exit(0);
		}
		close(fd);
		send_byte(ready[1]);
		pause();
		_exit(0);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	wait_byte(ready[0]);
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	expect_unverified(s, "no longer holds the connection");
	wmac_subject_destroy(s);
	reap(child);
	close(conn);
	close(lfd);
	close(ready[0]);
	close(ready[1]);
}

static void setuid_after_connecting_is_detected(void)
{
	if (geteuid() != 0)
		SKIP("needs root to change uid");
	int lfd = listen_at(sock_path), ready[2];
	if (pipe(ready) < 0)
		abort();
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		connect_to(sock_path, 0);
		if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
			_exit(93);
		send_byte(ready[1]);
		pause();
		_exit(0);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	wait_byte(ready[0]);
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	expect_unverified(s, "credentials changed");
	CHECK_INT(wmac_subject_get_uid(s), 0);
	wmac_subject_destroy(s);
	reap(child);
	close(conn);
	close(lfd);
	close(ready[0]);
	close(ready[1]);
}

/*
 * A client the compositor starts over a socketpair: SO_PEERCRED names the compositor itself
 * (the process that called socketpair()), which must not be taken for the client. The launch
 * record is what identifies it.
 */
static void launched_client_on_socketpair_is_identified_by_its_launch_record(void)
{
	int sv[2];
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		int fd = dup(sv[1]); /* without close-on-exec, as WAYLAND_SOCKET is passed */
		(void)fd;
		exec_sleep();
	}
	close(sv[1]);
	CHECK(wait_for_exe(child, sleep_exe));

	struct wmac_subject *by_socket = wmac_subject_from_socket(sv[0]);
	expect_unverified(by_socket, "socketpair");
	CHECK_INT(wmac_subject_get_pid(by_socket), getpid());
	wmac_subject_destroy(by_socket);

	/* A policy that trusts the compositor's own binary still gives that client nothing. */
	char policy[PATH_MAX + 128];
	snprintf(policy, sizeof(policy),
		 "version 1\nallow screenshot exe=%s\nallow lock-screen launcher=locker\n",
		 self_exe);
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "p", policy, NULL, NULL, &err), 0);
	by_socket = wmac_subject_from_socket(sv[0]);
	CHECK_INT(wmac_check(ctx, by_socket, "screenshot", "out"), WMAC_DENY);
	wmac_subject_destroy(by_socket);

	struct wmac_launch_record rec = {
		.entry = "locker",
		.executable = sleep_exe,
		.argv0 = "sleep",
		.pid = child,
		.uid = geteuid(),
		.gid = getegid(),
	};
	struct wmac_subject *launched = wmac_subject_from_launch(&rec);
	CHECK(wmac_subject_is_verified(launched) && wmac_subject_is_launched(launched));
	CHECK_INT(wmac_check(ctx, launched, "lock-screen", NULL), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, launched, "screenshot", "out"), WMAC_DENY);
	wmac_subject_destroy(launched);
	wmac_context_destroy(ctx);
	reap(child);
	close(sv[0]);
}

/*
 * Pid reuse: the process that connected is gone (a child of it keeps the connection open) and a
 * new process, running the trusted binary, got its pid. A new pid namespace lets the test pick
 * the pid through ns_last_pid.
 */
static int pid_reuse_scenario(bool pretend_old_kernel)
{
	peer_pretend_no_peerpidfd = pretend_old_kernel;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return 77;
	int lfd = listen_at(sock_path);
	pid_t first = fork();
	if (first == 0) {
		connect_to(sock_path, 0);
		if (fork() == 0) {
			pause();
			_exit(0);
		}
		_exit(0);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	waitpid(first, NULL, 0);

	FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");
	if (!f)
		return 77;
	fprintf(f, "%d", (int)first - 1);
	fclose(f);
	pid_t second = fork();
	if (second == 0)
		exec_sleep();
	if (second != first) {
		printf("# could not reuse pid %d (got %d)\n", (int)first, (int)second);
		return 77;
	}
	if (!wait_for_exe(second, sleep_exe))
		return 1;
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	tap_failed = false;
	expect_unverified(s, pretend_old_kernel ? "no longer holds the connection" : "exited");
	wmac_subject_destroy(s);
	return tap_failed ? 1 : 0;
}

static void reused_pid_is_not_taken_for_the_process_that_connected(void)
{
	for (int pass = 0; pass < 2; pass++) {
		pid_t outer = fork();
		if (outer == 0) {
			if (unshare(CLONE_NEWPID | CLONE_NEWNS) < 0 &&
			    unshare(CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS) < 0)
				_exit(77);
			pid_t init = fork();
			if (init == 0)
				_exit(pid_reuse_scenario(pass == 1));
			int status;
			waitpid(init, &status, 0);
			_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
		}
		int status;
		waitpid(outer, &status, 0);
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		if (code == 77)
			SKIP("cannot create a pid namespace here");
		CHECK_INT(code, 0);
	}
}

/* A compositor in a pid namespace that cannot see its client's pid still gets a subject. */
static void peer_outside_our_pid_namespace_is_unverified(void)
{
	int lfd = listen_at(sock_path);
	pid_t outer = fork();
	if (outer == 0) {
		if (unshare(CLONE_NEWPID) < 0 && unshare(CLONE_NEWUSER | CLONE_NEWPID) < 0)
			_exit(77);
		pid_t inner = fork();
		if (inner == 0) {
			int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
			struct wmac_subject *s = wmac_subject_from_socket(conn);
			tap_failed = false;
			expect_unverified(s, "not visible from this pid namespace");
			CHECK_INT(wmac_subject_get_pid(s), 0);
			CHECK_INT(wmac_subject_get_pidfd(s), -1);
			wmac_subject_destroy(s);
			_exit(tap_failed ? 1 : 0);
		}
		int status;
		waitpid(inner, &status, 0);
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
	pid_t client = fork();
	if (client == 0) {
		setpgid(0, 0);
		connect_to(sock_path, 0);
		pause();
		_exit(0);
	}
	int status;
	waitpid(outer, &status, 0);
	reap(client);
	close(lfd);
	int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	if (code == 77)
		SKIP("cannot create a pid namespace here");
	CHECK_INT(code, 0);
}

/* Copies the sleep binary to path, so a test can run it under a name of its choosing. */
static void copy_sleep_to(const char *path)
{
	FILE *in = fopen(sleep_exe, "rb"), *copy = fopen(path, "wb");
	char buf[65536];
	size_t n;
	while (in && copy && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, copy);
	if (in)
		fclose(in);
	if (copy)
		fclose(copy);
	chmod(path, 0755);
}

/*
 * A client whose executable was deleted after it started: the path /proc shows may since name
 * another file, so it identifies nothing.
 */
static void client_running_a_deleted_executable_is_unverified(void)
{
	char dir[] = "/tmp/wmac-deleted-XXXXXX", exe[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(exe, sizeof(exe), "%s/sleep", dir);
	copy_sleep_to(exe);
	int lfd = listen_at(sock_path);
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		connect_to(sock_path, 0);
		execl(exe, "sleep", "1000", (char *)NULL);
		_exit(91);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	bool started = wait_for_exe(child, exe);
	unlink(exe);
	rmdir(dir);
	if (!started) {
		reap(child);
		close(conn);
		close(lfd);
		SKIP("cannot run a copied binary from /tmp");
	}
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	expect_unverified(s, "deleted or replaced");
	wmac_subject_destroy(s);
	reap(child);
	close(conn);
	close(lfd);
}

/*
 * A client whose executable name holds a newline asks to have an answer remembered: that
 * would write a forged line into the user's answer file, so it is refused.
 */
static void executable_named_with_a_newline_cannot_write_answers(void)
{
	char dir[] = "/tmp/wmac-newline-XXXXXX", exe[128], answers[128];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(exe, sizeof(exe), "%s/evil\nallow screenshot \"\" \"launcher:panel\"", dir);
	snprintf(answers, sizeof(answers), "%s/answers", dir);
	copy_sleep_to(exe);

	int lfd = listen_at(sock_path), ready[2];
	if (pipe(ready) < 0)
		abort();
	pid_t child = fork();
	if (child == 0) {
		setpgid(0, 0);
		connect_to(sock_path, 0);
		execl(exe, "sleep", "1000", (char *)NULL);
		_exit(91);
	}
	int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (!wait_for_exe(child, exe)) {
		reap(child);
		close(conn);
		close(lfd);
		unlink(exe);
		rmdir(dir);
		SKIP("cannot run a copied binary from /tmp");
	}
	struct wmac_subject *s = wmac_subject_from_socket(conn);
	CHECK(wmac_subject_is_verified(s));
	CHECK_STR(wmac_subject_get_executable(s), exe);
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "p", "version 1\nask screenshot\n", NULL, NULL, &err),
		  0);
	CHECK_INT(wmac_context_set_answer_file(ctx, answers, &err), 0);
	CHECK_INT(wmac_check(ctx, s, "screenshot", ""), WMAC_ASK);
	CHECK_INT(wmac_answer(ctx, s, "screenshot", "", WMAC_ALLOW, WMAC_SCOPE_FOREVER), -EPERM);
	CHECK_INT(wmac_answer(ctx, s, "screenshot", "", WMAC_ALLOW, WMAC_SCOPE_ONCE), 0);
	CHECK(access(answers, F_OK) != 0);
	wmac_context_destroy(ctx);
	wmac_subject_destroy(s);
	reap(child);
	close(conn);
	close(lfd);
	close(ready[0]);
	close(ready[1]);
	unlink(exe);
	rmdir(dir);
}

/* The portal's backend names an application by pid: the subject is that process, of the
 * expected user only, and never verified (nothing ties a pid to who asked). */
static void process_named_by_pid_is_an_unverified_subject_of_its_user_only(void)
{
	struct wmac_subject *s = wmac_subject_from_pid(getpid(), getuid());
	CHECK(s != NULL);
	CHECK_INT(wmac_subject_get_pid(s), getpid());
	CHECK(!wmac_subject_is_verified(s));
	CHECK(wmac_subject_get_executable(s) == NULL);
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "p",
					 "version 1\nask screencast\nallow screenshot "
					 "exe=/usr/bin/python3\n",
					 NULL, NULL, &err),
		  0);
	CHECK_INT(wmac_check(ctx, s, "screencast", "HEADLESS-1"), WMAC_ASK);
	CHECK_INT(wmac_check(ctx, s, "screenshot", "HEADLESS-1"), WMAC_DENY);
	CHECK_INT(wmac_answer(ctx, s, "screencast", "HEADLESS-1", WMAC_ALLOW, WMAC_SCOPE_SESSION),
		  -EPERM);
	wmac_context_destroy(ctx);
	wmac_subject_destroy(s);
	errno = 0;
	CHECK(wmac_subject_from_pid(getpid(), getuid() + 1) == NULL && errno == EPERM);
	errno = 0;
	CHECK(wmac_subject_from_pid(0, getuid()) == NULL && errno == EINVAL);
}

int main(void)
{
	if (!realpath("/bin/sleep", sleep_exe) || !realpath("/proc/self/exe", self_exe))
		return 99;
	/* A directory of the test's own: no name in /tmp that another run or user could hold. */
	char sock_dir[] = "/tmp/wmac-identity-XXXXXX";
	if (!mkdtemp(sock_dir))
		return 99;
	snprintf(sock_path, sizeof(sock_path), "%s/socket", sock_dir);
	RUN(connected_client_is_identified_by_its_executable);
	RUN(client_that_execs_a_trusted_binary_after_connecting_is_unverified);
	RUN(exec_during_resolution_is_detected);
	RUN(exit_during_resolution_is_detected);
	RUN(handed_off_connection_is_unverified);
	RUN(setuid_after_connecting_is_detected);
	RUN(launched_client_on_socketpair_is_identified_by_its_launch_record);
	RUN(reused_pid_is_not_taken_for_the_process_that_connected);
	RUN(peer_outside_our_pid_namespace_is_unverified);
	RUN(executable_named_with_a_newline_cannot_write_answers);
	RUN(client_running_a_deleted_executable_is_unverified);
	RUN(process_named_by_pid_is_an_unverified_subject_of_its_user_only);
	unlink(sock_path);
	rmdir(sock_dir);
	return tap_done();
}
