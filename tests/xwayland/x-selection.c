// SPDX-License-Identifier: MIT
// x-selection: an X client that owns or reads a selection, honestly or as an attacker.
// usage: x-selection read SELECTION [TARGET]   prints what the owner gives (INCR too);
//                                               exit 1 when refused, 2 with no answer in 6 s
//        x-selection read-stall SELECTION       asks, takes an INCR answer and never reads it
//        x-selection MODE SELECTION [TEXT]      owns SELECTION until cleared or killed:
//   own       answers TARGETS and text with TEXT
//   endless   answers text with INCR pieces without end
//   silent    answers TARGETS, never the data
//   flood     answers TARGETS with 100000 atoms, then text with TEXT
//   vanish    answers text with INCR, sends one piece and disconnects
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xcb/xcb.h>

#define PIECE 65536

static xcb_connection_t *conn;
static xcb_window_t window;

static xcb_atom_t atom(const char *name)
{
	xcb_intern_atom_reply_t *r =
		xcb_intern_atom_reply(conn, xcb_intern_atom(conn, 0, (uint16_t)strlen(name), name),
				      NULL);
	xcb_atom_t a = r ? r->atom : XCB_ATOM_NONE;

	free(r);
	return a;
}

/* The next event, or NULL after ms without one. */
static xcb_generic_event_t *wait_event(int ms)
{
	xcb_generic_event_t *ev;
	struct pollfd p = {xcb_get_file_descriptor(conn), POLLIN, 0};

	xcb_flush(conn);
	while (!(ev = xcb_poll_for_event(conn))) {
		if (xcb_connection_has_error(conn) || poll(&p, 1, ms) <= 0)
			return NULL;
	}
	return ev;
}

static xcb_get_property_reply_t *take_property(xcb_atom_t property)
{
	return xcb_get_property_reply(
		conn,
		xcb_get_property(conn, 1, window, property, XCB_GET_PROPERTY_TYPE_ANY, 0, 1 << 24),
		NULL);
}

static int do_read(xcb_atom_t selection, xcb_atom_t target, bool stall)
{
	xcb_atom_t property = atom("X_SELECTION_DATA"), incr = atom("INCR");
	xcb_generic_event_t *ev;
	xcb_get_property_reply_t *r;
	bool is_incr;

	xcb_convert_selection(conn, window, selection, target, property, XCB_CURRENT_TIME);
	for (;;) {
		ev = wait_event(6000);
		if (!ev)
			return 2;
		if ((ev->response_type & ~0x80) == XCB_SELECTION_NOTIFY)
			break;
		free(ev);
	}
	if (((xcb_selection_notify_event_t *)ev)->property == XCB_ATOM_NONE) {
		free(ev);
		return 1;
	}
	free(ev);
	if (stall) {
		fprintf(stderr, "x-selection: answered; never reading it\n");
		sleep(30);
		return 0;
	}
	r = take_property(property);
	if (!r)
		return 1;
	is_incr = r->type == incr;
	if (!is_incr)
		fwrite(xcb_get_property_value(r), 1, (size_t)xcb_get_property_value_length(r),
		       stdout);
	free(r);
	while (is_incr) {
		ev = wait_event(6000);
		if (!ev)
			return 2;
		if ((ev->response_type & ~0x80) == XCB_PROPERTY_NOTIFY &&
		    ((xcb_property_notify_event_t *)ev)->state == XCB_PROPERTY_NEW_VALUE &&
		    ((xcb_property_notify_event_t *)ev)->atom == property) {
			r = take_property(property);
			if (!r || xcb_get_property_value_length(r) == 0)
				is_incr = false;
			else
				fwrite(xcb_get_property_value(r), 1,
				       (size_t)xcb_get_property_value_length(r), stdout);
			free(r);
		}
		free(ev);
	}
	return 0;
}

static void notify(xcb_selection_request_event_t *req, xcb_atom_t property)
{
	xcb_selection_notify_event_t ev = {
		.response_type = XCB_SELECTION_NOTIFY,
		.time = req->time,
		.requestor = req->requestor,
		.selection = req->selection,
		.target = req->target,
		.property = property,
	};

	xcb_send_event(conn, 0, req->requestor, 0, (const char *)&ev);
	xcb_flush(conn);
}

