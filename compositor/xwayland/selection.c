// SPDX-License-Identifier: MIT
// The clipboard and primary selection between one domain's X server and Wayland. An X client's
// selection becomes the seat's (a data source of the domain's Xwayland) only while a window of
// the domain has the keyboard, as a Wayland client's set_selection; the seat's selection
// (a Wayland client's or another domain's) is offered in the domain, and read from it, only
// while the domain has the keyboard. Every transfer is bounded: non-blocking pipes, a size
// cap, a timeout without progress, a few at once; an X client that floods, stalls or vanishes
// loses its transfer and nothing else.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xfixes.h>

#include "../core/data-source.h"
#include "../core/seat.h"
#include "../protocols/primary-selection.h"
#include "selection.h"
#include "x-reply.h"
#include "x-write.h"
#include "xwayland-private.h"

/*
 * Replies the bridge waits for, at most REPLY_WAIT_MS for all those of one step: an X client
 * holding the server grabbed (XGrabServer) stops it answering garnet's window manager, and
 * garnet must go on serving every other client. A reply that does not come in time is
 * discarded and the step fails as if the X client had answered nothing.
 */
#define REPLY_WAIT_MS 1000

/* What one paste may carry, either way: more is cut off. */
#define MAX_TRANSFER (16u << 20)
/* Types taken from an X owner's TARGETS, and offered to an X requestor. */
#define MAX_TARGETS 64
/* Transfers at once per domain and direction; more are refused. */
#define MAX_TRANSFERS 8
/* Data sent in one property: above it, INCR in pieces of this size. */
#define CHUNK (64u << 10)
/* Buffered and not yet passed on: reading pauses above it. */
#define BUFFER_HIGH (1u << 20)
/* A transfer, or an owner's TARGETS, that makes no progress for this long is cut off. */
#define TIMEOUT_MS 5000

enum atom_name {
	A_CLIPBOARD,
	A_PRIMARY,
	A_TARGETS,
	A_INCR,
	A_UTF8_STRING,
	A_TEXT,
	A_GARNET_SELECTION,
	A_GARNET_TARGETS,
	A_COUNT,
};

static const char *const atom_names[A_COUNT] = {
	[A_CLIPBOARD] = "CLIPBOARD",
	[A_PRIMARY] = "PRIMARY",
	[A_TARGETS] = "TARGETS",
	[A_INCR] = "INCR",
	[A_UTF8_STRING] = "UTF8_STRING",
	[A_TEXT] = "TEXT",
	[A_GARNET_SELECTION] = "_GARNET_SELECTION",
	[A_GARNET_TARGETS] = "_GARNET_TARGETS",
};

struct x_source;

/* One X selection, CLIPBOARD or PRIMARY. */
struct selection {
	struct xwm_selections *sel;
	enum garnet_selection_kind kind;
	xcb_atom_t atom;
	bool owned; /* garnet's window owns it in X, for the seat's selection */
	bool asking_targets;
	struct wl_event_source *targets_timer;
	struct x_source *source; /* the X owner's selection, as the seat's */
};

/* An X client's selection offered to Wayland: each read asks the X owner anew. */
struct x_source {
	struct garnet_data_source base;
	struct selection *selection; /* NULL once the seat dropped it */
	struct wl_array atoms; /* xcb_atom_t, one per mime type */
	struct wl_list link; /* xwm_selections.dying, once dropped */
	struct wl_event_source *idle;
};

struct transfer {
	struct xwm_selections *sel;
	struct wl_list link;
	struct selection *selection;
	bool outgoing; /* Wayland to X */
	int fd; /* the pipe: written (incoming) or read (outgoing) */
	struct wl_event_source *fd_source, *timer;
	char *buffer;
	size_t start, end, capacity;
	size_t total;
	bool incr, done;
	/* incoming: our requestor window, and an INCR piece not read yet */
	xcb_window_t window;
	bool piece_waiting;
	/* outgoing: the X client's request */
	xcb_window_t requestor;
	xcb_atom_t property, target;
	xcb_timestamp_t time; /* the request's: Xt's requestors match their answers by it */
	bool notified; /* SelectionNotify sent: the data goes as INCR */
	bool piece_pending; /* a piece waits for the requestor to delete it */
};

struct xwm_selections {
	struct garnet_xwayland_domain *domain;
	struct garnet_compositor *compositor;
	xcb_connection_t *conn;
	xcb_screen_t *screen;
	xcb_window_t window;
	uint8_t xfixes_event;
	xcb_atom_t atoms[A_COUNT];
	struct selection clipboard, primary;
	struct wl_list transfers; /* transfer.link */
	int incoming, outgoing;
	struct wl_list dying; /* x_source.link */
	struct wl_listener focus;
	bool focused;
};

static void *reply_by(struct xwm_selections *sel, unsigned int sequence, int64_t deadline)
{
	/* Events read with the reply wait in xcb, and the socket will not say so. */
	if (sel->domain->xwm)
		xwm_take_queued_events_soon(sel->domain->xwm);
	return xwl_reply_by(sel->conn, sequence, deadline);
}

