// SPDX-License-Identifier: MIT
// Buffers garnet is asked to write a cast into: its own device's objects, which it may write,
// and another driver's, which it must refuse (it maps those read-only).
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/dma-buf.h>
#include <xf86drm.h>
#include <i915_drm.h>

#include "dmabuf-client.h"
#include "rogue-gem-target.h"
#include "vgem-fence.h"

/* The first card whose driver is name. */
static int open_card_of(const char *name)
{
	char path[32];

	for (int i = 0; i < 16; i++) {
		drmVersionPtr version;
		int fd;
		bool found;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		version = drmGetVersion(fd);
		found = version && strcmp(version->name, name) == 0;
		drmFreeVersion(version);
		if (found)
			return fd;
		close(fd);
	}
	return -1;
}

/* A new object of size bytes on fd: GEM_CREATE on garnet.ko, a dumb buffer on vgem. */
static bool create_object(int fd, bool foreign, int32_t width, int32_t height, uint32_t *handle)
{
	struct drm_mode_create_dumb dumb = {
		.width = (uint32_t)width, .height = (uint32_t)height, .bpp = 32};
	struct drm_i915_gem_create create = {.size = (uint64_t)width * 4 * (uint64_t)height};

	if (foreign) {
		if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb) < 0)
			return false;
		*handle = dumb.handle;
		errno = EINVAL;
		return dumb.pitch == (uint32_t)width * 4;
	}
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create) < 0)
		return false;
	*handle = create.handle;
	return true;
}

bool rogue_gem_target_make(struct zwp_linux_dmabuf_v1 *dmabuf, const char *node,
			   int32_t width, int32_t height, struct rogue_gem_target *t)
{
	bool foreign = !node;
	int fd = foreign ? open_card_of("vgem")
			 : open(node, O_RDWR | O_CLOEXEC);
	uint32_t handle;

	*t = (struct rogue_gem_target){.dmabuf_fd = -1, .vgem_fd = -1,
				       .size = (size_t)width * 4 * (size_t)height};
	if (fd < 0) {
		fprintf(stderr, "garnet-rogue: no %s device\n", foreign ? "vgem" : "garnet");
		return false;
	}
	if (!create_object(fd, foreign, width, height, &handle) ||
	    drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC | DRM_RDWR, &t->dmabuf_fd) != 0 ||
	    !(t->buffer = dmabuf_client_buffer_of_fd(dmabuf, t->dmabuf_fd, width, height,
						     width * 4, DRM_FORMAT_XRGB8888))) {
		fprintf(stderr, "garnet-rogue: cannot make the buffer: %s\n", strerror(errno));
		close(fd);
		rogue_gem_target_free(t);
		return false;
	}
	/* The dma-buf keeps the object. */
	close(fd);
	return true;
}

bool rogue_gem_target_block(struct rogue_gem_target *t)
{
	struct vgem_fence_attach attach = {.flags = VGEM_FENCE_WRITE};

	t->vgem_fd = open_card_of("vgem");
	if (t->vgem_fd < 0 || drmPrimeFDToHandle(t->vgem_fd, t->dmabuf_fd, &attach.handle) != 0 ||
	    drmIoctl(t->vgem_fd, VGEM_IOCTL_FENCE_ATTACH, &attach) != 0) {
		fprintf(stderr, "garnet-rogue: cannot fence the object in vgem: %s\n",
			strerror(errno));
		return false;
	}
	t->fence = attach.out_fence;
	return true;
}

long rogue_gem_target_written(const struct rogue_gem_target *t)
{
	struct dma_buf_sync sync = {DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ};
	const uint32_t *pixels = mmap(NULL, t->size, PROT_READ, MAP_SHARED, t->dmabuf_fd, 0);
	long written = 0;

	if (pixels == MAP_FAILED)
		return -1;
	ioctl(t->dmabuf_fd, DMA_BUF_IOCTL_SYNC, &sync);
	for (size_t i = 0; i < t->size / 4; i++)
		written += pixels[i] != 0;
	sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
	ioctl(t->dmabuf_fd, DMA_BUF_IOCTL_SYNC, &sync);
	munmap((void *)pixels, t->size);
	return written;
}

void rogue_gem_target_free(struct rogue_gem_target *t)
{
	struct vgem_fence_signal signal = {.fence = t->fence};

	if (t->vgem_fd >= 0) {
		drmIoctl(t->vgem_fd, VGEM_IOCTL_FENCE_SIGNAL, &signal);
		close(t->vgem_fd);
	}
	if (t->buffer)
		wl_buffer_destroy(t->buffer);
	if (t->dmabuf_fd >= 0)
		close(t->dmabuf_fd);
	*t = (struct rogue_gem_target){.dmabuf_fd = -1, .vgem_fd = -1};
}
