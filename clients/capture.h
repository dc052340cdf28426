/* SPDX-License-Identifier: MIT */
/* One screencopy capture of the first output, shared by the screenshooter and garnet-rogue. */
#ifndef GARNET_CLIENT_CAPTURE_H
#define GARNET_CLIENT_CAPTURE_H

#include <stdint.h>
#include <wayland-client.h>

enum capture_status {
	CAPTURE_ERROR = -1,     /* connection or protocol error, no output, out of memory */
	CAPTURE_NO_GLOBAL = 0,  /* zwlr_screencopy_manager_v1 is not in the registry */
	CAPTURE_FAILED = 1,     /* the compositor answered failed */
	CAPTURE_READY = 2,      /* pixels holds the picture */
};

struct capture {
	uint32_t width, height, stride; /* bytes per row of pixels */
	uint32_t *pixels;               /* xrgb8888, top row first; free() it */
};

enum capture_status capture_first_output(struct wl_display *display, struct capture *out);

#endif
