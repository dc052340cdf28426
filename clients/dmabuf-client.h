/* SPDX-License-Identifier: MIT */
/* A client's GEM objects as wl_buffers (garnet-gem-demo --dmabuf, garnet-portal's frames):
 * they go to the compositor as dma-bufs (PRIME) through zwp_linux_dmabuf_v1, and the device to
 * allocate on comes from its feedback, as any GPU client of any compositor would do it. */
#ifndef GARNET_DMABUF_CLIENT_H
#define GARNET_DMABUF_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"

/* What the compositor's default feedback says. */
struct dmabuf_feedback {
	dev_t device;
	bool has_device, xrgb_linear, done;
	int table_fd; /* the format table, -1 if none came; the caller closes it */
	uint32_t table_size;
};

/* Waits for the default feedback; false if the connection failed before it was done. */
bool dmabuf_client_feedback(struct wl_display *display, struct zwp_linux_dmabuf_v1 *dmabuf,
			      struct dmabuf_feedback *f);
/* The render node the compositor's default feedback names as its main device (malloc'ed), or
 * NULL if it names none or XRGB8888 linear is not in its format table. */
char *dmabuf_client_device(struct wl_display *display, struct zwp_linux_dmabuf_v1 *dmabuf);
/* A wl_buffer of the GEM object handle on drm_fd, exported as a dma-buf; NULL on failure. */
struct wl_buffer *dmabuf_client_buffer(struct zwp_linux_dmabuf_v1 *dmabuf, int drm_fd,
					 uint32_t handle, int32_t width, int32_t height,
					 int32_t stride, uint32_t format);
/* The same of a dma-buf fd (linear, plane 0 at offset 0) the caller keeps. */
struct wl_buffer *dmabuf_client_buffer_of_fd(struct zwp_linux_dmabuf_v1 *dmabuf, int fd,
					       int32_t width, int32_t height, int32_t stride,
					       uint32_t format);

#endif
