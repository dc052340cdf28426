/* SPDX-License-Identifier: MIT */
/* The text input enabled on the focused surface (protocols layer, text-input.c), as the input
 * method and the test protocol see it. */
#ifndef GARNET_PROTOCOLS_TEXT_INPUT_H
#define GARNET_PROTOCOLS_TEXT_INPUT_H

#include "../core/compositor.h"

/* What an input method composed, for the text input being typed into. NULL strings and zero
 * lengths leave that part out. */
struct garnet_text_edit {
	const char *preedit;
	int32_t preedit_begin, preedit_end;
	const char *commit;
	uint32_t delete_before, delete_after;
};
/* What the input method is told of the text input enabled on the focused surface. */
struct garnet_text_input_info {
	const void *id; /* the same while it is the same text input */
	struct garnet_surface *surface;
	const char *surrounding; /* NULL when the client sent none */
	int32_t cursor, anchor;
	uint32_t change_cause, hint, purpose;
	int32_t rect[4]; /* cursor rectangle, surface-local */
};
/* false when no text input is enabled on the focused surface. */
bool garnet_text_input_current(struct garnet_compositor *c, struct garnet_text_input_info *out);
/* Emitted (data: the compositor) when the enabled text input or its state changes. */
struct wl_signal *garnet_text_input_changed(struct garnet_compositor *c);
/* Sends the edit, then done, to the text input enabled on the surface with the keyboard
 * focus; false when there is none (nothing is sent). */
bool garnet_text_input_deliver(struct garnet_compositor *c, const struct garnet_text_edit *edit);

#endif
