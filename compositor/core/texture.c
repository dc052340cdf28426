// SPDX-License-Identifier: MIT
// What a surface shows (its content): the client's own buffer, read in place while the client
// may still use it, and core's way to the buffers behind it: the garnet_buffer_impl the buffer
// protocols set, never by name.
//
// A content is shared by every surface that shows the same wl_buffer and holds that buffer
// (no wl_buffer.release) until no surface shows it any more: the renderer reads it at each
// repaint, synchronously, so a buffer no surface shows is read by no frame to come. Only a
// buffer that goes while shown is copied, once, into an image of garnet's (charged to its
// client), so the surfaces keep their last pixels.
#include <stdlib.h>

#include "compositor.h"
#include "surface.h"
#include "client-budget.h"
#include "buffer.h"

struct garnet_content {
	/* Over the buffer's memory while buffer is set, remade when the client's pool moved it;
	 * garnet's own image once not. NULL until first read, or when the copy failed. */
	pixman_image_t *image;
	struct wl_resource *buffer;
	/* charged for a copy; NULL once gone (a display's hold can outlive it) */
	struct wl_client *client;
	struct wl_listener client_destroy;
	uint64_t charged;
	pixman_format_code_t format;
	int32_t width, height, stride;
	int users; /* surfaces showing it */
	int reading; /* nested begin_read calls */
	struct garnet_compositor *compositor;
	struct wl_listener buffer_destroy;
};

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

static void content_buffer_destroyed(struct wl_listener *listener, void *data);

static struct garnet_content *content_of_buffer(struct wl_resource *buffer)
{
	struct wl_listener *l = wl_resource_get_destroy_listener(buffer, content_buffer_destroyed);
	struct garnet_content *content;

	return l ? wl_container_of(l, content, buffer_destroy) : NULL;
}

bool garnet_buffer_is_held(struct garnet_compositor *c, struct wl_resource *buffer)
{
	return content_of_buffer(buffer) || (c->buffer_impl && c->buffer_impl->is_held(buffer));
}

void garnet_buffer_release_if_unused(struct garnet_compositor *c, struct wl_resource *buffer)
{
	if (!garnet_buffer_is_held(c, buffer))
		garnet_buffer_release_soon(c, buffer);
}

static uint64_t image_bytes(pixman_format_code_t format, int32_t width, int32_t height)
{
	/* pixman's own stride: rows of whole 32-bit words */
	return ((uint64_t)width * PIXMAN_FORMAT_BPP(format) + 31) / 32 * 4 * (uint64_t)height;
}

static void content_free(struct garnet_content *content)
{
	if (content->image)
		pixman_image_unref(content->image);
	if (content->client)
		garnet_client_uncharge(content->client, GARNET_LIMIT_TEXTURE_BYTES,
				       content->charged);
	wl_list_remove(&content->client_destroy.link);
	wl_list_remove(&content->buffer_destroy.link);
	free(content);
}

static void content_unref(struct garnet_content *content)
{
	struct garnet_compositor *c = content->compositor;
	struct wl_resource *buffer = content->buffer;

	if (--content->users > 0)
		return;
	content_free(content);
	/* The last frame that read it is painted: the client may write it again. */
	if (buffer)
		garnet_buffer_release_if_unused(c, buffer);
}

static pixman_image_t *content_begin_read(struct garnet_content *content);
static void content_end_read(struct garnet_content *content);

/* The buffer goes while shown: its pixels as they are now become garnet's, so that the
 * surfaces keep showing what they showed. A client being taken apart takes its surfaces too,
 * and gets no copy. */
static void content_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_content *content = wl_container_of(listener, content, buffer_destroy);
	struct wl_client *client = content->client;
	uint64_t bytes = image_bytes(content->format, content->width, content->height);
	pixman_image_t *copy = NULL, *source;

	if (client && !garnet_client_is_going(client) &&
	    garnet_client_charge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes)) {
		copy = pixman_image_create_bits(content->format, content->width, content->height,
						NULL, 0);
		source = copy ? content_begin_read(content) : NULL;
		if (source)
			pixman_image_composite32(PIXMAN_OP_SRC, source, NULL, copy, 0, 0, 0, 0, 0,
						 0, content->width, content->height);
		if (copy)
			content_end_read(content);
		if (copy)
			content->charged = bytes;
		else
			garnet_client_uncharge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes);
	}
	wl_list_remove(&content->buffer_destroy.link);
	wl_list_init(&content->buffer_destroy.link);
	content->buffer = NULL;
	if (content->image)
		pixman_image_unref(content->image);
	content->image = copy;
}

static pixman_image_t *content_begin_read(struct garnet_content *content)
{
	const struct garnet_buffer_impl *impl = content->compositor->buffer_impl;
	void *data;

	if (!content->buffer)
		return content->image;
	data = impl->begin_read(content->buffer);
	content->reading++;
	if (!data)
		return NULL;
	if (content->image && pixman_image_get_data(content->image) != data) {
		pixman_image_unref(content->image);
		content->image = NULL;
	}
	if (!content->image)
		content->image = pixman_image_create_bits(content->format, content->width,
							  content->height, data, content->stride);
	return content->image;
}

