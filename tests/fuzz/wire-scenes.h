/* SPDX-License-Identifier: MIT */
/* Whole, well-formed steps a real client takes (a window mapped with a buffer, a subsurface, a
 * popup with a grab, input devices), so that the fuzzer reaches deep states in a few choices
 * and attacks them from there with its single requests. */
#ifndef GARNET_WIRE_SCENES_H
#define GARNET_WIRE_SCENES_H

#include "wire-client.h"

void wire_scene(struct wire_client *wc, struct fuzz_input *in);

#endif
