// SPDX-License-Identifier: MIT
// zwlr_virtual_pointer_manager_v1 (virtual-pointer.c): its global.
#ifndef GARNET_PROTOCOLS_VIRTUAL_POINTER_H
#define GARNET_PROTOCOLS_VIRTUAL_POINTER_H

#include "../core/compositor.h"

bool garnet_virtual_pointer_init(struct garnet_compositor *c);

#endif
