/* SPDX-License-Identifier: MIT */
/* A tiny TAP producer for the wmac tests: one subtest per function, failures name file:line. */
#ifndef WMAC_TEST_TAP_H
#define WMAC_TEST_TAP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count;
static int tap_failures;
static bool tap_failed;
static const char *tap_skip_reason;

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			tap_failed = true;                                                \
		}                                                                         \
	} while (0)

#define CHECK_STR(a, b)                                                                            \
	do {                                                                                       \
		const char *tap_a = (a), *tap_b = (b);                                             \
		if (!tap_a || !tap_b || strcmp(tap_a, tap_b) != 0) {                               \
			printf("# %s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a, \
			       tap_a ? tap_a : "(null)", tap_b ? tap_b : "(null)");                \
			tap_failed = true;                                                         \
		}                                                                                  \
	} while (0)

#define CHECK_INT(a, b)                                                                        \
	do {                                                                                   \
		long long tap_a = (long long)(a), tap_b = (long long)(b);                      \
		if (tap_a != tap_b) {                                                          \
			printf("# %s:%d: %s is %lld, expected %lld\n", __FILE__, __LINE__, #a, \
			       tap_a, tap_b);                                                  \
			tap_failed = true;                                                     \
		}                                                                              \
	} while (0)

/* Ends the current subtest as skipped (TAP "# SKIP"). */
#define SKIP(reason)                        \
	do {                                \
		tap_skip_reason = (reason); \
		return;                     \
	} while (0)

#define RUN(fn)                                                                            \
	do {                                                                               \
		tap_failed = false;                                                        \
		tap_skip_reason = NULL;                                                    \
		fflush(stdout);                                                            \
		fn();                                                                      \
		tap_count++;                                                               \
		/* A check that failed before a SKIP is still a failure. */                \
		if (tap_failed)                                                            \
			printf("not ok %d - %s\n", tap_count, #fn);                        \
		else if (tap_skip_reason)                                                  \
			printf("ok %d - %s # SKIP %s\n", tap_count, #fn, tap_skip_reason); \
		else                                                                       \
			printf("ok %d - %s\n", tap_count, #fn);                            \
		tap_failures += tap_failed;                                                \
		fflush(stdout);                                                            \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failures ? 1 : 0;
}

#endif
