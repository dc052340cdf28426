// SPDX-License-Identifier: MIT
// zwp_linux_dmabuf_v1 (version 4, with feedback) on garnet.ko's render node. A dma-buf is a
// capability: only a process that holds the fd can hand it over, so no name can be guessed.
// Each one is imported into the client's own DRM file of the compositor (PRIME), which makes it
// a garnet buffer like those of garnet_buffer_v1: same mapping, same wait for pending GPU
// writes, same release rules. Single-plane linear RGB formats only: what the engine writes.
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xf86drm.h>

#include "linux-dmabuf-unstable-v1-server-protocol.h"
#include "../core/gem-buffer.h"
#include "../core/compositor.h"
#include "../core/sealed-memfd.h"

#define DMABUF_VERSION 4
#define MAX_PLANES 4

struct dmabuf_manager {
	struct garnet_compositor *compositor;
	struct garnet_gem_manager *gem;
	dev_t device;
	int table_fd; /* the format table: sealed, shared read-only with every client */
	uint32_t table_size;
	struct wl_listener compositor_destroy;
};

/* One entry of the format table, as the protocol lays it out. */
struct table_entry {
	uint32_t format;
	uint32_t pad;
	uint64_t modifier;
};

struct params {
	struct dmabuf_manager *manager;
	struct wl_resource *resource;
	struct {
		int fd; /* -1: not added */
		uint32_t offset, stride;
		uint64_t modifier;
	} planes[MAX_PLANES];
	bool used;
};

/* ---- feedback ---- */

static const struct zwp_linux_dmabuf_feedback_v1_interface feedback_impl = {
	.destroy = garnet_resource_destroy_request,
};

/* One tranche: every format of the table, linear, on the render node. Surfaces get the same
 * feedback as the default: garnet composites with the CPU, so no surface would do better. */
static void send_feedback(struct dmabuf_manager *m, struct wl_resource *resource)
{
	struct wl_array device, indices;
	uint16_t *index;

	wl_array_init(&device);
	wl_array_init(&indices);
	if (!wl_array_add(&device, sizeof(m->device))) {
		wl_resource_post_no_memory(resource);
		goto out;
	}
	memcpy(device.data, &m->device, sizeof(m->device));
	for (size_t i = 0; i < garnet_gem_format_count(); i++) {
		index = wl_array_add(&indices, sizeof(*index));
		if (!index) {
			wl_resource_post_no_memory(resource);
			goto out;
		}
		*index = (uint16_t)i;
	}
	zwp_linux_dmabuf_feedback_v1_send_format_table(resource, m->table_fd, m->table_size);
	zwp_linux_dmabuf_feedback_v1_send_main_device(resource, &device);
	zwp_linux_dmabuf_feedback_v1_send_tranche_target_device(resource, &device);
	zwp_linux_dmabuf_feedback_v1_send_tranche_formats(resource, &indices);
	zwp_linux_dmabuf_feedback_v1_send_tranche_flags(resource, 0);
	zwp_linux_dmabuf_feedback_v1_send_tranche_done(resource);
	zwp_linux_dmabuf_feedback_v1_send_done(resource);
out:
	wl_array_release(&device);
	wl_array_release(&indices);
}

static void create_feedback(struct wl_client *client, struct wl_resource *dmabuf, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_linux_dmabuf_feedback_v1_interface,
				   wl_resource_get_version(dmabuf), id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &feedback_impl, NULL, NULL);
	send_feedback(wl_resource_get_user_data(dmabuf), resource);
}

/* ---- params ---- */

static void params_close_planes(struct params *p)
{
	for (int i = 0; i < MAX_PLANES; i++) {
		if (p->planes[i].fd >= 0)
			close(p->planes[i].fd);
		p->planes[i].fd = -1;
	}
}

static void params_resource_destroy(struct wl_resource *resource)
{
	struct params *p = wl_resource_get_user_data(resource);

	params_close_planes(p);
	free(p);
}

static void params_add(struct wl_client *client, struct wl_resource *resource, int32_t fd,
		       uint32_t plane_idx, uint32_t offset, uint32_t stride, uint32_t modifier_hi,
		       uint32_t modifier_lo)
{
	struct params *p = wl_resource_get_user_data(resource);

	if (p->used) {
		close(fd);
		wl_resource_post_error(resource, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED,
				       "these params were used to create a buffer already");
		return;
	}
	if (plane_idx >= MAX_PLANES) {
		close(fd);
		wl_resource_post_error(resource, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX,
				       "plane index %u is not below %d", plane_idx, MAX_PLANES);
		return;
	}
	if (p->planes[plane_idx].fd >= 0) {
		close(fd);
		wl_resource_post_error(resource, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_SET,
				       "plane %u was added already", plane_idx);
		return;
	}
	p->planes[plane_idx].fd = fd;
	p->planes[plane_idx].offset = offset;
	p->planes[plane_idx].stride = stride;
	p->planes[plane_idx].modifier = (uint64_t)modifier_hi << 32 | modifier_lo;
}

