/* SPDX-License-Identifier: MIT */
/* The password check of garnet's own lock screen: PAM, on a thread of its own so a slow or
 * failing check (pam_unix waits after a wrong password) never stalls the compositor. */
#ifndef GARNET_UNLOCK_PAM_H
#define GARNET_UNLOCK_PAM_H

struct garnet_compositor;
struct garnet_unlock_pam;

/* Checks passwords of the user garnet runs as with PAM service `service` for c's lock screen:
 * /etc/pam.d/SERVICE, or CONFDIR/SERVICE when confdir is not NULL (only the root-owned system
 * garnet.ini may name one: whoever writes it decides which password unlocks; the directory and
 * the service must be root's and writable by root only). NULL on failure (logged). */
struct garnet_unlock_pam *garnet_unlock_pam_create(struct garnet_compositor *c, const char *service,
						   const char *confdir);
/* Waits for a check in progress. */
void garnet_unlock_pam_destroy(struct garnet_unlock_pam *p);

#endif
