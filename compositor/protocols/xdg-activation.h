/* SPDX-License-Identifier: MIT */
/* xdg-activation (protocols layer): the tokens garnet gives the programs it starts. Its init is
 * in client-protocols.h. */
#ifndef GARNET_PROTOCOLS_XDG_ACTIVATION_H
#define GARNET_PROTOCOLS_XDG_ACTIVATION_H

#include <stdbool.h>
#include <stddef.h>

struct garnet_compositor;

/* protocols/xdg-activation.c: a token garnet gives a program it starts (XDG_ACTIVATION_TOKEN),
 * in name; false when none can be made. */
bool garnet_activation_mint(struct garnet_compositor *c, char *name, size_t size);

#endif
