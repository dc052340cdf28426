// SPDX-License-Identifier: MIT
// The consent dialog's picture, in the colours of garnet's own lock prompt: the question, the
// asking client's identity as the security layer verified it, what it wants, and three
// buttons named with the keys that answer them. Text is drawn with cairo into pixman's pixels.
#include <cairo.h>
#include <stddef.h>

#include "consent-dialog.h"
#include "text.h"

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

static void draw_button(cairo_t *cr, enum garnet_consent_button button, bool armed)
{
	pixman_box32_t b = garnet_consent_button_box(button);
	cairo_text_extents_t ext;

	garnet_text_set_rgb(cr, armed ? 0xd0d0d0 : 0x606060);
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
	pixman_image_t *image;
	cairo_t *cr = garnet_text_begin(&image, GARNET_CONSENT_WIDTH, GARNET_CONSENT_HEIGHT);
	double width = GARNET_CONSENT_WIDTH - 2 * MARGIN;

	if (!cr)
		return NULL;
	garnet_text_panel(cr, 0xd0d0d0); /* the lock prompt's frame */
	garnet_text_font(cr, 18, true);
	garnet_text_set_rgb(cr, 0xffffff);
	garnet_text_line(cr, text->title, MARGIN, MARGIN + 18, width);
	garnet_text_font(cr, 14, false);
	garnet_text_set_rgb(cr, 0xf0c060);
	garnet_text_line(cr, text->who, MARGIN, MARGIN + 52, width);
	garnet_text_set_rgb(cr, 0xe0e0e0);
	garnet_text_line(cr, text->what, MARGIN, MARGIN + 76, width);
	for (int i = 0; i < GARNET_CONSENT_BUTTONS; i++)
		draw_button(cr, (enum garnet_consent_button)i, text->armed);
	return garnet_text_end(cr, image);
}
