// SPDX-License-Identifier: MIT
// zwlr_output_manager_v1 (output-management.c): its global, and the protocol hook that tells
// configuration clients an output appeared or changed.
#ifndef GARNET_PROTOCOLS_OUTPUT_MANAGEMENT_H
#define GARNET_PROTOCOLS_OUTPUT_MANAGEMENT_H

#include "../core/compositor.h"

bool garnet_output_management_init(struct garnet_compositor *c);
void garnet_output_management_output_changed(struct garnet_output *output);

#endif
