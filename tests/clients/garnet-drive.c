// SPDX-License-Identifier: MIT
// garnet-drive: a command-line client of the garnet_test protocol, so shell tests can steer a
// garnet --test-mode instance while someone else's client runs: inject keys and pointer events,
// type text, list globals, and capture the first output (PPM) with a count of changed pixels.
#include <linux/input-event-codes.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client.h>

#include "garnet-test-client-protocol.h"

struct drive {
	struct wl_display *display;
	struct wl_registry *registry;
	struct garnet_test *test;
	struct wl_shm *shm;
	struct wl_output *output;
	bool list_globals;
	int32_t width, height;
	bool capture_done;
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct drive *d = data;

	if (d->list_globals)
		printf("%s %u\n", interface, version);
	if (strcmp(interface, garnet_test_interface.name) == 0)
		d->test = wl_registry_bind(registry, name, &garnet_test_interface,
					   version < 5 ? version : 5);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		d->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !d->output)
		d->output = wl_registry_bind(registry, name, &wl_output_interface, 1);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data;
	(void)registry;
	(void)name;
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void output_stats(void *data, struct garnet_test *test, uint32_t frames, uint32_t renders,
			 uint32_t painted_area, int32_t width, int32_t height,
			 uint32_t painted_surfaces)
{
	struct drive *d = data;

	(void)test;
	(void)frames;
	(void)renders;
	(void)painted_area;
	(void)painted_surfaces;
	d->width = width;
	d->height = height;
}

static const struct garnet_test_listener test_listener = {
	.output_stats = output_stats,
};

