// SPDX-License-Identifier: MIT
// garnet-rogue power: zwlr_output_power_v1 from the client side. An ordinary client wants to
// darken the screens (to hide garnet's lock screen or its dialog, or to make the user believe
// the machine is off); started as the idle daemon it is the trusted one.
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"

struct power {
	struct wl_output *output;
	struct zwlr_output_power_manager_v1 *manager;
	FILE *out;
	bool failed;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct power *p = data;

	if (strcmp(interface, zwlr_output_power_manager_v1_interface.name) == 0)
		p->manager = wl_registry_bind(r, name, &zwlr_output_power_manager_v1_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !p->output)
		p->output = wl_registry_bind(r, name, &wl_output_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void on_mode(void *data, struct zwlr_output_power_v1 *control, uint32_t mode)
{
	struct power *p = data;

	fprintf(p->out, "mode %s\n", mode == ZWLR_OUTPUT_POWER_V1_MODE_OFF ? "off" : "on");
	fflush(p->out);
}

static void on_failed(void *data, struct zwlr_output_power_v1 *control)
{
	struct power *p = data;

	p->failed = true;
	fprintf(p->out, "failed\n");
	fflush(p->out);
}

static const struct zwlr_output_power_v1_listener control_listener = {on_mode, on_failed};

/* power FILE STEPS: asks for the first output's power control and sets each mode of STEPS
 * (off, on, separated by commas, 300 ms apart), logging to FILE "no-global", every "mode
 * off|on" and "failed" it hears, "done", and how the connection stands. Then it stays, logging
 * what it hears, until killed (a launched client must not exit). 1 when an output went off at
 * its request. */
int rogue_power(const char *path, const char *steps)
{
	struct power p = {0};
	struct wl_display *display = rogue_connect();
	struct zwlr_output_power_v1 *control;
	char list[256], *step, *save;
	bool darkened = false;
	int err;

	p.out = fopen(path, "w");
	if (!p.out)
		return 2;
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &p);
	wl_display_roundtrip(display);
	if (!p.manager || !p.output) {
		fprintf(p.out, "no-global\n");
		fclose(p.out);
		pause();
		return 0;
	}
	control = zwlr_output_power_manager_v1_get_output_power(p.manager, p.output);
	zwlr_output_power_v1_add_listener(control, &control_listener, &p);
	wl_display_roundtrip(display);
	snprintf(list, sizeof(list), "%s", steps);
	for (step = strtok_r(list, ",", &save); step && !p.failed;
	     step = strtok_r(NULL, ",", &save)) {
		bool off = strcmp(step, "off") == 0;

		zwlr_output_power_v1_set_mode(control, off ? ZWLR_OUTPUT_POWER_V1_MODE_OFF
							   : ZWLR_OUTPUT_POWER_V1_MODE_ON);
		wl_display_roundtrip(display);
		darkened |= off && !p.failed;
		usleep(300000);
	}
	err = wl_display_get_error(display);
	fprintf(p.out, "done\n%s\n", err ? "protocol-error" : "connected");
	fflush(p.out);
	if (!err)
		while (wl_display_dispatch(display) >= 0)
			;
	fclose(p.out);
	return darkened ? 1 : 0;
}
