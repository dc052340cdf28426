// SPDX-License-Identifier: MIT
// A stand-in for logind on a private system bus, for the logind lock test: it owns
// org.freedesktop.login1, answers Manager.GetSession and GetSessionByPID with session SESSION's
// object, and emits Session.Lock (SIGUSR1) or Unlock (SIGUSR2) on that object, and
// Manager.PrepareForSleep(true) (SIGHUP) or (false) (SIGALRM). It hands out delay inhibitors
// (Manager.Inhibit) and takes the session's SetLockedHint and SetIdleHint. Everything that
// happens is one line on its stdout, in order: "ready" once it owns the name, "emitted X",
// "inhibit WHAT MODE", "released" when every inhibitor it handed out is closed,
// "locked-hint true|false", "idle-hint true|false". It serves until SIGTERM.
// usage: fake-logind SESSION
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <unistd.h>

static volatile sig_atomic_t lock_asked, unlock_asked, sleep_asked, wake_asked, stop;
static char session_path[256];
/* The read end of the inhibitors' pipe: EOF once every write end handed out is closed. */
static int inhibitors = -1;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		lock_asked = 1;
	else if (sig == SIGUSR2)
		unlock_asked = 1;
	else if (sig == SIGHUP)
		sleep_asked = 1;
	else if (sig == SIGALRM)
		wake_asked = 1;
	else
		stop = 1;
}

/* One event, one line: WORDS joined by spaces. */
static void note(const char *a, const char *b)
{
	printf("%s%s%s\n", a, b ? " " : "", b ? b : "");
	fflush(stdout);
}

static int inhibit(sd_bus_message *m, void *data, sd_bus_error *error)
{
	const char *what, *who, *why, *mode;
	int fds[2], ret;

	ret = sd_bus_message_read(m, "ssss", &what, &who, &why, &mode);
	if (ret < 0)
		return ret;
	if (inhibitors >= 0)
		close(inhibitors);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	inhibitors = fds[0];
	printf("inhibit %s %s\n", what, mode);
	fflush(stdout);
	ret = sd_bus_reply_method_return(m, "h", fds[1]);
	close(fds[1]); /* the reply holds a copy; garnet's is the last one */
	return ret;
}

static int set_hint(sd_bus_message *m, const char *name)
{
	int value, ret = sd_bus_message_read(m, "b", &value);

	if (ret < 0)
		return ret;
	note(name, value ? "true" : "false");
	return sd_bus_reply_method_return(m, "");
}

static int set_locked_hint(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return set_hint(m, "locked-hint");
}

static int set_idle_hint(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return set_hint(m, "idle-hint");
}

/* Every write end closed: the holders let the system sleep. */
static void check_inhibitors(void)
{
	struct pollfd p = {.fd = inhibitors, .events = POLLIN};
	char byte;

	if (inhibitors < 0 || poll(&p, 1, 0) <= 0 || read(inhibitors, &byte, 1) != 0)
		return;
	close(inhibitors);
	inhibitors = -1;
	note("released", NULL);
}

static int get_session(sd_bus_message *m, void *data, sd_bus_error *error)
{
	const char *id;
	int ret = sd_bus_message_read(m, "s", &id);

	if (ret < 0)
		return ret;
	if (strcmp(id, data) != 0)
		return sd_bus_error_setf(error, "org.freedesktop.login1.NoSuchSession",
					 "No session '%s' known", id);
	return sd_bus_reply_method_return(m, "o", session_path);
}

static int get_session_by_pid(sd_bus_message *m, void *data, sd_bus_error *error)
{
	return sd_bus_reply_method_return(m, "o", session_path);
}

static const sd_bus_vtable manager_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("GetSession", "s", "o", get_session, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("GetSessionByPID", "u", "o", get_session_by_pid,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Inhibit", "ssss", "h", inhibit, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL("PrepareForSleep", "b", 0),
	SD_BUS_VTABLE_END,
};

static const sd_bus_vtable session_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_SIGNAL("Lock", "", 0),
	SD_BUS_SIGNAL("Unlock", "", 0),
	SD_BUS_METHOD("SetLockedHint", "b", "", set_locked_hint, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("SetIdleHint", "b", "", set_idle_hint, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_signal};
	sd_bus *bus = NULL;
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: fake-logind SESSION\n");
		return 2;
	}
	snprintf(session_path, sizeof(session_path), "/org/freedesktop/login1/session/%s",
		 argv[1]);
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	ret = sd_bus_open_system(&bus);
	if (ret >= 0)
		ret = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/login1",
					       "org.freedesktop.login1.Manager", manager_vtable,
					       argv[1]);
	if (ret >= 0)
		ret = sd_bus_add_object_vtable(bus, NULL, session_path,
					       "org.freedesktop.login1.Session", session_vtable,
					       NULL);
	if (ret >= 0)
		ret = sd_bus_request_name(bus, "org.freedesktop.login1", 0);
	if (ret < 0) {
		fprintf(stderr, "fake-logind: %s\n", strerror(-ret));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (!stop) {
		if (lock_asked || unlock_asked) {
			ret = sd_bus_emit_signal(bus, session_path, "org.freedesktop.login1.Session",
						 lock_asked ? "Lock" : "Unlock", "");
			if (ret < 0)
				fprintf(stderr, "fake-logind: emit: %s\n", strerror(-ret));
			printf("emitted %s\n", lock_asked ? "Lock" : "Unlock");
			fflush(stdout);
			lock_asked = unlock_asked = 0;
		}
		if (sleep_asked || wake_asked) {
			ret = sd_bus_emit_signal(bus, "/org/freedesktop/login1",
						 "org.freedesktop.login1.Manager", "PrepareForSleep",
						 "b", (int)sleep_asked);
			if (ret < 0)
				fprintf(stderr, "fake-logind: emit: %s\n", strerror(-ret));
			note("emitted PrepareForSleep", sleep_asked ? "true" : "false");
			sleep_asked = wake_asked = 0;
		}
		check_inhibitors();
		ret = sd_bus_process(bus, NULL);
		if (ret < 0 && ret != -EINTR)
			break;
		if (ret == 0)
			sd_bus_wait(bus, 100 * 1000);
	}
	sd_bus_flush_close_unref(bus);
	return 0;
}
