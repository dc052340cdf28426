// SPDX-License-Identifier: MIT
// garnet-rogue: a hostile client for the security tests, one subcommand per attack. Each
// subcommand exits 0 when the attack FAILED (what garnet must ensure), 1 when it succeeded,
// 2 on a usage or connection error.
#include <errno.h>
#include <stdbool.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "capture.h"
#include "rogue.h"

#define MAX_NAMES 256

struct registry_list {
	uint32_t names[MAX_NAMES];
	char *interfaces[MAX_NAMES];
	int count;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
		      const char *interface, uint32_t version)
{
	struct registry_list *list = data;

	(void)registry;
	(void)version;
	if (list->count < MAX_NAMES) {
		list->names[list->count] = name;
		list->interfaces[list->count++] = strdup(interface);
	}
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

struct wl_display *rogue_connect(void)
{
	struct wl_display *display = wl_display_connect(NULL);

	if (!display) {
		fprintf(stderr, "garnet-rogue: cannot connect: %s\n", strerror(errno));
		exit(2);
	}
	return display;
}

int rogue_report_connection(struct wl_display *display, const char *what)
{
	int err = wl_display_get_error(display);

	printf("%s; %s\n", what,
	       err == 0 ? "still connected" : err == EPROTO ? "protocol error" : strerror(err));
	fflush(stdout);
	return err;
}

uint64_t rogue_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int rogue_dispatch_timeout(struct wl_display *display, int timeout_ms)
{
	struct pollfd p = {wl_display_get_fd(display), POLLIN, 0};

	while (wl_display_prepare_read(display) != 0)
		wl_display_dispatch_pending(display);
	wl_display_flush(display);
	if (poll(&p, 1, timeout_ms) > 0) {
		if (wl_display_read_events(display) < 0)
			return -1;
	} else {
		wl_display_cancel_read(display);
	}
	return wl_display_dispatch_pending(display) < 0 ? -1 : 0;
}

static struct wl_registry *list_globals(struct wl_display *display, struct registry_list *list)
{
	struct wl_registry *registry = wl_display_get_registry(display);

	wl_registry_add_listener(registry, &registry_listener, list);
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "garnet-rogue: registry roundtrip failed\n");
		exit(2);
	}
	return registry;
}

/* globals FILE: writes every global this client can see, one interface a line ("-": stdout).
 * Not an attack: the tests compare what a launched and a public client see. */
static int cmd_globals(const char *path)
{
	struct wl_display *display = rogue_connect();
	struct registry_list list = {0};
	FILE *out = strcmp(path, "-") == 0 ? stdout : fopen(path, "a");

	if (!out) {
		fprintf(stderr, "garnet-rogue: %s: %s\n", path, strerror(errno));
		return 2;
	}
	list_globals(display, &list);
	for (int i = 0; i < list.count; i++)
		fprintf(out, "%s\n", list.interfaces[i]);
	fprintf(out, "--\n");
	if (out != stdout)
		fclose(out);
	wl_display_disconnect(display);
	return 0;
}

static bool seen(const struct registry_list *list, uint32_t name)
{
	for (int i = 0; i < list->count; i++) {
		if (list->names[i] == name)
			return true;
	}
	return false;
}

/* Binds name as interface on a fresh connection; true if the compositor accepted it. */
static bool try_bind(uint32_t name, const char *interface)
{
	/* A stand-in interface with the hidden global's name: the registry checks only the
	 * name, and no request is ever sent on the result. */
	struct wl_interface guess = {.name = interface, .version = 1};
	struct wl_display *display = rogue_connect();
	struct registry_list list = {0};
	struct wl_registry *registry = list_globals(display, &list);
	uint32_t code;
	int err;

	wl_registry_bind(registry, name, &guess, 1);
	err = wl_display_roundtrip(display) < 0 ? wl_display_get_error(display) : 0;
	if (err == EPROTO) {
		code = wl_display_get_protocol_error(display, NULL, NULL);
		printf("name %u: protocol error %u\n", name, code);
	} else if (err) {
		printf("name %u: connection error %s\n", name, strerror(err));
	}
	wl_display_disconnect(display);
	return err == 0;
}

/* bind-hidden INTERFACE: guesses the names of globals the registry did not show and binds
 * each as INTERFACE. */
static int cmd_bind_hidden(const char *interface)
{
	struct wl_display *display = rogue_connect();
	struct registry_list list = {0};
	uint32_t max = 0;
	int tried = 0;

	list_globals(display, &list);
	wl_display_disconnect(display);
	for (int i = 0; i < list.count; i++) {
		if (strcmp(list.interfaces[i], interface) == 0) {
			printf("%s is visible\n", interface);
			return 1;
		}
		if (list.names[i] > max)
			max = list.names[i];
	}
	for (uint32_t name = 1; name <= max + 3; name++) {
		if (seen(&list, name))
			continue;
		tried++;
		if (try_bind(name, interface)) {
			printf("bound %s as name %u\n", interface, name);
			return 1;
		}
	}
	printf("%d guesses, all refused\n", tried);
	return 0;
}

