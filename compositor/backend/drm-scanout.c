// SPDX-License-Identifier: MIT
// Direct scanout: a frame that is one client's GEM buffer is put on the primary plane as it is.
// The buffer is on the compositor's DRM file for that client; it reaches the backend's own
// file as a dma-buf, becomes a framebuffer there, and is held (not released to the client)
// until a later frame is on screen. Only atomic KMS, where a test commit says beforehand
// whether the plane takes it: a buffer it refuses is painted as any other.
#include <fcntl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "../core/buffer.h"
#include "drm.h"
#include "session.h"

/* A framebuffer on the backend's file for the object of buffer; 0 when it cannot be made. */
static uint32_t import_framebuffer(struct drm_backend *b, const struct garnet_scanout_buffer *buf)
{
	uint32_t handles[4] = {0}, strides[4] = {0}, offsets[4] = {0};
	uint32_t handle, fb_id = 0;
	struct drm_gem_close close_handle = {0};
	int dmabuf;

	if (buf->offset > UINT32_MAX ||
	    drmPrimeHandleToFD(buf->drm_fd, buf->handle, DRM_CLOEXEC, &dmabuf) != 0)
		return 0;
	if (drmPrimeFDToHandle(b->fd, dmabuf, &handle) != 0) {
		close(dmabuf);
		return 0;
	}
	close(dmabuf);
	handles[0] = handle;
	strides[0] = (uint32_t)buf->stride;
	offsets[0] = (uint32_t)buf->offset;
	if (drmModeAddFB2(b->fd, (uint32_t)buf->width, (uint32_t)buf->height, buf->fourcc,
			  handles, strides, offsets, &fb_id, 0) != 0)
		fb_id = 0;
	/* The framebuffer holds the object from now on; the handle is not needed. */
	close_handle.handle = handle;
	drmIoctl(b->fd, DRM_IOCTL_GEM_CLOSE, &close_handle);
	return fb_id;
}

void drm_scanout_release(struct drm_output *output, struct drm_scanout *s)
{
	if (s->fb_id)
		drmModeRmFB(output->backend->fd, s->fb_id);
	if (s->hold)
		garnet_content_drop_hold(s->hold);
	s->fb_id = 0;
	s->hold = NULL;
}

bool drm_scanout(struct garnet_output *base, const struct garnet_scanout_buffer *buffer,
		 struct garnet_content *hold)
{
	struct drm_output *output = wl_container_of(base, output, base);
	struct drm_backend *b = output->backend;
	uint32_t fb_id;

	if (!b->atomic || output->needs_modeset || !garnet_session_is_active(b->session))
		return false;
	fb_id = import_framebuffer(b, buffer);
	if (!fb_id)
		return false;
	if (!drm_kms_can_show(output, fb_id)) {
		drmModeRmFB(b->fd, fb_id);
		return false;
	}
	drm_scanout_release(output, &output->scanout_next);
	output->scanout_next.fb_id = fb_id;
	output->scanout_next.hold = hold;
	return true;
}