/* The checks the protocol makes errors of; false when one was posted. */
static bool params_valid(struct params *p, int32_t width, int32_t height, uint32_t format,
			 pixman_format_code_t *pixman_format)
{
	struct wl_resource *r = p->resource;
	off_t size;

	if (p->used) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED,
				       "these params were used to create a buffer already");
		return false;
	}
	if (!garnet_gem_format_for(format, pixman_format)) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT,
				       "format 0x%08x is not in the format table", format);
		return false;
	}
	/* Every format garnet takes has exactly one plane. */
	if (p->planes[0].fd < 0 || p->planes[1].fd >= 0 || p->planes[2].fd >= 0 ||
	    p->planes[3].fd >= 0) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE,
				       "format 0x%08x needs plane 0 and no other", format);
		return false;
	}
	if (width <= 0 || height <= 0) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_DIMENSIONS,
				       "%dx%d is not a size", width, height);
		return false;
	}
	if ((uint64_t)p->planes[0].offset + (uint64_t)p->planes[0].stride * (uint64_t)height >
	    UINT32_MAX) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS,
				       "offset %u plus stride %u times height %d overflows",
				       p->planes[0].offset, p->planes[0].stride, height);
		return false;
	}
	/* A dma-buf knows its size (lseek); something that is not one may not, and fails
	 * the import below instead. */
	size = lseek(p->planes[0].fd, 0, SEEK_END);
	if (size >= 0 && (uint64_t)p->planes[0].offset +
				 (uint64_t)p->planes[0].stride * (uint64_t)height >
			 (uint64_t)size) {
		wl_resource_post_error(r, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS,
				       "offset %u plus stride %u times height %d is beyond the "
				       "dma-buf's %lld bytes", p->planes[0].offset,
				       p->planes[0].stride, height, (long long)size);
		return false;
	}
	return true;
}

/* The import itself, which may fail for reasons the client could not know in advance (not a
 * garnet dma-buf, a tiled layout, a bad stride). false: nothing was created. */
static bool import_buffer(struct params *p, struct wl_client *client, uint32_t id,
			  int32_t width, int32_t height, pixman_format_code_t pixman_format,
			  uint32_t flags, struct wl_resource **out)
{
	struct dmabuf_manager *m = p->manager;
	struct garnet_gem_buffer_layout layout = {
		.width = width,
		.height = height,
		.stride = (int32_t)p->planes[0].stride,
		.offset = p->planes[0].offset,
		.format = pixman_format,
	};
	struct garnet_gem_client *gc;
	enum garnet_gem_buffer_result result;
	uint64_t modifier = p->planes[0].modifier;
	uint32_t handle;
	off_t size;

	/* The engine writes linear pixels; an unspecified modifier means the same here. */
	if (flags != 0 || p->planes[0].stride > INT32_MAX ||
	    (modifier != DRM_FORMAT_MOD_LINEAR && modifier != DRM_FORMAT_MOD_INVALID))
		return false;
	size = lseek(p->planes[0].fd, 0, SEEK_END);
	if (size <= 0)
		return false;
	gc = garnet_gem_client_get(m->gem, client);
	if (!gc)
		return false;
	if (drmPrimeFDToHandle(garnet_gem_client_fd(gc), p->planes[0].fd, &handle) != 0) {
		garnet_gem_client_unref(gc);
		return false;
	}
	result = garnet_gem_buffer_create(gc, client, id, handle, (uint64_t)size, &layout, out);
	garnet_gem_client_unref(gc);
	if (result != GARNET_GEM_BUFFER_OK)
		garnet_log(m->compositor, GARNET_LOG_DEBUG, "dmabuf",
			   "import of a %dx%d dma-buf failed (%d)", width, height, (int)result);
	return result == GARNET_GEM_BUFFER_OK;
}

/* create and create_immed: false when the params were invalid (the error is posted), else
 * whether the import made *buffer. The planes are closed either way. */
static bool params_use(struct wl_resource *resource, struct wl_client *client, uint32_t id,
		       int32_t width, int32_t height, uint32_t format, uint32_t flags,
		       struct wl_resource **buffer)
{
	struct params *p = wl_resource_get_user_data(resource);
	pixman_format_code_t pixman_format;

	*buffer = NULL;
	if (!params_valid(p, width, height, format, &pixman_format))
		return false;
	p->used = true;
	if (!import_buffer(p, client, id, width, height, pixman_format, flags, buffer))
		*buffer = NULL;
	params_close_planes(p);
	return true;
}

