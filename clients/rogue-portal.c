// SPDX-License-Identifier: MIT
// garnet-rogue portal-capture APP_ID PID: a client that is not garnet's portal backend asks
// garnet_portal_v1 for a screen cast on behalf of PID, as if it were the portal. Prints
// "granted", "refused" or "no global" and exits 1 only when it was granted.
// garnet-rogue script: the test's hands, reading commands from stdin through garnet_test
// ("key CODE" presses and releases an evdev key; "combo CODE..." holds them in order and
// releases them in reverse; "motion X Y" moves the pointer there; "press" and "release" the
// left button), printing "ok" after each once garnet has handled it.
#include <linux/input-event-codes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "garnet-portal-v1-client-protocol.h"
#include "garnet-test-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"

struct globals {
	struct garnet_portal_v1 *portal;
	struct garnet_test *test;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct globals *g = data;

	if (strcmp(interface, garnet_portal_v1_interface.name) == 0)
		g->portal = wl_registry_bind(r, name, &garnet_portal_v1_interface, 1);
	else if (strcmp(interface, garnet_test_interface.name) == 0)
		g->test = wl_registry_bind(r, name, &garnet_test_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void on_granted(void *data, struct garnet_portal_capture_v1 *c, const char *output,
		       int32_t w, int32_t h)
{
	*(int *)data = 1;
}

static void on_refused(void *data, struct garnet_portal_capture_v1 *c)
{
	*(int *)data = 2;
}

static void ignore(void)
{
}

static const struct garnet_portal_capture_v1_listener capture_listener = {
	.granted = on_granted,
	.refused = on_refused,
	.damage = (void *)ignore,
	.ready = (void *)ignore,
	.failed = (void *)ignore,
	.paused = (void *)ignore,
	.resumed = (void *)ignore,
	.stopped = (void *)ignore,
};

int rogue_portal_capture(const char *app_id, uint32_t pid)
{
	struct wl_display *display = rogue_connect();
	struct globals g = {0};
	struct garnet_portal_capture_v1 *capture;
	int answer = 0;

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &g);
	if (wl_display_roundtrip(display) < 0 || !g.portal) {
		printf("no global\n");
		return 0;
	}
	capture = garnet_portal_v1_capture(g.portal, app_id, pid, GARNET_PORTAL_V1_KIND_SCREENCAST);
	garnet_portal_capture_v1_add_listener(capture, &capture_listener, &answer);
	while (answer == 0 && wl_display_dispatch(display) >= 0)
		;
	printf("%s\n", answer == 1 ? "granted" : answer == 2 ? "refused" : "disconnected");
	fflush(stdout);
	wl_display_disconnect(display);
	return answer == 1;
}

int rogue_script(void)
{
	struct wl_display *display = rogue_connect();
	struct globals g = {0};
	char line[256];

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &g);
	if (wl_display_roundtrip(display) < 0 || !g.test) {
		fprintf(stderr, "garnet-rogue: script needs garnet_test (--test-mode, trusted)\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin)) {
		uint32_t keys[8];
		int count = 0, used = 0, n;
		char *p = line;
		double x, y;

		if (strncmp(p, "key ", 4) == 0 || strncmp(p, "combo ", 6) == 0) {
			p = strchr(p, ' ');
			while (count < 8 && sscanf(p, "%u%n", &keys[count], &used) == 1) {
				count++;
				p += used;
			}
		} else if (sscanf(p, "motion %lf %lf", &x, &y) == 2) {
			garnet_test_pointer_motion(g.test, wl_fixed_from_double(x),
						   wl_fixed_from_double(y));
		} else if (strncmp(p, "press", 5) == 0 || strncmp(p, "release", 7) == 0) {
			garnet_test_pointer_button(g.test, BTN_LEFT,
						   p[0] == 'p' ? WL_POINTER_BUTTON_STATE_PRESSED
							       : WL_POINTER_BUTTON_STATE_RELEASED);
		}
		for (n = 0; n < count; n++)
			garnet_test_key(g.test, keys[n], WL_KEYBOARD_KEY_STATE_PRESSED);
		for (n = count - 1; n >= 0; n--)
			garnet_test_key(g.test, keys[n], WL_KEYBOARD_KEY_STATE_RELEASED);
		if (wl_display_roundtrip(display) < 0)
			return 2;
		printf("ok\n");
		fflush(stdout);
	}
	wl_display_disconnect(display);
	return 0;
}
