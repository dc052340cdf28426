/* SPDX-License-Identifier: MIT */
/* garnet's security layer (the security layer, above the shell): libwmac decides what each
 * client may do; trusted clients are the ones garnet launched itself from its [launcher]
 * entries. */
#ifndef GARNET_SECURITY_LAYER_H
#define GARNET_SECURITY_LAYER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "garnet/log.h"

struct garnet_compositor;
struct garnet_security;

/* The launcher entry names the default policy knows (data/wmac.policy). */
bool garnet_security_is_launcher_name(const char *name);

/* Loads the system policy at policy_path (owned by root, not writable by others) and the
 * user's stricter file user_path (may be NULL or missing), then filters every privileged
 * global and act of c through libwmac. On a policy error the layer still installs itself
 * with an empty policy (everything privileged denied) and reports the error in error. */
struct garnet_security *garnet_security_create(struct garnet_compositor *c,
					       const char *policy_path, const char *user_path,
					       char *error, size_t error_size);
/* The same with a system policy owned by policy_owner instead of root: garnet run from its
 * build tree trusts the repository's policy as far as it trusts its own executable. */
struct garnet_security *garnet_security_create_owned(struct garnet_compositor *c,
						     const char *policy_path, uid_t policy_owner,
						     const char *user_path, char *error,
						     size_t error_size);

/* Starts command as launcher entry `entry` on a socket of its own; its subject comes from
 * the launch record, so it is the only client that holds that identity. If it exits, it is
 * started again, at most max_restarts times. An on_demand entry is only recorded: a binding
 * starts it (garnet_security_start_on_demand), and it is not restarted when it exits.
 * Returns false (logged) on failure. */
bool garnet_security_launch(struct garnet_security *s, const char *entry, const char *command,
			    int max_restarts, bool on_demand);
/* Starts the on-demand entry unless it runs already; false (logged) when it cannot. */
bool garnet_security_start_on_demand(struct garnet_security *s, const char *entry);

/* In test mode every client may bind garnet_test (the test harness drives garnet through it);
 * all other privileged globals stay behind the policy. */
void garnet_security_set_test_mode(struct garnet_security *s, bool on);

/* One decision of the audit trail, for a sink that keeps it apart from garnet's log. */
struct garnet_audit_event {
	enum garnet_log_level level; /* WARNING for a denial, DEBUG for an allowed act */
	const char *decision; /* "allow", "deny" or "ask" */
	pid_t pid; /* the client's, 0 when it has no identity */
	const char *executable; /* NULL when unknown */
	const char *permission, *object, *reason;
	const char *rule_file; /* the deciding rule, NULL when none did */
	unsigned int rule_line;
	unsigned long count; /* identical decisions this record stands for */
	const char *message; /* the whole record as one line, as garnet's log shows it */
};
typedef void (*garnet_audit_sink)(const struct garnet_audit_event *event, void *data);

/* Sends the audit trail to sink instead of garnet's log ("security" scope); NULL: the log.
 * Denials are always reported, allowed acts too (the sink filters them by level). */
void garnet_security_set_audit_sink(struct garnet_security *s, garnet_audit_sink sink,
				    void *data);

void garnet_security_destroy(struct garnet_security *s);

#endif
