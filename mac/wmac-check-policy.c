// SPDX-License-Identifier: MIT
/*
 * wmac-check-policy: validates policy files before they are installed, printing every problem
 * as FILE:LINE:COLUMN: MESSAGE (the format editors and compilers use).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "wmac.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: wmac-check-policy [--draft] SYSTEM_POLICY [USER_POLICY]\n"
		     "  --draft  check the syntax only, not who owns the system policy\n");
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"draft", no_argument, NULL, 'd'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	bool draft = false;
	int c;
	while ((c = getopt_long(argc, argv, "dh", options, NULL)) != -1) {
		if (c == 'd') {
			draft = true;
		} else if (c == 'h') {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind < 1 || argc - optind > 2) {
		usage(stderr);
		return 2;
	}
	const char *system = argv[optind], *user = argc - optind == 2 ? argv[optind + 1] : NULL;

	struct wmac_context *ctx = wmac_context_create();
	if (!ctx) {
		fprintf(stderr, "wmac-check-policy: %s\n", strerror(errno));
		return 1;
	}
	struct stat st;
	/* A draft may belong to whoever writes it; the installed file must belong to root. */
	if (draft && stat(system, &st) == 0)
		wmac_context_set_trusted_owner(ctx, st.st_uid);
	struct wmac_error err;
	int ret = wmac_context_load(ctx, system, user, &err);
	wmac_context_destroy(ctx);
	if (ret < 0 && err.line)
		fprintf(stderr, "%s:%u:%u: %s\n", err.file, err.line, err.column, err.message);
	else if (ret < 0)
		fprintf(stderr, "%s: %s\n", err.file, err.message);
	else
		printf("%s%s%s: ok\n", system, user ? " and " : "", user ? user : "");
	return ret < 0 ? 1 : 0;
}
