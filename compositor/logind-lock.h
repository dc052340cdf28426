/* SPDX-License-Identifier: MIT */
/* garnet and logind: `loginctl lock-session` locks garnet's session, the session locks before
 * the system sleeps, and its LockedHint and IdleHint follow garnet. */
#ifndef GARNET_LOGIND_LOCK_H
#define GARNET_LOGIND_LOCK_H

struct garnet_compositor;
struct garnet_logind_lock;

/* Looks up garnet's logind session and locks on its Lock signal; holds a sleep delay
 * inhibitor; sets the session's IdleHint after idle_seconds without input (0: never). NULL
 * (logged) without a system bus or when it cannot ask; garnet runs on without it. */
struct garnet_logind_lock *garnet_logind_lock_create(struct garnet_compositor *c,
						     int idle_seconds);
void garnet_logind_lock_destroy(struct garnet_logind_lock *l);

#endif
