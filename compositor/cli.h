// SPDX-License-Identifier: MIT
// garnet's command line.
#ifndef GARNET_CLI_H
#define GARNET_CLI_H

#include <stdbool.h>

#include "config.h"

struct cli {
	const char *config_path;
	bool no_config, debug, test_mode, oneshot;
	const char *backend, *socket, *log_path, *screenshot;
	const char *seat, *drm_device;
	int tty;
	const char *autostart[MAX_LIST];
	int autostart_count;
	int width, height, scale;
};

/* Fills cli from argv; false when garnet is to exit now, with *exit_code (0 after --help or
 * --version, 1 after a bad argument, said on stderr). */
bool cli_parse(int argc, char **argv, struct cli *cli, int *exit_code);

#endif
