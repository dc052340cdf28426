/* SPDX-License-Identifier: MIT */
/* The consent dialog's picture (render layer, part of core), drawn with cairo. */
#ifndef GARNET_RENDER_CONSENT_DIALOG_H
#define GARNET_RENDER_CONSENT_DIALOG_H

#include <pixman.h>
#include <stdbool.h>

/* The dialog's picture (render/consent-dialog.c), width x height: the question, the asking
 * client's identity, and the answers, greyed while not armed. NULL: out of memory. */
struct garnet_consent_text {
	const char *title, *who, *what;
	bool armed;
};
#define GARNET_CONSENT_WIDTH 560
#define GARNET_CONSENT_HEIGHT 200
/* Buttons, left to right, in panel coordinates (shared by drawing and hit testing). */
enum garnet_consent_button {
	GARNET_CONSENT_DENY,
	GARNET_CONSENT_ALLOW_ONCE,
	GARNET_CONSENT_ALLOW_SESSION,
	GARNET_CONSENT_BUTTONS,
};
pixman_box32_t garnet_consent_button_box(enum garnet_consent_button button);
pixman_image_t *garnet_consent_draw(const struct garnet_consent_text *text);

#endif