static void params_create(struct wl_client *client, struct wl_resource *resource, int32_t width,
			  int32_t height, uint32_t format, uint32_t flags)
{
	struct wl_resource *buffer;

	if (!params_use(resource, client, 0, width, height, format, flags, &buffer))
		return;
	if (buffer)
		zwp_linux_buffer_params_v1_send_created(resource, buffer);
	else
		zwp_linux_buffer_params_v1_send_failed(resource);
}

static void params_create_immed(struct wl_client *client, struct wl_resource *resource,
				uint32_t id, int32_t width, int32_t height, uint32_t format,
				uint32_t flags)
{
	struct wl_resource *buffer;

	/* The client already uses the id: a failed import can only end it. */
	if (params_use(resource, client, id, width, height, format, flags, &buffer) && !buffer)
		wl_resource_post_error(resource, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER,
				       "the dma-buf cannot be imported as a %dx%d linear buffer",
				       width, height);
}

static const struct zwp_linux_buffer_params_v1_interface params_impl = {
	.destroy = garnet_resource_destroy_request,
	.add = params_add,
	.create = params_create,
	.create_immed = params_create_immed,
};

/* ---- zwp_linux_dmabuf_v1 ---- */

static void dmabuf_create_params(struct wl_client *client, struct wl_resource *resource,
				 uint32_t id)
{
	struct params *p = calloc(1, sizeof(*p));

	if (!p) {
		wl_client_post_no_memory(client);
		return;
	}
	p->manager = wl_resource_get_user_data(resource);
	for (int i = 0; i < MAX_PLANES; i++)
		p->planes[i].fd = -1;
	p->resource = wl_resource_create(client, &zwp_linux_buffer_params_v1_interface,
					 wl_resource_get_version(resource), id);
	if (!p->resource) {
		free(p);
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(p->resource, &params_impl, p, params_resource_destroy);
}

static void dmabuf_get_default_feedback(struct wl_client *client, struct wl_resource *resource,
					uint32_t id)
{
	create_feedback(client, resource, id);
}

static void dmabuf_get_surface_feedback(struct wl_client *client, struct wl_resource *resource,
					uint32_t id, struct wl_resource *surface)
{
	create_feedback(client, resource, id);
}

static const struct zwp_linux_dmabuf_v1_interface dmabuf_impl = {
	.destroy = garnet_resource_destroy_request,
	.create_params = dmabuf_create_params,
	.get_default_feedback = dmabuf_get_default_feedback,
	.get_surface_feedback = dmabuf_get_surface_feedback,
};

static void dmabuf_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &zwp_linux_dmabuf_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &dmabuf_impl, data, NULL);
	/* Version 4 clients learn the formats from feedback; older ones from these events. */
	if (version >= 4)
		return;
	for (size_t i = 0; i < garnet_gem_format_count(); i++) {
		if (version >= ZWP_LINUX_DMABUF_V1_MODIFIER_SINCE_VERSION)
			zwp_linux_dmabuf_v1_send_modifier(resource, garnet_gem_format(i),
							  (uint32_t)(DRM_FORMAT_MOD_LINEAR >> 32),
							  (uint32_t)DRM_FORMAT_MOD_LINEAR);
		else
			zwp_linux_dmabuf_v1_send_format(resource, garnet_gem_format(i));
	}
}

/* The table lives in a sealed memfd: every client maps the same pages, none can change them. */
static int create_format_table(uint32_t *size)
{
	size_t count = garnet_gem_format_count();
	struct table_entry *entries = calloc(count, sizeof(*entries));
	int fd = -1;

	if (!entries)
		return -1;
	for (size_t i = 0; i < count; i++)
		entries[i] = (struct table_entry){garnet_gem_format(i), 0, DRM_FORMAT_MOD_LINEAR};
	*size = (uint32_t)(count * sizeof(*entries));
	fd = garnet_sealed_memfd("garnet-dmabuf-formats", entries, *size);
	free(entries);
	return fd;
}

static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct dmabuf_manager *m = wl_container_of(listener, m, compositor_destroy);

	wl_list_remove(&m->compositor_destroy.link);
	close(m->table_fd);
	free(m);
}

bool garnet_linux_dmabuf_init(struct garnet_compositor *c, struct garnet_gem_manager *gem,
			      const char *device_path)
{
	struct dmabuf_manager *m;
	struct stat st;

	if (stat(device_path, &st) < 0)
		return false;
	m = calloc(1, sizeof(*m));
	if (!m)
		return false;
	m->compositor = c;
	m->gem = gem;
	m->device = st.st_rdev;
	m->table_fd = create_format_table(&m->table_size);
	if (m->table_fd < 0) {
		free(m);
		return false;
	}
	if (!garnet_global_create(c, &zwp_linux_dmabuf_v1_interface, DMABUF_VERSION, m,
				  dmabuf_bind, false)) {
		close(m->table_fd);
		free(m);
		return false;
	}
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}
