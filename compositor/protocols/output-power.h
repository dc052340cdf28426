// SPDX-License-Identifier: MIT
// zwlr_output_power_manager_v1 (output-power.c): its global.
#ifndef GARNET_PROTOCOLS_OUTPUT_POWER_H
#define GARNET_PROTOCOLS_OUTPUT_POWER_H

#include "../core/compositor.h"

bool garnet_output_power_init(struct garnet_compositor *c);

#endif
