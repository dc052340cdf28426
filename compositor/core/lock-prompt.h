/* SPDX-License-Identifier: MIT */
/* garnet's own lock screen (core layer): the password prompt shown while a session lock's
 * locker is gone. Its state is the compositor's lock_prompt, whose fields only lock-prompt.c
 * knows. */
#ifndef GARNET_CORE_LOCK_PROMPT_H
#define GARNET_CORE_LOCK_PROMPT_H

#include "compositor.h"

struct garnet_output;

/* garnet's own lock screen: shown while the lock is abandoned and an authenticator is set. */
bool garnet_lock_prompt_active(struct garnet_compositor *c);
/* An authenticator is set: garnet can show its own lock screen. */
bool garnet_lock_prompt_available(struct garnet_compositor *c);
/* The prompt in the middle of output o (every output shows it). */
bool garnet_lock_prompt_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_lock_prompt_image(struct garnet_compositor *c);
/* A hardware key while the prompt is up: true when it took it (no client gets it). */
bool garnet_lock_prompt_key(struct garnet_compositor *c, uint32_t key, bool pressed);
/* Makes the prompt's state (hidden until a lock is abandoned); false when out of memory. */
bool garnet_lock_prompt_init(struct garnet_compositor *c);
/* Forgets what was typed and frees the prompt's state. */
void garnet_lock_prompt_finish(struct garnet_compositor *c);

#endif