static void *reply_within(struct xwm_selections *sel, unsigned int sequence)
{
	return reply_by(sel, sequence, xwl_now_ms() + REPLY_WAIT_MS);
}

static const char *kind_name(enum garnet_selection_kind kind)
{
	return kind == GARNET_SELECTION_PRIMARY ? "primary selection" : "clipboard";
}

static struct garnet_seat *seat_of(struct xwm_selections *sel)
{
	return sel->compositor->seat;
}

static struct garnet_data_source *seat_source(struct selection *s)
{
	struct garnet_seat *seat = seat_of(s->sel);

	return s->kind == GARNET_SELECTION_PRIMARY ? seat->primary_selection : seat->selection;
}

static void seat_set_source(struct selection *s, struct garnet_data_source *source)
{
	if (s->kind == GARNET_SELECTION_PRIMARY)
		garnet_seat_set_primary_selection(seat_of(s->sel), source);
	else
		garnet_seat_set_selection(seat_of(s->sel), source);
}

static struct selection *selection_of_atom(struct xwm_selections *sel, xcb_atom_t atom)
{
	if (atom == sel->clipboard.atom)
		return &sel->clipboard;
	if (atom == sel->primary.atom)
		return &sel->primary;
	return NULL;
}

static void flush(struct xwm_selections *sel)
{
	xwl_flush(sel->conn);
}

/* ---- buffers ---- */

static size_t buffered(struct transfer *t)
{
	return t->end - t->start;
}

static bool buffer_append(struct transfer *t, const void *data, size_t len)
{
	if (t->start > 0 && t->start == t->end)
		t->start = t->end = 0;
	if (t->end + len > t->capacity) {
		size_t want = t->end - t->start + len;
		char *b;

		if (t->start > 0) {
			memmove(t->buffer, t->buffer + t->start, t->end - t->start);
			t->end -= t->start;
			t->start = 0;
		}
		if (want > t->capacity) {
			b = realloc(t->buffer, want);
			if (!b)
				return false;
			t->buffer = b;
			t->capacity = want;
		}
	}
	memcpy(t->buffer + t->end, data, len);
	t->end += len;
	return true;
}

/* ---- transfers ---- */

static void transfer_destroy(struct transfer *t)
{
	if (t->fd_source)
		wl_event_source_remove(t->fd_source);
	if (t->timer)
		wl_event_source_remove(t->timer);
	if (t->fd >= 0)
		close(t->fd);
	if (t->window)
		xcb_destroy_window(t->sel->conn, t->window);
	if (t->outgoing)
		t->sel->outgoing--;
	else
		t->sel->incoming--;
	wl_list_remove(&t->link);
	free(t->buffer);
	free(t);
}

static void transfer_cut(struct transfer *t, const char *why)
{
	garnet_log(t->sel->compositor, GARNET_LOG_WARNING, "xwayland",
		   "domain %s: a %s transfer %s X was cut off: %s", t->sel->domain->name,
		   kind_name(t->selection->kind), t->outgoing ? "to" : "from", why);
	transfer_destroy(t);
}

static void transfer_progress(struct transfer *t)
{
	wl_event_source_timer_update(t->timer, TIMEOUT_MS);
}

static int transfer_timeout(void *data)
{
	struct transfer *t = data;

	if (t->outgoing && !t->notified) {
		/* The requestor still waits for an answer: it is told there is none. */
		xcb_selection_notify_event_t ev = {
			.response_type = XCB_SELECTION_NOTIFY,
			.time = t->time,
			.requestor = t->requestor,
			.selection = t->selection->atom,
			.target = t->target,
			.property = XCB_ATOM_NONE,
		};

		xcb_send_event(t->sel->conn, 0, t->requestor, XCB_EVENT_MASK_NO_EVENT,
			       (const char *)&ev);
		flush(t->sel);
	}
	transfer_cut(t, "no progress for 5 s");
	return 0;
}

static struct transfer *transfer_create(struct xwm_selections *sel, struct selection *s,
					bool outgoing, int fd)
{
	struct transfer *t = calloc(1, sizeof(*t));

	if (!t) {
		close(fd);
		return NULL;
	}
	t->sel = sel;
	t->selection = s;
	t->outgoing = outgoing;
	t->fd = fd;
	if (outgoing)
		sel->outgoing++;
	else
		sel->incoming++;
	wl_list_insert(&sel->transfers, &t->link);
	t->timer = wl_event_loop_add_timer(sel->compositor->loop, transfer_timeout, t);
	if (!t->timer) {
		transfer_destroy(t);
		return NULL;
	}
	transfer_progress(t);
	return t;
}

/* ---- from X to Wayland: an X client's selection read by a Wayland client ---- */

static void incoming_read_piece(struct transfer *t);

static int incoming_writable(int fd, uint32_t mask, void *data)
{
	struct transfer *t = data;

	while (buffered(t) > 0) {
		ssize_t n = write(fd, t->buffer + t->start, buffered(t));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			/* The reader went: nothing more to do. */
			transfer_destroy(t);
			return 0;
		}
		t->start += (size_t)n;
		transfer_progress(t);
	}
	if (t->done) {
		transfer_destroy(t);
		return 0;
	}
	wl_event_source_fd_update(t->fd_source, 0);
	if (t->piece_waiting)
		incoming_read_piece(t);
	return 0;
}

