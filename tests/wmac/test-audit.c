// SPDX-License-Identifier: MIT
/* Audit: every decision reaches the callback, with its rule; repetitions are counted, not lost. */
#include <errno.h>
#include <time.h>

#include "tap.h"
#include "wmac.h"

struct seen {
	unsigned long records, total;
	struct wmac_audit_record last;
	char last_object[256], last_permission[64], last_reason[64], last_file[64];
	/* Per object "o<N>" totals for the eviction test. */
	unsigned long per_object[512];
};

static void collect(const struct wmac_audit_record *r, void *data)
{
	struct seen *seen = data;
	seen->records++;
	seen->total += r->count;
	seen->last = *r;
	snprintf(seen->last_object, sizeof(seen->last_object), "%s", r->object);
	snprintf(seen->last_permission, sizeof(seen->last_permission), "%s", r->permission);
	snprintf(seen->last_reason, sizeof(seen->last_reason), "%s", r->reason);
	snprintf(seen->last_file, sizeof(seen->last_file), "%s",
		 r->rule_file ? r->rule_file : "(none)");
	unsigned int n;
	if (sscanf(r->object, "o%u", &n) == 1 && n < 512)
		seen->per_object[n] += r->count;
}

static struct wmac_subject *launched(const char *entry)
{
	struct wmac_launch_record rec = {.entry = entry, .executable = "/usr/bin/x"};
	return wmac_subject_from_launch(&rec);
}

static struct wmac_context *context_with(const char *name, const char *text)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	if (wmac_context_load_text(ctx, name, text, NULL, NULL, &err) != 0)
		tap_failed = true;
	return ctx;
}

static const char *const policy = "version 1\n"
				  "allow fullscreen\n" /* 2 */
				  "ask screenshot\n" /* 3 */
				  "deny screencast:secret launcher=a\n"; /* 4 */

static void every_decision_reaches_the_audit_callback(void)
{
	struct seen seen = {0};
	struct wmac_context *ctx = context_with("system.policy", policy);
	wmac_context_set_audit(ctx, collect, &seen, 0);
	struct wmac_subject *a = launched("a");

	CHECK_INT(wmac_check(ctx, a, "fullscreen", "HDMI-A-1"), WMAC_ALLOW);
	CHECK_INT(seen.records, 1);
	CHECK(seen.last.subject == a);
	CHECK_STR(seen.last_permission, "fullscreen");
	CHECK_STR(seen.last_object, "HDMI-A-1");
	CHECK_INT(seen.last.decision, WMAC_ALLOW);
	CHECK_STR(seen.last_file, "system.policy");
	CHECK_INT(seen.last.rule_line, 2);
	CHECK_STR(seen.last_reason, "rule");
	CHECK_INT(seen.last.count, 1);

	CHECK_INT(wmac_check(ctx, a, "screenshot", NULL), WMAC_ASK);
	CHECK_INT(seen.records, 2);
	CHECK_STR(seen.last_object, "");
	CHECK_INT(seen.last.decision, WMAC_ASK);
	CHECK_INT(seen.last.rule_line, 3);

	CHECK_INT(wmac_check(ctx, a, "screencast", "secret"), WMAC_DENY);
	CHECK_INT(seen.last.rule_line, 4);
	CHECK_INT(wmac_check(ctx, a, "screencast", "public"), WMAC_DENY);
	CHECK_STR(seen.last_reason, "no rule matched");
	CHECK_STR(seen.last_file, "(none)");
	CHECK_INT(seen.last.rule_line, 0);
	CHECK_INT(wmac_check(ctx, a, "org.nope", NULL), WMAC_DENY);
	CHECK_STR(seen.last_reason, "unknown permission");
	CHECK_STR(seen.last_permission, "org.nope");
	CHECK_INT(wmac_check(ctx, NULL, "fullscreen", NULL), WMAC_DENY);
	CHECK_STR(seen.last_reason, "no subject");
	CHECK(seen.last.subject == NULL);

	/* Cached decisions are audited just the same (interval 0: one record each). */
	for (int i = 0; i < 100; i++)
		wmac_check(ctx, a, "fullscreen", "HDMI-A-1");
	CHECK_INT(seen.records, 106);
	CHECK_INT(seen.total, 106);

	/* The user's answer to an ASK is audited as such. */
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "HDMI-A-1", WMAC_ALLOW, WMAC_SCOPE_ONCE), 0);
	CHECK_INT(seen.records, 107);
	CHECK_STR(seen.last_reason, "user answer");
	CHECK_INT(seen.last.decision, WMAC_ALLOW);
	CHECK_INT(seen.last.rule_line, 3);
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "x", WMAC_ALLOW, WMAC_SCOPE_SESSION), 0);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "x"), WMAC_ALLOW);
	CHECK_STR(seen.last_reason, "remembered answer");

	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);
}

