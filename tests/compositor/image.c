// SPDX-License-Identifier: MIT
// PNG files through libpng, and screenshots compared with references within a tolerance.
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

/* Per channel: pixman's rounding may differ by a step or two across versions. */
#define CHANNEL_TOLERANCE 2

bool png_write(const char *path, pixman_image_t *image)
{
	int32_t w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	uint32_t *pixels = pixman_image_get_data(image);
	int stride = pixman_image_get_stride(image) / 4;
	png_structp png;
	png_infop info;
	png_bytep row;
	FILE *f = fopen(path, "wb");

	if (!f)
		return false;
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png_create_info_struct(png);
	row = malloc((size_t)w * 3);
	if (setjmp(png_jmpbuf(png))) {
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
	return fclose(f) == 0;
}

pixman_image_t *png_read(const char *path)
{
	png_image png = {.version = PNG_IMAGE_VERSION};
	pixman_image_t *image;

	if (!png_image_begin_read_from_file(&png, path))
		return NULL;
	png.format = PNG_FORMAT_BGRA; /* little-endian a8r8g8b8 */
	image = pixman_image_create_bits(PIXMAN_x8r8g8b8, (int)png.width, (int)png.height, NULL,
					 0);
	if (!png_image_finish_read(&png, NULL, pixman_image_get_data(image),
				   pixman_image_get_stride(image), NULL)) {
		pixman_image_unref(image);
		png_image_free(&png);
		return NULL;
	}
	return image;
}

static int channel_diff(uint32_t a, uint32_t b, int shift)
{
	return abs((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff));
}

static const char *env_or(const char *name, const char *fallback)
{
	const char *v = getenv(name);

	return v && *v ? v : fallback;
}

void check_screenshot(struct test_context *t, pixman_image_t *image, const char *name)
{
	const char *refdir = env_or("GARNET_TEST_REFERENCE_PATH", GARNET_TEST_REFERENCE_DIR);
	const char *outdir = env_or("GARNET_TEST_OUTPUT_PATH", ".");
	char ref_path[512], out_path[512];
	pixman_image_t *ref, *diff;
	int32_t w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	long bad = 0;

	snprintf(ref_path, sizeof(ref_path), "%s/%s.png", refdir, name);
	if (getenv("GARNET_TEST_UPDATE_REFERENCES")) {
		if (!png_write(ref_path, image))
			test_fail(t, __FILE__, __LINE__, "cannot write %s", ref_path);
		return;
	}
	mkdir(outdir, 0755);
	snprintf(out_path, sizeof(out_path), "%s/%s-actual.png", outdir, name);
	ref = png_read(ref_path);
	if (!ref) {
		png_write(out_path, image);
		test_fail(t, __FILE__, __LINE__, "no reference %s (actual written to %s)", ref_path,
			  out_path);
	}
	if (pixman_image_get_width(ref) != w || pixman_image_get_height(ref) != h) {
		png_write(out_path, image);
		test_fail(t, __FILE__, __LINE__, "%s is %dx%d, the screenshot %dx%d", ref_path,
			  pixman_image_get_width(ref), pixman_image_get_height(ref), w, h);
	}
	diff = pixman_image_create_bits(PIXMAN_x8r8g8b8, w, h, NULL, 0);
	for (int32_t y = 0; y < h; y++) {
		for (int32_t x = 0; x < w; x++) {
			uint32_t a = image_pixel(image, x, y), b = image_pixel(ref, x, y);
			bool differs = channel_diff(a, b, 16) > CHANNEL_TOLERANCE ||
				       channel_diff(a, b, 8) > CHANNEL_TOLERANCE ||
				       channel_diff(a, b, 0) > CHANNEL_TOLERANCE;
			uint32_t *d = pixman_image_get_data(diff) +
				      y * (pixman_image_get_stride(diff) / 4) + x;

			/* Differences in red over a dimmed copy of the reference. */
			*d = differs ? 0xffff0000u : (b >> 2) & 0x3f3f3f;
			bad += differs;
		}
	}
	pixman_image_unref(ref);
	if (bad) {
		char diff_path[512];

		snprintf(diff_path, sizeof(diff_path), "%s/%s-diff.png", outdir, name);
		png_write(out_path, image);
		png_write(diff_path, diff);
		pixman_image_unref(diff);
		test_fail(t, __FILE__, __LINE__, "%ld pixels differ from %s; see %s and %s", bad,
			  ref_path, out_path, diff_path);
	}
	pixman_image_unref(diff);
}
