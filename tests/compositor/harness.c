// SPDX-License-Identifier: MIT
// Test runner: a fresh compositor per test on the main thread, the test body as a client thread,
// results as TAP.
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "garnet/headless.h"
#include "garnet/log.h"
#include "harness.h"

#define MAX_TESTS 64

struct test_context {
	const struct test *test;
	char socket[64];
	jmp_buf fail_jump;
	bool failed;
	int done_fd;
	void *data;
	/* test_run_on_compositor: a call handed from the client thread to the loop */
	struct garnet_compositor *compositor;
	int call_fd;
	pthread_mutex_t call_lock;
	pthread_cond_t call_done_cond;
	void (*call_fn)(struct garnet_compositor *c, void *data);
	void *call_data;
	bool call_done;
};

static const struct test *registered[MAX_TESTS];
static size_t registered_count;

void test_register(const struct test *test)
{
	if (registered_count == MAX_TESTS)
		abort();
	registered[registered_count++] = test;
}

void test_fail(struct test_context *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "# %s: %s:%d: ", t->test->name, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	t->failed = true;
	longjmp(t->fail_jump, 1);
}

const char *test_socket(struct test_context *t)
{
	return t->socket;
}

const char *test_name(struct test_context *t)
{
	return t->test->name;
}

void *test_data(struct test_context *t)
{
	return t->data;
}

void test_set_data(struct test_context *t, void *data)
{
	t->data = data;
}

static void *client_thread(void *data)
{
	struct test_context *t = data;
	uint64_t one = 1;

	if (setjmp(t->fail_jump) == 0)
		t->test->run(t);
	if (write(t->done_fd, &one, sizeof(one)) != sizeof(one))
		abort();
	return NULL;
}

void test_run_on_compositor(struct test_context *t,
			    void (*fn)(struct garnet_compositor *c, void *data), void *data)
{
	uint64_t one = 1;

	pthread_mutex_lock(&t->call_lock);
	t->call_fn = fn;
	t->call_data = data;
	t->call_done = false;
	if (write(t->call_fd, &one, sizeof(one)) != sizeof(one))
		abort();
	while (!t->call_done)
		pthread_cond_wait(&t->call_done_cond, &t->call_lock);
	pthread_mutex_unlock(&t->call_lock);
}

static int call_requested(int fd, uint32_t mask, void *data)
{
	struct test_context *t = data;
	uint64_t count;

	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return 0;
	pthread_mutex_lock(&t->call_lock);
	t->call_fn(t->compositor, t->call_data);
	t->call_done = true;
	pthread_cond_signal(&t->call_done_cond);
	pthread_mutex_unlock(&t->call_lock);
	return 0;
}

static int client_done(int fd, uint32_t mask, void *data)
{
	garnet_compositor_terminate(data);
	return 0;
}

static bool run_test(const struct test *test, int index)
{
	struct test_context t = {.test = test, .done_fd = -1, .call_fd = -1};
	struct garnet_options options;
	struct garnet_compositor *c;
	struct wl_event_source *done_source, *call_source;
	pthread_t thread;

	snprintf(t.socket, sizeof(t.socket), "garnet-test-%d-%d", (int)getpid(), index);
	garnet_options_init(&options);
	options.socket = t.socket;
	options.test_mode = true;
	options.background_argb = 0xff203040;
	options.keyboard.layout = "us";
	/* Pixels under the pointer belong to the surfaces; the arrow has tests of its own. */
	options.builtin_cursor = test->builtin_cursor;
	c = garnet_compositor_create(&options);
	if (!c) {
		fprintf(stderr, "# %s: compositor did not start\n", test->name);
		return false;
	}
	garnet_log_set_level(c, getenv("GARNET_TEST_DEBUG") ? GARNET_LOG_DEBUG : GARNET_LOG_ERROR);
	for (size_t i = 0; i < ARRAY_LENGTH(test->outputs); i++) {
		const struct test_output_config *o = &test->outputs[i];
		struct garnet_output_mode mode = {o->width, o->height, o->refresh_mhz, o->scale,
						  o->transform};

		if (o->width == 0)
			break;
		if (!garnet_headless_add_output(c, &mode)) {
			garnet_compositor_destroy(c);
			return false;
		}
	}
	if (test->setup)
		test->setup(c, &t);
	t.done_fd = eventfd(0, EFD_CLOEXEC);
	done_source = wl_event_loop_add_fd(garnet_compositor_get_loop(c), t.done_fd,
					   WL_EVENT_READABLE, client_done, c);
	t.compositor = c;
	t.call_fd = eventfd(0, EFD_CLOEXEC);
	pthread_mutex_init(&t.call_lock, NULL);
	pthread_cond_init(&t.call_done_cond, NULL);
	call_source = wl_event_loop_add_fd(garnet_compositor_get_loop(c), t.call_fd,
					   WL_EVENT_READABLE, call_requested, &t);
	if (pthread_create(&thread, NULL, client_thread, &t) != 0)
		abort();
	garnet_compositor_run(c);
	pthread_join(thread, NULL);
	wl_event_source_remove(done_source);
	wl_event_source_remove(call_source);
	close(t.done_fd);
	close(t.call_fd);
	pthread_mutex_destroy(&t.call_lock);
	pthread_cond_destroy(&t.call_done_cond);
	garnet_compositor_destroy(c);
	free(t.data);
	return !t.failed;
}

/* Always a runtime directory of the test's own, never the user's: the tests leave sockets and
 * files there, and a test must not touch anything on the host outside its own directories. */
static void make_runtime_dir(char *made, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(made, size, "%s/garnet-test-runtime-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(made)) {
		perror("mkdtemp");
		exit(1);
	}
	setenv("XDG_RUNTIME_DIR", made, 1);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

int main(int argc, char **argv)
{
	char runtime[PATH_MAX];
	int failures = 0, number = 0;
	size_t selected = 0;

	make_runtime_dir(runtime, sizeof(runtime));
	setvbuf(stdout, NULL, _IONBF, 0);
	for (size_t i = 0; i < registered_count; i++)
		selected += argc < 2 || strcmp(argv[1], registered[i]->name) == 0;
	printf("1..%zu\n", selected);
	for (size_t i = 0; i < registered_count; i++) {
		const struct test *test = registered[i];

		if (argc >= 2 && strcmp(argv[1], test->name) != 0)
			continue;
		number++;
		if (run_test(test, number)) {
			printf("ok %d %s\n", number, test->name);
		} else {
			printf("not ok %d %s\n", number, test->name);
			failures++;
		}
	}
	nftw(runtime, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	return failures ? 1 : 0;
}
