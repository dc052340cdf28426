// SPDX-License-Identifier: MIT
// The build-tree marker: like Python's pyvenv.cfg, a file beside the executable says where its
// files are. The paths are not compiled in, so an installed garnet holds no build path.
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-tree.h"

static int marker_key(void *data, const char *section, const char *name, const char *value)
{
	struct build_tree *bt = data;
	char *field;

	if (strcmp(section, "build-tree") != 0)
		return 0;
	if (strcmp(name, "policy") == 0)
		field = bt->policy;
	else if (strcmp(name, "config") == 0)
		field = bt->config;
	else if (strcmp(name, "system") == 0)
		field = bt->system;
	else
		return 0;
	/* Absolute paths only: the marker must not depend on where garnet was started. */
	if (value[0] != '/' || strlen(value) >= PATH_MAX)
		return 0;
	strcpy(field, value);
	return 1;
}

bool build_tree_find(struct build_tree *bt)
{
	char exe[PATH_MAX], marker[PATH_MAX];
	struct stat exe_st, st;
	ssize_t len;
	FILE *f;
	int fd, line;

	memset(bt, 0, sizeof(*bt));
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len <= 0)
		return false;
	exe[len] = '\0';
	if (stat(exe, &exe_st) < 0)
		return false;
	if (snprintf(marker, sizeof(marker), "%s/" BUILD_TREE_MARKER, dirname(exe)) >=
	    (int)sizeof(marker))
		return false;
	fd = open(marker, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return false;
	/* The marker chooses the policy: it must be as trusted as the executable itself. */
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != exe_st.st_uid ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		fprintf(stderr, "garnet: ignoring %s: not a regular file of the executable's owner "
				"(uid %u) writable by no one else\n", marker,
			(unsigned int)exe_st.st_uid);
		close(fd);
		return false;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return false;
	}
	line = ini_parse_file(f, marker_key, bt);
	fclose(f);
	if (line != 0 || !bt->policy[0] || !bt->config[0]) {
		fprintf(stderr, "garnet: ignoring %s: it needs [build-tree] policy= and config=, "
				"absolute paths (line %d)\n", marker, line);
		return false;
	}
	bt->owner = exe_st.st_uid;
	return true;
}
