/* SPDX-License-Identifier: MIT */
/* The parts of garnet-rogue, one file per kind of attack. */
#ifndef GARNET_ROGUE_H
#define GARNET_ROGUE_H

#include <stdint.h>
#include <wayland-client.h>

/* Connects to WAYLAND_SOCKET or WAYLAND_DISPLAY; exits with status 2 when it cannot. */
struct wl_display *rogue_connect(void);

/* window FILE WIDTH HEIGHT: a window that logs every input event it receives; runs until
 * killed or disconnected. */
int rogue_window(const char *path, int32_t width, int32_t height);

/* drive GO DONE: once file GO exists, injects a key press, a click and a touch at the middle
 * of the first output through garnet_test (a trusted client's tool, not an attack), then
 * writes DONE. */
int rogue_drive(const char *go, const char *done);

#endif
