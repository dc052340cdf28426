// SPDX-License-Identifier: MIT
// An output's current picture as a PNG file.
#include <errno.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

#include "compositor.h"
#include "output.h"

bool garnet_output_write_png(struct garnet_output *output, const char *path)
{
	struct garnet_compositor *c = output->compositor;
	pixman_image_t *image = output->impl->front_image(output);
	int32_t w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	uint32_t *pixels = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;
	png_structp png = NULL;
	png_infop info = NULL;
	png_bytep row = NULL;
	FILE *f = fopen(path, "wb");

	if (!f) {
		garnet_log(c, GARNET_LOG_ERROR, "output", "cannot write %s: %s", path,
			   strerror(errno));
		return false;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	row = malloc((size_t)w * 3);
	if (!png || !info || !row || setjmp(png_jmpbuf(png))) {
		garnet_log(c, GARNET_LOG_ERROR, "output", "cannot encode %s", path);
		png_destroy_write_struct(&png, &info);
		free(row);
		fclose(f);
		return false;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int32_t y = 0; y < h; y++) {
		for (int32_t x = 0; x < w; x++) {
			uint32_t p = pixels[y * stride + x];

			row[x * 3] = (p >> 16) & 0xff;
			row[x * 3 + 1] = (p >> 8) & 0xff;
			row[x * 3 + 2] = p & 0xff;
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	free(row);
	if (fclose(f) != 0) {
		garnet_log(c, GARNET_LOG_ERROR, "output", "cannot write %s: %s", path,
			   strerror(errno));
		return false;
	}
	return true;
}