static void repetitions_are_counted_not_dropped(void)
{
	struct seen seen = {0};
	struct wmac_context *ctx = context_with("p", policy);
	wmac_context_set_audit(ctx, collect, &seen, 60 * 1000);
	struct wmac_subject *a = launched("a");

	for (int i = 0; i < 1000; i++)
		CHECK_INT(wmac_check(ctx, a, "fullscreen", "out"), WMAC_ALLOW);
	/* The first is reported at once, the rest are being counted. */
	CHECK_INT(seen.records, 1);
	CHECK_INT(seen.total, 1);
	wmac_context_flush_audit(ctx, a);
	CHECK_INT(seen.records, 2);
	CHECK_INT(seen.last.count, 999);
	CHECK_INT(seen.last.rule_line, 2);
	CHECK_STR(seen.last_object, "out");
	CHECK_INT(seen.total, 1000);
	wmac_context_flush_audit(ctx, a);
	CHECK_INT(seen.records, 2);

	/* Pending counts come out when the subject goes away... */
	for (int i = 0; i < 10; i++)
		wmac_check(ctx, a, "screencast", "secret");
	wmac_subject_destroy(a);
	CHECK_INT(seen.total, 1010);
	CHECK_INT(seen.last.count, 9);
	CHECK_INT(seen.last.decision, WMAC_DENY);

	/* ...when the policy is replaced (with the old rule's place)... */
	struct wmac_subject *b = launched("b");
	for (int i = 0; i < 5; i++)
		wmac_check(ctx, b, "fullscreen", "out");
	struct wmac_error err;
	CHECK_INT(
		wmac_context_load_text(ctx, "q", "version 1\ndeny fullscreen\n", NULL, NULL, &err),
		0);
	CHECK_INT(seen.total, 1015);
	CHECK_STR(seen.last_file, "p");
	CHECK_INT(seen.last.count, 4);
	CHECK_INT(wmac_check(ctx, b, "fullscreen", "out"), WMAC_DENY);
	CHECK_STR(seen.last_file, "q");

	/* ...and when the context goes away. */
	for (int i = 0; i < 7; i++)
		wmac_check(ctx, b, "fullscreen", "out");
	wmac_context_destroy(ctx);
	CHECK_INT(seen.total, 1023);
	CHECK_INT(seen.last.count, 7);
	wmac_subject_destroy(b);
	CHECK_INT(seen.total, 1023);
}

static void repetitions_are_reported_once_the_interval_has_passed(void)
{
	struct seen seen = {0};
	struct wmac_context *ctx = context_with("p", policy);
	wmac_context_set_audit(ctx, collect, &seen, 30);
	struct wmac_subject *a = launched("a");
	for (int i = 0; i < 50; i++)
		wmac_check(ctx, a, "fullscreen", "out");
	CHECK_INT(seen.records, 1);
	struct timespec ts = {0, 80 * 1000 * 1000};
	nanosleep(&ts, NULL);
	wmac_check(ctx, a, "fullscreen", "out");
	CHECK_INT(seen.records, 2);
	CHECK_INT(seen.last.count, 50);
	CHECK_INT(seen.total, 51);
	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);
}

static void counts_survive_cache_eviction_and_long_objects(void)
{
	struct seen seen = {0};
	struct wmac_context *ctx = context_with("p", policy);
	wmac_context_set_audit(ctx, collect, &seen, 60 * 1000);
	struct wmac_subject *a = launched("a");
	unsigned long expected[512] = {0};
	unsigned int x = 12345;
	for (int i = 0; i < 20000; i++) {
		x = x * 1103515245u + 12345u;
		unsigned int n = (x >> 8) % 300;
		char obj[16];
		snprintf(obj, sizeof(obj), "o%u", n);
		wmac_check(ctx, a, "fullscreen", obj);
		expected[n]++;
	}
	char longobj[300];
	memset(longobj, 'z', sizeof(longobj) - 1);
	longobj[sizeof(longobj) - 1] = '\0';
	for (int i = 0; i < 10; i++)
		CHECK_INT(wmac_check(ctx, a, "fullscreen", longobj), WMAC_ALLOW);
	wmac_subject_destroy(a);
	CHECK_INT(seen.total, 20010);
	unsigned long wrong = 0;
	for (int n = 0; n < 300; n++)
		wrong += seen.per_object[n] != expected[n];
	CHECK_INT(wrong, 0);
	wmac_context_destroy(ctx);
}

struct reentrant {
	struct wmac_context *ctx;
	struct wmac_subject *subject;
	int depth, records;
	enum wmac_decision inner;
};

static void check_again(const struct wmac_audit_record *r, void *data)
{
	struct reentrant *re = data;
	re->records++;
	if (re->depth++ == 0)
		re->inner = wmac_check(re->ctx, re->subject, "fullscreen", "inner");
	re->depth--;
}

/* The callback runs without any library lock held, so it may log through the library. */
static void audit_callback_may_call_back_into_the_library(void)
{
	struct reentrant re = {.ctx = context_with("p", policy), .inner = WMAC_DENY};
	re.subject = launched("a");
	wmac_context_set_audit(re.ctx, check_again, &re, 0);
	CHECK_INT(wmac_check(re.ctx, re.subject, "fullscreen", NULL), WMAC_ALLOW);
	CHECK_INT(re.inner, WMAC_ALLOW);
	CHECK_INT(re.records, 2);
	wmac_subject_destroy(re.subject);
	wmac_context_destroy(re.ctx);
}

int main(void)
{
	RUN(every_decision_reaches_the_audit_callback);
	RUN(repetitions_are_counted_not_dropped);
	RUN(repetitions_are_reported_once_the_interval_has_passed);
	RUN(counts_survive_cache_eviction_and_long_objects);
	RUN(audit_callback_may_call_back_into_the_library);
	return tap_done();
}
