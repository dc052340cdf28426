// SPDX-License-Identifier: MIT
// garnet_buffer_v1: wl_buffers made from names a client shared with the compositor through
// garnet.ko (GARNET_SHARE). The compositor opens one DRM file per client and announces that
// file's id as the recipient, so a name is only ever accepted on the connection of the client
// it was made for: a name sniffed or guessed by another client fails like a name that never
// existed (doc/buffers.md).
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>

#include "garnet-buffer-v1-server-protocol.h"
#include "../core/gem-buffer.h"
#include "../core/compositor.h"

/* Each buffer pins an object and a mapping in the compositor: enough for any real client's
 * swapchain and subsurfaces, too few to exhaust the compositor. */
#define MAX_BUFFERS_PER_CLIENT 256
/* Beyond any output, and small enough that pixman's sizes never overflow. */
#define MAX_DIMENSION 16384

static const struct {
	uint32_t fourcc;
	pixman_format_code_t pixman;
} formats[] = {
	{DRM_FORMAT_XRGB8888, PIXMAN_x8r8g8b8},
	{DRM_FORMAT_ARGB8888, PIXMAN_a8r8g8b8},
	{DRM_FORMAT_XBGR8888, PIXMAN_x8b8g8r8},
	{DRM_FORMAT_ABGR8888, PIXMAN_a8b8g8r8},
};

size_t garnet_gem_format_count(void)
{
	return GARNET_ARRAY_LENGTH(formats);
}

uint32_t garnet_gem_format(size_t index)
{
	return formats[index].fourcc;
}

struct garnet_gem_manager {
	struct garnet_compositor *compositor;
	char *device_path;
	struct wl_list clients; /* garnet_gem_client.link */
	struct wl_listener compositor_destroy;
};

/* The compositor's DRM file for one Wayland client, shared by its factories and buffers. */
struct garnet_gem_client {
	struct garnet_gem_manager *manager;
	struct wl_client *client;
	struct wl_list link;
	int fd;
	uint64_t id;
	/* The device's CPU mappings see what its engine wrote without a flush (HAS_LLC). */
	bool llc;
	int refs;
	int buffers;
	struct garnet_gem_broker_counts broker;
};

struct garnet_gem_client *garnet_gem_client_ref(struct garnet_gem_client *gc)
{
	gc->refs++;
	return gc;
}

int garnet_gem_client_fd(struct garnet_gem_client *gc)
{
	return gc->fd;
}

struct garnet_compositor *garnet_gem_client_compositor(struct garnet_gem_client *gc)
{
	return gc->manager->compositor;
}

uint64_t garnet_gem_client_id(struct garnet_gem_client *gc)
{
	return gc->id;
}

struct garnet_gem_broker_counts *garnet_gem_client_broker_counts(struct garnet_gem_client *gc)
{
	return &gc->broker;
}

void garnet_gem_client_unref(struct garnet_gem_client *gc)
{
	if (--gc->refs > 0)
		return;
	close(gc->fd);
	wl_list_remove(&gc->link);
	free(gc);
}

static bool device_has_llc(int fd)
{
	int value = 0;
	struct drm_i915_getparam param = {.param = I915_PARAM_HAS_LLC, .value = &value};

	return drmIoctl(fd, DRM_IOCTL_I915_GETPARAM, &param) == 0 && value;
}

struct garnet_gem_client *garnet_gem_client_get(struct garnet_gem_manager *m,
						struct wl_client *client)
{
	struct drm_garnet_get_client_id get = {0};
	struct garnet_gem_client *gc;

