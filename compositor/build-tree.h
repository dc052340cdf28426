// SPDX-License-Identifier: MIT
// garnet started from its meson build directory reads the repository's data/ files in place of
// the installed ones, so that ./run and the tests need nothing installed.
#ifndef GARNET_BUILD_TREE_H
#define GARNET_BUILD_TREE_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* The name of the file meson writes next to the garnet it builds (never installed). */
#define BUILD_TREE_MARKER "garnet-build-tree.ini"

struct build_tree {
	char policy[PATH_MAX]; /* the repository's data/wmac.policy */
	char config[PATH_MAX]; /* data/garnet.ini: the default when the user has none */
	/* The build tree's system garnet.ini (its [launcher]: the panel of the build tree), as
	 * trusted as the policy; empty: none. */
	char system[PATH_MAX];
	uid_t owner; /* who owns the executable, and so who may own the policy */
};

/*
 * True when the running executable has the marker beside it, owned by the executable's owner
 * and writable by no one else; bt then holds the marker's paths. An installed garnet has no
 * marker: only root can put one in /usr/bin. A marker that is there but wrong is said on
 * stderr and ignored.
 */
bool build_tree_find(struct build_tree *bt);

#endif
