// SPDX-License-Identifier: MIT
// Bounded waits for an X server's replies (x-reply.h).
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>
#include <xcb/xcbext.h>

#include "x-reply.h"
#include "x-write.h"

int64_t xwl_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void *xwl_reply_by(xcb_connection_t *conn, unsigned int sequence, int64_t deadline)
{
	xwl_flush(conn);
	for (;;) {
		void *reply = NULL;
		xcb_generic_error_t *error = NULL;
		struct pollfd pfd = {.fd = xcb_get_file_descriptor(conn), .events = POLLIN};
		int64_t left;

		if (xcb_poll_for_reply(conn, sequence, &reply, &error)) {
			free(error);
			return reply;
		}
		left = deadline - xwl_now_ms();
		if (xcb_connection_has_error(conn) || left <= 0)
			break;
		if (poll(&pfd, 1, (int)left) < 0 && errno != EINTR)
			break;
	}
	xcb_discard_reply(conn, sequence);
	return NULL;
}

bool xwl_replies_arrived(xcb_connection_t *conn, int ms)
{
	/* Replies come in order: once this one is in, so are all before it. */
	void *reply = xwl_reply_by(conn, xcb_get_input_focus(conn).sequence, xwl_now_ms() + ms);

	free(reply);
	return reply != NULL;
}