static void capture_done(void *data, struct wl_callback *callback, uint32_t serial)
{
	struct drive *d = data;

	(void)serial;
	d->capture_done = true;
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener capture_listener = {
	.done = capture_done,
};

static int die(const char *what)
{
	fprintf(stderr, "garnet-drive: %s\n", what);
	return 1;
}

/* Reads a P6 PPM written by capture; NULL when missing or of another size. */
static uint8_t *read_ppm(const char *path, int32_t width, int32_t height)
{
	FILE *f = fopen(path, "rb");
	int w, h, max;
	uint8_t *rgb;

	if (!f)
		return NULL;
	if (fscanf(f, "P6 %d %d %d", &w, &h, &max) != 3 || w != width || h != height ||
	    fgetc(f) == EOF) {
		fclose(f);
		return NULL;
	}
	rgb = malloc((size_t)w * (size_t)h * 3);
	if (rgb && fread(rgb, 3, (size_t)w * (size_t)h, f) != (size_t)w * (size_t)h) {
		free(rgb);
		rgb = NULL;
	}
	fclose(f);
	return rgb;
}

/*
 * Writes the output's pixels to PATH and prints "changed N": the pixels that differ from
 * BASELINE (an earlier capture), or from the top-left pixel when there is none.
 */
static int capture(struct drive *d, const char *path, const char *baseline)
{
	size_t stride, size, changed = 0;
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	struct wl_callback *cb;
	uint8_t *before = NULL, *rgb;
	uint32_t *pixels;
	FILE *f;
	int fd;

	if (!d->shm || !d->output)
		return die("no wl_shm or wl_output");
	garnet_test_query_output(d->test, d->output);
	wl_display_roundtrip(d->display);
	if (d->width <= 0 || d->height <= 0)
		return die("output has no size");
	stride = (size_t)d->width * 4;
	size = stride * (size_t)d->height;
	fd = memfd_create("garnet-drive", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		return die(strerror(errno));
	pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (pixels == MAP_FAILED)
		return die(strerror(errno));
	pool = wl_shm_create_pool(d->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, d->width, d->height, (int32_t)stride,
					   WL_SHM_FORMAT_XRGB8888);
	cb = garnet_test_capture_output(d->test, d->output, buffer);
	wl_callback_add_listener(cb, &capture_listener, d);
	while (!d->capture_done)
		if (wl_display_dispatch(d->display) < 0)
			return die("connection lost during capture");

	if (baseline)
		before = read_ppm(baseline, d->width, d->height);
	rgb = malloc(size / 4 * 3);
	if (!rgb)
		return die("out of memory");
	for (size_t i = 0; i < size / 4; i++) {
		rgb[i * 3] = (uint8_t)(pixels[i] >> 16);
		rgb[i * 3 + 1] = (uint8_t)(pixels[i] >> 8);
		rgb[i * 3 + 2] = (uint8_t)pixels[i];
		if (before ? memcmp(before + i * 3, rgb + i * 3, 3) != 0
			   : (pixels[i] & 0xffffff) != (pixels[0] & 0xffffff))
			changed++;
	}
	f = fopen(path, "wb");
	if (!f)
		return die(strerror(errno));
	fprintf(f, "P6 %d %d 255\n", d->width, d->height);
	fwrite(rgb, 3, size / 4, f);
	fclose(f);
	printf("changed %zu\n", changed);
	free(before);
	free(rgb);
	wl_buffer_destroy(buffer);
	wl_shm_pool_destroy(pool);
	munmap(pixels, size);
	close(fd);
	return 0;
}

struct key_stroke {
	char c;
	uint32_t key;
	bool shift;
};

/* US layout, the keymap garnet uses with no configuration. */
static const struct key_stroke strokes[] = {
	{' ', KEY_SPACE, false},     {'\n', KEY_ENTER, false},     {'-', KEY_MINUS, false},
	{'_', KEY_MINUS, true},      {'=', KEY_EQUAL, false},      {'+', KEY_EQUAL, true},
	{'.', KEY_DOT, false},       {'>', KEY_DOT, true},         {',', KEY_COMMA, false},
	{'<', KEY_COMMA, true},      {'/', KEY_SLASH, false},      {'?', KEY_SLASH, true},
	{';', KEY_SEMICOLON, false}, {':', KEY_SEMICOLON, true},   {'\'', KEY_APOSTROPHE, false},
	{'"', KEY_APOSTROPHE, true}, {'$', KEY_4, true},           {'(', KEY_9, true},
	{')', KEY_0, true},          {'*', KEY_8, true},           {'|', KEY_BACKSLASH, true},
	{'&', KEY_7, true},          {'!', KEY_1, true},           {'@', KEY_2, true},
};

static const uint32_t letter_keys[26] = {
	KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I, KEY_J, KEY_K, KEY_L, KEY_M,
	KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R, KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
};

static const uint32_t digit_keys[10] = {
	KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9,
};

static bool stroke_for(char c, struct key_stroke *out)
{
	if (c >= 'a' && c <= 'z') {
		*out = (struct key_stroke){c, letter_keys[c - 'a'], false};
		return true;
	}
	if (c >= 'A' && c <= 'Z') {
		*out = (struct key_stroke){c, letter_keys[c - 'A'], true};
		return true;
	}
	if (c >= '0' && c <= '9') {
		*out = (struct key_stroke){c, digit_keys[c - '0'], false};
		return true;
	}
	for (size_t i = 0; i < sizeof(strokes) / sizeof(strokes[0]); i++) {
		if (strokes[i].c == c) {
			*out = strokes[i];
			return true;
		}
	}
	return false;
}

static void press(struct drive *d, uint32_t key)
{
	garnet_test_key(d->test, key, WL_KEYBOARD_KEY_STATE_PRESSED);
	garnet_test_key(d->test, key, WL_KEYBOARD_KEY_STATE_RELEASED);
}

static int type_text(struct drive *d, const char *text)
{
	struct key_stroke s;

	for (const char *p = text; *p; p++) {
		if (*p == '\\' && p[1] == 'n') {
			p++;
			press(d, KEY_ENTER);
		} else if (stroke_for(*p, &s)) {
			if (s.shift)
				garnet_test_key(d->test, KEY_LEFTSHIFT, WL_KEYBOARD_KEY_STATE_PRESSED);
			press(d, s.key);
			if (s.shift)
				garnet_test_key(d->test, KEY_LEFTSHIFT,
						WL_KEYBOARD_KEY_STATE_RELEASED);
		} else {
			fprintf(stderr, "garnet-drive: no key for '%c'\n", *p);
			return 1;
		}
		/* Real typing has gaps; clients that batch input still see every key. */
		wl_display_roundtrip(d->display);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: garnet-drive globals\n"
			"       garnet-drive capture FILE.ppm [BASELINE.ppm]\n"
			"       garnet-drive type TEXT      (\\n is Enter)\n"
			"       garnet-drive key CODE\n"
			"       garnet-drive motion X Y\n"
			"       garnet-drive click [BUTTON]\n"
			"       garnet-drive scroll VALUE\n"
			"       garnet-drive wheel VALUE120   (120: one click down)\n");
	return 2;
}

static int run(struct drive *d, int argc, char **argv)
{
	if (strcmp(argv[1], "globals") == 0)
		return 0;
	if (strcmp(argv[1], "capture") == 0 && (argc == 3 || argc == 4))
		return capture(d, argv[2], argc == 4 ? argv[3] : NULL);
	if (strcmp(argv[1], "type") == 0 && argc == 3)
		return type_text(d, argv[2]);
	if (strcmp(argv[1], "key") == 0 && argc == 3) {
		press(d, (uint32_t)strtoul(argv[2], NULL, 0));
		return 0;
	}
	if (strcmp(argv[1], "motion") == 0 && argc == 4) {
		garnet_test_pointer_motion(d->test, wl_fixed_from_double(atof(argv[2])),
					   wl_fixed_from_double(atof(argv[3])));
		return 0;
	}
	if (strcmp(argv[1], "click") == 0 && argc <= 3) {
		uint32_t button = argc == 3 ? (uint32_t)strtoul(argv[2], NULL, 0) : BTN_LEFT;

		garnet_test_pointer_button(d->test, button, WL_POINTER_BUTTON_STATE_PRESSED);
		garnet_test_pointer_button(d->test, button, WL_POINTER_BUTTON_STATE_RELEASED);
		return 0;
	}
	if (strcmp(argv[1], "scroll") == 0 && argc == 3) {
		garnet_test_pointer_axis(d->test, WL_POINTER_AXIS_VERTICAL_SCROLL,
					 wl_fixed_from_double(atof(argv[2])));
		return 0;
	}
	if (strcmp(argv[1], "wheel") == 0 && argc == 3 &&
	    wl_proxy_get_version((struct wl_proxy *)d->test) >= 4) {
		garnet_test_pointer_axis_wheel(d->test, WL_POINTER_AXIS_VERTICAL_SCROLL,
					       (int32_t)strtol(argv[2], NULL, 0));
		return 0;
	}
	return usage();
}

int main(int argc, char **argv)
{
	struct drive d = {0};
	int status;

	if (argc < 2)
		return usage();
	d.list_globals = strcmp(argv[1], "globals") == 0;
	d.display = wl_display_connect(NULL);
	if (!d.display)
		return die("cannot connect to WAYLAND_DISPLAY");
	d.registry = wl_display_get_registry(d.display);
	wl_registry_add_listener(d.registry, &registry_listener, &d);
	wl_display_roundtrip(d.display);
	if (!d.test && !d.list_globals)
		return die("no garnet_test global (is garnet running with --test-mode?)");
	if (d.test)
		garnet_test_add_listener(d.test, &test_listener, &d);
	status = run(&d, argc, argv);
	if (wl_display_roundtrip(d.display) < 0)
		return die("protocol error");
	fflush(stdout);
	if (d.test)
		garnet_test_destroy(d.test);
	if (d.shm)
		wl_shm_destroy(d.shm);
	if (d.output)
		wl_output_destroy(d.output);
	wl_registry_destroy(d.registry);
	wl_display_disconnect(d.display);
	return status;
}
