// SPDX-License-Identifier: MIT
// garnet-rogue drive: the "user" of the keylogger test, typing and clicking through the
// privileged garnet_test protocol. It only works as a client garnet trusts.
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "garnet-test-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct garnet_test **test = data;

	if (strcmp(interface, garnet_test_interface.name) == 0)
		*test = wl_registry_bind(r, name, &garnet_test_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

/* The key combinations of garnet.ini's bindings the tests press, as evdev codes held in
 * order and released in reverse. */
static const struct {
	const char *name;
	uint32_t keys[3];
	int count;
} combos[] = {
	{"quit", {29 /* ctrl */, 56 /* alt */, 14 /* BackSpace */}, 3},
	{"print", {99 /* Print (SysRq) */}, 1},
	{"super-l", {125 /* super */, 38 /* l */}, 2},
	{"super-m", {125 /* super */, 50 /* m */}, 2},
};

/* Types lowercase letters (evdev codes of a US keyboard); ',' is Return, after which it
 * waits a moment for whatever the Return started. Escape first, to start from nothing,
 * unless escape_first is false (Escape would answer garnet's consent dialog). */
static void type_text(struct wl_display *display, struct garnet_test *test, const char *text,
		      bool escape_first)
{
	static const uint8_t letters[26] = {30, 48, 46, 32, 18, 33, 34, 35, 23, 36, 37, 38, 50,
					    49, 24, 25, 16, 19, 31, 20, 22, 47, 17, 45, 21, 44};
	struct timespec pause = {1, 500 * 1000 * 1000};

	if (escape_first) {
		garnet_test_key(test, 1 /* Escape */, WL_KEYBOARD_KEY_STATE_PRESSED);
		garnet_test_key(test, 1, WL_KEYBOARD_KEY_STATE_RELEASED);
	}
	for (const char *c = text; *c; c++) {
		uint32_t key = *c == ',' ? 28 /* Return */
			       : *c >= 'a' && *c <= 'z' ? letters[*c - 'a'] : 0;

		if (!key)
			continue;
		garnet_test_key(test, key, WL_KEYBOARD_KEY_STATE_PRESSED);
		garnet_test_key(test, key, WL_KEYBOARD_KEY_STATE_RELEASED);
		if (*c == ',') {
			wl_display_roundtrip(display);
			nanosleep(&pause, NULL);
		}
	}
}

int rogue_drive(const char *go, const char *done, const char *combo)
{
	struct timespec tick = {0, 50 * 1000 * 1000};
	struct wl_display *display = rogue_connect();
	struct garnet_test *test = NULL;
	wl_fixed_t x = wl_fixed_from_int(512), y = wl_fixed_from_int(384);
	FILE *f;
	int i, cx, cy;

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &test);
	if (wl_display_roundtrip(display) < 0 || !test) {
		fprintf(stderr, "garnet-rogue: drive needs garnet_test (--test-mode, trusted)\n");
		return 2;
	}
	for (i = 0; i < 200 && access(go, F_OK) != 0; i++)
		nanosleep(&tick, NULL);
	garnet_test_pointer_motion(test, x, y);
	garnet_test_pointer_button(test, 0x110 /* BTN_LEFT */, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(test, 0x110, WL_POINTER_BUTTON_STATE_RELEASED);
	garnet_test_pointer_axis(test, WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_int(10));
	garnet_test_key(test, 30 /* KEY_A */, WL_KEYBOARD_KEY_STATE_PRESSED);
	garnet_test_key(test, 30, WL_KEYBOARD_KEY_STATE_RELEASED);
	garnet_test_touch_down(test, 0, x, y);
	garnet_test_touch_motion(test, 0, x + wl_fixed_from_int(5), y);
	garnet_test_touch_up(test, 0);
	garnet_test_touch_frame(test);
	if (combo && strncmp(combo, "type:", 5) == 0)
		type_text(display, test, combo + 5, true);
	if (combo && strncmp(combo, "keys:", 5) == 0)
		type_text(display, test, combo + 5, false);
	if (combo && sscanf(combo, "click:%d,%d", &cx, &cy) == 2) {
		garnet_test_pointer_motion(test, wl_fixed_from_int(cx), wl_fixed_from_int(cy));
		garnet_test_pointer_button(test, 0x110, WL_POINTER_BUTTON_STATE_PRESSED);
		garnet_test_pointer_button(test, 0x110, WL_POINTER_BUTTON_STATE_RELEASED);
	}
	/* Held: a drag or a popup grab the click starts stays under way. */
	if (combo && sscanf(combo, "press:%d,%d", &cx, &cy) == 2) {
		garnet_test_pointer_motion(test, wl_fixed_from_int(cx), wl_fixed_from_int(cy));
		garnet_test_pointer_button(test, 0x110, WL_POINTER_BUTTON_STATE_PRESSED);
	}
	for (size_t c = 0; combo && c < sizeof(combos) / sizeof(combos[0]); c++) {
		if (strcmp(combo, combos[c].name) != 0)
			continue;
		for (int k = 0; k < combos[c].count; k++)
			garnet_test_key(test, combos[c].keys[k], WL_KEYBOARD_KEY_STATE_PRESSED);
		for (int k = combos[c].count - 1; k >= 0; k--)
			garnet_test_key(test, combos[c].keys[k], WL_KEYBOARD_KEY_STATE_RELEASED);
	}
	if (wl_display_roundtrip(display) < 0)
		return 2;
	f = fopen(done, "w");
	if (!f)
		return 2;
	fprintf(f, "done\n");
	fclose(f);
	wl_display_disconnect(display);
	return 0;
}
