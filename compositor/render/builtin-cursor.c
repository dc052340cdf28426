// SPDX-License-Identifier: MIT
// The arrow garnet draws itself when no client has set a cursor image: over the desktop, over a
// client that never set one, during a drag. Without it a user on a real screen would lose the
// pointer whenever it leaves a window.
#include <string.h>

#include "renderer.h"

/* '#' outline, '.' fill, anything else transparent; the hotspot is the tip at (0, 0). */
static const char *const arrow_rows[] = {
	"#",
	"##",
	"#.#",
	"#..#",
	"#...#",
	"#....#",
	"#.....#",
	"#......#",
	"#.......#",
	"#........#",
	"#.........#",
	"#......#####",
	"#...#..#",
	"#..##..#",
	"#.#  #..#",
	"##   #..#",
	"#     #..#",
	"      #..#",
	"       ##",
};

#define ARROW_WIDTH 12
#define ARROW_HEIGHT ((int)(sizeof(arrow_rows) / sizeof(arrow_rows[0])))

pixman_image_t *garnet_builtin_cursor_create(void)
{
	pixman_image_t *image =
		pixman_image_create_bits(PIXMAN_a8r8g8b8, ARROW_WIDTH, ARROW_HEIGHT, NULL, 0);
	uint32_t *pixels;
	int stride;

	if (!image)
		return NULL;
	pixels = pixman_image_get_data(image);
	stride = pixman_image_get_stride(image) / 4;
	for (int y = 0; y < ARROW_HEIGHT; y++) {
		size_t len = strlen(arrow_rows[y]);

		for (int x = 0; x < ARROW_WIDTH; x++) {
			char c = (size_t)x < len ? arrow_rows[y][x] : ' ';

			pixels[y * stride + x] = c == '#'   ? 0xff000000u
						 : c == '.' ? 0xffffffffu
							    : 0;
		}
	}
	return image;
}
