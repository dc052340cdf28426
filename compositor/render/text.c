// SPDX-License-Identifier: MIT
// Text in garnet's own pictures (the consent dialog, the list of who records the screen):
// cairo drawing into a pixman image's pixels, with text whatever its bytes, cut to fit.
#include <cairo.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

void garnet_text_set_rgb(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
			     (rgb & 0xff) / 255.0);
}

/* Copies text as valid UTF-8, each byte of a broken sequence as '?': an executable's path is
 * whatever bytes its owner chose, and cairo draws nothing more once given invalid UTF-8. */
static void valid_utf8(char *out, size_t size, const char *text)
{
	static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000}; /* shortest form */
	size_t o = 0;
	const unsigned char *t = (const unsigned char *)text;

	while (*t && o + 1 < size) {
		size_t n = *t < 0x80 ? 1 : (*t & 0xe0) == 0xc0 ? 2 : (*t & 0xf0) == 0xe0 ? 3
		       : (*t & 0xf8) == 0xf0 ? 4 : 0;
		uint32_t cp = n == 1 ? *t : n == 2 ? *t & 0x1f : n == 3 ? *t & 0x0f : *t & 0x07;
		size_t i = 1;

		while (n > 1 && i < n && (t[i] & 0xc0) == 0x80)
			cp = cp << 6 | (t[i++] & 0x3f);
		/* cairo stops drawing at the first invalid sequence, and so would the picture:
		 * cut, overlong and surrogate forms and what lies beyond Unicode become '?'. */
		if (n == 0 || i < n || cp < least[n] || (cp >= 0xd800 && cp <= 0xdfff) ||
		    cp > 0x10ffff || o + n >= size) {
			out[o++] = '?';
			t++;
			continue;
		}
		memcpy(out + o, t, n);
		o += n;
		t += n;
	}
	out[o] = '\0';
}

/* One line at x, baseline y, cut with "..." to fit max_width: an identity can be long. */
void garnet_text_line(cairo_t *cr, const char *text, double x, double y, double max_width)
{
	char buf[320];
	cairo_text_extents_t ext;
	size_t len;

	valid_utf8(buf, sizeof(buf) - 3, text); /* room for the dots */
	len = strlen(buf);
	cairo_text_extents(cr, buf, &ext);
	while (ext.x_advance > max_width && len > 4) {
		/* Back off to a character boundary of UTF-8 before the dots. */
		len--;
		while (len > 0 && ((unsigned char)buf[len] & 0xc0) == 0x80)
			len--;
		memcpy(buf + len, "...", 4);
		cairo_text_extents(cr, buf, &ext);
	}
	cairo_move_to(cr, x, y);
	cairo_show_text(cr, buf);
}

cairo_t *garnet_text_begin(pixman_image_t **image, int width, int height)
{
	cairo_surface_t *surface;
	cairo_t *cr;

	*image = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height, NULL, 0);
	if (!*image)
		return NULL;
	surface = cairo_image_surface_create_for_data(
		(unsigned char *)pixman_image_get_data(*image), CAIRO_FORMAT_RGB24, width, height,
		pixman_image_get_stride(*image));
	cr = cairo_create(surface);
	cairo_surface_destroy(surface); /* cr holds it */
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		pixman_image_unref(*image);
		*image = NULL;
		return NULL;
	}
	return cr;
}

pixman_image_t *garnet_text_end(cairo_t *cr, pixman_image_t *image)
{
	bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;

	cairo_surface_flush(cairo_get_target(cr));
	cairo_destroy(cr);
	if (ok)
		return image;
	/* Half a picture must not pass for a whole one. */
	pixman_image_unref(image);
	return NULL;
}

void garnet_text_panel(cairo_t *cr, uint32_t frame_rgb)
{
	cairo_surface_t *target = cairo_get_target(cr);

	garnet_text_set_rgb(cr, frame_rgb);
	cairo_paint(cr);
	garnet_text_set_rgb(cr, GARNET_TEXT_PANEL_RGB);
	cairo_rectangle(cr, 2, 2, cairo_image_surface_get_width(target) - 4,
			cairo_image_surface_get_height(target) - 4);
	cairo_fill(cr);
}

void garnet_text_font(cairo_t *cr, double size, bool bold)
{
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, size);
}
