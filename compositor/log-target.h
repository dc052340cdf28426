// SPDX-License-Identifier: MIT
// Where garnet's log and its audit trail go: the system journal, stderr or a file.
#ifndef GARNET_LOG_TARGET_H
#define GARNET_LOG_TARGET_H

#include <stdbool.h>
#include <stdio.h>

struct cli;
struct config;
struct garnet_compositor;
struct garnet_security;

struct log_target {
	FILE *log_file; /* --log FILE */
	FILE *audit_file; /* [security] audit=FILE */
	bool journal_log, journal_audit;
	bool debug; /* allowed acts are audited too */
};

/* Chooses the targets from the command line and garnet.ini and opens the files; false: the
 * reason was printed. */
bool log_target_open(struct log_target *t, const struct cli *cli, const struct config *cfg);
/* Points the compositor's log at the chosen target and says where the audit trail goes. */
void log_target_apply(struct log_target *t, struct garnet_compositor *c);
/* Points the security layer's audit trail at its target. */
void log_target_apply_security(struct log_target *t, struct garnet_security *s);
void log_target_close(struct log_target *t);

#endif
