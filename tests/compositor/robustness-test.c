// SPDX-License-Identifier: MIT
// Clients that come and go in numbers, vanish mid-request, or send garbage: the compositor
// survives, leaks nothing (the ASan build checks at exit) and keeps serving everyone else.
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "harness.h"

TEST(two_hundred_clients_connect_and_disconnect)
{
	for (int i = 0; i < 200; i++) {
		struct client *c = client_create(t);
		struct client_surface *s = toplevel_create(c, 20, 20, 0xff000000u | (uint32_t)i,
							   NULL);

		/* Leave the window for the compositor to clean up on disconnect: the proxies
		 * are freed here without a request going out. */
		wl_proxy_destroy((struct wl_proxy *)s->xdg_toplevel);
		wl_proxy_destroy((struct wl_proxy *)s->xdg_surface);
		wl_proxy_destroy((struct wl_proxy *)s->wl_surface);
		free(s);
		client_destroy(c);
	}
	check_compositor_serves(t);
}

TEST(client_vanishing_with_live_objects_is_cleaned_up)
{
	struct client *c = client_create(t);
	struct client_surface *parent = toplevel_create(c, 50, 50, 0xffff0000, NULL);
	struct client_surface *child = surface_create(c);
	struct wl_subsurface *sub = wl_subcompositor_get_subsurface(c->subcompositor,
								    child->wl_surface,
								    parent->wl_surface);
	struct wl_data_source *source =
		wl_data_device_manager_create_data_source(c->data_device_manager);
	struct buffer *b = buffer_create(c, 10, 10, WL_SHM_FORMAT_ARGB8888);

	wl_data_source_offer(source, "text/plain");
	wl_data_device_set_selection(c->data_device, source, 0);
	wl_surface_attach(child->wl_surface, b->wl_buffer, 0, 0);
	struct wl_callback *cb1 = wl_surface_frame(child->wl_surface);
	struct wl_callback *cb2;

	wl_surface_commit(child->wl_surface);
	cb2 = wl_surface_frame(parent->wl_surface);
	client_roundtrip(c);
	/* No destroy requests at all: the connection just ends. */
	shutdown(wl_display_get_fd(c->display), SHUT_RDWR);
	check_compositor_serves(t);
	/* Only client-side memory is left to free; the socket is gone already. */
	wl_callback_destroy(cb1);
	wl_callback_destroy(cb2);
	wl_subsurface_destroy(sub);
	wl_data_source_destroy(source);
	buffer_destroy(b);
	surface_destroy(child);
	surface_destroy(parent);
	client_destroy(c);
}

TEST(client_disconnecting_mid_request_does_not_hurt_others)
{
	struct client *c = client_create(t);
	int fd = wl_display_get_fd(c->display);
	/* The header of a request on object 1 announcing 64 bytes, then nothing. */
	uint32_t partial[2] = {1, 64u << 16};

	client_roundtrip(c);
	check_int(t, write(fd, partial, sizeof(partial)), ==, (long)sizeof(partial));
	shutdown(fd, SHUT_RDWR);
	check_compositor_serves(t);
	client_destroy(c);
}

/* Malformed messages a client can write; each must end that client, and that client alone. */
static const struct {
	const char *what;
	uint32_t words[6];
	size_t count;
} garbage[] = {
	{"an object that does not exist", {9999, 16u << 16 | 0, 0xdeadbeef, 0xfeedface}, 4},
	{"an opcode wl_display does not have", {1, 8u << 16 | 77}, 2},
	{"a size smaller than the header", {1, 4u << 16 | 0, 0}, 3},
	{"a size that is not a multiple of four", {1, 10u << 16 | 0, 2, 0}, 4},
	{"a new id of zero (wl_display.get_registry)", {1, 12u << 16 | 1, 0}, 3},
	{"a new id already in use", {1, 12u << 16 | 1, 1}, 3},
	{"a new id far beyond the next free one", {1, 12u << 16 | 1, 0x00fffff0}, 3},
	{"a request too short for its arguments (wl_display.sync)", {1, 8u << 16 | 0}, 2},
};

TEST(garbage_on_the_socket_ends_only_that_client)
{
	char buf[256];

	for (size_t i = 0; i < ARRAY_LENGTH(garbage); i++) {
		struct client *c = client_create(t);
		int fd = wl_display_get_fd(c->display);
		size_t bytes = garbage[i].count * sizeof(uint32_t);
		struct pollfd pfd = {.fd = fd, .events = POLLIN};
		ssize_t n = 1;

		fprintf(stderr, "# %s\n", garbage[i].what);
		check_int(t, write(fd, garbage[i].words, bytes), ==, (long)bytes);
		/* The compositor answers with an error and closes the connection, soon. */
		while (n > 0 && poll(&pfd, 1, 5000) == 1)
			n = read(fd, buf, sizeof(buf));
		check_int(t, n, ==, 0);
		check_compositor_serves(t);
		client_destroy(c);
	}
}

TEST(client_vanishing_mid_drag_leaves_no_grab_behind)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create_placed(c, 0, 0, 50, 50, 0xffff0000, NULL);
	struct wl_data_source *source =
		wl_data_device_manager_create_data_source(c->data_device_manager);

	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(c->garnet_test, 0x110, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(c);
	wl_data_source_offer(source, "text/plain");
	wl_data_device_start_drag(c->data_device, source, s->wl_surface, NULL,
				  c->input.last_button_serial);
	client_roundtrip(c);
	/* Gone mid-drag with the button still down; the compositor is torn down with the drag
	 * grab still running after the next check. */
	shutdown(wl_display_get_fd(c->display), SHUT_RDWR);
	check_compositor_serves(t);
	wl_data_source_destroy(source);
	surface_destroy(s);
	client_destroy(c);
}
