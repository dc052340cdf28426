// SPDX-License-Identifier: MIT
// A surface's texture (its committed pixels, charged to its client) and how core reaches the
// buffers behind it: through the garnet_buffer_impl the buffer protocols set, never by name.
#include "internal.h"

void garnet_compositor_set_buffer_impl(struct garnet_compositor *c,
				       const struct garnet_buffer_impl *impl)
{
	c->buffer_impl = impl;
}

bool garnet_buffer_upload(struct garnet_surface *surface, struct wl_resource *buffer,
			  const pixman_region32_t *damage, bool *full_damage)
{
	const struct garnet_buffer_impl *impl = surface->compositor->buffer_impl;

	if (!impl) {
		/* No interface has an error for this; the display's invalid_object fits. */
		wl_resource_post_error(wl_client_get_object(wl_resource_get_client(buffer), 1),
				       WL_DISPLAY_ERROR_INVALID_OBJECT,
				       "wl_buffer@%u is of a kind garnet cannot show",
				       wl_resource_get_id(buffer));
		return false;
	}
	return impl->upload(surface, buffer, damage, full_damage);
}

bool garnet_buffer_is_held(struct garnet_compositor *c, struct wl_resource *buffer)
{
	return c->buffer_impl && c->buffer_impl->is_held(buffer);
}

void garnet_buffer_flush(struct garnet_compositor *c)
{
	if (c->buffer_impl)
		c->buffer_impl->flush(c);
}

static uint64_t texture_bytes(pixman_image_t *image)
{
	return image ? (uint64_t)pixman_image_get_stride(image) *
			       (uint64_t)pixman_image_get_height(image)
		     : 0;
}

void garnet_surface_drop_texture(struct garnet_surface *surface)
{
	const struct garnet_buffer_impl *impl = surface->compositor->buffer_impl;

	if (impl)
		impl->drop(surface);
	if (!surface->texture)
		return;
	garnet_client_uncharge(wl_resource_get_client(surface->resource),
			       GARNET_LIMIT_TEXTURE_BYTES, texture_bytes(surface->texture));
	pixman_image_unref(surface->texture);
	surface->texture = NULL;
}

static bool replace_texture(struct garnet_surface *surface, pixman_format_code_t format,
			    int32_t width, int32_t height)
{
	struct wl_client *client = wl_resource_get_client(surface->resource);
	uint64_t old = texture_bytes(surface->texture);
	/* pixman's own stride: rows of whole 32-bit words */
	uint64_t bytes = ((uint64_t)width * PIXMAN_FORMAT_BPP(format) + 31) / 32 * 4 *
			 (uint64_t)height;
	pixman_image_t *image;

	/* Charged before it exists: the allocation itself is what the budget bounds. The
	 * charge posts the client's error. */
	garnet_client_uncharge(client, GARNET_LIMIT_TEXTURE_BYTES, old);
	if (!garnet_client_charge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes))
		return false;
	image = pixman_image_create_bits(format, width, height, NULL, 0);
	if (!image) {
		garnet_client_uncharge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes);
		garnet_client_charge(client, GARNET_LIMIT_TEXTURE_BYTES, old);
		return false;
	}
	if (surface->texture)
		pixman_image_unref(surface->texture);
	surface->texture = image;
	surface->buffer_width = width;
	surface->buffer_height = height;
	surface->opaque_content = PIXMAN_FORMAT_A(format) == 0;
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