static void incoming_write(struct transfer *t)
{
	if (buffered(t) > 0 || t->done)
		wl_event_source_fd_update(t->fd_source, WL_EVENT_WRITABLE);
}

/* Reads (and deletes, which asks an INCR owner for the next piece) what the owner put in our
 * property. */
static void incoming_read_piece(struct transfer *t)
{
	struct xwm_selections *sel = t->sel;
	size_t room = MAX_TRANSFER - t->total;
	xcb_get_property_reply_t *reply = reply_within(
		sel, xcb_get_property(sel->conn, 1, t->window, sel->atoms[A_GARNET_SELECTION],
					    XCB_GET_PROPERTY_TYPE_ANY, 0, (uint32_t)(room / 4 + 1))
				   .sequence);
	size_t len;

	t->piece_waiting = false;
	if (!reply) {
		transfer_cut(t, "the property cannot be read");
		return;
	}
	if (!t->incr && reply->type == sel->atoms[A_INCR]) {
		/* The owner sends pieces as we delete them: the first comes now. */
		t->incr = true;
		free(reply);
		flush(sel);
		return;
	}
	len = (size_t)xcb_get_property_value_length(reply);
	if (len > room || reply->bytes_after > 0) {
		free(reply);
		transfer_cut(t, "more than 16 MiB");
		return;
	}
	if (len > 0 && !buffer_append(t, xcb_get_property_value(reply), len)) {
		free(reply);
		transfer_cut(t, "out of memory");
		return;
	}
	t->total += len;
	if (!t->incr || len == 0)
		t->done = true;
	free(reply);
	flush(sel);
	transfer_progress(t);
	incoming_write(t);
}

static void incoming_notify(struct transfer *t, xcb_selection_notify_event_t *ev)
{
	if (ev->property == XCB_ATOM_NONE) {
		/* The owner refused: the reader gets nothing. */
		transfer_destroy(t);
		return;
	}
	incoming_read_piece(t);
}

static void incoming_property(struct transfer *t, xcb_property_notify_event_t *ev)
{
	if (!t->incr || ev->state != XCB_PROPERTY_NEW_VALUE)
		return;
	if (buffered(t) >= BUFFER_HIGH)
		t->piece_waiting = true; /* read when the reader caught up */
	else
		incoming_read_piece(t);
}

static xcb_atom_t source_atom(struct x_source *src, const char *mime)
{
	xcb_atom_t *atom = src->atoms.data;
	char **m;

	wl_array_for_each(m, &src->base.mime_types) {
		if (strcmp(*m, mime) == 0)
			return *atom;
		atom++;
	}
	return XCB_ATOM_NONE;
}

/* A Wayland client reads the X selection (the security hook let it): the X owner is asked
 * for the type, into a window of our own, and what it gives goes into fd. */
static void x_source_send(struct garnet_data_source *base, const char *mime, int32_t fd)
{
	struct x_source *src = wl_container_of(base, src, base);
	struct selection *s = src->selection;
	struct xwm_selections *sel = s ? s->sel : NULL;
	xcb_atom_t target = s ? source_atom(src, mime) : XCB_ATOM_NONE;
	struct transfer *t;
	int own;

	if (!s || target == XCB_ATOM_NONE)
		return;
	if (sel->incoming >= MAX_TRANSFERS) {
		garnet_log(sel->compositor, GARNET_LOG_WARNING, "xwayland",
			   "domain %s: too many reads of the %s at once; one refused",
			   sel->domain->name, kind_name(s->kind));
		return;
	}
	own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (own < 0 || fcntl(own, F_SETFL, O_NONBLOCK) < 0) {
		if (own >= 0)
			close(own);
		return;
	}
	t = transfer_create(sel, s, false, own);
	if (!t)
		return;
	t->fd_source = wl_event_loop_add_fd(sel->compositor->loop, own, 0, incoming_writable, t);
	if (!t->fd_source) {
		transfer_destroy(t);
		return;
	}
	t->window = xcb_generate_id(sel->conn);
	xcb_create_window(sel->conn, XCB_COPY_FROM_PARENT, t->window, sel->screen->root, -10, -10,
			  1, 1, 0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
			  XCB_CW_EVENT_MASK, (uint32_t[]){XCB_EVENT_MASK_PROPERTY_CHANGE});
	xcb_convert_selection(sel->conn, t->window, s->atom, target,
			      sel->atoms[A_GARNET_SELECTION], XCB_CURRENT_TIME);
	flush(sel);
}

static void dying_destroy(struct x_source *src)
{
	wl_list_remove(&src->link);
	if (src->idle)
		wl_event_source_remove(src->idle);
	garnet_data_source_finish(&src->base);
	wl_array_release(&src->atoms);
	free(src);
}

static void dying_idle(void *data)
{
	struct x_source *src = data;

	src->idle = NULL;
	dying_destroy(src);
}

