// SPDX-License-Identifier: MIT
// wl_shm (libwayland's) with every format pixman reads, and the copy of a buffer into a surface.
#include "../core/gem-buffer.h"
#include "../core/internal.h"

static const struct {
	uint32_t shm;
	pixman_format_code_t pixman;
} formats[] = {
	{WL_SHM_FORMAT_ARGB8888, PIXMAN_a8r8g8b8},
	{WL_SHM_FORMAT_XRGB8888, PIXMAN_x8r8g8b8},
	{WL_SHM_FORMAT_ABGR8888, PIXMAN_a8b8g8r8},
	{WL_SHM_FORMAT_XBGR8888, PIXMAN_x8b8g8r8},
	{WL_SHM_FORMAT_BGRA8888, PIXMAN_b8g8r8a8},
	{WL_SHM_FORMAT_BGRX8888, PIXMAN_b8g8r8x8},
	{WL_SHM_FORMAT_RGBA8888, PIXMAN_r8g8b8a8},
	{WL_SHM_FORMAT_RGBX8888, PIXMAN_r8g8b8x8},
	{WL_SHM_FORMAT_RGB565, PIXMAN_r5g6b5},
	{WL_SHM_FORMAT_RGB888, PIXMAN_r8g8b8},
	{WL_SHM_FORMAT_ARGB2101010, PIXMAN_a2r10g10b10},
	{WL_SHM_FORMAT_XRGB2101010, PIXMAN_x2r10g10b10},
	{WL_SHM_FORMAT_ABGR2101010, PIXMAN_a2b10g10r10},
	{WL_SHM_FORMAT_XBGR2101010, PIXMAN_x2b10g10r10},
};

static bool pixman_format_for(uint32_t shm_format, pixman_format_code_t *out)
{
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(formats); i++) {
		if (formats[i].shm == shm_format) {
			*out = formats[i].pixman;
			return true;
		}
	}
	return false;
}

bool garnet_shm_init(struct garnet_compositor *c)
{
	if (wl_display_init_shm(c->display) < 0)
		return false;
	/* ARGB8888 and XRGB8888 come with wl_display_init_shm. */
	for (size_t i = 2; i < GARNET_ARRAY_LENGTH(formats); i++) {
		if (!wl_display_add_shm_format(c->display, formats[i].shm))
			return false;
	}
	return true;
}

static bool replace_texture(struct garnet_surface *surface, pixman_format_code_t format,
			    int32_t width, int32_t height)
{
	pixman_image_t *image = pixman_image_create_bits(format, width, height, NULL, 0);

	if (!image)
		return false;
	if (surface->texture)
		pixman_image_unref(surface->texture);
	surface->texture = image;
	surface->buffer_width = width;
	surface->buffer_height = height;
	surface->opaque_content = PIXMAN_FORMAT_A(format) == 0;
	return true;
}

static bool upload_single_pixel(struct garnet_surface *surface, const uint32_t rgba[4])
{
	/* Premultiplied 32-bit channels down to 8 bits each. */
	uint32_t a = rgba[3] >> 24, r = rgba[0] >> 24, g = rgba[1] >> 24, b = rgba[2] >> 24;

	if (!surface->texture || surface->buffer_width != 1 || surface->buffer_height != 1 ||
	    pixman_image_get_format(surface->texture) != PIXMAN_a8r8g8b8) {
		if (!replace_texture(surface, PIXMAN_a8r8g8b8, 1, 1))
			return false;
	}
	*pixman_image_get_data(surface->texture) = a << 24 | r << 16 | g << 8 | b;
	surface->opaque_content = a == 0xff;
	return true;
}

bool garnet_surface_prepare_texture(struct garnet_surface *surface, pixman_format_code_t format,
				    int32_t width, int32_t height, bool *full_damage)
{
	*full_damage = !surface->texture || surface->buffer_width != width ||
		       surface->buffer_height != height ||
		       pixman_image_get_format(surface->texture) != format;
	return !*full_damage || replace_texture(surface, format, width, height);
}

bool garnet_surface_copy_pixels(struct garnet_surface *surface, pixman_format_code_t format,
				int32_t width, int32_t height, void *data, int32_t stride,
				const pixman_region32_t *damage)
{
	pixman_image_t *source = pixman_image_create_bits(format, width, height, data, stride);

	if (!source)
		return false;
	if (damage)
		pixman_image_set_clip_region32(surface->texture, (pixman_region32_t *)damage);
	pixman_image_composite32(PIXMAN_OP_SRC, source, NULL, surface->texture, 0, 0, 0, 0, 0, 0,
				 width, height);
	pixman_image_set_clip_region32(surface->texture, NULL);
	pixman_image_unref(source);
	return true;
}

bool garnet_buffer_upload(struct garnet_surface *surface, struct wl_resource *buffer,
			  const pixman_region32_t *damage, bool *full_damage)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct garnet_gem_buffer *gem;
	pixman_format_code_t format;
	int32_t width, height;
	uint32_t rgba[4];
	bool copied;

	if (!shm) {
		if (garnet_single_pixel_buffer_get(buffer, rgba)) {
			*full_damage = true;
			if (!upload_single_pixel(surface, rgba)) {
				wl_resource_post_no_memory(surface->resource);
				return false;
			}
			return true;
		}
		gem = garnet_gem_buffer_from_resource(buffer);
		if (gem)
			return garnet_gem_buffer_upload(surface, gem, damage, full_damage);
		/* No interface has an error for this; the display's invalid_object fits. */
		wl_resource_post_error(wl_client_get_object(wl_resource_get_client(buffer), 1),
				       WL_DISPLAY_ERROR_INVALID_OBJECT,
				       "wl_buffer@%u is of a kind garnet cannot show",
				       wl_resource_get_id(buffer));
		return false;
	}
	if (!pixman_format_for(wl_shm_buffer_get_format(shm), &format)) {
		wl_resource_post_error(buffer, WL_SHM_ERROR_INVALID_FORMAT,
				       "shm format 0x%x is not supported",
				       wl_shm_buffer_get_format(shm));
		return false;
	}
	width = wl_shm_buffer_get_width(shm);
	height = wl_shm_buffer_get_height(shm);
	/* libwayland only checks the stride against the width in pixels; a row of this format
	 * longer than the stride would have the copy read past the pool's end. */
	if ((int64_t)wl_shm_buffer_get_stride(shm) <
	    (int64_t)width * (PIXMAN_FORMAT_BPP(format) / 8)) {
		wl_resource_post_error(buffer, WL_SHM_ERROR_INVALID_STRIDE,
				       "stride %d is shorter than a row of %d pixels of 0x%x",
				       wl_shm_buffer_get_stride(shm), width,
				       wl_shm_buffer_get_format(shm));
		return false;
	}
	if (!garnet_surface_prepare_texture(surface, format, width, height, full_damage)) {
		wl_resource_post_no_memory(surface->resource);
		return false;
	}

	/* The client can shrink the pool under us: reads happen only between begin and end
	 * access, where libwayland turns a SIGBUS into a protocol error for that client. */
	wl_shm_buffer_begin_access(shm);
	copied = garnet_surface_copy_pixels(surface, format, width, height,
					    wl_shm_buffer_get_data(shm),
					    wl_shm_buffer_get_stride(shm),
					    *full_damage ? NULL : damage);
	wl_shm_buffer_end_access(shm);
	if (!copied) {
		wl_resource_post_no_memory(surface->resource);
		return false;
	}
	return true;
}