static int do_own(const char *mode, xcb_atom_t selection, const char *text)
{
	xcb_atom_t targets = atom("TARGETS"), utf8 = atom("UTF8_STRING"), incr = atom("INCR");
	xcb_window_t incr_to = XCB_NONE;
	xcb_atom_t incr_property = XCB_NONE;
	static char piece[PIECE];
	int pieces = 0;

	memset(piece, 'x', sizeof(piece));
	xcb_set_selection_owner(conn, window, selection, XCB_CURRENT_TIME);
	printf("owned\n");
	fflush(stdout);
	for (;;) {
		xcb_generic_event_t *ev = wait_event(-1);
		xcb_selection_request_event_t *req = (void *)ev;

		if (!ev)
			return 1;
		switch (ev->response_type & ~0x80) {
		case XCB_SELECTION_CLEAR:
			printf("cleared\n");
			return 0;
		case XCB_SELECTION_REQUEST: {
			xcb_atom_t property = req->property ? req->property : req->target;

			if (req->target == targets) {
				static xcb_atom_t list[100000];
				uint32_t n = 2;

				list[0] = targets;
				list[1] = utf8;
				if (strcmp(mode, "flood") == 0) {
					for (n = 2; n < 100000; n++)
						list[n] = XCB_ATOM_STRING + n % 60;
				}
				xcb_change_property(conn, XCB_PROP_MODE_REPLACE, req->requestor,
						    property, XCB_ATOM_ATOM, 32, n, list);
				notify(req, property);
			} else if (strcmp(mode, "silent") == 0) {
				/* never answers */
			} else if (strcmp(mode, "endless") == 0 || strcmp(mode, "vanish") == 0) {
				uint32_t size = 1 << 30;

				xcb_change_window_attributes(
					conn, req->requestor, XCB_CW_EVENT_MASK,
					(uint32_t[]){XCB_EVENT_MASK_PROPERTY_CHANGE});
				xcb_change_property(conn, XCB_PROP_MODE_REPLACE, req->requestor,
						    property, incr, 32, 1, &size);
				incr_to = req->requestor;
				incr_property = property;
				notify(req, property);
			} else {
				xcb_change_property(conn, XCB_PROP_MODE_REPLACE, req->requestor,
						    property, req->target, 8,
						    (uint32_t)strlen(text), text);
				notify(req, property);
			}
			break;
		}
		case XCB_PROPERTY_NOTIFY: {
			xcb_property_notify_event_t *p = (void *)ev;

			if (p->window != incr_to || p->atom != incr_property ||
			    p->state != XCB_PROPERTY_DELETE)
				break;
			if (strcmp(mode, "vanish") == 0 && pieces == 1) {
				fprintf(stderr, "x-selection: vanishing mid-transfer\n");
				xcb_disconnect(conn);
				sleep(30);
				return 0;
			}
			xcb_change_property(conn, XCB_PROP_MODE_REPLACE, incr_to, incr_property,
					    utf8, 8, sizeof(piece), piece);
			xcb_flush(conn);
			pieces++;
			break;
		}
		default:
			break;
		}
		free(ev);
	}
}

int main(int argc, char **argv)
{
	xcb_screen_t *screen;
	xcb_atom_t selection;

	if (argc < 3)
		return 64;
	conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(conn)) {
		fprintf(stderr, "x-selection: cannot connect\n");
		return 3;
	}
	screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
	window = xcb_generate_id(conn);
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 1, 1, 0,
			  XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK,
			  (uint32_t[]){XCB_EVENT_MASK_PROPERTY_CHANGE});
	selection = atom(argv[2]);
	if (strcmp(argv[1], "read") == 0)
		return do_read(selection, atom(argc > 3 ? argv[3] : "UTF8_STRING"), false);
	if (strcmp(argv[1], "read-stall") == 0)
		return do_read(selection, atom("UTF8_STRING"), true);
	return do_own(argv[1], selection, argc > 3 ? argv[3] : "");
}
