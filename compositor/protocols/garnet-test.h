/* SPDX-License-Identifier: MIT */
/* garnet's test protocol (protocols layer, only with --test-mode): its global, and the captures
 * it answers when a frame is shown. */
#ifndef GARNET_PROTOCOLS_GARNET_TEST_H
#define GARNET_PROTOCOLS_GARNET_TEST_H

#include "../core/output.h"

bool garnet_test_protocol_init(struct garnet_compositor *c);
void garnet_capture_complete(struct garnet_output *output);

#endif
