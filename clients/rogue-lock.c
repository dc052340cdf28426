// SPDX-License-Identifier: MIT
// garnet-rogue lock / locker: ext-session-lock from the client side. As an untrusted client it
// is the attack (lock the user out, or take over a lock whose locker died); launched as the
// lock-screen it is the trusted locker that the tests then kill.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ext-session-lock-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"

struct locker {
	FILE *log;
	struct wl_compositor *compositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct wl_output *output;
	struct ext_session_lock_manager_v1 *manager;
	struct wl_surface *surface;
	bool locked, finished, shown;
};

static void say(struct locker *l, const char *what)
{
	fprintf(l->log, "%s\n", what);
	fflush(l->log);
}

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct locker *l = data;

	if (strcmp(interface, wl_compositor_interface.name) == 0)
		l->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	else if (strcmp(interface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		l->pixels = wl_registry_bind(r, name,
					     &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(interface, wp_viewporter_interface.name) == 0)
		l->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !l->output)
		l->output = wl_registry_bind(r, name, &wl_output_interface, 1);
	else if (strcmp(interface, ext_session_lock_manager_v1_interface.name) == 0)
		l->manager = wl_registry_bind(r, name, &ext_session_lock_manager_v1_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void surface_configure(void *data, struct ext_session_lock_surface_v1 *ls, uint32_t serial,
			      uint32_t width, uint32_t height)
{
	struct locker *l = data;

	ext_session_lock_surface_v1_ack_configure(ls, serial);
	rogue_fill_surface(l->surface, l->pixels, l->viewporter, (int32_t)width,
			   (int32_t)height);
	l->shown = true;
}

static const struct ext_session_lock_surface_v1_listener surface_listener = {surface_configure};

static void on_locked(void *data, struct ext_session_lock_v1 *lock)
{
	struct locker *l = data;
	char line[64];

	l->locked = true;
	snprintf(line, sizeof(line), "locked %d", (int)getpid());
	say(l, line);
}

static void on_finished(void *data, struct ext_session_lock_v1 *lock)
{
	struct locker *l = data;

	l->finished = true;
	say(l, "finished");
}

static const struct ext_session_lock_v1_listener lock_listener = {on_locked, on_finished};

/* Serves the lock until killed, or until PATH.unlock appears: then unlocks. */
static int stay_locked(struct wl_display *display, struct locker *l,
		       struct ext_session_lock_v1 *lock, const char *path)
{
	struct pollfd pfd = {.fd = wl_display_get_fd(display), .events = POLLIN};
	char unlock_path[4096];

	snprintf(unlock_path, sizeof(unlock_path), "%s.unlock", path);
	for (;;) {
		if (access(unlock_path, F_OK) == 0) {
			ext_session_lock_v1_unlock_and_destroy(lock);
			if (wl_display_roundtrip(display) < 0)
				return 2;
			say(l, "unlocked");
			return 0;
		}
		if (wl_display_flush(display) < 0 || poll(&pfd, 1, 50) < 0)
			return 2;
		if ((pfd.revents & POLLIN) && wl_display_dispatch(display) < 0)
			return 2;
	}
}

int rogue_lock(const char *path, const char *wait_path, bool stay)
{
	struct locker l = {0};
	struct wl_display *display = rogue_connect();
	struct ext_session_lock_v1 *lock;
	struct ext_session_lock_surface_v1 *ls;

	for (int i = 0; wait_path && i < 200 && access(wait_path, F_OK) != 0; i++)
		usleep(50 * 1000);
	l.log = fopen(path, "a");
	if (!l.log) {
		perror(path);
		return 2;
	}
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &l);
	if (wl_display_roundtrip(display) < 0 || !l.compositor || !l.pixels || !l.viewporter ||
	    !l.output)
		return 2;
	if (!l.manager) {
		say(&l, "no-global");
		return 0;
	}
	lock = ext_session_lock_manager_v1_lock(l.manager);
	ext_session_lock_v1_add_listener(lock, &lock_listener, &l);
	l.surface = wl_compositor_create_surface(l.compositor);
	ls = ext_session_lock_v1_get_lock_surface(lock, l.surface, l.output);
	ext_session_lock_surface_v1_add_listener(ls, &surface_listener, &l);
	while (!l.locked && !l.finished && wl_display_dispatch(display) >= 0)
		;
	if (l.finished || !l.locked)
		return l.finished ? 0 : 2;
	if (wl_display_roundtrip(display) >= 0 && l.shown)
		say(&l, "shown");
	return stay ? stay_locked(display, &l, lock, path) : 1;
}
