/* SPDX-License-Identifier: MIT */
/* ext-session-lock (protocols layer, session-lock.c): its global and the lock's end. */
#ifndef GARNET_PROTOCOLS_SESSION_LOCK_H
#define GARNET_PROTOCOLS_SESSION_LOCK_H

#include "../core/surface.h"

bool garnet_session_lock_init(struct garnet_compositor *c);
/* Ends the lock (garnet's own lock screen accepted the password): the session shows again. */
void garnet_session_lock_release(struct garnet_compositor *c);
/* True for the surfaces of ext-session-lock: the only ones shown while locked. */
bool garnet_session_lock_owns(struct garnet_surface *surface);

#endif
