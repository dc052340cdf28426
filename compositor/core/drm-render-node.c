// SPDX-License-Identifier: MIT
// Which /dev/dri node belongs to garnet.ko: nodes are numbered in probe order, so the driver
// name is what identifies it, not the number.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "gem-buffer.h"

static bool is_garnet(const char *path)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	drmVersionPtr version;
	bool found;

	if (fd < 0)
		return false;
	version = drmGetVersion(fd);
	found = version && version->name && strcmp(version->name, "garnet") == 0;
	drmFreeVersion(version);
	close(fd);
	return found;
}

char *garnet_drm_find_render_node(void)
{
	DIR *dir = opendir("/dev/dri");
	struct dirent *entry;
	char path[300];
	char *found = NULL;

	if (!dir)
		return NULL;
	while (!found && (entry = readdir(dir))) {
		if (strncmp(entry->d_name, "renderD", 7) != 0)
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", entry->d_name);
		if (is_garnet(path))
			found = strdup(path);
	}
	closedir(dir);
	return found;
}