/* The seat dropped it (another selection came): it goes once the seat is done with it. */
static void x_source_cancel(struct garnet_data_source *base)
{
	struct x_source *src = wl_container_of(base, src, base);
	struct xwm_selections *sel;

	if (!src->selection)
		return;
	sel = src->selection->sel;
	src->selection->source = NULL;
	src->selection = NULL;
	wl_list_insert(&sel->dying, &src->link);
	src->idle = wl_event_loop_add_idle(sel->compositor->loop, dying_idle, src);
}

static const struct garnet_data_source_impl x_source_impl = {
	.send = x_source_send,
	.cancel = x_source_cancel,
};

static bool has_mime(struct x_source *src, const char *mime)
{
	char **m;

	wl_array_for_each(m, &src->base.mime_types) {
		if (strcmp(*m, mime) == 0)
			return true;
	}
	return false;
}

static void add_type(struct x_source *src, const char *mime, xcb_atom_t atom)
{
	xcb_atom_t *slot;

	if (has_mime(src, mime))
		return;
	slot = wl_array_add(&src->atoms, sizeof(*slot));
	if (!slot)
		return;
	*slot = atom;
	if (!garnet_data_source_add_mime(&src->base, mime))
		src->atoms.size -= sizeof(*slot);
}

/* Wayland names types by mime type; X by atoms, where text has its own names. */
static void add_target(struct x_source *src, const char *name, xcb_atom_t atom, bool utf8)
{
	if (strcmp(name, "UTF8_STRING") == 0) {
		add_type(src, "text/plain;charset=utf-8", atom);
		add_type(src, "text/plain", atom);
	} else if (!utf8 && (strcmp(name, "STRING") == 0 || strcmp(name, "TEXT") == 0)) {
		add_type(src, "text/plain", atom);
	} else if (strchr(name, '/')) {
		add_type(src, name, atom);
	}
}

static void drop_source(struct selection *s)
{
	if (s->source)
		seat_set_source(s, NULL); /* cancels it */
}

/* The owner's TARGETS arrived: its selection becomes the seat's if the domain still has the
 * keyboard. */
static void targets_arrived(struct selection *s, xcb_selection_notify_event_t *ev)
{
	struct xwm_selections *sel = s->sel;
	xcb_get_property_reply_t *reply;
	xcb_get_atom_name_cookie_t cookies[MAX_TARGETS];
	int64_t deadline;
	xcb_atom_t *atoms;
	struct x_source *src;
	bool utf8 = false;
	int n;

	s->asking_targets = false;
	wl_event_source_timer_update(s->targets_timer, 0);
	if (ev->property == XCB_ATOM_NONE)
		return;
	reply = reply_within(sel,
			     xcb_get_property(sel->conn, 1, sel->window, sel->atoms[A_GARNET_TARGETS],
					      XCB_ATOM_ATOM, 0, MAX_TARGETS)
				     .sequence);
	if (!reply)
		return;
	if (reply->bytes_after > 0)
		garnet_log(sel->compositor, GARNET_LOG_WARNING, "xwayland",
			   "domain %s: an X %s offers over %d types; the first taken",
			   sel->domain->name, kind_name(s->kind), MAX_TARGETS);
	n = reply->type == XCB_ATOM_ATOM && reply->format == 32
		    ? xcb_get_property_value_length(reply) / 4
		    : 0;
	if (n > MAX_TARGETS)
		n = MAX_TARGETS;
	atoms = xcb_get_property_value(reply);
	if (!sel->focused || n == 0) {
		free(reply);
		return;
	}
	src = calloc(1, sizeof(*src));
	if (!src) {
		free(reply);
		return;
	}
	garnet_data_source_init(&src->base, &x_source_impl, NULL);
	src->base.client = sel->domain->client;
	wl_array_init(&src->atoms);
	wl_list_init(&src->link);
	for (int i = 0; i < n; i++) {
		cookies[i] = xcb_get_atom_name(sel->conn, atoms[i]);
		utf8 |= atoms[i] == sel->atoms[A_UTF8_STRING];
	}
	deadline = xwl_now_ms() + REPLY_WAIT_MS;
	for (int i = 0; i < n; i++) {
		xcb_get_atom_name_reply_t *name = reply_by(sel, cookies[i].sequence, deadline);
		char buf[256];
		int len;

		if (!name)
			continue;
		len = xcb_get_atom_name_name_length(name);
		if (len > 0 && (size_t)len < sizeof(buf)) {
			memcpy(buf, xcb_get_atom_name_name(name), (size_t)len);
			buf[len] = '\0';
			add_target(src, buf, atoms[i], utf8);
		}
		free(name);
	}
	free(reply);
	if (src->atoms.size == 0) {
		garnet_data_source_finish(&src->base);
		wl_array_release(&src->atoms);
		free(src);
		return;
	}
	src->selection = s;
	s->source = src;
	garnet_log(sel->compositor, GARNET_LOG_DEBUG, "xwayland",
		   "domain %s: the X %s goes to Wayland (%zu types)", sel->domain->name,
		   kind_name(s->kind), src->atoms.size / sizeof(xcb_atom_t));
	seat_set_source(s, &src->base);
}