static void content_end_read(struct garnet_content *content)
{
	if (!content->buffer || content->reading == 0)
		return;
	content->reading--;
	content->compositor->buffer_impl->end_read(content->buffer);
}

struct wl_resource *garnet_surface_shown_buffer(struct garnet_surface *surface)
{
	return surface->content ? surface->content->buffer : NULL;
}

pixman_image_t *garnet_surface_begin_read(struct garnet_surface *surface)
{
	return surface->content ? content_begin_read(surface->content) : NULL;
}

void garnet_surface_end_read(struct garnet_surface *surface)
{
	if (surface->content)
		content_end_read(surface->content);
}

static void set_content(struct garnet_surface *surface, struct garnet_content *content,
			bool *full_damage)
{
	struct garnet_content *old = surface->content;

	*full_damage = !old || old->width != content->width || old->height != content->height ||
		       old->format != content->format;
	content->users++;
	surface->content = content;
	surface->buffer_width = content->width;
	surface->buffer_height = content->height;
	surface->opaque_content = PIXMAN_FORMAT_A(content->format) == 0;
	if (old)
		content_unref(old);
}

/* Its budget goes with it: nothing is left to uncharge, and the pointer would dangle. */
static void content_client_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_content *content = wl_container_of(listener, content, client_destroy);

	(void)data;
	content->client = NULL;
	wl_list_remove(&listener->link);
	wl_list_init(&listener->link);
}

static void content_set_client(struct garnet_content *content, struct wl_client *client)
{
	content->client = client;
	content->client_destroy.notify = content_client_destroyed;
	wl_client_add_destroy_listener(client, &content->client_destroy);
}

bool garnet_surface_show_buffer(struct garnet_surface *surface, struct wl_resource *buffer,
				pixman_format_code_t format, int32_t width, int32_t height,
				int32_t stride, bool *full_damage)
{
	struct garnet_content *content = content_of_buffer(buffer);

	if (!content) {
		content = calloc(1, sizeof(*content));
		if (!content)
			return false;
		content->compositor = surface->compositor;
		content->buffer = buffer;
		content_set_client(content, wl_resource_get_client(buffer));
		content->format = format;
		content->width = width;
		content->height = height;
		content->stride = stride;
		content->buffer_destroy.notify = content_buffer_destroyed;
		wl_resource_add_destroy_listener(buffer, &content->buffer_destroy);
	}
	set_content(surface, content, full_damage);
	return true;
}

pixman_image_t *garnet_surface_show_own(struct garnet_surface *surface, pixman_format_code_t format,
					int32_t width, int32_t height, bool *full_damage)
{
	struct wl_client *client = wl_resource_get_client(surface->resource);
	uint64_t bytes = image_bytes(format, width, height);
	struct garnet_content *content;

	/* Charged before it exists: the allocation itself is what the budget bounds. The
	 * charge posts the client's error. */
	if (!garnet_client_charge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes))
		return NULL;
	content = calloc(1, sizeof(*content));
	if (content)
		content->image = pixman_image_create_bits(format, width, height, NULL, 0);
	if (!content || !content->image) {
		free(content);
		garnet_client_uncharge(client, GARNET_LIMIT_TEXTURE_BYTES, bytes);
		wl_resource_post_no_memory(surface->resource);
		return NULL;
	}
	content->compositor = surface->compositor;
	content_set_client(content, client);
	content->charged = bytes;
	content->format = format;
	content->width = width;
	content->height = height;
	content->stride = pixman_image_get_stride(content->image);
	wl_list_init(&content->buffer_destroy.link);
	set_content(surface, content, full_damage);
	return content->image;
}

void garnet_surface_drop_content(struct garnet_surface *surface)
{
	struct garnet_content *content = surface->content;

	surface->content = NULL;
	if (content)
		content_unref(content);
}

bool garnet_surface_scanout_info(struct garnet_surface *surface, struct garnet_scanout_buffer *out)
{
	const struct garnet_buffer_impl *impl = surface->compositor->buffer_impl;
	struct garnet_content *content = surface->content;

	return content && content->buffer && impl && impl->scanout_info &&
	       impl->scanout_info(content->buffer, out);
}

/* A display that scans a buffer out reads it until the next frame is on screen: it counts as
 * one more user, as a surface showing it does. */
struct garnet_content *garnet_surface_hold_content(struct garnet_surface *surface)
{
	if (surface->content)
		surface->content->users++;
	return surface->content;
}

/* Only GEM contents are held: their reads need no begin/end bracket (an shm pool's do). */
pixman_image_t *garnet_content_held_image(struct garnet_content *content)
{
	pixman_image_t *image = content_begin_read(content);

	content_end_read(content);
	return image;
}

void garnet_content_drop_hold(struct garnet_content *content)
{
	content_unref(content);
}