/* screencopy: captures the first output through zwlr_screencopy_manager_v1 if it can see it. */
/* screencopy [FILE]: what happened goes to stdout, or to FILE followed by "status N" (a
 * launched client has no shell to redirect its output). */
static int cmd_screencopy(const char *path)
{
	static const char *const said[] = {"the global is not visible", "the capture failed",
					   "got the pixels"};
	struct wl_display *display = rogue_connect();
	struct capture shot;
	enum capture_status status = capture_first_output(display, &shot);

	wl_display_disconnect(display);
	if (status == CAPTURE_ERROR) {
		fprintf(stderr, "garnet-rogue: connection error during the capture\n");
		return 2;
	}
	free(shot.pixels);
	if (path) {
		FILE *f = fopen(path, "a");

		if (!f)
			return 2;
		fprintf(f, "%s\nstatus %d\n", said[status], status == CAPTURE_READY);
		fclose(f);
	} else {
		printf("%s\n", said[status]);
	}
	return status == CAPTURE_READY ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "Usage: garnet-rogue globals FILE\n"
			"       garnet-rogue bind-hidden INTERFACE\n"
			"       garnet-rogue screencopy [FILE]\n"
			"       garnet-rogue window LOG WIDTH HEIGHT\n"
			"       garnet-rogue text-field LOG WIDTH HEIGHT\n"
			"       garnet-rogue drive GO DONE "
			"[quit|print|super-l|click:X,Y|press:X,Y|type:TEXT|keys:TEXT]\n"
			"       garnet-rogue video LOG WIDTH HEIGHT [menu|menu-video|grow|throb]\n"
			"       garnet-rogue portal-capture APP_ID PID\n"
			"       garnet-rogue portal-backend [PID...] PID\n"
			"       garnet-rogue script\n"
			"       garnet-rogue lock FILE\n"
			"       garnet-rogue locker FILE [WAIT]\n"
			"       garnet-rogue clip-victim FILE GO\n"
			"       garnet-rogue paste FILE [primary]\n"
			"       garnet-rogue clip-sniff FILE\n"
			"       garnet-rogue flood COUNT\n"
			"       garnet-rogue frames FILE SECONDS\n"
			"       garnet-rogue shortcuts FILE SECONDS\n"
			"       garnet-rogue lifetime ATTACK\n"
			"       garnet-rogue cover FILE cursor|drag|popup\n"
			"       garnet-rogue layer FILE LAYER [keyboard=K] [anchor=tblr] [size=WxH] ...\n"
			"       garnet-rogue layer-abuse ATTACK\n"
			"       garnet-rogue toplevels FILE [SECONDS]\n"
			"       garnet-rogue panel-launch FILE NAME [COUNT]\n"
			"       garnet-rogue vpointer FILE X Y WIDTH HEIGHT\n"
			"       garnet-rogue power FILE off,on\n"
			"       garnet-rogue outman FILE move|extremes|modes|toggle\n"
			"       garnet-rogue idle FILE TIMEOUT_MS SECONDS\n"
			"       garnet-rogue registries COUNT\n"
			"       garnet-rogue popup FILE none|window|unmapped forged|click|stale\n"
			"       garnet-rogue activation FILE replay|expire\n"
			"       garnet-rogue token-flood FILE COUNT\n"
			"       garnet-rogue launched FILE\n"
			"       garnet-rogue pool SURFACES | regions COUNT | ping SECONDS\n"
			"       garnet-rogue objects surfaces|subsurfaces|mime-types COUNT\n"
			"       garnet-rogue truncated-pool | bad-keymap | big WIDTH HEIGHT\n"
			"       garnet-rogue commit-flood WIDTH HEIGHT SECONDS\n"
			"       garnet-rogue shown-pool WINDOWS SECONDS | sparse WIDTH HEIGHT SECONDS\n"
			"       garnet-rogue truncate-shown | reuse-ids COUNT | release-flood SECONDS\n"
			"       garnet-rogue destroy-shown buffer|pool ARGB SECONDS\n"
			"Exit status: 0 the attack failed, 1 it succeeded, 2 error.\n");
}

