// SPDX-License-Identifier: MIT
// garnet-portal's D-Bus side: org.freedesktop.impl.portal.ScreenCast and .Screenshot as
// xdg-desktop-portal 1.16 calls them, on the bus name the garnet.portal file names. Only the
// portal frontend may call them, and the application a request is for is the D-Bus
// connection the frontend names in the request's path (the bus daemon gives its pid); the
// app id the frontend passes goes to garnet as a claim only.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "portal.h"

#define BUS_NAME "org.freedesktop.impl.portal.desktop.garnet"
#define OBJECT_PATH "/org/freedesktop/portal/desktop"
#define FRONTEND_NAME "org.freedesktop.portal.Desktop"
#define REQUEST_PREFIX "/org/freedesktop/portal/desktop/request/"
#define SESSION_PREFIX "/org/freedesktop/portal/desktop/session/"

/* Sessions one application (one pid) holds at once: a call may share a screen and a window,
 * not open thousands, each an object on the bus and a question for garnet. */
#define MAX_SESSIONS_PER_APP 4

#define SOURCE_MONITOR 1
#define SOURCE_WINDOW 2
#define CURSOR_HIDDEN 1
#define CURSOR_EMBEDDED 2
#define CURSOR_METADATA 4

enum response {
	RESPONSE_SUCCESS = 0,
	RESPONSE_CANCELLED = 1,
	RESPONSE_OTHER = 2,
};

struct session {
	struct portal *portal;
	char *path;
	char *app_id;
	pid_t pid;
	uint32_t cursor_mode; /* as SelectSources asked; 0: not said (embedded) */
	sd_bus_slot *slot;
	struct stream *stream;
	sd_bus_message *start; /* the Start call waiting for garnet, or NULL */
	sd_bus_slot *request_slot; /* its Request object */
	struct wl_list link;
};

/* True when m comes from the frontend (the current owner of its well-known name). */
static bool from_frontend(sd_bus_message *m)
{
	sd_bus *bus = sd_bus_message_get_bus(m);
	const char *sender = sd_bus_message_get_sender(m), *owner = NULL;
	sd_bus_creds *creds = NULL;
	bool ok;

	if (!sender ||
	    sd_bus_get_name_creds(bus, FRONTEND_NAME, SD_BUS_CREDS_UNIQUE_NAME, &creds) < 0)
		return false;
	ok = sd_bus_creds_get_unique_name(creds, &owner) >= 0 && owner &&
	     strcmp(owner, sender) == 0;
	sd_bus_creds_unref(creds);
	if (!ok)
		fprintf(stderr,
			"garnet-portal: a call from %s, which is not the portal frontend: "
			"refused\n",
			sender);
	return ok;
}

/* The pid of the connection a request or session path names: PREFIX SENDER / TOKEN, SENDER
 * its unique name without ':' and with '.' made '_'. 0 when it cannot be told. */
static pid_t requester_pid(sd_bus *bus, const char *path, const char *prefix)
{
	char name[256];
	const char *start, *slash;
	sd_bus_creds *creds = NULL;
	pid_t pid = 0;
	size_t len;

	if (strncmp(path, prefix, strlen(prefix)) != 0)
		return 0;
	start = path + strlen(prefix);
	slash = strchr(start, '/');
	len = slash ? (size_t)(slash - start) : strlen(start);
	if (len == 0 || len + 2 > sizeof(name))
		return 0;
	name[0] = ':';
	for (size_t i = 0; i < len; i++)
		name[i + 1] = start[i] == '_' ? '.' : start[i];
	name[len + 1] = '\0';
	if (sd_bus_get_name_creds(bus, name, SD_BUS_CREDS_PID, &creds) >= 0)
		sd_bus_creds_get_pid(creds, &pid);
	sd_bus_creds_unref(creds);
	return pid;
}

static struct session *find_session(struct portal *p, const char *path)
{
	struct session *s;

	wl_list_for_each (s, &p->sessions, link) {
		if (strcmp(s->path, path) == 0)
			return s;
	}
	return NULL;
}

static int sessions_of(struct portal *p, pid_t pid)
{
	struct session *s;
	int n = 0;

	wl_list_for_each (s, &p->sessions, link)
		n += s->pid == pid;
	return n;
}

static int reply_empty(sd_bus_message *m, uint32_t response)
{
	return sd_bus_reply_method_return(m, "ua{sv}", response, 0);
}

static void end_request(struct session *s)
{
	sd_bus_slot_unref(s->request_slot);
	s->request_slot = NULL;
	sd_bus_message_unref(s->start);
	s->start = NULL;
}

