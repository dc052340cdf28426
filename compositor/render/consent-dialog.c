// SPDX-License-Identifier: MIT
// The consent dialog's picture, in the colours of garnet's own lock prompt: the question, the
// asking client's identity as the security layer verified it, what it wants, and three
// buttons named with the keys that answer them. Text is drawn with cairo into pixman's pixels.
#include <cairo.h>
#include <stdio.h>
#include <string.h>

#include "consent-dialog.h"

#define MARGIN 20
#define BUTTON_HEIGHT 36
#define BUTTON_GAP 12

static const char *const button_labels[GARNET_CONSENT_BUTTONS] = {
	[GARNET_CONSENT_DENY] = "Deny  (N)",
	[GARNET_CONSENT_ALLOW_ONCE] = "Allow once  (Y)",
	[GARNET_CONSENT_ALLOW_SESSION] = "Allow until logout  (S)",
};

pixman_box32_t garnet_consent_button_box(enum garnet_consent_button button)
{
	int32_t width = (GARNET_CONSENT_WIDTH - 2 * MARGIN -
			 (GARNET_CONSENT_BUTTONS - 1) * BUTTON_GAP) / GARNET_CONSENT_BUTTONS;
	int32_t x = MARGIN + (int32_t)button * (width + BUTTON_GAP);
	int32_t y = GARNET_CONSENT_HEIGHT - MARGIN - BUTTON_HEIGHT;

	return (pixman_box32_t){x, y, x + width, y + BUTTON_HEIGHT};
}

static void set_rgb(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
			     (rgb & 0xff) / 255.0);
}

/* Copies text as valid UTF-8, each byte of a broken sequence as '?': an executable's path is
 * whatever bytes its owner chose, and cairo draws nothing more once given invalid UTF-8. */
static void valid_utf8(char *out, size_t size, const char *text)
{
	size_t o = 0;
	const unsigned char *t = (const unsigned char *)text;

	while (*t && o + 1 < size) {
		size_t n = *t < 0x80 ? 1 : (*t & 0xe0) == 0xc0 ? 2 : (*t & 0xf0) == 0xe0 ? 3
		       : (*t & 0xf8) == 0xf0 ? 4 : 0;
		size_t i = 1;

		while (n > 1 && i < n && (t[i] & 0xc0) == 0x80)
			i++;
		/* Overlong and surrogate forms are left to cairo's own check below. */
		if (n == 0 || i < n || (n == 2 && *t < 0xc2) || o + n >= size) {
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
static void text_line(cairo_t *cr, const char *text, double x, double y, double max_width)
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

static void draw_button(cairo_t *cr, enum garnet_consent_button button, bool armed)
{
	pixman_box32_t b = garnet_consent_button_box(button);
	cairo_text_extents_t ext;

	set_rgb(cr, armed ? 0xd0d0d0 : 0x606060);
	cairo_rectangle(cr, b.x1 + 0.5, b.y1 + 0.5, b.x2 - b.x1 - 1, b.y2 - b.y1 - 1);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 12);
	cairo_text_extents(cr, button_labels[button], &ext);
	cairo_move_to(cr, b.x1 + (b.x2 - b.x1 - ext.x_advance) / 2,
		      b.y1 + (b.y2 - b.y1) / 2 + 5);
	cairo_show_text(cr, button_labels[button]);
}

pixman_image_t *garnet_consent_draw(const struct garnet_consent_text *text)
{
	pixman_image_t *image = pixman_image_create_bits(
		PIXMAN_x8r8g8b8, GARNET_CONSENT_WIDTH, GARNET_CONSENT_HEIGHT, NULL, 0);
	cairo_surface_t *surface;
	cairo_t *cr;
	double width = GARNET_CONSENT_WIDTH - 2 * MARGIN;

	if (!image)
		return NULL;
	surface = cairo_image_surface_create_for_data(
		(unsigned char *)pixman_image_get_data(image), CAIRO_FORMAT_RGB24,
		GARNET_CONSENT_WIDTH, GARNET_CONSENT_HEIGHT, pixman_image_get_stride(image));
	cr = cairo_create(surface);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(surface);
		pixman_image_unref(image);
		return NULL;
	}
	/* The lock prompt's frame and body. */
	set_rgb(cr, 0xd0d0d0);
	cairo_paint(cr);
	set_rgb(cr, 0x202428);
	cairo_rectangle(cr, 2, 2, GARNET_CONSENT_WIDTH - 4, GARNET_CONSENT_HEIGHT - 4);
	cairo_fill(cr);

	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 18);
	set_rgb(cr, 0xffffff);
	text_line(cr, text->title, MARGIN, MARGIN + 18, width);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, 14);
	set_rgb(cr, 0xf0c060);
	text_line(cr, text->who, MARGIN, MARGIN + 52, width);
	set_rgb(cr, 0xe0e0e0);
	text_line(cr, text->what, MARGIN, MARGIN + 76, width);
	for (int i = 0; i < GARNET_CONSENT_BUTTONS; i++)
		draw_button(cr, (enum garnet_consent_button)i, text->armed);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		/* Half a dialog must not pass for a whole one. */
		cairo_destroy(cr);
		cairo_surface_destroy(surface);
		pixman_image_unref(image);
		return NULL;
	}
	cairo_destroy(cr);
	cairo_surface_flush(surface);
	cairo_surface_destroy(surface);
	return image;
}
