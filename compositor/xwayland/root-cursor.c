// SPDX-License-Identifier: MIT
#include "root-cursor.h"

/* Glyphs of X's "cursor" font (X11/cursorfont.h): a shape and, one above it, its mask. */
#define CURSOR_FONT_LEFT_PTR 68

void xwm_set_root_cursor(xcb_connection_t *conn, const xcb_screen_t *screen)
{
	xcb_font_t font = xcb_generate_id(conn);
	xcb_cursor_t cursor = xcb_generate_id(conn);

	/* The cursor font is built into every X server (its root cursor comes from it), so
	 * none of this can fail for want of a font file; an error would only leave X's default. */
	xcb_open_font(conn, font, sizeof("cursor") - 1, "cursor");
	xcb_create_glyph_cursor(conn, cursor, font, font, CURSOR_FONT_LEFT_PTR,
				CURSOR_FONT_LEFT_PTR + 1, 0, 0, 0, 0xffff, 0xffff, 0xffff);
	xcb_change_window_attributes(conn, screen->root, XCB_CW_CURSOR, &cursor);
	/* The root holds the cursor; the font was needed only to make it. */
	xcb_free_cursor(conn, cursor);
	xcb_close_font(conn, font);
}
