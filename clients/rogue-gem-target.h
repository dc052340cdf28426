/* SPDX-License-Identifier: MIT */
/* garnet-rogue's dma-buf wl_buffers for garnet to write into (portal-backend's copy-gem and
 * copy-foreign): an object of garnet.ko's render node, or a dumb buffer of vgem's. */
#ifndef GARNET_ROGUE_GEM_TARGET_H
#define GARNET_ROGUE_GEM_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

#include "linux-dmabuf-unstable-v1-client-protocol.h"

struct rogue_gem_target {
	struct wl_buffer *buffer;
	int dmabuf_fd; /* what the rogue maps to read what garnet wrote */
	size_t size;
	/* A vgem file holding an unsignalled write fence on the object (rogue_gem_target_block):
	 * to garnet, GPU work that never ends. -1: none. */
	int vgem_fd;
	uint32_t fence;
};

/* A width x height xrgb8888 buffer of a new object on the render node garnet named (node), or
 * of vgem (node NULL); false (and why, on stderr) when it cannot be made. */
bool rogue_gem_target_make(struct zwp_linux_dmabuf_v1 *dmabuf, const char *node,
			   int32_t width, int32_t height, struct rogue_gem_target *t);
/* Makes the object busy: imported into vgem, which fences it for writing and never signals
 * until rogue_gem_target_free (or vgem's own timeout, seconds later). */
bool rogue_gem_target_block(struct rogue_gem_target *t);
/* The pixels of the object that are not zero (garnet.ko zeroes new objects), -1 when it cannot
 * be read. */
long rogue_gem_target_written(const struct rogue_gem_target *t);
void rogue_gem_target_free(struct rogue_gem_target *t);

#endif
