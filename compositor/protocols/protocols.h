/* SPDX-License-Identifier: MIT */
/* The globals of the protocol files (protocols layer) that have nothing else to declare, for
 * globals.c, which decides which of them exist. */
#ifndef GARNET_PROTOCOLS_PROTOCOLS_H
#define GARNET_PROTOCOLS_PROTOCOLS_H

#include <stdbool.h>

struct garnet_compositor;

bool garnet_shm_init(struct garnet_compositor *c);
bool garnet_presentation_init(struct garnet_compositor *c);
bool garnet_viewporter_init(struct garnet_compositor *c);
bool garnet_xdg_decoration_init(struct garnet_compositor *c);
bool garnet_xdg_output_init(struct garnet_compositor *c);
bool garnet_screencopy_init(struct garnet_compositor *c);
bool garnet_virtual_keyboard_init(struct garnet_compositor *c);

#endif