static void session_free(struct session *s)
{
	if (s->start) {
		reply_empty(s->start, RESPONSE_CANCELLED);
		end_request(s);
	}
	stream_destroy(s->stream);
	sd_bus_slot_unref(s->slot);
	wl_list_remove(&s->link);
	free(s->path);
	free(s->app_id);
	free(s);
}

void portal_dbus_fini(struct portal *p)
{
	struct session *s, *tmp;

	/* Streams first: theirs are garnet's buffers and PipeWire's nodes, which go before the
	 * connections they live on. */
	wl_list_for_each_safe (s, tmp, &p->sessions, link)
		session_free(s);
}

static int session_close(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct session *s = data;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	session_free(s);
	return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable session_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Close", "", "", session_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_SIGNAL("Closed", "", 0),
	SD_BUS_VTABLE_END,
};

/* The Start request's own object: the frontend closes it when the app gives up waiting. */
static int request_close(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct session *s = data;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	if (s->start) {
		reply_empty(s->start, RESPONSE_CANCELLED);
		end_request(s);
		stream_destroy(s->stream);
		s->stream = NULL;
	}
	return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable request_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Close", "", "", request_close, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

static int create_session(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct portal *p = data;
	const char *handle, *session_handle, *app_id;
	struct session *s;
	int ret;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	ret = sd_bus_message_read(m, "oos", &handle, &session_handle, &app_id);
	if (ret < 0)
		return ret;
	if (find_session(p, session_handle))
		return sd_bus_error_set(error, SD_BUS_ERROR_INVALID_ARGS, "session exists");
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(session_handle)) || !(s->app_id = strdup(app_id))) {
		if (s)
			free(s->path);
		free(s);
		return -ENOMEM;
	}
	s->portal = p;
	s->pid = requester_pid(sd_bus_message_get_bus(m), session_handle, SESSION_PREFIX);
	if (s->pid > 0 && sessions_of(p, s->pid) >= MAX_SESSIONS_PER_APP) {
		fprintf(stderr, "garnet-portal: session %s refused: pid %d holds %d already\n",
			session_handle, (int)s->pid, MAX_SESSIONS_PER_APP);
		free(s->path);
		free(s->app_id);
		free(s);
		return reply_empty(m, RESPONSE_OTHER);
	}
	wl_list_insert(&p->sessions, &s->link);
	ret = sd_bus_add_object_vtable(sd_bus_message_get_bus(m), &s->slot, s->path,
				       "org.freedesktop.impl.portal.Session", session_vtable, s);
	if (ret < 0 || s->pid <= 0) {
		fprintf(stderr, "garnet-portal: session %s: %s\n", session_handle,
			ret < 0 ? strerror(-ret) : "no pid for its application");
		session_free(s);
		return reply_empty(m, RESPONSE_OTHER);
	}
	fprintf(stderr, "garnet-portal: session %s for pid %d app '%s'\n", s->path, (int)s->pid,
		s->app_id);
	return reply_empty(m, RESPONSE_SUCCESS);
}