	wl_list_for_each(gc, &m->clients, link) {
		if (gc->client == client) {
			gc->refs++;
			return gc;
		}
	}
	gc = calloc(1, sizeof(*gc));
	if (!gc)
		return NULL;
	gc->fd = open(m->device_path, O_RDWR | O_CLOEXEC | O_NOCTTY);
	if (gc->fd < 0 || drmIoctl(gc->fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &get) < 0) {
		garnet_log(m->compositor, GARNET_LOG_ERROR, "gem", "%s: %s", m->device_path,
			   strerror(errno));
		if (gc->fd >= 0)
			close(gc->fd);
		free(gc);
		return NULL;
	}
	gc->manager = m;
	gc->client = client;
	gc->id = get.client_id;
	gc->llc = device_has_llc(gc->fd);
	gc->refs = 1;
	wl_list_insert(&m->clients, &gc->link);
	return gc;
}

static pid_t client_pid(struct wl_client *client)
{
	pid_t pid = 0;

	wl_client_get_credentials(client, &pid, NULL, NULL);
	return pid;
}

/* ---- wl_buffer ---- */

static const struct wl_buffer_interface buffer_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void close_handle(int fd, uint32_t handle)
{
	struct drm_gem_close close_arg = {.handle = handle};

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &close_arg);
}

static void buffer_resource_destroy(struct wl_resource *resource)
{
	struct garnet_gem_buffer *buffer = wl_resource_get_user_data(resource);

	garnet_gem_import_buffer_destroyed(buffer);
	munmap(buffer->map, buffer->size);
	close_handle(buffer->drm_fd, buffer->handle);
	buffer->client->buffers--;
	garnet_gem_client_unref(buffer->client);
	free(buffer);
}

struct garnet_gem_buffer *garnet_gem_buffer_from_resource(struct wl_resource *resource)
{
	if (!wl_resource_instance_of(resource, &wl_buffer_interface, &buffer_impl))
		return NULL;
	return wl_resource_get_user_data(resource);
}

/* ---- garnet_buffer_v1 ---- */

bool garnet_gem_format_for(uint32_t fourcc, pixman_format_code_t *out)
{
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(formats); i++) {
		if (formats[i].fourcc == fourcc) {
			*out = formats[i].pixman;
			return true;
		}
	}
	return false;
}

uint32_t garnet_gem_fourcc_of(pixman_format_code_t format)
{
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(formats); i++) {
		if (formats[i].pixman == format)
			return formats[i].fourcc;
	}
	return 0;
}

/* ACCEPT on the client's own file of the compositor; the kernel answers every kind of bad
 * name with the same -ENOENT, and so does this. */
static bool accept_name(struct garnet_gem_client *gc, uint64_t name, uint32_t *handle,
			uint64_t *size)
{
	struct drm_garnet_accept accept = {.name = name};

	if (drmIoctl(gc->fd, DRM_IOCTL_GARNET_ACCEPT, &accept) < 0)
		return false;
	*handle = accept.handle;
	*size = accept.size;
	return true;
}

/* garnet's own objects map with GEM_MMAP; another driver's dma-buf imported into garnet has
 * no garnet pages and maps through a mmap offset, which hands the mapping to its exporter. */
static void *map_object(struct garnet_gem_client *gc, uint32_t handle, uint64_t size,
			bool *writable)
{
	struct drm_i915_gem_mmap map = {.handle = handle, .size = size};
	struct drm_i915_gem_mmap_offset offset = {.handle = handle,
						  .flags = I915_MMAP_OFFSET_WB};
	void *pixels;

	/* GEM_MMAP maps for reading and writing. */
	*writable = drmIoctl(gc->fd, DRM_IOCTL_I915_GEM_MMAP, &map) == 0;
	if (*writable)
		return (void *)(uintptr_t)map.addr_ptr;
	if (drmIoctl(gc->fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &offset) < 0)
		return NULL;
	pixels = mmap(NULL, size, PROT_READ, MAP_SHARED, gc->fd, (off_t)offset.offset);
	return pixels == MAP_FAILED ? NULL : pixels;
}

enum garnet_gem_buffer_result garnet_gem_buffer_create(struct garnet_gem_client *gc,
							struct wl_client *client, uint32_t id,
							uint32_t handle, uint64_t size,
							const struct garnet_gem_buffer_layout *l,
							struct wl_resource **out)
{
	struct garnet_gem_buffer *buffer;
	bool writable;
	void *map;

