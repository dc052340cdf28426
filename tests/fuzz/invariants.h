/* SPDX-License-Identifier: MIT */
/* What must hold in garnet after every request a client can send: checked by the wire fuzzer
 * after each step, so a broken promise stops the run at the input that broke it. */
#ifndef GARNET_FUZZ_INVARIANTS_H
#define GARNET_FUZZ_INVARIANTS_H

#include <stdbool.h>

struct garnet_compositor;

/* Aborts with a message naming the broken rule. */
void check_invariants(struct garnet_compositor *c);
/* With every client gone: nothing of theirs may be left in the scene or the seat. */
void check_nothing_left(struct garnet_compositor *c);

#endif
