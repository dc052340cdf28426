/* SPDX-License-Identifier: MIT */
/* Shortcut holders (protocols layer, shortcuts.c): clients that hold a named action the shell's
 * bindings fire. Its init is in client-protocols.h. */
#ifndef GARNET_PROTOCOLS_SHORTCUTS_H
#define GARNET_PROTOCOLS_SHORTCUTS_H

#include <stdbool.h>
#include <stdint.h>

struct garnet_compositor;

/* The action's holder (protocols/shortcuts.c) is told; false when nobody holds it. */
bool garnet_shortcut_fire(struct garnet_compositor *c, const char *action, uint32_t time_msec);

#endif