int main(int argc, char **argv)
{
	int status;

	if (argc >= 4 && strcmp(argv[1], "layer") == 0)
		return rogue_layer(argc, argv);
	if (argc == 3 && strcmp(argv[1], "layer-abuse") == 0)
		return rogue_layer_abuse(argv[2]);
	if (argc == 7 && strcmp(argv[1], "vpointer") == 0)
		return rogue_vpointer(argv[2], (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]),
				      (uint32_t)atoi(argv[5]), (uint32_t)atoi(argv[6]));
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "panel-launch") == 0)
		return rogue_panel_launch(argv[2], argv[3], argc == 5 ? atoi(argv[4]) : 1);
	if (argc == 4 && strcmp(argv[1], "power") == 0)
		return rogue_power(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "outman") == 0)
		return rogue_outman(argv[2], argv[3]);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "toplevels") == 0)
		return rogue_toplevels(argv[2], argc == 4 ? atoi(argv[3]) : 3600);
	if (argc == 3 && strcmp(argv[1], "globals") == 0)
		return cmd_globals(argv[2]);
	if (argc == 3 && strcmp(argv[1], "bind-hidden") == 0)
		return cmd_bind_hidden(argv[2]);
	if (argc == 3 && strcmp(argv[1], "inhibit") == 0)
		return rogue_inhibit(argv[2]);
	if ((argc == 5 || argc == 6) && strcmp(argv[1], "window") == 0)
		return rogue_window(argv[2], atoi(argv[3]), atoi(argv[4]), false,
				    argc == 6 ? (uint32_t)strtoul(argv[5], NULL, 16) : 0x4080c0);
	if (argc == 5 && strcmp(argv[1], "text-field") == 0)
		return rogue_window(argv[2], atoi(argv[3]), atoi(argv[4]), true, 0x4080c0);
	if ((argc == 5 || argc == 6) && strcmp(argv[1], "video") == 0)
		return rogue_video(argv[2], atoi(argv[3]), atoi(argv[4]),
				   argc == 6 ? argv[5] : NULL);
	if (argc == 4 && strcmp(argv[1], "portal-capture") == 0)
		return rogue_portal_capture(argv[2], (uint32_t)strtoul(argv[3], NULL, 10));
	if (argc >= 3 && argc <= 10 && strcmp(argv[1], "portal-backend") == 0) {
		uint32_t pids[8];

		for (int i = 2; i < argc; i++)
			pids[i - 2] = (uint32_t)strtoul(argv[i], NULL, 10);
		return rogue_portal_backend(pids, argc - 2);
	}
	if (argc == 2 && strcmp(argv[1], "script") == 0)
		return rogue_script();
	if ((argc == 4 || argc == 5) && strcmp(argv[1], "drive") == 0)
		return rogue_drive(argv[2], argv[3], argc == 5 ? argv[4] : NULL);
	if (argc == 3 && strcmp(argv[1], "lock") == 0)
		return rogue_lock(argv[2], NULL, false);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "locker") == 0)
		return rogue_lock(argv[2], argc == 4 ? argv[3] : NULL, true);
	if (argc == 4 && strcmp(argv[1], "clip-victim") == 0)
		return rogue_clipboard(argv[2], argv[3], true);
	if (argc == 3 && strcmp(argv[1], "clip-sniff") == 0)
		return rogue_clipboard(argv[2], NULL, false);
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "paste") == 0)
		return rogue_paste(argv[2], argc == 4 && strcmp(argv[3], "primary") == 0);
	if (argc == 4 && strcmp(argv[1], "rename-flood") == 0)
		return rogue_rename_flood(argv[2], atol(argv[3]));
	if (argc == 3 && strcmp(argv[1], "flood") == 0)
		return rogue_flood(atol(argv[2]));
	if (argc == 4 && strcmp(argv[1], "frames") == 0)
		return rogue_frames(argv[2], atoi(argv[3]));
	if (argc == 4 && strcmp(argv[1], "cover") == 0)
		return rogue_cover(argv[2], argv[3]);
	if (argc == 5 && strcmp(argv[1], "idle") == 0)
		return rogue_idle(argv[2], (uint32_t)strtoul(argv[3], NULL, 10), atoi(argv[4]));
	if (argc == 3 && strcmp(argv[1], "registries") == 0)
		return rogue_registries(atol(argv[2]));
	if (argc == 4 && strcmp(argv[1], "shortcuts") == 0)
		return rogue_shortcuts(argv[2], atoi(argv[3]));
	if (argc == 3 && strcmp(argv[1], "lifetime") == 0)
		return rogue_lifetime(argv[2]);
	if (argc == 5 && strcmp(argv[1], "popup") == 0)
		return rogue_popup(argv[2], argv[3], argv[4]);
	if (argc == 4 && strcmp(argv[1], "activation") == 0)
		return rogue_activation(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "token-flood") == 0)
		return rogue_token_flood(argv[2], atol(argv[3]));
	if (argc == 3 && strcmp(argv[1], "launched") == 0)
		return rogue_launched(argv[2]);
	if (argc == 2 && strcmp(argv[1], "screencopy") == 0)
		return cmd_screencopy(NULL);
	if (argc == 3 && strcmp(argv[1], "screencopy") == 0)
		return cmd_screencopy(argv[2]);
	status = rogue_budget(argc, argv);
	if (status >= 0)
		return status;
	status = rogue_zerocopy(argc, argv);
	if (status >= 0)
		return status;
	usage();
	return 2;
}
