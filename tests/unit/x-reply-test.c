// SPDX-License-Identifier: MIT
// The window manager's bounded waits and writes (compositor/xwayland/x-reply.c, x-write.c)
// against a fake X server on a socketpair: a server that stops answering or reading (stopped
// with SIGSTOP by any process of the user, or hung) costs garnet the deadline, not its life;
// a server that answers is heard, and one that reads is written to.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <xcb/xcb.h>

#include "x-reply.h"
#include "x-write.h"

static int failures, n;

static void check(int ok, const char *name)
{
	printf("%sok %d %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

/* The fake server's first words, once the client has sent its set-up request (12 bytes with
 * no authorization): a minimal accepted set-up, no screens. */
static void *serve_setup(void *data)
{
	int server = *(int *)data;
	uint8_t request[12], setup[40] = {0};
	size_t got = 0;

	while (got < sizeof(request)) {
		ssize_t r = read(server, request + got, sizeof(request) - got);

		if (r <= 0)
			return NULL;
		got += (size_t)r;
	}
	setup[0] = 1;		/* success */
	setup[2] = 11;		/* protocol 11.0 */
	setup[6] = 8;		/* 8 words follow */
	setup[8 + 8] = 0xff;	/* resource id mask 0x001fffff */
	setup[8 + 9] = 0xff;
	setup[8 + 10] = 0x1f;
	setup[8 + 18] = 0xff;	/* maximum request length 0xffff */
	setup[8 + 19] = 0xff;
	setup[8 + 26] = 8;	/* keycodes 8..255 */
	setup[8 + 27] = 255;
	if (write(server, setup, sizeof(setup)) != (ssize_t)sizeof(setup))
		return NULL;
	return data;
}

static xcb_connection_t *connect_to_fake(int *server)
{
	xcb_connection_t *conn;
	pthread_t thread;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return NULL;
	*server = sv[1];
	if (pthread_create(&thread, NULL, serve_setup, server))
		return NULL;
	conn = xcb_connect_to_fd(sv[0], NULL);
	pthread_join(thread, NULL);
	return conn;
}

/* The GetInputFocus reply of the request of sequence seq. */
static void answer(int server, uint16_t seq)
{
	uint8_t reply[32] = {1};

	memcpy(reply + 2, &seq, sizeof(seq));
	if (write(server, reply, sizeof(reply)) != (ssize_t)sizeof(reply))
		abort();
}

/* A server that reads all it is sent, and answers nothing, until the client hangs up. */
static void *drain(void *data)
{
	int server = *(int *)data;
	char buf[65536];

	while (read(server, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* Requests of bytes in all (property changes on window 1), made under the write guard: each
 * is larger than xcb's buffer, so it is written at once. The time it took, in ms. */
static int64_t guarded_writes(xcb_connection_t *conn, size_t bytes)
{
	/* Under the set-up's maximum request length (256 KiB): a longer one would ask the server
	 * for BIG-REQUESTS first, and wait for its answer. */
	static uint8_t data[64 * 1024];
	int64_t start = xwl_now_ms();

	xwl_write_begin(conn);
	for (size_t sent = 0; sent < bytes && !xcb_connection_has_error(conn); sent += sizeof(data))
		xcb_change_property(conn, XCB_PROP_MODE_REPLACE, 1, XCB_ATOM_WM_NAME,
				    XCB_ATOM_STRING, 8, sizeof(data), data);
	xwl_write_end();
	xwl_flush(conn);
	return xwl_now_ms() - start;
}

/* Writes: a server that reads is written to in full; one that stops reading (SIGSTOP) is
 * cut after XWL_WRITE_WAIT_MS instead of holding garnet for as long as it sleeps. */
static void check_writes(void)
{
	int server = -1;
	xcb_connection_t *conn = connect_to_fake(&server);
	pthread_t reader;
	int64_t took;

	if (!conn || pthread_create(&reader, NULL, drain, &server)) {
		check(0, "positive_control_a_reading_server_takes_16_MiB");
		check(0, "a_server_that_reads_nothing_is_cut_after_the_write_deadline");
		return;
	}
	took = guarded_writes(conn, 16u << 20);
	printf("# a reading server: 16 MiB in %lld ms\n", (long long)took);
	check(!xcb_connection_has_error(conn) && xwl_write_cuts() == 0 &&
		      !xwl_write_was_cut(conn),
	      "positive_control_a_reading_server_takes_16_MiB");
	xcb_disconnect(conn);
	pthread_join(reader, NULL);
	close(server);

	conn = connect_to_fake(&server);
	took = conn ? guarded_writes(conn, 16u << 20) : -1;
	printf("# a server that reads nothing: cut after %lld ms\n", (long long)took);
	check(conn && xcb_connection_has_error(conn) && xwl_write_cuts() == 1 &&
		      xwl_write_was_cut(conn) &&
		      took >= XWL_WRITE_WAIT_MS && took < XWL_WRITE_WAIT_MS + 3000,
	      "a_server_that_reads_nothing_is_cut_after_the_write_deadline");
	if (conn)
		xcb_disconnect(conn);
	close(server);
}

int main(void)
{
	int server = -1;
	xcb_connection_t *conn = connect_to_fake(&server);
	unsigned int seq;
	int64_t start, took;
	void *reply;

	printf("1..6\n");
	if (!conn || xcb_connection_has_error(conn)) {
		printf("Bail out! the fake server's set-up was refused\n");
		return 1;
	}
	start = xwl_now_ms();
	reply = xwl_reply_by(conn, xcb_get_input_focus(conn).sequence, start + 300);
	took = xwl_now_ms() - start;
	printf("# a silent server: gave up after %lld ms\n", (long long)took);
	check(!reply && took >= 300 && took < 3000, "a_silent_server_costs_the_deadline_and_no_more");

	start = xwl_now_ms();
	check(!xwl_replies_arrived(conn, 200) && xwl_now_ms() - start < 3000,
	      "set_up_against_a_silent_server_fails_in_time");

	/* Positive control: the answer comes, and is taken. */
	seq = xcb_get_input_focus(conn).sequence;
	xcb_flush(conn);
	answer(server, (uint16_t)seq);
	reply = xwl_reply_by(conn, seq, xwl_now_ms() + 3000);
	check(reply != NULL, "positive_control_an_answer_in_time_is_taken");
	free(reply);

	/* A late answer to a request given up is discarded, not taken for the next. */
	seq = xcb_get_input_focus(conn).sequence;
	reply = xwl_reply_by(conn, seq, xwl_now_ms() + 50);
	answer(server, (uint16_t)seq);
	seq = xcb_get_input_focus(conn).sequence;
	xcb_flush(conn);
	answer(server, (uint16_t)seq);
	reply = xwl_reply_by(conn, seq, xwl_now_ms() + 3000);
	check(reply && !xcb_connection_has_error(conn),
	      "a_late_answer_is_discarded_and_the_next_taken");
	free(reply);
	xcb_disconnect(conn);
	close(server);
	check_writes();
	return failures != 0;
}