static int targets_timeout(void *data)
{
	struct selection *s = data;

	s->asking_targets = false;
	garnet_log(s->sel->compositor, GARNET_LOG_WARNING, "xwayland",
		   "domain %s: the X owner of the %s did not say its types in 5 s",
		   s->sel->domain->name, kind_name(s->kind));
	return 0;
}

/* X says who owns the selection now (XFixes). */
static void owner_changed(struct selection *s, xcb_xfixes_selection_notify_event_t *ev)
{
	struct xwm_selections *sel = s->sel;
	struct transfer *t, *tmp;

	if (ev->owner == sel->window)
		return;
	s->owned = false;
	/* Reads in progress asked the owner that was; a new owner answers only new reads. */
	wl_list_for_each_safe (t, tmp, &sel->transfers, link) {
		if (!t->outgoing && t->selection == s)
			transfer_destroy(t);
	}
	drop_source(s);
	if (ev->owner == XCB_NONE)
		return;
	/* Wayland's rule: only the client with the keyboard sets the selection. An X client
	 * taking the selection while its domain has not the keyboard keeps it in its domain. */
	if (!sel->focused) {
		garnet_log(sel->compositor, GARNET_LOG_INFO, "security",
			   "domain %s: an X %s set without the keyboard stays in the domain",
			   sel->domain->name, kind_name(s->kind));
		return;
	}
	xcb_convert_selection(sel->conn, sel->window, s->atom, sel->atoms[A_TARGETS],
			      sel->atoms[A_GARNET_TARGETS], ev->selection_timestamp);
	s->asking_targets = true;
	wl_event_source_timer_update(s->targets_timer, TIMEOUT_MS);
	flush(sel);
}

/* ---- from Wayland to X: the seat's selection read by an X client ---- */

static void send_notify(struct xwm_selections *sel, xcb_selection_request_event_t *req,
			xcb_atom_t property)
{
	xcb_selection_notify_event_t ev = {
		.response_type = XCB_SELECTION_NOTIFY,
		.time = req->time,
		.requestor = req->requestor,
		.selection = req->selection,
		.target = req->target,
		.property = property,
	};

	xcb_send_event(sel->conn, 0, req->requestor, XCB_EVENT_MASK_NO_EVENT, (const char *)&ev);
	flush(sel);
}

static bool is_text(const char *mime)
{
	return strncmp(mime, "text/plain", 10) == 0 || strcmp(mime, "UTF8_STRING") == 0 ||
	       strcmp(mime, "STRING") == 0 || strcmp(mime, "TEXT") == 0;
}

static void send_targets(struct xwm_selections *sel, struct garnet_data_source *source,
			 xcb_selection_request_event_t *req, xcb_atom_t property)
{
	xcb_intern_atom_cookie_t cookies[MAX_TARGETS];
	int64_t deadline;
	xcb_atom_t atoms[MAX_TARGETS + 4];
	bool text = false;
	int n = 0, asked = 0;
	char **m;

	atoms[n++] = sel->atoms[A_TARGETS];
	wl_array_for_each(m, &source->mime_types) {
		text |= is_text(*m);
		if (asked < MAX_TARGETS && strchr(*m, '/'))
			cookies[asked++] = xcb_intern_atom(sel->conn, 0, (uint16_t)strnlen(*m, 255), *m);
	}
	if (text) {
		atoms[n++] = sel->atoms[A_UTF8_STRING];
		atoms[n++] = XCB_ATOM_STRING;
		atoms[n++] = sel->atoms[A_TEXT];
	}
	deadline = xwl_now_ms() + REPLY_WAIT_MS;
	for (int i = 0; i < asked; i++) {
		xcb_intern_atom_reply_t *reply = reply_by(sel, cookies[i].sequence, deadline);

		if (reply)
			atoms[n++] = reply->atom;
		free(reply);
	}
	xcb_change_property(sel->conn, XCB_PROP_MODE_REPLACE, req->requestor, property,
			    XCB_ATOM_ATOM, 32, (uint32_t)n, atoms);
	send_notify(sel, req, property);
}

/* The mime type an X target asks for, of those source offers; NULL if none. */
static char *mime_for_target(struct xwm_selections *sel, struct garnet_data_source *source,
			     xcb_atom_t target)
{
	static const char *const text[] = {"text/plain;charset=utf-8", "text/plain",
					   "UTF8_STRING", "STRING", "TEXT"};
	xcb_get_atom_name_reply_t *reply;
	char *name = NULL;
	char **m;

	if (target == sel->atoms[A_UTF8_STRING] || target == XCB_ATOM_STRING ||
	    target == sel->atoms[A_TEXT]) {
		for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
			wl_array_for_each(m, &source->mime_types) {
				if (strcmp(*m, text[i]) == 0)
					return strdup(*m);
			}
		}
		return NULL;
	}
	reply = reply_within(sel, xcb_get_atom_name(sel->conn, target).sequence);
	if (!reply)
		return NULL;
	wl_array_for_each(m, &source->mime_types) {
		if ((size_t)xcb_get_atom_name_name_length(reply) == strlen(*m) &&
		    memcmp(xcb_get_atom_name_name(reply), *m, strlen(*m)) == 0) {
			name = strdup(*m);
			break;
		}
	}
	free(reply);
	return name;
}

