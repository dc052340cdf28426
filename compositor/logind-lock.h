/* SPDX-License-Identifier: MIT */
/* `loginctl lock-session` locks garnet's session (logind's Lock signal over the system bus). */
#ifndef GARNET_LOGIND_LOCK_H
#define GARNET_LOGIND_LOCK_H

struct garnet_compositor;
struct garnet_logind_lock;

/* Looks up garnet's logind session and locks on its Lock signal. NULL (logged) without a
 * system bus or when it cannot ask; garnet runs on without it. */
struct garnet_logind_lock *garnet_logind_lock_create(struct garnet_compositor *c);
void garnet_logind_lock_destroy(struct garnet_logind_lock *l);

#endif
