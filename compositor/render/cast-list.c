// SPDX-License-Identifier: MIT
// The list of who records the screen, in the consent dialog's colours: a title, then one
// line per running cast naming the application as garnet verified it and what it sees.
#include <stdio.h>

#include "cast-list.h"
#include "text.h"

#define PAD 10
#define TITLE_HEIGHT 22
#define LINE_HEIGHT 20

pixman_image_t *garnet_cast_list_draw(const char *const *lines, size_t count)
{
	size_t shown = count > GARNET_CAST_LIST_LINES ? GARNET_CAST_LIST_LINES - 1 : count;
	size_t rows = shown + (shown < count);
	int height = 2 * PAD + TITLE_HEIGHT + (int)rows * LINE_HEIGHT;
	double width = GARNET_CAST_LIST_WIDTH - 2 * PAD;
	pixman_image_t *image;
	char more[64];
	cairo_t *cr = garnet_text_begin(&image, GARNET_CAST_LIST_WIDTH, height);

	if (!cr)
		return NULL;
	garnet_text_panel(cr, 0xe01010); /* framed in the indicator's red */
	garnet_text_font(cr, 14, true);
	garnet_text_set_rgb(cr, 0xffffff);
	garnet_text_line(cr, "Your screen is shared with", PAD, PAD + 14, width);
	garnet_text_font(cr, 12, false);
	garnet_text_set_rgb(cr, 0xf0c060);
	for (size_t i = 0; i < rows; i++) {
		const char *text = lines[i];

		if (i == shown) {
			snprintf(more, sizeof(more), "and %zu more", count - shown);
			text = more;
		}
		garnet_text_line(cr, text, PAD, PAD + TITLE_HEIGHT + (double)i * LINE_HEIGHT + 14,
				 width);
	}
	return garnet_text_end(cr, image);
}