static void outgoing_put_piece(struct transfer *t)
{
	struct xwm_selections *sel = t->sel;
	size_t len = buffered(t) < CHUNK ? buffered(t) : CHUNK;

	if (t->piece_pending || (len == 0 && !t->done))
		return;
	/* A piece is larger than xcb's buffer: it is written at once. */
	xwl_write_begin(sel->conn);
	xcb_change_property(sel->conn, XCB_PROP_MODE_REPLACE, t->requestor, t->property,
			    t->target, 8, (uint32_t)len, t->buffer + t->start);
	xwl_write_end();
	t->start += len;
	t->piece_pending = true;
	transfer_progress(t);
	flush(sel);
	if (len == 0) {
		/* The empty piece ends an INCR transfer. */
		transfer_destroy(t);
		return;
	}
	if (!t->done && buffered(t) < BUFFER_HIGH)
		wl_event_source_fd_update(t->fd_source, WL_EVENT_READABLE);
}

/* Enough data for more than one property: the requestor gets INCR and takes pieces. */
static void outgoing_start_incr(struct transfer *t)
{
	struct xwm_selections *sel = t->sel;
	xcb_get_window_attributes_reply_t *attrs =
		reply_within(sel, xcb_get_window_attributes(sel->conn, t->requestor).sequence);
	uint32_t size = (uint32_t)buffered(t);
	xcb_selection_request_event_t req = {
		.time = t->time,
		.requestor = t->requestor,
		.selection = t->selection->atom,
		.target = t->target,
	};

	if (!attrs) {
		transfer_destroy(t); /* the requestor is gone */
		return;
	}
	/* Our mask on the requestor, with deletions heard; the window manager's own mask on a
	 * managed window is kept. */
	xcb_change_window_attributes(sel->conn, t->requestor, XCB_CW_EVENT_MASK,
				     (uint32_t[]){attrs->your_event_mask |
						  XCB_EVENT_MASK_PROPERTY_CHANGE});
	free(attrs);
	xcb_change_property(sel->conn, XCB_PROP_MODE_REPLACE, t->requestor, t->property,
			    sel->atoms[A_INCR], 32, 1, &size);
	t->notified = true;
	t->incr = true;
	t->piece_pending = true; /* the INCR property itself */
	send_notify(sel, &req, t->property);
}

static void outgoing_finish(struct transfer *t)
{
	struct xwm_selections *sel = t->sel;
	xcb_selection_request_event_t req = {
		.time = t->time,
		.requestor = t->requestor,
		.selection = t->selection->atom,
		.target = t->target,
	};

	if (t->incr) {
		outgoing_put_piece(t);
		return;
	}
	xwl_write_begin(sel->conn);
	xcb_change_property(sel->conn, XCB_PROP_MODE_REPLACE, t->requestor, t->property,
			    t->target, 8, (uint32_t)buffered(t), t->buffer + t->start);
	xwl_write_end();
	send_notify(sel, &req, t->property);
	transfer_destroy(t);
}

static int outgoing_readable(int fd, uint32_t mask, void *data)
{
	struct transfer *t = data;
	char buf[CHUNK];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			t->done = true;
			wl_event_source_fd_update(t->fd_source, 0);
			break;
		}
		if (t->total + (size_t)n > MAX_TRANSFER) {
			/* An endless source: the requestor gets what fits, as a whole paste. */
			garnet_log(t->sel->compositor, GARNET_LOG_WARNING, "xwayland",
				   "domain %s: a %s read by X was cut at 16 MiB",
				   t->sel->domain->name, kind_name(t->selection->kind));
			n = (ssize_t)(MAX_TRANSFER - t->total);
			t->done = true;
			wl_event_source_fd_update(t->fd_source, 0);
		}
		if (n > 0 && !buffer_append(t, buf, (size_t)n)) {
			transfer_cut(t, "out of memory");
			return 0;
		}
		t->total += (size_t)n;
		transfer_progress(t);
		if (t->done)
			break;
		if (buffered(t) >= BUFFER_HIGH) {
			wl_event_source_fd_update(t->fd_source, 0);
			break;
		}
	}
	if (t->done) {
		if (!t->incr && buffered(t) > CHUNK)
			outgoing_start_incr(t);
		else
			outgoing_finish(t);
		return 0;
	}
	if (!t->incr && buffered(t) > CHUNK)
		outgoing_start_incr(t);
	else if (t->incr)
		outgoing_put_piece(t);
	return 0;
}

static void outgoing_property(struct transfer *t, xcb_property_notify_event_t *ev)
{
	if (ev->state != XCB_PROPERTY_DELETE || !t->piece_pending)
		return;
	t->piece_pending = false;
	transfer_progress(t);
	outgoing_put_piece(t);
}

static void refuse(struct xwm_selections *sel, xcb_selection_request_event_t *req)
{
	send_notify(sel, req, XCB_ATOM_NONE);
}

