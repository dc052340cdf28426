// SPDX-License-Identifier: MIT
// One screencopy capture into a memfd-backed wl_shm buffer, turned into plain memory.
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"

struct capture_state {
	struct wl_shm *shm;
	struct wl_output *output;
	struct zwlr_screencopy_manager_v1 *manager;
	uint32_t format, width, height, stride, flags;
	bool have_buffer, done;
	enum capture_status status;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
		      const char *interface, uint32_t version)
{
	struct capture_state *s = data;

	if (strcmp(interface, wl_shm_interface.name) == 0)
		s->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !s->output)
		s->output = wl_registry_bind(registry, name, &wl_output_interface, 1);
	else if (strcmp(interface, zwlr_screencopy_manager_v1_interface.name) == 0)
		s->manager = wl_registry_bind(registry, name, &zwlr_screencopy_manager_v1_interface,
					      version < 3 ? version : 3);
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void on_buffer(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format,
		      uint32_t width, uint32_t height, uint32_t stride)
{
	struct capture_state *s = data;

	s->format = format;
	s->width = width;
	s->height = height;
	s->stride = stride;
	s->have_buffer = true;
}

static void on_flags(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t flags)
{
	((struct capture_state *)data)->flags = flags;
}

static void on_ready(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t sec_hi,
		     uint32_t sec_lo, uint32_t nsec)
{
	struct capture_state *s = data;

	s->status = CAPTURE_READY;
	s->done = true;
}

static void on_failed(void *data, struct zwlr_screencopy_frame_v1 *frame)
{
	struct capture_state *s = data;

	s->status = CAPTURE_FAILED;
	s->done = true;
}

static void on_damage(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h)
{
}

static void on_dmabuf(void *data, struct zwlr_screencopy_frame_v1 *frame, uint32_t format,
		      uint32_t w, uint32_t h)
{
}

static void on_buffer_done(void *data, struct zwlr_screencopy_frame_v1 *frame)
{
}

static const struct zwlr_screencopy_frame_v1_listener frame_listener = {
	on_buffer, on_flags, on_ready, on_failed, on_damage, on_dmabuf, on_buffer_done,
};

/* Copies the shared buffer out, top row first. */
static bool keep_pixels(const struct capture_state *s, const uint8_t *shared, struct capture *out)
{
	out->width = s->width;
	out->height = s->height;
	out->stride = s->width * 4;
	out->pixels = malloc((size_t)out->stride * s->height);
	if (!out->pixels)
		return false;
	for (uint32_t y = 0; y < s->height; y++) {
		uint32_t from = s->flags & ZWLR_SCREENCOPY_FRAME_V1_FLAGS_Y_INVERT
					? s->height - 1 - y : y;

		memcpy((uint8_t *)out->pixels + (size_t)y * out->stride,
		       shared + (size_t)from * s->stride, out->stride);
	}
	return true;
}

static enum capture_status copy_frame(struct wl_display *display, struct capture_state *s,
				      struct zwlr_screencopy_frame_v1 *frame, struct capture *out)
{
	size_t size = (size_t)s->stride * s->height;
	int fd = memfd_create("garnet-capture", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;
	void *shared;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0) {
		if (fd >= 0)
			close(fd);
		return CAPTURE_ERROR;
	}
	shared = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (shared == MAP_FAILED) {
		close(fd);
		return CAPTURE_ERROR;
	}
	pool = wl_shm_create_pool(s->shm, fd, (int32_t)size);
	buffer = wl_shm_pool_create_buffer(pool, 0, (int32_t)s->width, (int32_t)s->height,
					   (int32_t)s->stride, s->format);
	wl_shm_pool_destroy(pool);
	close(fd);
	zwlr_screencopy_frame_v1_copy(frame, buffer);
	while (!s->done && wl_display_dispatch(display) >= 0)
		;
	if (!s->done)
		s->status = CAPTURE_ERROR;
	if (s->status == CAPTURE_READY && !keep_pixels(s, shared, out))
		s->status = CAPTURE_ERROR;
	wl_buffer_destroy(buffer);
	munmap(shared, size);
	return s->status;
}

enum capture_status capture_first_output(struct wl_display *display, struct capture *out)
{
	struct capture_state s = {.status = CAPTURE_ERROR};
	struct wl_registry *registry = wl_display_get_registry(display);
	struct zwlr_screencopy_frame_v1 *frame;

	memset(out, 0, sizeof(*out));
	wl_registry_add_listener(registry, &registry_listener, &s);
	if (wl_display_roundtrip(display) < 0 || !s.shm || !s.output)
		return CAPTURE_ERROR;
	if (!s.manager)
		return CAPTURE_NO_GLOBAL;
	frame = zwlr_screencopy_manager_v1_capture_output(s.manager, 0, s.output);
	zwlr_screencopy_frame_v1_add_listener(frame, &frame_listener, &s);
	/* The buffer kinds arrive first; a frame can also fail at once. */
	while (!s.have_buffer && !s.done && wl_display_dispatch(display) >= 0)
		;
	if (!s.done && s.have_buffer)
		copy_frame(display, &s, frame, out);
	else if (!s.done)
		s.status = CAPTURE_ERROR;
	zwlr_screencopy_frame_v1_destroy(frame);
	zwlr_screencopy_manager_v1_destroy(s.manager);
	wl_output_destroy(s.output);
	wl_shm_destroy(s.shm);
	wl_registry_destroy(registry);
	return s.status;
}
