// SPDX-License-Identifier: MIT
// garnet-rogue toplevels: zwlr_foreign_toplevel_management_v1 from the client side. An ordinary
// client wants every window's title (what the user reads and writes) and to activate a window of
// its own choosing; started as the panel it is the trusted task bar.
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

#define MAX_WINDOWS 64

struct window {
	struct zwlr_foreign_toplevel_handle_v1 *handle;
	char title[256], app_id[256], states[64];
	int outputs;
	bool closed;
	struct window *parent; /* as garnet last said */
};

struct toplevels {
	FILE *log;
	struct wl_seat *seat;
	struct zwlr_foreign_toplevel_manager_v1 *manager;
	struct window windows[MAX_WINDOWS];
	int count;
};

__attribute__((format(printf, 2, 3))) static void say(struct toplevels *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(t->log, fmt, ap);
	va_end(ap);
	fputc('\n', t->log);
	fflush(t->log);
}

static struct toplevels *owner;

static void handle_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *h, const char *title)
{
	struct window *w = data;

	snprintf(w->title, sizeof(w->title), "%s", title);
}

static void handle_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *h, const char *app_id)
{
	struct window *w = data;

	snprintf(w->app_id, sizeof(w->app_id), "%s", app_id);
}

static void handle_output_enter(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
				struct wl_output *output)
{
	((struct window *)data)->outputs++;
}

static void handle_output_leave(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
				struct wl_output *output)
{
	((struct window *)data)->outputs--;
}

static void handle_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
			 struct wl_array *states)
{
	static const char *const names[] = {"maximized", "minimized", "activated", "fullscreen"};
	struct window *w = data;
	uint32_t *s;
	size_t len = 0;

	w->states[0] = '\0';
	wl_array_for_each (s, states) {
		len += (size_t)snprintf(w->states + len, sizeof(w->states) - len, "%s%s",
					len ? "," : "", *s < 4 ? names[*s] : "?");
		if (len >= sizeof(w->states))
			break;
	}
}

static void handle_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct window *w = data;

	say(owner, "window title=%s app_id=%s states=%s outputs=%d", w->title, w->app_id,
	    w->states[0] ? w->states : "-", w->outputs);
	if (w->parent)
		say(owner, "parent child=%s parent=%s", w->title, w->parent->title);
}

static void handle_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *h)
{
	struct window *w = data;

	w->closed = true;
	say(owner, "closed title=%s", w->title);
}

static void handle_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *h,
			  struct zwlr_foreign_toplevel_handle_v1 *parent)
{
	struct window *w = data;

	/* A handle beyond MAX_WINDOWS has no window: no parent the log could name. */
	w->parent = parent ? zwlr_foreign_toplevel_handle_v1_get_user_data(parent) : NULL;
}

static const struct zwlr_foreign_toplevel_handle_v1_listener handle_listener = {
	.title = handle_title,
	.app_id = handle_app_id,
	.output_enter = handle_output_enter,
	.output_leave = handle_output_leave,
	.state = handle_state,
	.done = handle_done,
	.closed = handle_closed,
	.parent = handle_parent,
};

static void manager_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *m,
			     struct zwlr_foreign_toplevel_handle_v1 *handle)
{
	struct toplevels *t = data;
	struct window *w;

	if (t->count == MAX_WINDOWS) {
		zwlr_foreign_toplevel_handle_v1_destroy(handle);
		return;
	}
	w = &t->windows[t->count++];
	w->handle = handle;
	zwlr_foreign_toplevel_handle_v1_add_listener(handle, &handle_listener, w);
}

static void manager_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *m)
{
	struct toplevels *t = data;

	say(t, "finished");
	zwlr_foreign_toplevel_manager_v1_destroy(m);
	t->manager = NULL;
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {
	.toplevel = manager_toplevel,
	.finished = manager_finished,
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct toplevels *t = data;

	if (strcmp(interface, zwlr_foreign_toplevel_manager_v1_interface.name) == 0)
		t->manager = wl_registry_bind(r, name, &zwlr_foreign_toplevel_manager_v1_interface,
					      version < 3 ? version : 3);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !t->seat)
		t->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0)
		wl_registry_bind(r, name, &wl_output_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

/* A line "ACTION TITLE" in the command file: what the task bar asks of that window. */
static void run_command(struct toplevels *t, const char *line)
{
	char action[32], title[256];
	struct window *w = NULL;

	if (sscanf(line, "%31s %255[^\n]", action, title) != 2)
		return;
	for (int i = 0; i < t->count; i++) {
		if (!t->windows[i].closed && strcmp(t->windows[i].title, title) == 0)
			w = &t->windows[i];
	}
	if (!w) {
		say(t, "no-window %s", title);
		return;
	}
	if (strcmp(action, "activate") == 0)
		zwlr_foreign_toplevel_handle_v1_activate(w->handle, t->seat);
	else if (strcmp(action, "close") == 0)
		zwlr_foreign_toplevel_handle_v1_close(w->handle);
	else if (strcmp(action, "minimize") == 0)
		zwlr_foreign_toplevel_handle_v1_set_minimized(w->handle);
	else if (strcmp(action, "maximize") == 0)
		zwlr_foreign_toplevel_handle_v1_set_maximized(w->handle);
	else if (strcmp(action, "fullscreen") == 0)
		zwlr_foreign_toplevel_handle_v1_set_fullscreen(w->handle, NULL);
	else
		return;
	say(t, "asked %s %s", action, title);
}

/* Commands come in FILE.cmd, one line each time the file appears; it is removed once read. */
static void poll_commands(struct toplevels *t, const char *path)
{
	char cmd_path[4096], line[512];
	FILE *f;

	snprintf(cmd_path, sizeof(cmd_path), "%s.cmd", path);
	f = fopen(cmd_path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		run_command(t, line);
	fclose(f);
	unlink(cmd_path);
}

/* toplevels FILE [SECONDS]: binds the manager if it is offered ("no-global" when not), logs
 * "window title=... app_id=... states=... outputs=N" at every done, "closed", "finished";
 * runs SECONDS (default an hour), carrying out the commands written to FILE.cmd. */
int rogue_toplevels(const char *path, int seconds)
{
	struct toplevels t = {0};
	struct wl_display *display;
	struct wl_registry *registry;
	time_t end;

	t.log = fopen(path, "w");
	if (!t.log)
		return 2;
	owner = &t;
	display = rogue_connect();
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &t);
	wl_display_roundtrip(display);
	if (!t.manager) {
		say(&t, "no-global");
		return 1;
	}
	say(&t, "bound");
	zwlr_foreign_toplevel_manager_v1_add_listener(t.manager, &manager_listener, &t);
	end = time(NULL) + seconds;
	while (time(NULL) < end) {
		struct pollfd pfd = {wl_display_get_fd(display), POLLIN, 0};

		poll_commands(&t, path);
		wl_display_flush(display);
		if (poll(&pfd, 1, 100) > 0 && wl_display_dispatch(display) < 0)
			break;
	}
	rogue_report_connection(display, "toplevels");
	fclose(t.log);
	return 0;
}
