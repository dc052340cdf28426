// SPDX-License-Identifier: MIT
// wl_shm (libwayland's) with every format pixman reads, and core's garnet_buffer_impl: how a
// committed buffer (shm, single-pixel or garnet's) reaches its surface's texture.
//
// A commit only takes note of an shm buffer; its pixels are copied at the next repaint, once,
// from the latest buffer of each surface (damage of the commits in between adds up), and the
// buffer is released then, as wl_buffer intends. A client committing faster than frames come
// costs one copy a frame, and each client's copies per frame are bounded
// (garnet_limits.copy_bytes_per_frame), so that it delays the others by about a frame at most.
#include <stdlib.h>

#include "../core/gem-buffer.h"
#include "../core/internal.h"

struct shm_upload {
	struct garnet_surface *surface;
	struct wl_resource *buffer;
	pixman_region32_t damage; /* buffer pixels; unused when whole */
	bool whole;
	bool late; /* waited past the frame its commit damaged */
	struct wl_list link;      /* garnet_compositor.shm_uploads.list */
	struct wl_listener surface_destroy, buffer_destroy;
};

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

static void upload_free(struct shm_upload *u)
{
	wl_list_remove(&u->link);
	wl_list_remove(&u->surface_destroy.link);
	wl_list_remove(&u->buffer_destroy.link);
	pixman_region32_fini(&u->damage);
	free(u);
}

static void upload_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct shm_upload *u = wl_container_of(listener, u, buffer_destroy);

	/* Gone before garnet read it: the surface keeps the pixels it had. */
	upload_free(u);
}

/* The buffer is the client's again once no surface waits to read it. */
static void release_if_free(struct wl_resource *buffer)
{
	if (!wl_resource_get_destroy_listener(buffer, upload_buffer_destroyed))
		wl_buffer_send_release(buffer);
}

static void upload_end(struct shm_upload *u)
{
	struct wl_resource *buffer = u->buffer;

	upload_free(u);
	release_if_free(buffer);
}

static void upload_surface_destroyed(struct wl_listener *listener, void *data)
{
	struct shm_upload *u = wl_container_of(listener, u, surface_destroy);

	upload_end(u);
}

static struct shm_upload *upload_of(struct garnet_surface *surface)
{
	struct wl_listener *l = wl_signal_get(&surface->events.destroy, upload_surface_destroyed);
	struct shm_upload *u;

	return l ? wl_container_of(l, u, surface_destroy) : NULL;
}

/* The surface's texture goes: whatever was still to be copied into it never will be. */
static void drop(struct garnet_surface *surface)
{
	struct shm_upload *u = upload_of(surface);

	if (u)
		upload_end(u);
}

static bool upload_single_pixel(struct garnet_surface *surface, const uint32_t rgba[4])
{
	/* Premultiplied 32-bit channels down to 8 bits each. */
	uint32_t a = rgba[3] >> 24, r = rgba[0] >> 24, g = rgba[1] >> 24, b = rgba[2] >> 24;
	bool changed;

	if (!garnet_surface_prepare_texture(surface, PIXMAN_a8r8g8b8, 1, 1, &changed))
		return false;
	*pixman_image_get_data(surface->texture) = a << 24 | r << 16 | g << 8 | b;
	surface->opaque_content = a == 0xff;
	return true;
}

/* Copies rows first to last - 1 of the upload's damage (all of it when rows is 0) into the
 * texture prepared at its commit; the upload ends (false) once nothing is left to copy. */
static bool upload_copy(struct shm_upload *u, int32_t first, int32_t rows)
{
	struct garnet_surface *surface = u->surface;
	struct wl_shm_buffer *shm = wl_shm_buffer_get(u->buffer);
	int32_t width = wl_shm_buffer_get_width(shm), height = wl_shm_buffer_get_height(shm);
	pixman_format_code_t format;
	pixman_region32_t part;
	bool copied;

	/* Every later attach ends or replaces the upload; this only guards that promise. */
	if (!pixman_format_for(wl_shm_buffer_get_format(shm), &format) || !surface->texture ||
	    pixman_image_get_format(surface->texture) != format ||
	    surface->buffer_width != width || surface->buffer_height != height) {
		upload_end(u);
		return false;
	}
	if (u->whole) {
		pixman_region32_reset(&u->damage, &(pixman_box32_t){0, 0, width, height});
		u->whole = false;
	}
	pixman_region32_init(&part);
	pixman_region32_copy(&part, &u->damage);
	if (rows > 0)
		pixman_region32_intersect_rect(&part, &part, 0, first, (unsigned)width,
					       (unsigned)rows);
	/* The client can shrink the pool under us: reads happen only between begin and end
	 * access, where libwayland turns a SIGBUS into a protocol error for that client. */
	wl_shm_buffer_begin_access(shm);
	copied = garnet_surface_copy_pixels(surface, format, width, height,
					    wl_shm_buffer_get_data(shm),
					    wl_shm_buffer_get_stride(shm), &part);
	wl_shm_buffer_end_access(shm);
	if (!copied)
		wl_resource_post_no_memory(surface->resource);
	pixman_region32_subtract(&u->damage, &u->damage, &part);
	pixman_region32_fini(&part);
	/* Its commit's damage was painted (with the old pixels) in an earlier frame. */
	if (u->late)
		garnet_surface_damage_tree(surface);
	if (copied && pixman_region32_not_empty(&u->damage))
		return true;
	upload_end(u);
	return false;
}