/* The cursor_mode of SelectSources' options (0 when not given); < 0 on a malformed message. */
static int read_cursor_mode(sd_bus_message *m, uint32_t *mode)
{
	const char *key;
	int ret;

	*mode = 0;
	ret = sd_bus_message_enter_container(m, 'a', "{sv}");
	if (ret < 0)
		return ret;
	while ((ret = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		ret = sd_bus_message_read(m, "s", &key);
		if (ret >= 0 && strcmp(key, "cursor_mode") == 0)
			ret = sd_bus_message_read(m, "v", "u", mode);
		else if (ret >= 0)
			ret = sd_bus_message_skip(m, "v");
		if (ret < 0 || (ret = sd_bus_message_exit_container(m)) < 0)
			return ret;
	}
	return ret < 0 ? ret : sd_bus_message_exit_container(m);
}

static int select_sources(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct portal *p = data;
	const char *handle, *session_handle, *app_id;
	struct session *s;
	uint32_t cursor_mode;
	int ret;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	ret = sd_bus_message_read(m, "oos", &handle, &session_handle, &app_id);
	if (ret < 0 || (ret = read_cursor_mode(m, &cursor_mode)) < 0)
		return ret;
	s = find_session(p, session_handle);
	/* What is shared is chosen in garnet's dialog at Start, not here; how the pointer is
	 * shown is the application's to say. */
	if (!s || (cursor_mode != 0 && cursor_mode != CURSOR_HIDDEN &&
		   cursor_mode != CURSOR_EMBEDDED && cursor_mode != CURSOR_METADATA))
		return reply_empty(m, RESPONSE_OTHER);
	s->cursor_mode = cursor_mode;
	return reply_empty(m, RESPONSE_SUCCESS);
}

static void stream_ready(void *data, uint32_t node_id, int32_t w, int32_t h)
{
	struct session *s = data;
	sd_bus_message *reply = NULL;

	if (!s->start)
		return;
	if (!node_id) {
		reply_empty(s->start, RESPONSE_OTHER);
		end_request(s);
		return;
	}
	fprintf(stderr, "garnet-portal: session %s streams node %u (%dx%d)\n", s->path, node_id, w,
		h);
	if (sd_bus_message_new_method_return(s->start, &reply) < 0 ||
	    sd_bus_message_append(reply, "u", RESPONSE_SUCCESS) < 0 ||
	    sd_bus_message_open_container(reply, 'a', "{sv}") < 0 ||
	    sd_bus_message_open_container(reply, 'e', "sv") < 0 ||
	    sd_bus_message_append(reply, "s", "streams") < 0 ||
	    sd_bus_message_open_container(reply, 'v', "a(ua{sv})") < 0 ||
	    sd_bus_message_open_container(reply, 'a', "(ua{sv})") < 0 ||
	    sd_bus_message_open_container(reply, 'r', "ua{sv}") < 0 ||
	    sd_bus_message_append(reply, "u", node_id) < 0 ||
	    sd_bus_message_append(reply, "a{sv}", 3, "position", "(ii)", 0, 0, "size", "(ii)", w, h,
				  "source_type", "u",
				  stream_is_window(s->stream) ? SOURCE_WINDOW : SOURCE_MONITOR) < 0 ||
	    sd_bus_message_close_container(reply) < 0 ||
	    sd_bus_message_close_container(reply) < 0 ||
	    sd_bus_message_close_container(reply) < 0 ||
	    sd_bus_message_close_container(reply) < 0 ||
	    sd_bus_message_close_container(reply) < 0 || sd_bus_send(NULL, reply, NULL) < 0)
		reply_empty(s->start, RESPONSE_OTHER);
	sd_bus_message_unref(reply);
	end_request(s);
}

static void stream_refused(void *data)
{
	struct session *s = data;

	fprintf(stderr, "garnet-portal: session %s refused by garnet\n", s->path);
	if (s->start) {
		reply_empty(s->start, RESPONSE_CANCELLED);
		end_request(s);
	}
}

/* Stopped by the user: the session closes, and the frontend tells the application. */
static void stream_ended(void *data)
{
	struct session *s = data;

	sd_bus_emit_signal(s->portal->bus, s->path, "org.freedesktop.impl.portal.Session", "Closed",
			   "");
}

static int start(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct portal *p = data;
	const char *handle, *session_handle, *app_id, *parent;
	struct session *s;
	int ret;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	ret = sd_bus_message_read(m, "ooss", &handle, &session_handle, &app_id, &parent);
	if (ret < 0)
		return ret;
	s = find_session(p, session_handle);
	if (!s || s->stream)
		return reply_empty(m, RESPONSE_OTHER);
	s->stream =
		stream_create(p, s->app_id, s->pid,
			      s->cursor_mode == CURSOR_HIDDEN     ? STREAM_POINTER_HIDDEN
			      : s->cursor_mode == CURSOR_METADATA ? STREAM_POINTER_APART
								  : STREAM_POINTER_EMBEDDED,
			      stream_ready, stream_refused, stream_ended, s);
	if (!s->stream)
		return reply_empty(m, RESPONSE_OTHER);
	s->start = sd_bus_message_ref(m);
	sd_bus_add_object_vtable(sd_bus_message_get_bus(m), &s->request_slot, handle,
				 "org.freedesktop.impl.portal.Request", request_vtable, s);
	return 1; /* answered when garnet has */
}

static int property_u32(sd_bus *bus, const char *path, const char *interface, const char *property,
			sd_bus_message *reply, void *data, sd_bus_error *error)
{
	uint32_t value = 0;

	if (strcmp(property, "AvailableSourceTypes") == 0)
		value = SOURCE_MONITOR | SOURCE_WINDOW; /* chosen in garnet's dialog */
	else if (strcmp(property, "AvailableCursorModes") == 0)
		value = CURSOR_HIDDEN | CURSOR_EMBEDDED | CURSOR_METADATA;
	else if (strcmp(property, "version") == 0)
		value = strcmp(interface, "org.freedesktop.impl.portal.Screenshot") == 0 ? 1 : 2;
	return sd_bus_message_append(reply, "u", value);
}

static const sd_bus_vtable screencast_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("CreateSession", "oosa{sv}", "ua{sv}", create_session,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("SelectSources", "oosa{sv}", "ua{sv}", select_sources,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("Start", "oossa{sv}", "ua{sv}", start, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("AvailableSourceTypes", "u", property_u32, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("AvailableCursorModes", "u", property_u32, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("version", "u", property_u32, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

struct shot_call {
	sd_bus_message *call;
};

static void shot_done(void *data, const char *path)
{
	struct shot_call *sc = data;
	char *uri = NULL;

	if (path && asprintf(&uri, "file://%s", path) >= 0)
		sd_bus_reply_method_return(sc->call, "ua{sv}", RESPONSE_SUCCESS, 1, "uri", "s",
					   uri);
	else
		reply_empty(sc->call, path ? RESPONSE_OTHER : RESPONSE_CANCELLED);
	free(uri);
	sd_bus_message_unref(sc->call);
	free(sc);
}

static int screenshot(sd_bus_message *m, void *data, sd_bus_error *error)
{
	struct portal *p = data;
	const char *handle, *app_id, *parent;
	struct shot_call *sc;
	pid_t pid;
	int ret;

	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	ret = sd_bus_message_read(m, "oss", &handle, &app_id, &parent);
	if (ret < 0)
		return ret;
	pid = requester_pid(sd_bus_message_get_bus(m), handle, REQUEST_PREFIX);
	if (pid <= 0 || !(sc = calloc(1, sizeof(*sc))))
		return reply_empty(m, RESPONSE_OTHER);
	sc->call = sd_bus_message_ref(m);
	screenshot_take(p, app_id, pid, shot_done, sc);
	return 1;
}

static int pick_color(sd_bus_message *m, void *data, sd_bus_error *error)
{
	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	return reply_empty(m, RESPONSE_OTHER);
}

/* xdg-desktop-portal 1.16 offers the Screenshot portal only with an Access backend beside it.
 * Access dialogs are other portals' questions in a client's window; garnet asks its own
 * questions, so every one of these is refused. */
static int access_dialog(sd_bus_message *m, void *data, sd_bus_error *error)
{
	if (!from_frontend(m))
		return sd_bus_error_set(error, SD_BUS_ERROR_ACCESS_DENIED, "not the frontend");
	fprintf(stderr, "garnet-portal: an access dialog refused (garnet asks in its own)\n");
	return reply_empty(m, RESPONSE_OTHER);
}

static const sd_bus_vtable access_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("AccessDialog", "osssssa{sv}", "ua{sv}", access_dialog,
		      SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_VTABLE_END,
};

static const sd_bus_vtable screenshot_vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD("Screenshot", "ossa{sv}", "ua{sv}", screenshot, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD("PickColor", "ossa{sv}", "ua{sv}", pick_color, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("version", "u", property_u32, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_VTABLE_END,
};

void portal_dbus_dispatch(struct portal *p)
{
	int ret;

	while ((ret = sd_bus_process(p->bus, NULL)) > 0)
		;
	if (ret < 0) {
		fprintf(stderr, "garnet-portal: the session bus went away: %s\n", strerror(-ret));
		pw_main_loop_quit(p->main_loop);
		return;
	}
	sd_bus_flush(p->bus);
}

static void on_bus(void *data, int fd, uint32_t mask)
{
	portal_dbus_dispatch(data);
}

bool portal_dbus_init(struct portal *p)
{
	int ret;

	ret = sd_bus_open_user(&p->bus);
	if (ret < 0) {
		fprintf(stderr, "garnet-portal: no session bus: %s\n", strerror(-ret));
		return false;
	}
	if (sd_bus_add_object_vtable(p->bus, NULL, OBJECT_PATH,
				     "org.freedesktop.impl.portal.ScreenCast", screencast_vtable,
				     p) < 0 ||
	    sd_bus_add_object_vtable(p->bus, NULL, OBJECT_PATH,
				     "org.freedesktop.impl.portal.Screenshot", screenshot_vtable,
				     p) < 0 ||
	    sd_bus_add_object_vtable(p->bus, NULL, OBJECT_PATH,
				     "org.freedesktop.impl.portal.Access", access_vtable, p) < 0)
		return false;
	ret = sd_bus_request_name(p->bus, BUS_NAME, 0);
	if (ret < 0) {
		fprintf(stderr, "garnet-portal: cannot own %s: %s\n", BUS_NAME, strerror(-ret));
		return false;
	}
	pw_loop_add_io(p->loop, sd_bus_get_fd(p->bus), SPA_IO_IN, false, on_bus, p);
	portal_dbus_dispatch(p);
	fprintf(stderr, "garnet-portal: serving %s\n", BUS_NAME);
	return true;
}
