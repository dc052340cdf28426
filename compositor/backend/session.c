// SPDX-License-Identifier: MIT
// The seat session through libseat: device access, VT switching, enable/disable of the seat.
#include <errno.h>
#include <fcntl.h>
#include <linux/vt.h>
#include <libseat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../core/compositor.h"
#include "session.h"

struct session_device {
	int fd, id;
	struct wl_list link;
};

struct garnet_session {
	struct garnet_compositor *compositor;
	struct libseat *seat;
	struct wl_event_source *source;
	bool active;
	struct wl_list devices; /* session_device.link */
	struct wl_signal active_signal;
};

static void seat_enabled(struct libseat *seat, void *data)
{
	struct garnet_session *session = data;

	garnet_log(session->compositor, GARNET_LOG_INFO, "session", "seat %s enabled",
		   libseat_seat_name(seat));
	session->active = true;
	wl_signal_emit_mutable(&session->active_signal, session);
}

static void seat_disabled(struct libseat *seat, void *data)
{
	struct garnet_session *session = data;

	garnet_log(session->compositor, GARNET_LOG_INFO, "session",
		   "seat %s disabled (VT switched away)", libseat_seat_name(seat));
	session->active = false;
	/* Listeners let go of DRM master and suspend input before the seat is handed over. */
	wl_signal_emit_mutable(&session->active_signal, session);
	libseat_disable_seat(seat);
}

static const struct libseat_seat_listener seat_listener = {
	.enable_seat = seat_enabled,
	.disable_seat = seat_disabled,
};

static int seat_readable(int fd, uint32_t mask, void *data)
{
	struct garnet_session *session = data;

	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		garnet_log(session->compositor, GARNET_LOG_ERROR, "session",
			   "the seat manager went away: shutting down");
		garnet_compositor_terminate(session->compositor);
		return 0;
	}
	if (libseat_dispatch(session->seat, 0) < 0) {
		garnet_log(session->compositor, GARNET_LOG_ERROR, "session",
			   "libseat dispatch failed: %s", strerror(errno));
		garnet_compositor_terminate(session->compositor);
	}
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool activate_vt(struct garnet_compositor *c, int tty)
{
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/tty%d", tty);
	fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "session", "--tty=%d: cannot open %s: %s", tty,
			   path, strerror(errno));
		return false;
	}
	if (ioctl(fd, VT_ACTIVATE, tty) < 0 || ioctl(fd, VT_WAITACTIVE, tty) < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "session", "--tty=%d: cannot switch to it: %s",
			   tty, strerror(errno));
		close(fd);
		return false;
	}
	close(fd);
	return true;
}

struct garnet_session *garnet_session_create(struct garnet_compositor *c, const char *seat_name,
					     int tty)
{
	struct garnet_session *session = calloc(1, sizeof(*session));
	int64_t deadline;

	if (!session)
		return NULL;
	session->compositor = c;
	wl_list_init(&session->devices);
	if (tty > 0 && !activate_vt(c, tty)) {
		free(session);
		return NULL;
	}
	wl_signal_init(&session->active_signal);
	/* libseat's logind backend picks the seat from XDG_SEAT; seatd serves seat0 only. */
	if (seat_name)
		setenv("XDG_SEAT", seat_name, 1);
	session->seat = libseat_open_seat(&seat_listener, session);
	if (!session->seat) {
		garnet_log(c, GARNET_LOG_ERROR, "session",
			   "cannot open a seat: %s (is seatd or logind running, or is garnet run "
			   "as root for libseat's builtin backend? LIBSEAT_BACKEND=%s)",
			   strerror(errno), getenv("LIBSEAT_BACKEND") ? getenv("LIBSEAT_BACKEND")
								     : "unset");
		free(session);
		return NULL;
	}
	/* The seat is usable only once enabled; a seat never enabled means another session
	 * holds it. */
	deadline = now_ms() + 5000;
	while (!session->active && now_ms() < deadline) {
		if (libseat_dispatch(session->seat, 100) < 0) {
			garnet_log(c, GARNET_LOG_ERROR, "session", "libseat dispatch failed: %s",
				   strerror(errno));
			break;
		}
	}
	if (!session->active) {
		garnet_log(c, GARNET_LOG_ERROR, "session",
			   "seat %s was not enabled within 5 s (is this VT active?)",
			   libseat_seat_name(session->seat));
		goto err_seat;
	}
	session->source = wl_event_loop_add_fd(c->loop, libseat_get_fd(session->seat),
					       WL_EVENT_READABLE, seat_readable, session);
	if (!session->source)
		goto err_seat;
	return session;

err_seat:
	libseat_close_seat(session->seat);
	free(session);
	return NULL;
}

void garnet_session_destroy(struct garnet_session *session)
{
	struct session_device *dev, *tmp;

	if (!session)
		return;
	wl_list_for_each_safe(dev, tmp, &session->devices, link) {
		libseat_close_device(session->seat, dev->id);
		close(dev->fd);
		wl_list_remove(&dev->link);
		free(dev);
	}
	wl_event_source_remove(session->source);
	libseat_close_seat(session->seat);
	free(session);
}

int garnet_session_open_device(struct garnet_session *session, const char *path)
{
	struct session_device *dev = calloc(1, sizeof(*dev));
	int err;

	if (!dev) {
		errno = ENOMEM;
		return -1;
	}
	dev->id = libseat_open_device(session->seat, path, &dev->fd);
	if (dev->id < 0) {
		err = errno;
		garnet_log(session->compositor, GARNET_LOG_ERROR, "session", "cannot open %s: %s",
			   path, strerror(err));
		free(dev);
		errno = err;
		return -1;
	}
	wl_list_insert(&session->devices, &dev->link);
	return dev->fd;
}

void garnet_session_close_device(struct garnet_session *session, int fd)
{
	struct session_device *dev;

	wl_list_for_each(dev, &session->devices, link) {
		if (dev->fd != fd)
			continue;
		libseat_close_device(session->seat, dev->id);
		close(dev->fd);
		wl_list_remove(&dev->link);
		free(dev);
		return;
	}
	garnet_log(session->compositor, GARNET_LOG_WARNING, "session",
		   "fd %d was not opened through the seat", fd);
	close(fd);
}

bool garnet_session_is_active(struct garnet_session *session)
{
	return session->active;
}

const char *garnet_session_seat_name(struct garnet_session *session)
{
	return libseat_seat_name(session->seat);
}

bool garnet_session_switch_vt(struct garnet_session *session, int vt)
{
	if (!session->active)
		return false;
	garnet_log(session->compositor, GARNET_LOG_INFO, "session", "switching to VT %d", vt);
	if (libseat_switch_session(session->seat, vt) < 0) {
		garnet_log(session->compositor, GARNET_LOG_WARNING, "session",
			   "cannot switch to VT %d: %s", vt, strerror(errno));
		return false;
	}
	return true;
}

struct wl_signal *garnet_session_get_active_signal(struct garnet_session *session)
{
	return &session->active_signal;
}
