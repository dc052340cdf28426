// SPDX-License-Identifier: MIT
/* Reloads while other threads check: every check sees one whole policy, never a mix. */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "tap.h"
#include "wmac.h"

#define THREADS 4

static const char *const policy_a = "version 1\nallow fullscreen\nallow screenshot launcher=s\n";
static const char *const policy_b = "version 1\n# b\ndeny fullscreen\nask screenshot\n";
static const char *const policy_broken = "version 1\nallow fullscreen\nallow nonsense\n";

static struct wmac_context *ctx;
static struct wmac_subject *shared;
static atomic_bool stop;
static atomic_ulong checks, mismatches;
static _Thread_local struct {
	char file[8];
	enum wmac_decision decision;
	unsigned int line;
} last;

static void audit(const struct wmac_audit_record *r, void *data)
{
	snprintf(last.file, sizeof(last.file), "%s", r->rule_file ? r->rule_file : "-");
	last.decision = r->decision;
	last.line = r->rule_line;
}

/* What each policy says for the subject: any other combination is a torn read. */
static bool consistent(const char *permission, enum wmac_decision d)
{
	bool fullscreen = strcmp(permission, "fullscreen") == 0;
	if (strcmp(last.file, "A") == 0)
		return d == WMAC_ALLOW && last.line == (fullscreen ? 2u : 3u);
	if (strcmp(last.file, "B") == 0)
		return d == (fullscreen ? WMAC_DENY : WMAC_ASK) &&
		       last.line == (fullscreen ? 3u : 4u);
	return false;
}

static void *checker(void *data)
{
	struct wmac_launch_record rec = {.entry = "s", .executable = "/usr/bin/s"};
	struct wmac_subject *own = wmac_subject_from_launch(&rec);
	unsigned long n = 0;
	while (!atomic_load(&stop)) {
		struct wmac_subject *s = n % 2 ? own : shared;
		const char *permission = n % 3 ? "fullscreen" : "screenshot";
		enum wmac_decision d = wmac_check(ctx, s, permission, "out");
		if (!consistent(permission, d))
			atomic_fetch_add(&mismatches, 1);
		n++;
	}
	atomic_fetch_add(&checks, n);
	wmac_subject_destroy(own);
	return NULL;
}

static void reload_under_concurrent_checks_is_atomic(void)
{
	struct wmac_error err;
	struct wmac_launch_record rec = {.entry = "s", .executable = "/usr/bin/s"};
	ctx = wmac_context_create();
	shared = wmac_subject_from_launch(&rec);
	wmac_context_set_audit(ctx, audit, NULL, 0);
	CHECK_INT(wmac_context_load_text(ctx, "A", policy_a, NULL, NULL, &err), 0);

	pthread_t threads[THREADS];
	for (int i = 0; i < THREADS; i++)
		pthread_create(&threads[i], NULL, checker, NULL);
	int failed_reloads = 0, expected_failures = 0, reloads = 0;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* Long enough for the checkers to be running during many reloads. */
	for (int i = 0;; i++) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000 >
		    300)
			break;
		reloads++;
		expected_failures += i % 7 == 0;
		const char *name = i % 2 ? "A" : "B";
		const char *text = i % 2 ? policy_a : policy_b;
		if (i % 7 == 0 &&
		    wmac_context_load_text(ctx, "X", policy_broken, NULL, NULL, &err) == -EINVAL)
			failed_reloads++;
		CHECK_INT(wmac_context_load_text(ctx, name, text, NULL, NULL, &err), 0);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < THREADS; i++)
		pthread_join(threads[i], NULL);

	printf("# %lu checks during %d reloads\n", (unsigned long)atomic_load(&checks), reloads);
	CHECK(atomic_load(&checks) > 0);
	CHECK_INT(atomic_load(&mismatches), 0);
	CHECK_INT(failed_reloads, expected_failures);
	wmac_subject_destroy(shared);
	wmac_context_destroy(ctx);
}

int main(void)
{
	RUN(reload_under_concurrent_checks_is_atomic);
	return tap_done();
}