static void handle_request(struct xwm_selections *sel, xcb_selection_request_event_t *req)
{
	struct selection *s = selection_of_atom(sel, req->selection);
	struct garnet_data_source *source = s ? seat_source(s) : NULL;
	xcb_atom_t property = req->property ? req->property : req->target;
	struct transfer *t;
	char *mime;
	int fds[2];

	garnet_log(sel->compositor, GARNET_LOG_DEBUG, "xwayland",
		   "domain %s: window 0x%x asks for a selection (target %u)", sel->domain->name,
		   req->requestor, req->target);
	if (!s || !s->owned || !source || source->client == sel->domain->client) {
		refuse(sel, req);
		return;
	}
	/* The same rule as for a Wayland client: the seat's selection is read only while the
	 * domain has the keyboard, whatever it was offered before. */
	if (!sel->focused) {
		garnet_log(sel->compositor, GARNET_LOG_INFO, "security",
			   "denied: an X client of domain %s may not read the %s without the "
			   "keyboard",
			   sel->domain->name, kind_name(s->kind));
		refuse(sel, req);
		return;
	}
	if (req->target == sel->atoms[A_TARGETS]) {
		send_targets(sel, source, req, property);
		return;
	}
	mime = mime_for_target(sel, source, req->target);
	if (!mime || sel->outgoing >= MAX_TRANSFERS ||
	    pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0) {
		if (mime)
			garnet_log(sel->compositor, GARNET_LOG_WARNING, "xwayland",
				   "domain %s: a read of the %s refused (too many at once)",
				   sel->domain->name, kind_name(s->kind));
		free(mime);
		refuse(sel, req);
		return;
	}
	t = transfer_create(sel, s, true, fds[0]);
	if (!t) {
		close(fds[1]);
		free(mime);
		refuse(sel, req);
		return;
	}
	t->requestor = req->requestor;
	t->property = property;
	t->target = req->target;
	t->time = req->time;
	t->fd_source = wl_event_loop_add_fd(sel->compositor->loop, fds[0], WL_EVENT_READABLE,
					    outgoing_readable, t);
	if (!t->fd_source) {
		close(fds[1]);
		free(mime);
		transfer_destroy(t);
		refuse(sel, req);
		return;
	}
	garnet_data_source_read(seat_of(sel), source, sel->domain->client, s->kind, mime, fds[1]);
	free(mime);
}

/* The domain got the keyboard: the seat's selections, if not its own, are offered in it. */
static void offer_to_x(struct selection *s)
{
	struct xwm_selections *sel = s->sel;
	struct garnet_data_source *source = seat_source(s);

	if (!source || source->client == sel->domain->client || s->asking_targets)
		return;
	xcb_set_selection_owner(sel->conn, sel->window, s->atom, XCB_CURRENT_TIME);
	s->owned = true;
}

static void focus_changed(struct wl_listener *listener, void *data)
{
	struct xwm_selections *sel = wl_container_of(listener, sel, focus);
	bool focused = garnet_seat_selection_client(seat_of(sel)) == sel->domain->client;

	(void)data;
	if (focused == sel->focused)
		return;
	sel->focused = focused;
	if (!focused)
		return;
	offer_to_x(&sel->clipboard);
	offer_to_x(&sel->primary);
	flush(sel);
}

/* ---- events ---- */

static struct transfer *incoming_of_window(struct xwm_selections *sel, xcb_window_t window)
{
	struct transfer *t;

	wl_list_for_each (t, &sel->transfers, link) {
		if (!t->outgoing && t->window == window)
			return t;
	}
	return NULL;
}

static struct transfer *outgoing_of(struct xwm_selections *sel, xcb_window_t requestor,
				    xcb_atom_t property)
{
	struct transfer *t;

	wl_list_for_each (t, &sel->transfers, link) {
		if (t->outgoing && t->notified && t->requestor == requestor &&
		    t->property == property)
			return t;
	}
	return NULL;
}

bool xwm_selections_handle_event(struct xwm_selections *sel, xcb_generic_event_t *ev)
{
	uint8_t type = ev->response_type & ~0x80;
	struct transfer *t;

	if (!sel)
		return false;
	if (type == sel->xfixes_event + XCB_XFIXES_SELECTION_NOTIFY) {
		xcb_xfixes_selection_notify_event_t *xf = (void *)ev;
		struct selection *s = selection_of_atom(sel, xf->selection);

		if (s)
			owner_changed(s, xf);
		return true;
	}
	switch (type) {
	case XCB_SELECTION_NOTIFY: {
		xcb_selection_notify_event_t *n = (void *)ev;
		struct selection *s = selection_of_atom(sel, n->selection);

		if (n->requestor == sel->window && s && s->asking_targets)
			targets_arrived(s, n);
		else if ((t = incoming_of_window(sel, n->requestor)))
			incoming_notify(t, n);
		return true;
	}
	case XCB_SELECTION_REQUEST:
		handle_request(sel, (xcb_selection_request_event_t *)ev);
		return true;
	case XCB_SELECTION_CLEAR: {
		struct selection *s =
			selection_of_atom(sel, ((xcb_selection_clear_event_t *)ev)->selection);

		if (s)
			s->owned = false;
		return true;
	}
	case XCB_PROPERTY_NOTIFY: {
		xcb_property_notify_event_t *p = (void *)ev;

		if (p->atom == sel->atoms[A_GARNET_SELECTION] &&
		    (t = incoming_of_window(sel, p->window))) {
			incoming_property(t, p);
			return true;
		}
		if ((t = outgoing_of(sel, p->window, p->atom))) {
			outgoing_property(t, p);
			return true;
		}
		return p->window == sel->window;
	}
	default:
		return false;
	}
}

