/* SPDX-License-Identifier: MIT */
/* wp_single_pixel_buffer (protocols layer): its global, and the colour of such a buffer. */
#ifndef GARNET_PROTOCOLS_SINGLE_PIXEL_BUFFER_H
#define GARNET_PROTOCOLS_SINGLE_PIXEL_BUFFER_H

#include "../core/compositor.h"

bool garnet_single_pixel_buffer_init(struct garnet_compositor *c);
bool garnet_single_pixel_buffer_get(struct wl_resource *buffer, uint32_t rgba[4]);

#endif
