/* SPDX-License-Identifier: MIT */
/* garnet-panel's text: a 5x7 bitmap font of its own (digits, letters shown upper case and a
 * few signs), so that its pixels are the same on every machine (a screenshot test compares
 * them) and the panel needs no font library. */
#ifndef GARNET_PANEL_FONT_H
#define GARNET_PANEL_FONT_H

#include <pixman.h>
#include <stdint.h>

#define FONT_WIDTH 5
#define FONT_HEIGHT 7
#define FONT_ADVANCE 6 /* a glyph and a column of space, at scale 1 */

/* Width in pixels of the first max_chars characters of text drawn at scale. */
int font_text_width(const char *text, int max_chars, int scale);

/* Draws the first max_chars characters of text with its top left corner at x, y, each font
 * pixel a scale x scale square of colour; characters the font lacks are drawn as '?'. */
void font_draw_text(pixman_image_t *dst, int x, int y, const char *text, int max_chars, int scale,
		    const pixman_color_t *colour);

#endif
