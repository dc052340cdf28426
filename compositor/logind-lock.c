// SPDX-License-Identifier: MIT
// `loginctl lock-session`: logind emits Lock on the session's object, and garnet locks as the
// lock binding would. The session is the one named by XDG_SESSION_ID (or, without it, the one
// logind finds for garnet's pid); only signals broadcast by the owner of org.freedesktop.login1
// count, so no other program on the bus can make garnet do anything. logind's Unlock is not
// obeyed: unlocking takes the user's password, typed into the locker or into garnet's own lock
// screen.
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "logind-lock.h"

#define LOGIND "org.freedesktop.login1"

struct garnet_logind_lock {
	struct garnet_compositor *compositor;
	sd_bus *bus;
	sd_bus_slot *lookup, *lock_match, *unlock_match;
	struct wl_event_source *fd_source, *timer;
};

static void watch_bus(struct garnet_logind_lock *l);

static void say(struct garnet_logind_lock *l, enum garnet_log_level level, const char *what,
		int err)
{
	garnet_log(l->compositor, level, "logind", "%s%s%s", what, err ? ": " : "",
		   err ? strerror(err) : "");
}

/* logind broadcasts Lock. A signal sent to garnet alone is not logind's: the bus routes
 * broadcasts by the match's sender, but a signal addressed to garnet's own name reaches it
 * whatever the match says, and sd-bus cannot tell the well-known name from its owner. */
static bool from_logind(sd_bus_message *m)
{
	return sd_bus_message_get_destination(m) == NULL;
}

static int on_lock(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;

	if (!from_logind(m)) {
		garnet_log(l->compositor, GARNET_LOG_WARNING, "logind",
			   "a Lock sent to garnet alone by %s ignored: logind broadcasts it",
			   sd_bus_message_get_sender(m) ? sd_bus_message_get_sender(m) : "?");
		return 0;
	}
	garnet_compositor_lock_session(l->compositor, "loginctl lock-session");
	return 0;
}

static int on_unlock(sd_bus_message *m, void *data, sd_bus_error *error)
{
	say(data, GARNET_LOG_WARNING,
	    "logind asked to unlock; ignored: only the user's password unlocks", 0);
	return 0;
}

static int on_session(sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;
	const char *path;
	int ret;

	l->lookup = sd_bus_slot_unref(l->lookup);
	if (sd_bus_message_is_method_error(reply, NULL)) {
		garnet_log(l->compositor, GARNET_LOG_WARNING, "logind",
			   "no session of ours: %s; loginctl lock-session will not lock",
			   sd_bus_message_get_error(reply)->message);
		return 0;
	}
	ret = sd_bus_message_read(reply, "o", &path);
	if (ret < 0) {
		say(l, GARNET_LOG_WARNING, "logind's session reply", -ret);
		return 0;
	}
	ret = sd_bus_match_signal_async(l->bus, &l->lock_match, LOGIND, path,
					LOGIND ".Session", "Lock", on_lock, NULL, l);
	if (ret >= 0)
		ret = sd_bus_match_signal_async(l->bus, &l->unlock_match, LOGIND, path,
						LOGIND ".Session", "Unlock", on_unlock, NULL, l);
	if (ret < 0) {
		say(l, GARNET_LOG_WARNING, "cannot listen to logind", -ret);
		return 0;
	}
	garnet_log(l->compositor, GARNET_LOG_INFO, "logind", "locking on Lock of %s", path);
	return 0;
}

static int process(struct garnet_logind_lock *l)
{
	int ret;

	if (!l->fd_source)
		return 0; /* the bus was given up */
	while ((ret = sd_bus_process(l->bus, NULL)) > 0)
		;
	if (ret < 0) {
		/* The bus went away (a restarted dbus): give it up rather than spin on it. */
		say(l, GARNET_LOG_WARNING, "lost the system bus; loginctl lock-session is off",
		    -ret);
		wl_event_source_remove(l->fd_source);
		l->fd_source = NULL;
		wl_event_source_timer_update(l->timer, 0);
		return 0;
	}
	watch_bus(l);
	return 0;
}

static int on_bus_fd(int fd, uint32_t mask, void *data)
{
	return process(data);
}

static int on_bus_timer(void *data)
{
	return process(data);
}

/* What sd-bus waits for next: its fd (to read, or to write what is queued) and a deadline. */
static void watch_bus(struct garnet_logind_lock *l)
{
	int events = sd_bus_get_events(l->bus);
	uint64_t until = 0, now_us;
	struct timespec now;

	if (!l->fd_source)
		return;
	wl_event_source_fd_update(l->fd_source,
				  WL_EVENT_READABLE |
					  (events > 0 && (events & POLLOUT) ? WL_EVENT_WRITABLE : 0));
	if (sd_bus_get_timeout(l->bus, &until) < 0 || until == UINT64_MAX) {
		wl_event_source_timer_update(l->timer, 0);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &now);
	now_us = (uint64_t)now.tv_sec * 1000000 + (uint64_t)now.tv_nsec / 1000;
	/* 0 disarms a wl timer: a deadline already passed fires in 1 ms. */
	wl_event_source_timer_update(l->timer,
				     until <= now_us ? 1 : (int)((until - now_us + 999) / 1000));
}

struct garnet_logind_lock *garnet_logind_lock_create(struct garnet_compositor *c)
{
	struct garnet_logind_lock *l = calloc(1, sizeof(*l));
	struct wl_event_loop *loop = garnet_compositor_get_loop(c);
	const char *session = getenv("XDG_SESSION_ID");
	int ret;

	if (!l)
		return NULL;
	l->compositor = c;
	ret = sd_bus_open_system(&l->bus);
	if (ret < 0) {
		say(l, GARNET_LOG_INFO, "no system bus; loginctl lock-session will not lock", -ret);
		free(l);
		return NULL;
	}
	if (session && session[0])
		ret = sd_bus_call_method_async(l->bus, &l->lookup, LOGIND, "/org/freedesktop/login1",
					       LOGIND ".Manager", "GetSession", on_session, l, "s",
					       session);
	else
		ret = sd_bus_call_method_async(l->bus, &l->lookup, LOGIND, "/org/freedesktop/login1",
					       LOGIND ".Manager", "GetSessionByPID", on_session, l,
					       "u", (uint32_t)getpid());
	l->fd_source = wl_event_loop_add_fd(loop, sd_bus_get_fd(l->bus), WL_EVENT_READABLE,
					    on_bus_fd, l);
	l->timer = wl_event_loop_add_timer(loop, on_bus_timer, l);
	if (ret < 0 || !l->fd_source || !l->timer) {
		say(l, GARNET_LOG_WARNING, "cannot ask logind for our session", ret < 0 ? -ret : 0);
		garnet_logind_lock_destroy(l);
		return NULL;
	}
	watch_bus(l);
	return l;
}

void garnet_logind_lock_destroy(struct garnet_logind_lock *l)
{
	if (!l)
		return;
	sd_bus_slot_unref(l->lookup);
	sd_bus_slot_unref(l->lock_match);
	sd_bus_slot_unref(l->unlock_match);
	if (l->fd_source)
		wl_event_source_remove(l->fd_source);
	if (l->timer)
		wl_event_source_remove(l->timer);
	sd_bus_flush_close_unref(l->bus);
	free(l);
}
