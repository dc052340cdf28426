// SPDX-License-Identifier: MIT
// Bounded writes to an X server (x-write.h): a watcher thread shuts down the socket of a write
// that outlives its deadline. garnet writes from one thread, so one guard serves every
// connection; the watcher sleeps until a guard is armed, and wakes at most once per deadline
// however often garnet writes.
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <time.h>

#include "x-reply.h"
#include "x-write.h"

static pthread_once_t started = PTHREAD_ONCE_INIT;
static bool watching;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t armed;
/* Guards nest (a window manager's dispatch writes to another domain's server when it bridges
 * the clipboard): the innermost connection is the one watched. */
#define MAX_NESTED 8
static int nested_fds[MAX_NESTED];
static int depth;
static int armed_fd = -1;
static int64_t deadline;
static bool watcher_asleep;
static uint64_t cuts;
static int last_cut_fd = -1;

static void *watch(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&lock);
	for (;;) {
		struct timespec until;

		if (armed_fd < 0) {
			watcher_asleep = true;
			pthread_cond_wait(&armed, &lock);
			watcher_asleep = false;
			continue;
		}
		if (xwl_now_ms() >= deadline) {
			/* The writer is blocked in poll() inside xcb: the shut-down socket wakes it
			 * with POLLHUP, which xcb takes for a broken connection. */
			shutdown(armed_fd, SHUT_RDWR);
			last_cut_fd = armed_fd;
			armed_fd = -1;
			cuts++;
			continue;
		}
		until.tv_sec = deadline / 1000;
		until.tv_nsec = deadline % 1000 * 1000000;
		pthread_cond_timedwait(&armed, &lock, &until);
	}
	return NULL;
}

static void start_watcher(void)
{
	pthread_condattr_t attr;
	pthread_t thread;

	/* Deadlines are on xwl_now_ms's clock, which no change of the wall clock moves. */
	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&armed, &attr);
	pthread_condattr_destroy(&attr);
	watching = pthread_create(&thread, NULL, watch, NULL) == 0;
	if (watching)
		pthread_detach(thread);
	else
		fprintf(stderr, "garnet: xwayland: no thread to bound writes to X servers\n");
}

void xwl_write_begin(xcb_connection_t *conn)
{
	pthread_once(&started, start_watcher);
	if (!watching)
		return;
	pthread_mutex_lock(&lock);
	armed_fd = xcb_get_file_descriptor(conn);
	if (depth < MAX_NESTED)
		nested_fds[depth] = armed_fd;
	depth++;
	deadline = xwl_now_ms() + XWL_WRITE_WAIT_MS;
	/* A watcher waiting for an earlier deadline wakes then and sees this later one. */
	if (watcher_asleep)
		pthread_cond_signal(&armed);
	pthread_mutex_unlock(&lock);
}

void xwl_write_end(void)
{
	if (!watching)
		return;
	pthread_mutex_lock(&lock);
	if (depth > 0)
		depth--;
	/* Back in the outer guard's writes: its connection, and a deadline from now. */
	armed_fd = depth > 0 ? nested_fds[(depth < MAX_NESTED ? depth : MAX_NESTED) - 1] : -1;
	deadline = xwl_now_ms() + XWL_WRITE_WAIT_MS;
	pthread_mutex_unlock(&lock);
}

bool xwl_flush(xcb_connection_t *conn)
{
	xwl_write_begin(conn);
	xcb_flush(conn);
	xwl_write_end();
	return !xcb_connection_has_error(conn);
}

bool xwl_write_was_cut(xcb_connection_t *conn)
{
	bool cut;

	pthread_mutex_lock(&lock);
	cut = last_cut_fd >= 0 && last_cut_fd == xcb_get_file_descriptor(conn);
	pthread_mutex_unlock(&lock);
	return cut;
}

uint64_t xwl_write_cuts(void)
{
	uint64_t n;

	pthread_mutex_lock(&lock);
	n = cuts;
	pthread_mutex_unlock(&lock);
	return n;
}
