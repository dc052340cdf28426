/* SPDX-License-Identifier: MIT */
/* security-context-v1 (protocols layer): sandbox engines' listening sockets, and which clients
 * came through one. */
#ifndef GARNET_PROTOCOLS_SECURITY_CONTEXT_H
#define GARNET_PROTOCOLS_SECURITY_CONTEXT_H

#include "../core/compositor.h"

bool garnet_security_context_init(struct garnet_compositor *c);
/* Closes every sandbox listener (before the loop goes). */
void garnet_security_context_finish(struct garnet_compositor *c);

#endif
