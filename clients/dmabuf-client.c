// SPDX-License-Identifier: MIT
// The dma-buf path of garnet's clients: feedback to find the device, PRIME export to share a
// frame.
#include <drm_fourcc.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>
#include <xf86drm.h>

#include "dmabuf-client.h"

/* What the format table holds at each index (the protocol's layout). */
struct table_entry {
	uint32_t format;
	uint32_t pad;
	uint64_t modifier;
};

static void fb_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb)
{
	((struct dmabuf_feedback *)data)->done = true;
}

static void fb_format_table(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb, int32_t fd,
			    uint32_t size)
{
	struct dmabuf_feedback *f = data;

	if (f->table_fd >= 0)
		close(f->table_fd);
	f->table_fd = fd;
	f->table_size = size;
}

static void fb_main_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb,
			   struct wl_array *device)
{
	struct dmabuf_feedback *f = data;

	if (device->size == sizeof(f->device)) {
		memcpy(&f->device, device->data, sizeof(f->device));
		f->has_device = true;
	}
}

static void fb_tranche_done(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb)
{
}

static void fb_tranche_target_device(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb,
				     struct wl_array *device)
{
}

/* The tranche's formats are indices into the table, which the client maps read-only. */
static void fb_tranche_formats(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb,
			       struct wl_array *indices)
{
	struct dmabuf_feedback *f = data;
	const struct table_entry *table;
	uint16_t *index;

	if (f->table_fd < 0)
		return;
	table = mmap(NULL, f->table_size, PROT_READ, MAP_PRIVATE, f->table_fd, 0);
	if (table == MAP_FAILED)
		return;
	wl_array_for_each(index, indices) {
		if ((size_t)(*index + 1) * sizeof(*table) <= f->table_size &&
		    table[*index].format == DRM_FORMAT_XRGB8888 &&
		    table[*index].modifier == DRM_FORMAT_MOD_LINEAR)
			f->xrgb_linear = true;
	}
	munmap((void *)table, f->table_size);
}

static void fb_tranche_flags(void *data, struct zwp_linux_dmabuf_feedback_v1 *fb,
			     uint32_t flags)
{
}

static const struct zwp_linux_dmabuf_feedback_v1_listener feedback_listener = {
	fb_done,	 fb_format_table,	   fb_main_device,     fb_tranche_done,
	fb_tranche_target_device, fb_tranche_formats, fb_tranche_flags,
};

bool dmabuf_client_feedback(struct wl_display *display, struct zwp_linux_dmabuf_v1 *dmabuf,
			      struct dmabuf_feedback *f)
{
	struct zwp_linux_dmabuf_feedback_v1 *fb = zwp_linux_dmabuf_v1_get_default_feedback(dmabuf);

	*f = (struct dmabuf_feedback){.table_fd = -1};
	zwp_linux_dmabuf_feedback_v1_add_listener(fb, &feedback_listener, f);
	while (!f->done && wl_display_dispatch(display) >= 0)
		;
	zwp_linux_dmabuf_feedback_v1_destroy(fb);
	return f->done;
}

char *dmabuf_client_device(struct wl_display *display, struct zwp_linux_dmabuf_v1 *dmabuf)
{
	struct dmabuf_feedback f;
	drmDevicePtr device = NULL;
	char *path = NULL;
	bool usable = dmabuf_client_feedback(display, dmabuf, &f);

	if (f.table_fd >= 0)
		close(f.table_fd);
	if (!usable || !f.has_device || !f.xrgb_linear)
		return NULL;
	if (drmGetDeviceFromDevId(f.device, 0, &device) != 0)
		return NULL;
	if (device->available_nodes & (1 << DRM_NODE_RENDER))
		path = strdup(device->nodes[DRM_NODE_RENDER]);
	drmFreeDevice(&device);
	return path;
}

struct wl_buffer *dmabuf_client_buffer_of_fd(struct zwp_linux_dmabuf_v1 *dmabuf, int fd,
					       int32_t width, int32_t height, int32_t stride,
					       uint32_t format)
{
	struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(dmabuf);
	struct wl_buffer *buffer;

	zwp_linux_buffer_params_v1_add(params, fd, 0, 0, (uint32_t)stride,
				       (uint32_t)(DRM_FORMAT_MOD_LINEAR >> 32),
				       (uint32_t)DRM_FORMAT_MOD_LINEAR);
	buffer = zwp_linux_buffer_params_v1_create_immed(params, width, height, format, 0);
	zwp_linux_buffer_params_v1_destroy(params);
	return buffer;
}

struct wl_buffer *dmabuf_client_buffer(struct zwp_linux_dmabuf_v1 *dmabuf, int drm_fd,
					 uint32_t handle, int32_t width, int32_t height,
					 int32_t stride, uint32_t format)
{
	struct wl_buffer *buffer;
	int fd;

	if (drmPrimeHandleToFD(drm_fd, handle, DRM_CLOEXEC, &fd) != 0)
		return NULL;
	buffer = dmabuf_client_buffer_of_fd(dmabuf, fd, width, height, stride, format);
	/* The request carries a copy of the fd; the object lives on in the compositor. */
	close(fd);
	return buffer;
}
