// SPDX-License-Identifier: MIT
// A stand-in for logind on a private system bus, for the logind lock test: it owns
// org.freedesktop.login1, answers Manager.GetSession and GetSessionByPID with session SESSION's
// object, and emits Session.Lock (SIGUSR1) or Unlock (SIGUSR2) on that object. It writes
// "ready" to its stdout once it owns the name and serves until SIGTERM.
// usage: fake-logind SESSION
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <systemd/sd-bus.h>

static volatile sig_atomic_t lock_asked, unlock_asked, stop;
static char session_path[256];

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		lock_asked = 1;
	else if (sig == SIGUSR2)
		unlock_asked = 1;
	else
		stop = 1;
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
	SD_BUS_VTABLE_END,
};

static const sd_bus_vtable session_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_SIGNAL("Lock", "", 0),
	SD_BUS_SIGNAL("Unlock", "", 0),
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
		ret = sd_bus_process(bus, NULL);
		if (ret < 0 && ret != -EINTR)
			break;
		if (ret == 0)
			sd_bus_wait(bus, 100 * 1000);
	}
	sd_bus_flush_close_unref(bus);
	return 0;
}
