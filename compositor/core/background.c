// SPDX-License-Identifier: MIT
// The wallpaper garnet draws itself ([shell] background-image=): a PNG read once, scaled to
// cover each output, over the background colour. A file that cannot be read is logged with its
// name and the colour stays: a broken wallpaper never stops a session.
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "background.h"
#include "output.h"

/* Bounds what a wallpaper may make garnet hold: 128 MiB of pixels. */
#define MAX_BACKGROUND_PIXELS (32u << 20)

/* pixman's a8r8g8b8 is premultiplied; a PNG's alpha is not. */
static void premultiply(uint32_t *pixels, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		uint32_t p = pixels[i], a = p >> 24;

		if (a == 0xff)
			continue;
		pixels[i] = (a << 24) | ((((p >> 16) & 0xff) * a / 0xff) << 16) |
			    ((((p >> 8) & 0xff) * a / 0xff) << 8) | ((p & 0xff) * a / 0xff);
	}
}

/* The picture, or NULL with why (libpng's message or garnet's) filled in. */
static pixman_image_t *load_png(const char *path, char *why, size_t size)
{
	png_image png = {.version = PNG_IMAGE_VERSION};
	pixman_image_t *image = NULL;
	uint32_t *pixels = NULL;

	if (!png_image_begin_read_from_file(&png, path)) {
		snprintf(why, size, "%s", png.message);
		return NULL;
	}
	if (png.width == 0 || png.height == 0 ||
	    (uint64_t)png.width * png.height > MAX_BACKGROUND_PIXELS || png.width > 32767 ||
	    png.height > 32767) {
		snprintf(why, size, "%ux%u is beyond what garnet draws (32 megapixels)", png.width,
			 png.height);
		goto out;
	}
	/* BGRA in memory is a8r8g8b8 on the little-endian machines garnet runs on: libpng
	 * writes straight into the image garnet draws, with no second copy of the pixels. */
	png.format = PNG_FORMAT_BGRA;
	image = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)png.width, (int)png.height, NULL,
					 (int)png.width * 4);
	if (!image) {
		snprintf(why, size, "no memory for its pixels");
		goto out;
	}
	pixels = pixman_image_get_data(image);
	if (!png_image_finish_read(&png, NULL, pixels, (png_int_32)png.width * 4, NULL)) {
		snprintf(why, size, "%s", png.message);
		pixman_image_unref(image);
		image = NULL;
		goto out;
	}
	premultiply(pixels, (size_t)png.width * png.height);
	pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, NULL, 0);
out:
	png_image_free(&png);
	return image;
}

bool garnet_compositor_set_background_image(struct garnet_compositor *c, const char *path)
{
	char why[256] = "";
	pixman_image_t *image = path ? load_png(path, why, sizeof(why)) : NULL;
	struct garnet_output *output;

	if (c->background_image)
		pixman_image_unref(c->background_image);
	c->background_image = image;
	wl_list_for_each (output, &c->outputs, link) {
		garnet_output_damage_whole(output);
		garnet_output_schedule_repaint(output);
	}
	if (!path || image)
		return true;
	garnet_log(c, GARNET_LOG_ERROR, "shell",
		   "background-image %s: %s; the background colour is shown instead", path,
		   why[0] ? why : "not a PNG garnet can read");
	return false;
}

void garnet_background_paint(struct garnet_compositor *c, pixman_image_t *target)
{
	pixman_image_t *image = c->background_image;
	int32_t tw = pixman_image_get_width(target), th = pixman_image_get_height(target);
	pixman_transform_t scale;

	if (!image || tw <= 0 || th <= 0)
		return;
	/* Stretched to the output, as swaybg's "stretch" mode draws it. */
	pixman_transform_init_scale(&scale, pixman_int_to_fixed(pixman_image_get_width(image)) / tw,
				    pixman_int_to_fixed(pixman_image_get_height(image)) / th);
	pixman_image_set_transform(image, &scale);
	pixman_image_composite32(PIXMAN_OP_OVER, image, NULL, target, 0, 0, 0, 0, 0, 0, tw, th);
	pixman_image_set_transform(image, NULL);
}