/* ---- setup ---- */

static bool intern_atoms(struct xwm_selections *sel)
{
	xcb_intern_atom_cookie_t cookies[A_COUNT];

	for (int i = 0; i < A_COUNT; i++)
		cookies[i] = xcb_intern_atom(sel->conn, 0, (uint16_t)strlen(atom_names[i]),
					     atom_names[i]);
	if (!xwl_replies_arrived(sel->conn, XWL_SETUP_WAIT_MS))
		return false;
	for (int i = 0; i < A_COUNT; i++) {
		xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(sel->conn, cookies[i], NULL);

		if (!reply)
			return false;
		sel->atoms[i] = reply->atom;
		free(reply);
	}
	return true;
}

static bool selection_init(struct xwm_selections *sel, struct selection *s,
			   enum garnet_selection_kind kind, xcb_atom_t atom)
{
	s->sel = sel;
	s->kind = kind;
	s->atom = atom;
	s->targets_timer = wl_event_loop_add_timer(sel->compositor->loop, targets_timeout, s);
	if (!s->targets_timer)
		return false;
	xcb_xfixes_select_selection_input(
		sel->conn, sel->window, atom,
		XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER |
			XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_WINDOW_DESTROY |
			XCB_XFIXES_SELECTION_EVENT_MASK_SELECTION_CLIENT_CLOSE);
	return true;
}

static void selection_finish(struct selection *s)
{
	drop_source(s);
	if (s->targets_timer)
		wl_event_source_remove(s->targets_timer);
}

struct xwm_selections *xwm_selections_create(struct garnet_xwayland_domain *d,
					     xcb_connection_t *conn, xcb_screen_t *screen)
{
	struct garnet_compositor *c = d->xwl->compositor;
	struct xwm_selections *sel = calloc(1, sizeof(*sel));
	const xcb_query_extension_reply_t *xfixes;
	xcb_xfixes_query_version_reply_t *version;

	if (!sel)
		return NULL;
	sel->domain = d;
	sel->compositor = c;
	sel->conn = conn;
	sel->screen = screen;
	wl_list_init(&sel->transfers);
	wl_list_init(&sel->dying);
	xcb_prefetch_extension_data(conn, &xcb_xfixes_id);
	xfixes = xwl_replies_arrived(conn, XWL_SETUP_WAIT_MS)
			 ? xcb_get_extension_data(conn, &xcb_xfixes_id)
			 : NULL;
	version = xfixes && xfixes->present
			  ? xwl_reply_by(conn, xcb_xfixes_query_version(conn, 5, 0).sequence,
					 xwl_now_ms() + XWL_SETUP_WAIT_MS)
			  : NULL;
	if (!version || !intern_atoms(sel)) {
		free(version);
		garnet_log(c, GARNET_LOG_ERROR, "xwayland",
			   "domain %s: no XFixes: no selection passes between X and Wayland",
			   d->name);
		free(sel);
		return NULL;
	}
	free(version);
	sel->xfixes_event = xfixes->first_event;
	sel->window = xcb_generate_id(conn);
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, sel->window, screen->root, -10, -10, 1, 1,
			  0, XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK,
			  (uint32_t[]){XCB_EVENT_MASK_PROPERTY_CHANGE});
	if (!selection_init(sel, &sel->clipboard, GARNET_SELECTION_CLIPBOARD,
			    sel->atoms[A_CLIPBOARD]) ||
	    !selection_init(sel, &sel->primary, GARNET_SELECTION_PRIMARY,
			    sel->atoms[A_PRIMARY])) {
		xwm_selections_destroy(sel);
		return NULL;
	}
	garnet_listener_init(&sel->focus, focus_changed);
	wl_signal_add(&c->seat->events.keyboard_focus, &sel->focus);
	focus_changed(&sel->focus, NULL);
	flush(sel);
	return sel;
}

void xwm_selections_destroy(struct xwm_selections *sel)
{
	struct transfer *t, *tmp;
	struct x_source *src, *stmp;

	if (!sel)
		return;
	wl_list_for_each_safe (t, tmp, &sel->transfers, link)
		transfer_destroy(t);
	selection_finish(&sel->clipboard);
	selection_finish(&sel->primary);
	wl_list_for_each_safe (src, stmp, &sel->dying, link)
		dying_destroy(src);
	if (sel->focus.notify)
		garnet_list_unlink(&sel->focus.link);
	free(sel);
}