	if (l->width <= 0 || l->height <= 0 || l->width > MAX_DIMENSION ||
	    l->height > MAX_DIMENSION || l->stride % 4 != 0 ||
	    (int64_t)l->stride < (int64_t)l->width * 4 ||
	    l->offset + (uint64_t)l->stride * (uint64_t)l->height > size) {
		close_handle(gc->fd, handle);
		return GARNET_GEM_BUFFER_BAD_SIZE;
	}
	if (gc->buffers >= MAX_BUFFERS_PER_CLIENT) {
		close_handle(gc->fd, handle);
		return GARNET_GEM_BUFFER_TOO_MANY;
	}
	map = map_object(gc, handle, size, &writable);
	if (!map) {
		close_handle(gc->fd, handle);
		return GARNET_GEM_BUFFER_UNMAPPABLE;
	}
	buffer = calloc(1, sizeof(*buffer));
	if (!buffer)
		goto err_alloc;
	buffer->resource = wl_resource_create(client, &wl_buffer_interface, 1, id);
	if (!buffer->resource)
		goto err_resource;
	buffer->client = gc;
	buffer->drm_fd = gc->fd;
	buffer->handle = handle;
	buffer->size = size;
	buffer->map = map;
	buffer->pixels = (char *)map + l->offset;
	buffer->writable = writable;
	buffer->coherent = writable && gc->llc;
	buffer->width = l->width;
	buffer->height = l->height;
	buffer->stride = l->stride;
	buffer->format = l->format;
	wl_list_init(&buffer->imports);
	gc->refs++;
	gc->buffers++;
	wl_resource_set_implementation(buffer->resource, &buffer_impl, buffer,
				       buffer_resource_destroy);
	*out = buffer->resource;
	return GARNET_GEM_BUFFER_OK;

err_resource:
	free(buffer);
err_alloc:
	munmap(map, size);
	close_handle(gc->fd, handle);
	return GARNET_GEM_BUFFER_NO_MEMORY;
}

static void factory_create_buffer(struct wl_client *client, struct wl_resource *resource,
				  uint32_t id, uint32_t name_hi, uint32_t name_lo, int32_t width,
				  int32_t height, int32_t stride, uint32_t format)
{
	struct garnet_gem_client *gc = wl_resource_get_user_data(resource);
	struct garnet_gem_buffer_layout layout = {
		.width = width, .height = height, .stride = stride,
	};
	struct wl_resource *buffer;
	uint32_t handle;
	uint64_t size;

	if (!garnet_gem_format_for(format, &layout.format)) {
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_INVALID_FORMAT,
				       "format 0x%08x was not announced", format);
		return;
	}
	/* Sizes are checked before the name: a bad size is an error whatever the name. */
	if (width <= 0 || height <= 0 || width > MAX_DIMENSION || height > MAX_DIMENSION ||
	    stride % 4 != 0 || (int64_t)stride < (int64_t)width * 4) {
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_INVALID_SIZE,
				       "%dx%d with stride %d: need positive sizes up to %d and a "
				       "stride of at least 4 bytes per pixel, a multiple of 4",
				       width, height, stride, MAX_DIMENSION);
		return;
	}
	if (gc->buffers >= MAX_BUFFERS_PER_CLIENT) {
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_TOO_MANY_BUFFERS,
				       "more than %d garnet buffers", MAX_BUFFERS_PER_CLIENT);
		return;
	}
	if (!accept_name(gc, (uint64_t)name_hi << 32 | name_lo, &handle, &size)) {
		garnet_log(gc->manager->compositor, GARNET_LOG_WARNING, "security",
			   "denied: client pid %d offered a name that is not a live name shared "
			   "with it", (int)client_pid(client));
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_INVALID_NAME,
				       "not a name shared with this compositor");
		return;
	}
	switch (garnet_gem_buffer_create(gc, client, id, handle, size, &layout, &buffer)) {
	case GARNET_GEM_BUFFER_OK:
		break;
	case GARNET_GEM_BUFFER_BAD_SIZE:
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_INVALID_SIZE,
				       "stride %d times height %d is more than the object's %llu "
				       "bytes", stride, height, (unsigned long long)size);
		break;
	case GARNET_GEM_BUFFER_TOO_MANY:
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_TOO_MANY_BUFFERS,
				       "more than %d garnet buffers", MAX_BUFFERS_PER_CLIENT);
		break;
	case GARNET_GEM_BUFFER_UNMAPPABLE:
		wl_resource_post_error(resource, GARNET_BUFFER_V1_ERROR_UNMAPPABLE,
				       "the object cannot be mapped: %s", strerror(errno));
		break;
	case GARNET_GEM_BUFFER_NO_MEMORY:
		wl_resource_post_no_memory(resource);
		break;
	}
}