/* The rows of the buffer the upload has yet to copy. */
static void upload_rows(struct shm_upload *u, int32_t *first, int32_t *rows)
{
	const pixman_box32_t *box = pixman_region32_extents(&u->damage);

	*first = u->whole ? 0 : box->y1;
	*rows = u->whole ? wl_shm_buffer_get_height(wl_shm_buffer_get(u->buffer))
			 : box->y2 - box->y1;
}

/* Before a repaint paints them. */
static void flush(struct garnet_compositor *c)
{
	uint64_t generation = ++c->shm_uploads.generation;
	struct shm_upload *u, *tmp;
	bool left = false;

	wl_list_for_each_safe(u, tmp, &c->shm_uploads.list, link) {
		struct wl_client *client = wl_resource_get_client(u->surface->resource);
		uint64_t stride = (uint64_t)wl_shm_buffer_get_stride(wl_shm_buffer_get(u->buffer));
		uint64_t bytes;
		int32_t first, rows, granted;

		upload_rows(u, &first, &rows);
		bytes = garnet_client_copy_take(client, generation, (uint64_t)rows * stride, stride);
		granted = (int32_t)(bytes / stride);
		if (granted < rows) {
			/* The rest in the next frames: the client's copies cost each frame no more
			 * than its share, however big its buffers. */
			if (granted == 0 || upload_copy(u, first, granted)) {
				u->late = true;
				left = true;
			}
			continue;
		}
		upload_copy(u, 0, 0);
	}
	if (left)
		garnet_compositor_schedule_repaint(c);
}

/* Takes note of the commit of an shm buffer (damage NULL: all of it) for the next repaint. */
static bool upload_queue(struct garnet_surface *surface, struct wl_resource *buffer,
			 const pixman_region32_t *damage)
{
	struct shm_upload *u = upload_of(surface);
	struct wl_resource *old;

	if (!u) {
		u = calloc(1, sizeof(*u));
		if (!u)
			return false;
		u->surface = surface;
		pixman_region32_init(&u->damage);
		u->surface_destroy.notify = upload_surface_destroyed;
		wl_signal_add(&surface->events.destroy, &u->surface_destroy);
		u->buffer_destroy.notify = upload_buffer_destroyed;
		wl_list_init(&u->buffer_destroy.link);
		wl_list_insert(surface->compositor->shm_uploads.list.prev, &u->link);
	}
	if (u->buffer != buffer) {
		/* The newer buffer holds everything: the older one is never read. */
		old = u->buffer;
		wl_list_remove(&u->buffer_destroy.link);
		u->buffer = buffer;
		wl_resource_add_destroy_listener(buffer, &u->buffer_destroy);
		if (old)
			release_if_free(old);
	}
	if (damage)
		pixman_region32_union(&u->damage, &u->damage, damage);
	else
		u->whole = true;
	/* Damage may reach far beyond the buffer; only its pixels are ever copied. */
	pixman_region32_intersect_rect(&u->damage, &u->damage, 0, 0,
				       (unsigned)surface->buffer_width,
				       (unsigned)surface->buffer_height);
	if (pixman_region32_n_rects(&u->damage) > 64) {
		pixman_box32_t box = *pixman_region32_extents(&u->damage);

		pixman_region32_reset(&u->damage, &box);
	}
	garnet_compositor_schedule_repaint(surface->compositor);
	return true;
}

static bool is_held(struct wl_resource *buffer)
{
	struct garnet_gem_buffer *gem = garnet_gem_buffer_from_resource(buffer);

	return (gem && garnet_gem_buffer_is_held(gem)) ||
	       wl_resource_get_destroy_listener(buffer, upload_buffer_destroyed) != NULL;
}

/* shm, single-pixel and garnet buffers: the one kind that is copied late is shm. */
static bool upload(struct garnet_surface *surface, struct wl_resource *buffer,
		   const pixman_region32_t *damage, bool *full_damage)
{
	struct wl_shm_buffer *shm = wl_shm_buffer_get(buffer);
	struct shm_upload *pending = upload_of(surface);
	struct garnet_gem_buffer *gem;
	pixman_format_code_t format;
	int32_t width, height;
	uint32_t rgba[4];

	if (!shm) {
		/* What an earlier shm commit damaged is not all in the new buffer's damage. */
		if (pending)
			upload_copy(pending, 0, 0);
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
	if (!garnet_surface_prepare_texture(surface, format, width, height, full_damage) ||
	    !upload_queue(surface, buffer, *full_damage ? NULL : damage)) {
		wl_resource_post_no_memory(surface->resource);
		return false;
	}
	return true;
}

static const struct garnet_buffer_impl buffer_impl = {
	.upload = upload,
	.is_held = is_held,
	.flush = flush,
	.drop = drop,
};

bool garnet_shm_init(struct garnet_compositor *c)
{
	wl_list_init(&c->shm_uploads.list);
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
