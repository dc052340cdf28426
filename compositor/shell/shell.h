/* SPDX-License-Identifier: MIT */
/* The shell (shell layer) as globals.c sees it: made after core and the protocols, it installs
 * its hooks (core/shell-hooks.h) and is the focus and stacking authority. What the shell's own
 * files share is in shell-private.h. */
#ifndef GARNET_SHELL_SHELL_H
#define GARNET_SHELL_SHELL_H

#include "../core/compositor.h"

struct garnet_shell *garnet_shell_create(struct garnet_compositor *c);
void garnet_shell_destroy(struct garnet_shell *shell);

#endif
