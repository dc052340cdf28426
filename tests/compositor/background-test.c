// SPDX-License-Identifier: MIT
// The wallpaper garnet draws ([shell] background-image=): a PNG stretched over the output above
// the background colour; a missing, truncated or foreign file is logged with its name and
// leaves the colour, and garnet goes on serving.
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "harness.h"

#define GREEN 0xff00ff00u

struct outcome {
	bool set;
	char path[256];
	char logged[512];
};

static void keep_error(enum garnet_log_level level, const char *scope, const char *message,
		       void *data)
{
	struct outcome *o = data;

	if (level == GARNET_LOG_ERROR && strstr(message, "background-image"))
		snprintf(o->logged, sizeof(o->logged), "%s", message);
}

/* A 4x4 green PNG at path; its size in bytes. */
static long write_green_png(const char *path)
{
	png_image png = {
		.version = PNG_IMAGE_VERSION, .width = 4, .height = 4, .format = PNG_FORMAT_BGRA};
	uint32_t pixels[16];
	FILE *f;
	long size;

	for (int i = 0; i < 16; i++)
		pixels[i] = GREEN;
	if (!png_image_write_to_file(&png, path, 0, pixels, 0, NULL))
		abort();
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fclose(f);
	return size;
}

static void set_image(struct garnet_compositor *c, struct test_context *t, const char *kind)
{
	/* The harness frees it after the test. */
	struct outcome *o = calloc(1, sizeof(*o));

	if (!o)
		abort();
	snprintf(o->path, sizeof(o->path), "/tmp/garnet-background-%d-%s.png", (int)getpid(), kind);
	if (strcmp(kind, "missing") != 0) {
		long size = write_green_png(o->path);

		if (strcmp(kind, "truncated") == 0 && truncate(o->path, size / 2) != 0)
			abort();
		if (strcmp(kind, "text") == 0) {
			FILE *f = fopen(o->path, "w");

			fputs("not a picture\n", f);
			fclose(f);
		}
	}
	garnet_log_set_handler(c, keep_error, o);
	o->set = garnet_compositor_set_background_image(c, o->path);
	garnet_log_set_handler(c, NULL, NULL);
	unlink(o->path);
	test_set_data(t, o);
}

static void good(struct garnet_compositor *c, struct test_context *t)
{
	set_image(c, t, "good");
}

static void truncated(struct garnet_compositor *c, struct test_context *t)
{
	set_image(c, t, "truncated");
}

static void text(struct garnet_compositor *c, struct test_context *t)
{
	set_image(c, t, "text");
}

static void missing(struct garnet_compositor *c, struct test_context *t)
{
	set_image(c, t, "missing");
}

static uint32_t middle_pixel(struct client *c)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	uint32_t pixel = image_pixel(shot, 160, 120);

	pixman_image_unref(shot);
	return pixel | 0xff000000u;
}

TEST_WITH(background_image_covers_the_output, good, DEFAULT_OUTPUT)
{
	struct outcome *o = test_data(t);
	struct client *c = client_create(t);

	check(t, o->set);
	check_int(t, middle_pixel(c), ==, GREEN);
	client_destroy(c);
}

/* The bad file's error, with its name, and the colour. */
static void check_refused(struct test_context *t)
{
	struct outcome *o = test_data(t);
	struct client *c = client_create(t);

	check(t, !o->set);
	check(t, strstr(o->logged, o->path) != NULL);
	check(t, strstr(o->logged, "the background colour is shown instead") != NULL);
	check(t, middle_pixel(c) != GREEN);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST_WITH(truncated_png_is_logged_and_leaves_the_colour, truncated, DEFAULT_OUTPUT)
{
	check_refused(t);
}

TEST_WITH(file_that_is_no_png_is_logged_and_leaves_the_colour, text, DEFAULT_OUTPUT)
{
	check_refused(t);
}

TEST_WITH(missing_file_is_logged_and_leaves_the_colour, missing, DEFAULT_OUTPUT)
{
	check_refused(t);
}
