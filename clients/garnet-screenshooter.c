// SPDX-License-Identifier: MIT
// garnet-screenshooter: writes a PNG of the first output. It works only when garnet started it
// itself as its [launcher] screenshooter: any other client is refused the capture.
#include <errno.h>
#include <png.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"

static bool write_png(const struct capture *shot, const char *path)
{
	png_structp png = NULL;
	png_infop info = NULL;
	png_bytep row = malloc((size_t)shot->width * 3);
	FILE *f = fopen(path, "wb");

	if (!f || !row) {
		fprintf(stderr, "garnet-screenshooter: %s: %s\n", path, strerror(errno));
		free(row);
		if (f)
			fclose(f);
		return false;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	if (!png || !info || setjmp(png_jmpbuf(png))) {
		fprintf(stderr, "garnet-screenshooter: cannot encode %s\n", path);
		png_destroy_write_struct(&png, &info);
		free(row);
		fclose(f);
		return false;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, shot->width, shot->height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (uint32_t y = 0; y < shot->height; y++) {
		const uint32_t *src = shot->pixels + (size_t)y * (shot->stride / 4);

		for (uint32_t x = 0; x < shot->width; x++) {
			row[x * 3] = (src[x] >> 16) & 0xff;
			row[x * 3 + 1] = (src[x] >> 8) & 0xff;
			row[x * 3 + 2] = src[x] & 0xff;
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	if (fclose(f) != 0) {
		fprintf(stderr, "garnet-screenshooter: %s: %s\n", path, strerror(errno));
		return false;
	}
	return true;
}

/* Up to 10 s for path to exist: lets a script say when the screen is worth a picture. */
static bool wait_for(const char *path)
{
	struct timespec tick = {0, 50 * 1000 * 1000};

	for (int i = 0; i < 200; i++) {
		if (access(path, F_OK) == 0)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

/* The picture appears under its name whole or not at all: it is written beside it and renamed,
 * so whoever waits for the file never reads half a PNG. */
static bool write_png_whole(const struct capture *shot, const char *path)
{
	char *tmp = NULL;
	bool ok;

	if (asprintf(&tmp, "%s.part", path) < 0)
		return false;
	ok = write_png(shot, tmp);
	if (ok && rename(tmp, path) < 0) {
		fprintf(stderr, "garnet-screenshooter: %s: %s\n", path, strerror(errno));
		ok = false;
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok;
}

int main(int argc, char **argv)
{
	static const char *const outcome[] = {"no screencopy global (not trusted)",
					      "capture refused", "ok"};
	const char *out, *wait_path = NULL;
	struct wl_display *display;
	struct capture shot;
	enum capture_status status;

	if (argc == 4 && strcmp(argv[1], "--wait-for") == 0) {
		wait_path = argv[2];
		out = argv[3];
	} else if (argc == 2 && argv[1][0] != '-') {
		out = argv[1];
	} else {
		fprintf(stderr, "Usage: garnet-screenshooter [--wait-for FILE] OUTPUT.png\n");
		return 2;
	}
	if (wait_path && !wait_for(wait_path)) {
		fprintf(stderr, "garnet-screenshooter: %s did not appear\n", wait_path);
		return 1;
	}
	display = wl_display_connect(NULL);
	if (!display) {
		fprintf(stderr, "garnet-screenshooter: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	status = capture_first_output(display, &shot);
	wl_display_disconnect(display);
	if (status != CAPTURE_READY) {
		fprintf(stderr, "garnet-screenshooter: %s\n",
			status == CAPTURE_ERROR ? "connection error" : outcome[status]);
		return 1;
	}
	status = write_png_whole(&shot, out) ? 0 : 1;
	free(shot.pixels);
	return (int)status;
}
