// SPDX-License-Identifier: MIT
// The 5x7 glyphs of garnet-panel's font (panel-font.h), one string of 35 bits per glyph, top
// row first, and the code that draws them with pixman.
#include <stdbool.h>
#include <string.h>

#include "panel-font.h"

struct glyph {
	char c;
	const char *rows; /* 7 rows of 5 columns, '#' set */
};

/* One glyph a line, for the eye. */
/* clang-format off */
static const struct glyph glyphs[] = {
	{'0', " ### #   ##  ### # ###  ##   # ### "},
	{'1', "  #   ##    #    #    #    #   ### "},
	{'2', " ### #   #    #   #   #   #   #####"},
	{'3', "#####   #   #     #     ##   # ### "},
	{'4', "   #   ##  # # #  # #####   #    # "},
	{'5', "######    ####     #    ##   # ### "},
	{'6', "  ##  #   #    #### #   ##   # ### "},
	{'7', "#####    #   #   #   #    #    #   "},
	{'8', " ### #   ##   # ### #   ##   # ### "},
	{'9', " ### #   ##   # ####    #   #  ##  "},
	{'A', " ### #   ##   #######   ##   ##   #"},
	{'B', "#### #   ##   ##### #   ##   ##### "},
	{'C', " ### #   ##    #    #    #   # ### "},
	{'D', "###  #  # #   ##   ##   ##  # ###  "},
	{'E', "######    #    #### #    #    #####"},
	{'F', "######    #    #### #    #    #    "},
	{'G', " ### #   ##    # ####   ##   # ####"},
	{'H', "#   ##   ##   #######   ##   ##   #"},
	{'I', " ###   #    #    #    #    #   ### "},
	{'J', "  ###   #    #    #    # #  #  ##  "},
	{'K', "#   ##  # # #  ##   # #  #  # #   #"},
	{'L', "#    #    #    #    #    #    #####"},
	{'M', "#   ### ### # ##   ##   ##   ##   #"},
	{'N', "#   ##   ###  ## # ##  ###   ##   #"},
	{'O', " ### #   ##   ##   ##   ##   # ### "},
	{'P', "#### #   ##   ##### #    #    #    "},
	{'Q', " ### #   ##   ##   ## # ##  #  ## #"},
	{'R', "#### #   ##   ##### # #  #  # #   #"},
	{'S', " #####    #     ###     #    ##### "},
	{'T', "#####  #    #    #    #    #    #  "},
	{'U', "#   ##   ##   ##   ##   ##   # ### "},
	{'V', "#   ##   ##   ##   ##   # # #   #  "},
	{'W', "#   ##   ##   ## # ## # ## # # # # "},
	{'X', "#   ##   # # #   #   # # #   ##   #"},
	{'Y', "#   ##   # # #   #    #    #    #  "},
	{'Z', "#####    #   #   #   #   #    #####"},
	{' ', "                                   "},
	{':', "      ##   ##        ##   ##       "},
	{'.', "                          ##   ##  "},
	{',', "                     ##   ##   #   "},
	{'-', "                ###                "},
	{'_', "                              #####"},
	{'/', "    #    #   #   #   #   #    #    "},
	{'(', "   #   #   #    #    #     #     # "},
	{')', " #     #     #    #    #   #   #   "},
	{'\'', "  #    #   #                       "},
	{'!', "  #    #    #    #    #         #  "},
	{'?', " ### #   #    #   #   #         #  "},
};
/* clang-format on */

static const char *rows_of(char c)
{
	if (c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	for (size_t i = 0; i < sizeof(glyphs) / sizeof(glyphs[0]); i++) {
		if (glyphs[i].c == c)
			return glyphs[i].rows;
	}
	return rows_of('?');
}

int font_text_width(const char *text, int max_chars, int scale)
{
	int n = (int)strnlen(text, (size_t)max_chars);

	return n ? (n * FONT_ADVANCE - 1) * scale : 0;
}

void font_draw_text(pixman_image_t *dst, int x, int y, const char *text, int max_chars, int scale,
		    const pixman_color_t *colour)
{
	pixman_box32_t boxes[FONT_WIDTH * FONT_HEIGHT];

	for (int i = 0; i < max_chars && text[i]; i++) {
		const char *rows = rows_of(text[i]);
		int n = 0;

		for (int p = 0; p < FONT_WIDTH * FONT_HEIGHT; p++) {
			int gx = x + (i * FONT_ADVANCE + p % FONT_WIDTH) * scale;
			int gy = y + (p / FONT_WIDTH) * scale;

			if (rows[p] == '#')
				boxes[n++] = (pixman_box32_t){gx, gy, gx + scale, gy + scale};
		}
		if (n)
			pixman_image_fill_boxes(PIXMAN_OP_SRC, dst, colour, n, boxes);
	}
}
