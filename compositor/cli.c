// SPDX-License-Identifier: MIT
// garnet's command line: options, --help and --version.
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: garnet [OPTIONS]\n"
		"A Wayland compositor that keeps clients from spying on, forging or locking out\n"
		"one another.\n\n"
		"  -B, --backend=NAME      backend: headless (the default: outputs in memory),\n"
		"                          drm (the desktop session on a VT, through libseat) or\n"
		"                          wayland (windows in the compositor of WAYLAND_DISPLAY)\n"
		"  -S, --socket=NAME       listen on NAME in XDG_RUNTIME_DIR (default: wayland-N)\n"
		"  -c, --config=FILE       read FILE instead of searching for garnet.ini\n"
		"      --no-config         read no configuration file\n"
		"      --width=PIXELS      headless/wayland output width (default 1024)\n"
		"      --height=PIXELS     headless/wayland output height (default 768)\n"
		"      --scale=N           headless/wayland output scale (default 1)\n"
		"      --seat=NAME         drm: the seat to run on (default: XDG_SEAT or seat0)\n"
		"      --tty=N             drm: switch to VT N and run there (default: this VT)\n"
		"      --drm-device=PATH   drm: the KMS device (default: the seat's first card\n"
		"                          with connectors)\n"
		"  -l, --log=FILE          log to FILE instead of stderr\n"
		"  -d, --debug             log debug messages\n"
		"      --autostart=COMMAND run COMMAND once garnet is up (may be repeated)\n"
		"      --test-mode         expose the garnet_test protocol (test harness only)\n"
		"      --screenshot=FILE   write a PNG of the first output once a window shows\n"
		"                          (or after 5 seconds), and print where\n"
		"      --oneshot           exit after the screenshot instead of running on\n"
		"  -v, --version           print the version and exit\n"
		"  -h, --help              print this help and exit\n\n"
		"garnet.ini is searched in $XDG_CONFIG_HOME (~/.config), then garnet/garnet.ini\n"
		"in each of $XDG_CONFIG_DIRS (/etc/xdg). [launcher], [security] and [limits]\n"
		"are read only from " GARNET_SYSTEM_CONFIG ", which root owns (or from a\n"
		"--config file owned by root and writable by no one else). See garnet.ini(5).\n"
		"SIGTERM and SIGINT shut garnet down cleanly.\n");
}

bool cli_parse(int argc, char **argv, struct cli *cli, int *exit_code)
{
	enum { OPT_NO_CONFIG = 256, OPT_WIDTH, OPT_HEIGHT, OPT_SCALE, OPT_TEST, OPT_SHOT,
	       OPT_ONESHOT, OPT_AUTOSTART, OPT_SEAT, OPT_TTY, OPT_DRM_DEVICE };
	static const struct option longopts[] = {
		{"backend", required_argument, NULL, 'B'},
		{"socket", required_argument, NULL, 'S'},
		{"config", required_argument, NULL, 'c'},
		{"no-config", no_argument, NULL, OPT_NO_CONFIG},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"height", required_argument, NULL, OPT_HEIGHT},
		{"scale", required_argument, NULL, OPT_SCALE},
		{"log", required_argument, NULL, 'l'},
		{"debug", no_argument, NULL, 'd'},
		{"test-mode", no_argument, NULL, OPT_TEST},
		{"screenshot", required_argument, NULL, OPT_SHOT},
		{"oneshot", no_argument, NULL, OPT_ONESHOT},
		{"autostart", required_argument, NULL, OPT_AUTOSTART},
		{"seat", required_argument, NULL, OPT_SEAT},
		{"tty", required_argument, NULL, OPT_TTY},
		{"drm-device", required_argument, NULL, OPT_DRM_DEVICE},
		{"version", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int opt;

	*exit_code = 1;
	while ((opt = getopt_long(argc, argv, "B:S:c:l:dvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			cli->backend = optarg;
			break;
		case 'S':
			cli->socket = optarg;
			break;
		case 'c':
			cli->config_path = optarg;
			break;
		case OPT_NO_CONFIG:
			cli->no_config = true;
			break;
		case OPT_WIDTH:
		case OPT_HEIGHT:
		case OPT_SCALE: {
			int *field = opt == OPT_WIDTH ? &cli->width
				     : opt == OPT_HEIGHT ? &cli->height : &cli->scale;

			if (!config_parse_int(optarg, 1, opt == OPT_SCALE ? 8 : 16384, field)) {
				fprintf(stderr, "garnet: --%s=%s is out of range\n",
					longopts[opt - OPT_NO_CONFIG + 3].name, optarg);
				return false;
			}
			break;
		}
		case 'l':
			cli->log_path = optarg;
			break;
		case 'd':
			cli->debug = true;
			break;
		case OPT_TEST:
			cli->test_mode = true;
			break;
		case OPT_SHOT:
			cli->screenshot = optarg;
			break;
		case OPT_ONESHOT:
			cli->oneshot = true;
			break;
		case OPT_AUTOSTART:
			if (cli->autostart_count == MAX_LIST) {
				fprintf(stderr, "garnet: more than %d --autostart\n", MAX_LIST);
				return false;
			}
			cli->autostart[cli->autostart_count++] = optarg;
			break;
		case OPT_SEAT:
			cli->seat = optarg;
			break;
		case OPT_TTY:
			if (!config_parse_int(optarg, 1, 63, &cli->tty)) {
				fprintf(stderr, "garnet: --tty=%s is not a VT number (1-63)\n",
					optarg);
				return false;
			}
			break;
		case OPT_DRM_DEVICE:
			cli->drm_device = optarg;
			break;
		case 'v':
			printf("garnet %s\n", GARNET_VERSION);
			*exit_code = 0;
			return false;
		case 'h':
			usage(stdout);
			*exit_code = 0;
			return false;
		default:
			usage(stderr);
			return false;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "garnet: unexpected argument '%s'\n", argv[optind]);
		return false;
	}
	if (cli->oneshot && !cli->screenshot) {
		fprintf(stderr, "garnet: --oneshot needs --screenshot\n");
		return false;
	}
	return true;
}
