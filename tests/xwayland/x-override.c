// SPDX-License-Identifier: MIT
// x-override: an X client that maps an override-redirect window (what menus and tooltips are)
// at X, Y for a few seconds, filled so that Xwayland gives it content.
// usage: x-override X Y SECONDS
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <xcb/xcb.h>

int main(int argc, char **argv)
{
	xcb_connection_t *conn;
	xcb_screen_t *screen;
	xcb_window_t win;
	xcb_gcontext_t gc;

	if (argc != 4)
		return 2;
	conn = xcb_connect(NULL, NULL);
	if (xcb_connection_has_error(conn)) {
		fprintf(stderr, "x-override: cannot connect\n");
		return 1;
	}
	screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
	win = xcb_generate_id(conn);
	xcb_create_window(conn, XCB_COPY_FROM_PARENT, win, screen->root, (int16_t)atoi(argv[1]),
			  (int16_t)atoi(argv[2]), 120, 80, 0, XCB_WINDOW_CLASS_INPUT_OUTPUT,
			  screen->root_visual, XCB_CW_BACK_PIXEL | XCB_CW_OVERRIDE_REDIRECT,
			  (uint32_t[]){screen->white_pixel, 1});
	xcb_map_window(conn, win);
	gc = xcb_generate_id(conn);
	xcb_create_gc(conn, gc, win, XCB_GC_FOREGROUND, &screen->black_pixel);
	xcb_poly_fill_rectangle(conn, win, gc, 1, &(xcb_rectangle_t){10, 10, 50, 50});
	xcb_flush(conn);
	printf("mapped 0x%x\n", win);
	fflush(stdout);
	sleep((unsigned int)atoi(argv[3]));
	xcb_disconnect(conn);
	return 0;
}
