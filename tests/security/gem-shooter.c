// SPDX-License-Identifier: MIT
/*
 * A screenshooter over garnet_buffer_v1, started by garnet's launcher as the entry
 * "screenshooter" (so the shipped security layer knows it from its launch record, not from its
 * socket). It captures the first output into an object shared with its own DRM file, opens the
 * name, reads the pixel at (X, Y), tries the single-use name a second time, and writes one line
 * to RESULT: "ready pixel=AARRGGBB again=ERRNO", or "failed" when garnet refused. The line is
 * written beside RESULT and renamed into place, so a reader never sees half of it.
 *
 *   gem-shooter RESULT X Y
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>
#include <wayland-client.h>

#include "garnet-buffer-v1-client-protocol.h"

struct shooter {
	struct garnet_buffer_v1 *gem;
	struct wl_output *output;
	char device[256];
	bool done, ready;
	uint64_t name;
	int32_t stride;
};

static void on_global(void *data, struct wl_registry *registry, uint32_t name,
		      const char *interface, uint32_t version)
{
	struct shooter *s = data;

	(void)version;
	if (strcmp(interface, garnet_buffer_v1_interface.name) == 0)
		s->gem = wl_registry_bind(registry, name, &garnet_buffer_v1_interface, 1);
	else if (strcmp(interface, wl_output_interface.name) == 0 && !s->output)
		s->output = wl_registry_bind(registry, name, &wl_output_interface, 1);
}

static void on_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {on_global, on_global_remove};

static void gem_device(void *data, struct garnet_buffer_v1 *gem, const char *path)
{
	struct shooter *s = data;

	(void)gem;
	snprintf(s->device, sizeof(s->device), "%s", path);
}

static void gem_recipient(void *data, struct garnet_buffer_v1 *gem, uint32_t hi, uint32_t lo)
{
	(void)data, (void)gem, (void)hi, (void)lo;
}

static void gem_format(void *data, struct garnet_buffer_v1 *gem, uint32_t format)
{
	(void)data, (void)gem, (void)format;
}

static const struct garnet_buffer_v1_listener gem_listener = {gem_device, gem_recipient,
								gem_format};

static void capture_ready(void *data, struct garnet_buffer_capture_v1 *capture, uint32_t hi,
			  uint32_t lo, int32_t width, int32_t height, int32_t stride,
			  uint32_t format)
{
	struct shooter *s = data;

	(void)capture, (void)width, (void)height, (void)format;
	s->done = s->ready = true;
	s->name = (uint64_t)hi << 32 | lo;
	s->stride = stride;
}

static void capture_failed(void *data, struct garnet_buffer_capture_v1 *capture)
{
	struct shooter *s = data;

	(void)capture;
	s->done = true;
}

static const struct garnet_buffer_capture_v1_listener capture_listener = {capture_ready,
									    capture_failed};

static int fail(const char *what)
{
	fprintf(stderr, "gem-shooter: %s: %s\n", what, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	struct shooter s = {0};
	struct wl_display *display;
	struct wl_registry *registry;
	struct drm_garnet_get_client_id id = {0};
	struct drm_garnet_accept accept;
	struct drm_i915_gem_pread pread;
	uint32_t pixel = 0;
	int fd, again;
	char partial[4096];
	FILE *result;

	if (argc != 4) {
		fprintf(stderr, "usage: gem-shooter RESULT X Y\n");
		return 2;
	}
	display = wl_display_connect(NULL);
	if (!display)
		return fail("wl_display_connect");
	registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &s);
	wl_display_roundtrip(display);
	if (!s.gem || !s.output) {
		fprintf(stderr, "gem-shooter: no garnet_buffer_v1 or wl_output\n");
		return 1;
	}
	garnet_buffer_v1_add_listener(s.gem, &gem_listener, &s);
	wl_display_roundtrip(display);
	fd = open(s.device, O_RDWR | O_CLOEXEC);
	if (fd < 0 || drmIoctl(fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &id) < 0)
		return fail(s.device);

	garnet_buffer_capture_v1_add_listener(
		garnet_buffer_v1_capture_output(s.gem, s.output, (uint32_t)(id.client_id >> 32),
						(uint32_t)id.client_id),
		&capture_listener, &s);
	while (!s.done)
		if (wl_display_dispatch(display) < 0)
			return fail("wl_display_dispatch");

	snprintf(partial, sizeof(partial), "%s.partial", argv[1]);
	result = fopen(partial, "w");
	if (!result)
		return fail(partial);
	if (!s.ready) {
		fprintf(result, "failed\n");
		return fclose(result) == 0 && rename(partial, argv[1]) == 0 ? 0 : 1;
	}
	accept = (struct drm_garnet_accept){.name = s.name};
	if (drmIoctl(fd, DRM_IOCTL_GARNET_ACCEPT, &accept) < 0)
		return fail("ACCEPT");
	pread = (struct drm_i915_gem_pread){
		.handle = accept.handle,
		.offset = (uint64_t)s.stride * strtoull(argv[3], NULL, 10) +
			  4 * strtoull(argv[2], NULL, 10),
		.size = 4,
		.data_ptr = (uintptr_t)&pixel};
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pread) < 0)
		return fail("PREAD");
	accept = (struct drm_garnet_accept){.name = s.name};
	again = drmIoctl(fd, DRM_IOCTL_GARNET_ACCEPT, &accept) < 0 ? errno : 0;
	fprintf(result, "ready pixel=%08x again=%d\n", pixel, again);
	return fclose(result) == 0 && rename(partial, argv[1]) == 0 ? 0 : 1;
}
