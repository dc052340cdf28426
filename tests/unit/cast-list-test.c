// SPDX-License-Identifier: MIT
// The list of who records the screen (compositor/render/cast-list.c), drawn from lines an
// application partly chose (its executable's path): its size stays bounded however many casts
// and however long or broken the lines, and what it draws stays inside its frame. TAP.
#include <stdio.h>
#include <string.h>

#include "cast-list.h"

#define FRAME_RGB 0xe01010
#define BODY_RGB 0x202428

static int failures, count;

static void ok(int cond, const char *name)
{
	count++;
	printf("%s %d - %s\n", cond ? "ok" : "not ok", count, name);
	failures += !cond;
}

static uint32_t rgb_at(pixman_image_t *image, int x, int y)
{
	uint32_t *row = (uint32_t *)((char *)pixman_image_get_data(image) +
				     (size_t)y * (size_t)pixman_image_get_stride(image));

	return row[x] & 0xffffff;
}

static int height_of(const char *const *lines, size_t count)
{
	pixman_image_t *image = garnet_cast_list_draw(lines, count);
	int h = image ? pixman_image_get_height(image) : -1;

	if (image)
		pixman_image_unref(image);
	return h;
}

/* The frame is whole (its two outer pixels all round) and the right margin holds body colour
 * only: a line too long for the list was cut, not drawn over the frame. */
static int framed(pixman_image_t *image)
{
	int w = pixman_image_get_width(image), h = pixman_image_get_height(image);

	for (int y = 0; y < h; y++) {
		if (rgb_at(image, 0, y) != FRAME_RGB || rgb_at(image, w - 1, y) != FRAME_RGB)
			return 0;
		for (int x = w - 6; x < w - 2; x++) {
			if (y >= 2 && y < h - 2 && rgb_at(image, x, y) != BODY_RGB)
				return 0;
		}
	}
	for (int x = 0; x < w; x++) {
		if (rgb_at(image, x, 0) != FRAME_RGB || rgb_at(image, x, h - 1) != FRAME_RGB)
			return 0;
	}
	return 1;
}

int main(void)
{
	const char *many[40];
	char long_line[4096], broken[64];
	const char *odd[2] = {long_line, broken};
	pixman_image_t *image;
	int one, eight;

	for (size_t i = 0; i < 40; i++)
		many[i] = "pid 4242 exe /usr/bin/recorder: HEADLESS-1";
	one = height_of(many, 1);
	eight = height_of(many, GARNET_CAST_LIST_LINES);
	ok(one > 0 && height_of(many, 2) - one == (eight - one) / (GARNET_CAST_LIST_LINES - 1),
	   "each_cast_is_a_line_of_its_own");
	ok(height_of(many, 40) == eight && height_of(many, GARNET_CAST_LIST_LINES + 1) == eight,
	   "more_casts_than_lines_end_in_a_count_not_a_taller_list");

	memset(long_line, 'W', sizeof(long_line) - 1);
	long_line[sizeof(long_line) - 1] = '\0';
	memcpy(long_line, "pid 1 exe /", 11);
	/* Bytes no UTF-8 decoder takes: cut sequences, overlong forms, a surrogate. */
	snprintf(broken, sizeof(broken), "pid 2 exe /tmp/\xc3\x28\xe2\x82\xc0\xaf\xed\xa0\x80\xff: x");
	image = garnet_cast_list_draw(odd, 2);
	ok(image && pixman_image_get_width(image) == GARNET_CAST_LIST_WIDTH && framed(image),
	   "a_line_too_long_or_not_utf8_is_cut_inside_the_frame");
	if (image)
		pixman_image_unref(image);
	printf("1..%d\n", count);
	return failures != 0;
}
