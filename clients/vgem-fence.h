/* SPDX-License-Identifier: MIT */
/*
 * vgem's fence ioctls, the wire format of the kernel's uapi/drm/vgem_drm.h (libdrm does not
 * ship the header): they put a real, unsignalled dma_fence on a buffer, standing in for another
 * driver's GPU work (the kernel tests' blocker, garnet-rogue's busy object).
 */
#ifndef GARNET_VGEM_FENCE_H
#define GARNET_VGEM_FENCE_H

#include <stdint.h>
#include <drm.h>

struct vgem_fence_attach {
	uint32_t handle;
	uint32_t flags;
	uint32_t out_fence;
	uint32_t pad;
};

struct vgem_fence_signal {
	uint32_t fence;
	uint32_t flags;
};

#define VGEM_FENCE_WRITE	0x1
#define VGEM_IOCTL_FENCE_ATTACH	DRM_IOWR(DRM_COMMAND_BASE + 0x1, struct vgem_fence_attach)
#define VGEM_IOCTL_FENCE_SIGNAL	DRM_IOW(DRM_COMMAND_BASE + 0x2, struct vgem_fence_signal)

#endif