static void factory_capture_output(struct wl_client *client, struct wl_resource *resource,
				   uint32_t id, struct wl_resource *output, uint32_t client_id_hi,
				   uint32_t client_id_lo)
{
	(void)client;
	garnet_gem_capture_output(wl_resource_get_user_data(resource), resource, id, output,
				  (uint64_t)client_id_hi << 32 | client_id_lo);
}

static const struct garnet_buffer_v1_interface factory_impl = {
	.destroy = garnet_resource_destroy_request,
	.create_buffer = factory_create_buffer,
	.capture_output = factory_capture_output,
};

static void factory_resource_destroy(struct wl_resource *resource)
{
	garnet_gem_client_unref(wl_resource_get_user_data(resource));
}

static void factory_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_gem_manager *m = data;
	struct garnet_gem_client *gc;
	struct wl_resource *resource;

	gc = garnet_gem_client_get(m, client);
	if (!gc) {
		wl_client_post_implementation_error(client, "garnet.ko cannot be opened");
		return;
	}
	resource = wl_resource_create(client, &garnet_buffer_v1_interface, (int)version, id);
	if (!resource) {
		garnet_gem_client_unref(gc);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &factory_impl, gc, factory_resource_destroy);
	garnet_buffer_v1_send_device(resource, m->device_path);
	garnet_buffer_v1_send_recipient(resource, (uint32_t)(gc->id >> 32), (uint32_t)gc->id);
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(formats); i++)
		garnet_buffer_v1_send_format(resource, formats[i].fourcc);
}

/* Clients, and with them every factory and buffer, are gone by now. */
static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct garnet_gem_manager *m = wl_container_of(listener, m, compositor_destroy);

	(void)data;
	wl_list_remove(&m->compositor_destroy.link);
	free(m->device_path);
	free(m);
}

bool garnet_gem_buffer_init(struct garnet_compositor *c)
{
	char *path = garnet_drm_find_render_node();
	struct garnet_gem_manager *m;

	if (!path) {
		garnet_log(c, GARNET_LOG_DEBUG, "gem",
			   "no garnet.ko render node: garnet_buffer_v1 not offered");
		return true;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		free(path);
		return false;
	}
	m->compositor = c;
	m->device_path = path;
	wl_list_init(&m->clients);
	if (!garnet_global_create(c, &garnet_buffer_v1_interface, 1, m, factory_bind, false)) {
		free(path);
		free(m);
		return false;
	}
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	garnet_log(c, GARNET_LOG_INFO, "gem", "garnet_buffer_v1 on %s", path);
	if (!garnet_buffer_broker_init(c, m))
		garnet_log(c, GARNET_LOG_ERROR, "gem", "garnet_buffer_broker_v1 not offered: %s",
			   strerror(errno));
	if (!garnet_linux_dmabuf_init(c, m, path))
		garnet_log(c, GARNET_LOG_ERROR, "gem", "zwp_linux_dmabuf_v1 not offered: %s",
			   strerror(errno));
	return true;
}
