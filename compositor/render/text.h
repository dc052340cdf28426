/* SPDX-License-Identifier: MIT */
/* Text in garnet's own pictures (render layer), drawn with cairo into pixman's pixels. */
#ifndef GARNET_RENDER_TEXT_H
#define GARNET_RENDER_TEXT_H

#include <cairo.h>
#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>

/* A new x8r8g8b8 picture in *image and a cairo context drawing into it; NULL (and no
 * picture) when out of memory. */
cairo_t *garnet_text_begin(pixman_image_t **image, int width, int height);
/* Ends the drawing: the picture, or NULL (and the picture freed) when any of it failed. */
pixman_image_t *garnet_text_end(cairo_t *cr, pixman_image_t *image);
/* The body colour of garnet's panels (the lock prompt's). */
#define GARNET_TEXT_PANEL_RGB 0x202428
/* Fills the whole picture as a panel: a 2-pixel frame of frame_rgb around the body. */
void garnet_text_panel(cairo_t *cr, uint32_t frame_rgb);
/* garnet's sans-serif font at size, bold or not. */
void garnet_text_font(cairo_t *cr, double size, bool bold);
/* The source colour, 0xRRGGBB. */
void garnet_text_set_rgb(cairo_t *cr, uint32_t rgb);
/* One line of text at x, baseline y, cut with "..." to fit max_width. Any bytes: what is not
 * valid UTF-8 is drawn as '?' (an executable's path is whatever bytes its owner chose). */
void garnet_text_line(cairo_t *cr, const char *text, double x, double y, double max_width);

#endif
