/* SPDX-License-Identifier: MIT */
/* The headless backend: outputs that exist only in memory, and input from the test protocol. */
#ifndef GARNET_HEADLESS_H
#define GARNET_HEADLESS_H

#include "garnet/output.h"

/* Adds an output of the given mode, named HEADLESS-N, to the right of the existing ones. */
GARNET_EXPORT struct garnet_output *
garnet_headless_add_output(struct garnet_compositor *c, const struct garnet_output_mode *mode);

#endif
