/* SPDX-License-Identifier: MIT */
/* The list of who records the screen (render layer, part of core), drawn with cairo: shown
 * by garnet under its cast indicator, above every client. */
#ifndef GARNET_RENDER_CAST_LIST_H
#define GARNET_RENDER_CAST_LIST_H

#include <pixman.h>
#include <stddef.h>

#define GARNET_CAST_LIST_WIDTH 480
/* Lines drawn at most; more casts are counted in a last line ("and N more"). */
#define GARNET_CAST_LIST_LINES 8

/* A title and one line per cast, each "who: what"; NULL when out of memory or when cairo
 * failed (half a list must not pass for the whole). */
pixman_image_t *garnet_cast_list_draw(const char *const *lines, size_t count);

#endif
