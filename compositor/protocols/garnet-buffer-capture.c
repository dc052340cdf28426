// SPDX-License-Identifier: MIT
// garnet_buffer_v1.capture_output: other clients' pixels leave the compositor only through a
// security decision (the share_pixels hook, libwmac's "screenshot"), and then only as a
// single-use name that the asking client's own DRM file alone can accept.
#include <drm_fourcc.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>

#include "garnet-buffer-v1-server-protocol.h"
#include "../core/gem-buffer.h"
#include "../core/compositor.h"
#include "../core/output.h"

struct capture {
	int drm_fd;
	uint32_t handle; /* 0 until the picture exists */
	struct garnet_gem_client *client;
};

static const struct garnet_buffer_capture_v1_interface capture_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void capture_resource_destroy(struct wl_resource *resource)
{
	struct capture *capture = wl_resource_get_user_data(resource);

	if (capture->handle) {
		struct drm_gem_close close_arg = {.handle = capture->handle};

		drmIoctl(capture->drm_fd, DRM_IOCTL_GEM_CLOSE, &close_arg);
	}
	garnet_gem_client_unref(capture->client);
	free(capture);
}

/* The output's picture into a new object; false (and errno) when that cannot be done. */
static bool copy_picture(struct capture *capture, pixman_image_t *image, int32_t *stride_out)
{
	int32_t width = pixman_image_get_width(image), height = pixman_image_get_height(image);
	int32_t stride = width * 4;
	struct drm_i915_gem_create create = {.size = (uint64_t)stride * (uint64_t)height};
	struct drm_i915_gem_mmap map = {0};
	struct drm_i915_gem_set_domain domain = {0};
	pixman_image_t *target;

	if (drmIoctl(capture->drm_fd, DRM_IOCTL_I915_GEM_CREATE, &create) < 0)
		return false;
	capture->handle = create.handle;
	map = (struct drm_i915_gem_mmap){.handle = create.handle, .size = create.size};
	domain = (struct drm_i915_gem_set_domain){.handle = create.handle,
						  .read_domains = I915_GEM_DOMAIN_CPU,
						  .write_domain = I915_GEM_DOMAIN_CPU};
	if (drmIoctl(capture->drm_fd, DRM_IOCTL_I915_GEM_MMAP, &map) < 0 ||
	    drmIoctl(capture->drm_fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &domain) < 0)
		return false;
	target = pixman_image_create_bits(PIXMAN_x8r8g8b8, width, height,
					  (uint32_t *)(uintptr_t)map.addr_ptr, stride);
	if (target) {
		pixman_image_composite32(PIXMAN_OP_SRC, image, NULL, target, 0, 0, 0, 0, 0, 0,
					 width, height);
		pixman_image_unref(target);
	}
	munmap((void *)(uintptr_t)map.addr_ptr, create.size);
	*stride_out = stride;
	errno = ENOMEM;
	return target != NULL;
}

void garnet_gem_capture_output(struct garnet_gem_client *gc, struct wl_resource *factory,
			       uint32_t id, struct wl_resource *output_resource,
			       uint64_t client_id)
{
	struct wl_client *client = wl_resource_get_client(factory);
	struct garnet_compositor *c = garnet_gem_client_compositor(gc);
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	struct drm_garnet_share share = {.flags = GARNET_SHARE_SINGLE_USE,
					 .recipient = client_id};
	struct capture *capture = calloc(1, sizeof(*capture));
	struct wl_resource *resource;
	pixman_image_t *image;
	pid_t pid = 0;
	int32_t stride;

	resource = wl_resource_create(client, &garnet_buffer_capture_v1_interface,
				      wl_resource_get_version(factory), id);
	if (!capture || !resource) {
		free(capture);
		wl_resource_post_no_memory(factory);
		return;
	}
	capture->drm_fd = garnet_gem_client_fd(gc);
	capture->client = garnet_gem_client_ref(gc);
	wl_resource_set_implementation(resource, &capture_impl, capture, capture_resource_destroy);
	wl_client_get_credentials(client, &pid, NULL, NULL);

	if (!output || !output->impl->front_image) {
		garnet_buffer_capture_v1_send_failed(resource);
		return;
	}
	if (!c->hooks.share_pixels ||
	    !c->hooks.share_pixels(c->hooks.data, client, GARNET_PIXELS_OUTPUT, output->name)) {
		garnet_log(c, GARNET_LOG_WARNING, "security",
			   "denied: client pid %d may not capture output %s", (int)pid,
			   output->name);
		garnet_buffer_capture_v1_send_failed(resource);
		return;
	}
	image = output->impl->front_image(output);
	if (!image || !copy_picture(capture, image, &stride)) {
		garnet_log(c, GARNET_LOG_ERROR, "gem", "capture of %s: %s", output->name,
			   strerror(errno));
		garnet_buffer_capture_v1_send_failed(resource);
		return;
	}
	share.handle = capture->handle;
	if (drmIoctl(capture->drm_fd, DRM_IOCTL_GARNET_SHARE, &share) < 0) {
		garnet_log(c, GARNET_LOG_WARNING, "gem",
			   "capture for client pid %d: recipient %llu: %s", (int)pid,
			   (unsigned long long)client_id, strerror(errno));
		garnet_buffer_capture_v1_send_failed(resource);
		return;
	}
	garnet_log(c, GARNET_LOG_INFO, "security", "client pid %d captured output %s", (int)pid,
		   output->name);
	garnet_buffer_capture_v1_send_ready(resource, (uint32_t)(share.name >> 32),
					    (uint32_t)share.name,
					    pixman_image_get_width(image),
					    pixman_image_get_height(image), stride,
					    DRM_FORMAT_XRGB8888);
}
