// SPDX-License-Identifier: MIT
// wl_shm (libwayland's) with every format pixman reads, and core's garnet_buffer_impl: how a
// committed buffer (shm, single-pixel or garnet's) becomes what its surface shows.
//
// An shm buffer is shown in place: the renderer reads the client's pool at each repaint, only
// what is damaged and visible, between wl_shm_buffer_begin_access and end_access (a client
// that truncates its pool gets a protocol error there, garnet no SIGBUS). A commit copies
// nothing, so neither its size nor its rate costs garnet more than the output's pixels.
#include <stdlib.h>

#include "../core/gem-buffer.h"
#include "../core/compositor.h"
#include "../core/surface.h"
#include "../core/buffer.h"
#include "single-pixel-buffer.h"
#include "client-protocols.h"

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

static bool show_single_pixel(struct garnet_surface *surface, const uint32_t rgba[4],
			      bool *full_damage)
{
	/* Premultiplied 32-bit channels down to 8 bits each. */
	uint32_t a = rgba[3] >> 24, r = rgba[0] >> 24, g = rgba[1] >> 24, b = rgba[2] >> 24;
	pixman_image_t *image =
		garnet_surface_show_own(surface, PIXMAN_a8r8g8b8, 1, 1, full_damage);

	if (!image)
		return false;
	*pixman_image_get_data(image) = a << 24 | r << 16 | g << 8 | b;
	surface->opaque_content = a == 0xff;
	/* A colour may change at the same size: the pixel is new whatever the damage said. */
	*full_damage = true;
	return true;
}

static bool is_held(struct wl_resource *buffer)
{
	struct garnet_gem_buffer *gem = garnet_gem_buffer_from_resource(buffer);

	return gem && garnet_gem_buffer_is_held(gem);
}

static void *begin_read(struct wl_resource *buffer)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct garnet_gem_buffer *gem;

	if (shm) {
		/* libwayland turns a SIGBUS between these into a protocol error for the client
		 * (and zero pages for garnet). */
		wl_shm_buffer_begin_access(shm);
		return wl_shm_buffer_get_data(shm);
	}
	gem = garnet_gem_buffer_from_resource(buffer);
	return gem ? gem->pixels : NULL;
}

static void end_read(struct wl_resource *buffer)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);

	if (shm)
		wl_shm_buffer_end_access(shm);
}

static bool scanout_info(struct wl_resource *buffer, struct garnet_scanout_buffer *out)
{
	struct garnet_gem_buffer *gem = garnet_gem_buffer_from_resource(buffer);

	if (!gem || !(out->fourcc = garnet_gem_fourcc_of(gem->format)))
		return false;
	out->drm_fd = gem->drm_fd;
	out->handle = gem->handle;
	out->width = gem->width;
	out->height = gem->height;
	out->stride = gem->stride;
	out->offset = (uint64_t)((char *)gem->pixels - (char *)gem->map);
	return true;
}

/* shm and garnet buffers are shown in place, a single pixel as a pixel of garnet's. */
static bool upload(struct garnet_surface *surface, struct wl_resource *buffer,
		   const pixman_region32_t *damage, bool *full_damage)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct garnet_gem_buffer *gem;
	pixman_format_code_t format;
	int32_t width, height;
	uint32_t rgba[4];

	if (!shm) {
		if (garnet_single_pixel_buffer_get(buffer, rgba))
			return show_single_pixel(surface, rgba, full_damage);
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
	 * longer than the stride would have garnet read past the pool's end. */
	if ((int64_t)wl_shm_buffer_get_stride(shm) <
	    (int64_t)width * (PIXMAN_FORMAT_BPP(format) / 8)) {
		wl_resource_post_error(buffer, WL_SHM_ERROR_INVALID_STRIDE,
				       "stride %d is shorter than a row of %d pixels of 0x%x",
				       wl_shm_buffer_get_stride(shm), width,
				       wl_shm_buffer_get_format(shm));
		return false;
	}
	/* Rows are read in place as pixman reads them: in whole 32-bit words. */
	if (wl_shm_buffer_get_stride(shm) % 4 != 0) {
		wl_resource_post_error(buffer, WL_SHM_ERROR_INVALID_STRIDE,
				       "stride %d is not a multiple of 4 bytes",
				       wl_shm_buffer_get_stride(shm));
		return false;
	}
	if (!garnet_surface_show_buffer(surface, buffer, format, width, height,
					wl_shm_buffer_get_stride(shm), full_damage)) {
		wl_resource_post_no_memory(surface->resource);
		return false;
	}
	return true;
}

static const struct garnet_buffer_impl buffer_impl = {
	.upload = upload,
	.is_held = is_held,
	.begin_read = begin_read,
	.end_read = end_read,
	.scanout_info = scanout_info,
};

bool garnet_shm_init(struct garnet_compositor *c)
{
	if (wl_display_init_shm(c->display) < 0)
		return false;
	/* ARGB8888 and XRGB8888 come with wl_display_init_shm. */
	for (size_t i = 2; i < GARNET_ARRAY_LENGTH(formats); i++) {
		if (!wl_display_add_shm_format(c->display, formats[i].shm))
			return false;
	}
	garnet_compositor_set_buffer_impl(c, &buffer_impl);
	return true;
}
