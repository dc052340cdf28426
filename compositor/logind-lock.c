// SPDX-License-Identifier: MIT
// garnet and logind. `loginctl lock-session`: logind emits Lock on the session's object, and
// garnet locks as the lock binding would. Sleep: garnet holds a delay inhibitor, and on
// PrepareForSleep(true) locks and lets the system sleep only once every screen shows the lock
// (or after SLEEP_LOCK_MS, logged), so that the session wakes up locked with nothing of the
// clients on screen. The session's LockedHint and IdleHint follow garnet's lock and the user's
// input. The session is the one named by XDG_SESSION_ID (or, without it, the one logind finds
// for garnet's pid); only signals broadcast by the owner of org.freedesktop.login1 count, so no
// other program on the bus can make garnet do anything. logind's Unlock is not obeyed:
// unlocking takes the user's password, typed into the locker or into garnet's own lock screen.
#include <errno.h>
#include <fcntl.h>
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
#define LOGIND_PATH "/org/freedesktop/login1"
/* How long the system waits for the lock to be on every screen. logind's InhibitDelayMaxSec
 * (5 s by default) bounds it too. */
#define SLEEP_LOCK_MS 2000

struct garnet_logind_lock {
	struct garnet_compositor *compositor;
	sd_bus *bus;
	sd_bus_slot *lookup, *lock_match, *unlock_match, *sleep_match, *inhibit_call;
	sd_bus_slot *locked_hint_call, *idle_hint_call;
	struct wl_event_source *fd_source, *timer;
	char *session; /* our session's object path, once logind told it */
	int inhibitor; /* the sleep delay inhibitor's fd; -1 while none is held */
	bool going_to_sleep; /* between PrepareForSleep(true) and (false) */
	struct wl_event_source *sleep_timer, *idle_timer;
	int idle_ms; /* 0: IdleHint is never set */
	bool idle_hint;
	struct wl_listener lock_changed, lock_shown, activity;
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

/* ---- the session's hints ---- */

static int on_hint_reply(sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;

	if (sd_bus_message_is_method_error(reply, NULL))
		garnet_log(l->compositor, GARNET_LOG_WARNING, "logind", "a session hint: %s",
			   sd_bus_message_get_error(reply)->message);
	return 0;
}

/* One call of each hint in flight: a newer one replaces it (its answer is not awaited). */
static void set_hint(struct garnet_logind_lock *l, sd_bus_slot **slot, const char *method,
		     bool value)
{
	int ret;

	if (!l->session || !l->fd_source)
		return;
	*slot = sd_bus_slot_unref(*slot);
	ret = sd_bus_call_method_async(l->bus, slot, LOGIND, l->session, LOGIND ".Session", method,
				       on_hint_reply, l, "b", (int)value);
	if (ret < 0)
		say(l, GARNET_LOG_WARNING, method, -ret);
	else
		garnet_log(l->compositor, GARNET_LOG_DEBUG, "logind", "%s(%s)", method,
			   value ? "true" : "false");
	watch_bus(l);
}

static void lock_changed(struct wl_listener *listener, void *data)
{
	struct garnet_logind_lock *l = wl_container_of(listener, l, lock_changed);

	set_hint(l, &l->locked_hint_call, "SetLockedHint",
		 garnet_compositor_is_locked(l->compositor));
}

static int idle_expired(void *data)
{
	struct garnet_logind_lock *l = data;

	l->idle_hint = true;
	set_hint(l, &l->idle_hint_call, "SetIdleHint", true);
	return 0;
}

static void user_active(struct wl_listener *listener, void *data)
{
	struct garnet_logind_lock *l = wl_container_of(listener, l, activity);

	if (l->idle_hint) {
		l->idle_hint = false;
		set_hint(l, &l->idle_hint_call, "SetIdleHint", false);
	}
	wl_event_source_timer_update(l->idle_timer, l->idle_ms);
}

/* ---- sleep ---- */

static int on_inhibit(sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;
	int fd, ret;

	l->inhibit_call = sd_bus_slot_unref(l->inhibit_call);
	if (sd_bus_message_is_method_error(reply, NULL)) {
		garnet_log(l->compositor, GARNET_LOG_WARNING, "logind",
			   "no sleep inhibitor: %s; the system may sleep before the lock shows",
			   sd_bus_message_get_error(reply)->message);
		return 0;
	}
	ret = sd_bus_message_read(reply, "h", &fd);
	if (ret >= 0 && (fd = fcntl(fd, F_DUPFD_CLOEXEC, 3)) < 0)
		ret = -errno;
	if (ret < 0) {
		say(l, GARNET_LOG_WARNING, "logind's inhibitor reply", -ret);
		return 0;
	}
	l->inhibitor = fd;
	garnet_log(l->compositor, GARNET_LOG_INFO, "logind",
		   "holding a sleep delay inhibitor: the session locks before the system sleeps");
	return 0;
}

static void take_inhibitor(struct garnet_logind_lock *l)
{
	int ret;

	if (l->inhibitor >= 0 || l->inhibit_call)
		return;
	ret = sd_bus_call_method_async(l->bus, &l->inhibit_call, LOGIND, LOGIND_PATH,
				       LOGIND ".Manager", "Inhibit", on_inhibit, l, "ssss", "sleep",
				       "garnet", "Locks the session before the system sleeps",
				       "delay");
	if (ret < 0)
		say(l, GARNET_LOG_WARNING, "cannot ask logind for a sleep inhibitor", -ret);
	watch_bus(l);
}

static void let_sleep(struct garnet_logind_lock *l, enum garnet_log_level level, const char *why)
{
	wl_event_source_timer_update(l->sleep_timer, 0);
	if (l->inhibitor < 0)
		return;
	close(l->inhibitor);
	l->inhibitor = -1;
	garnet_log(l->compositor, level, "logind", "%s: the system may sleep", why);
}

static void lock_shown(struct wl_listener *listener, void *data)
{
	struct garnet_logind_lock *l = wl_container_of(listener, l, lock_shown);

	if (l->going_to_sleep)
		let_sleep(l, GARNET_LOG_INFO, "the lock is on every screen");
}

static int sleep_lock_timeout(void *data)
{
	let_sleep(data, GARNET_LOG_ERROR,
		  "the lock is not on every screen in time; the system may sleep anyway");
	return 0;
}

static int on_prepare_for_sleep(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;
	struct garnet_compositor *c = l->compositor;
	int start = 0;

	if (!from_logind(m) || sd_bus_message_read(m, "b", &start) < 0)
		return 0;
	if (!start) {
		garnet_log(c, GARNET_LOG_INFO, "logind", "the system woke up");
		l->going_to_sleep = false;
		wl_event_source_timer_update(l->sleep_timer, 0);
		take_inhibitor(l);
		return 0;
	}
	l->going_to_sleep = true;
	if (!garnet_compositor_lock_session_now(c, "the system is going to sleep")) {
		let_sleep(l, GARNET_LOG_ERROR, "nothing can lock the session");
		return 0;
	}
	if (garnet_compositor_lock_shown(c))
		let_sleep(l, GARNET_LOG_INFO, "the lock is on every screen");
	else
		wl_event_source_timer_update(l->sleep_timer, SLEEP_LOCK_MS);
	return 0;
}

/* The bus answers in order: once it has the Unlock match, it has the Lock match before it. */
static int on_matches_installed(sd_bus_message *reply, void *data, sd_bus_error *error)
{
	struct garnet_logind_lock *l = data;

	if (sd_bus_message_is_method_error(reply, NULL)) {
		garnet_log(l->compositor, GARNET_LOG_WARNING, "logind", "cannot listen to logind: %s",
			   sd_bus_message_get_error(reply)->message);
		return 0;
	}
	garnet_log(l->compositor, GARNET_LOG_INFO, "logind", "locking on Lock of %s", l->session);
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
	l->session = strdup(path);
	ret = sd_bus_match_signal_async(l->bus, &l->lock_match, LOGIND, path,
					LOGIND ".Session", "Lock", on_lock, NULL, l);
	if (ret >= 0)
		ret = sd_bus_match_signal_async(l->bus, &l->unlock_match, LOGIND, path,
						LOGIND ".Session", "Unlock", on_unlock,
						on_matches_installed, l);
	if (ret < 0) {
		say(l, GARNET_LOG_WARNING, "cannot listen to logind", -ret);
		return 0;
	}
	if (garnet_compositor_is_locked(l->compositor))
		set_hint(l, &l->locked_hint_call, "SetLockedHint", true);
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

struct garnet_logind_lock *garnet_logind_lock_create(struct garnet_compositor *c,
						     int idle_seconds)
{
	struct garnet_logind_lock *l = calloc(1, sizeof(*l));
	struct wl_event_loop *loop = garnet_compositor_get_loop(c);
	const char *session = getenv("XDG_SESSION_ID");
	int ret;

	if (!l)
		return NULL;
	l->compositor = c;
	l->inhibitor = -1;
	wl_list_init(&l->lock_changed.link);
	wl_list_init(&l->lock_shown.link);
	wl_list_init(&l->activity.link);
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
	if (ret >= 0)
		ret = sd_bus_match_signal_async(l->bus, &l->sleep_match, LOGIND, LOGIND_PATH,
						LOGIND ".Manager", "PrepareForSleep",
						on_prepare_for_sleep, NULL, l);
	l->fd_source = wl_event_loop_add_fd(loop, sd_bus_get_fd(l->bus), WL_EVENT_READABLE,
					    on_bus_fd, l);
	l->timer = wl_event_loop_add_timer(loop, on_bus_timer, l);
	l->sleep_timer = wl_event_loop_add_timer(loop, sleep_lock_timeout, l);
	l->idle_timer = wl_event_loop_add_timer(loop, idle_expired, l);
	if (ret < 0 || !l->fd_source || !l->timer || !l->sleep_timer || !l->idle_timer) {
		say(l, GARNET_LOG_WARNING, "cannot ask logind for our session", ret < 0 ? -ret : 0);
		garnet_logind_lock_destroy(l);
		return NULL;
	}
	l->lock_changed.notify = lock_changed;
	wl_signal_add(garnet_compositor_get_lock_signal(c), &l->lock_changed);
	l->lock_shown.notify = lock_shown;
	wl_signal_add(garnet_compositor_get_lock_shown_signal(c), &l->lock_shown);
	if (idle_seconds > 0) {
		l->idle_ms = idle_seconds * 1000;
		l->activity.notify = user_active;
		wl_signal_add(garnet_compositor_get_activity_signal(c), &l->activity);
		wl_event_source_timer_update(l->idle_timer, l->idle_ms);
	}
	take_inhibitor(l);
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
	sd_bus_slot_unref(l->sleep_match);
	sd_bus_slot_unref(l->inhibit_call);
	sd_bus_slot_unref(l->locked_hint_call);
	sd_bus_slot_unref(l->idle_hint_call);
	wl_list_remove(&l->lock_changed.link);
	wl_list_remove(&l->lock_shown.link);
	wl_list_remove(&l->activity.link);
	if (l->inhibitor >= 0)
		close(l->inhibitor);
	if (l->fd_source)
		wl_event_source_remove(l->fd_source);
	if (l->timer)
		wl_event_source_remove(l->timer);
	if (l->sleep_timer)
		wl_event_source_remove(l->sleep_timer);
	if (l->idle_timer)
		wl_event_source_remove(l->idle_timer);
	sd_bus_flush_close_unref(l->bus);
	free(l->session);
	free(l);
}
