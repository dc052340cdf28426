// SPDX-License-Identifier: MIT
// garnet-portal's Wayland side: the connection garnet handed it at launch, wl_shm, and
// garnet_portal_v1, through which each capture is asked for an application.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <xf86drm.h>
#include <i915_drm.h>

#include "copies.h"
#include "portal.h"
#include "../dmabuf-client.h"
#include "garnet-portal-v1-client-protocol.h"

/* Copies into garnet.ko buffers (the copy request's version 5). */
#define GEM_COPIES_SINCE_VERSION 5

struct capture {
	struct garnet_portal_capture_v1 *proxy;
	const struct capture_listener *listener;
	void *data;
	int32_t damage[COPIES_MAX_DAMAGE][4];
	int damage_count; /* all that came: more than were kept means the whole frame */
	uint32_t copy_flags; /* added to every copy (hide_pointer, pointer_metadata) */
	uint32_t *pointer_pixels; /* the pointer's image garnet last sent */
};

int portal_memfd(size_t size)
{
	int fd = memfd_create("garnet-portal", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0)
		return -1;
	if (ftruncate(fd, (off_t)size) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

struct wl_buffer *portal_shm_buffer(struct portal *p, int fd, int32_t width, int32_t height,
				    int32_t stride)
{
	struct wl_shm_pool *pool = wl_shm_create_pool(p->shm, fd, stride * height);
	struct wl_buffer *buffer =
		wl_shm_pool_create_buffer(pool, 0, width, height, stride, WL_SHM_FORMAT_XRGB8888);

	wl_shm_pool_destroy(pool);
	return buffer;
}

struct wl_buffer *portal_gem_buffer(struct portal *p, int32_t width, int32_t height,
				    int32_t stride, uint32_t *handle, int *fd)
{
	struct drm_i915_gem_create create = {.size = (uint64_t)stride * (uint64_t)height};
	struct wl_buffer *buffer;
	int saved;

	*fd = -1;
	if (drmIoctl(p->drm_fd, DRM_IOCTL_I915_GEM_CREATE, &create) < 0)
		return NULL;
	*handle = create.handle;
	/* Read-write: a consumer may map it and bracket its reads with DMA_BUF_IOCTL_SYNC. */
	if (drmPrimeHandleToFD(p->drm_fd, create.handle, DRM_CLOEXEC | DRM_RDWR, fd) == 0 &&
	    (buffer = dmabuf_client_buffer_of_fd(p->dmabuf, *fd, width, height, stride,
						 DRM_FORMAT_XRGB8888)))
		return buffer;
	saved = errno;
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	portal_gem_close(p, create.handle);
	/* Nothing for the caller to close later (the number may name another object soon). */
	*handle = 0;
	errno = saved;
	return NULL;
}

void portal_gem_close(struct portal *p, uint32_t handle)
{
	struct drm_gem_close close_arg = {.handle = handle};

	drmIoctl(p->drm_fd, DRM_IOCTL_GEM_CLOSE, &close_arg);
}

static void on_granted(void *data, struct garnet_portal_capture_v1 *proxy, const char *output,
		       int32_t width, int32_t height)
{
	struct capture *cap = data;

	fprintf(stderr, "garnet-portal: granted %s %dx%d\n", output, width, height);
	cap->listener->granted(cap->data, width, height, strcmp(output, "window") == 0);
}

static void on_refused(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	cap->listener->refused(cap->data);
}

static void on_damage(void *data, struct garnet_portal_capture_v1 *proxy, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h)
{
	struct capture *cap = data;

	if (cap->damage_count < COPIES_MAX_DAMAGE) {
		int32_t *d = cap->damage[cap->damage_count];

		d[0] = (int32_t)x;
		d[1] = (int32_t)y;
		d[2] = (int32_t)w;
		d[3] = (int32_t)h;
	}
	if (cap->damage_count <= COPIES_MAX_DAMAGE)
		cap->damage_count++;
}

static void on_ready(void *data, struct garnet_portal_capture_v1 *proxy, uint32_t sec_hi,
		     uint32_t sec_lo, uint32_t nsec)
{
	struct capture *cap = data;
	int count = cap->damage_count;

	cap->damage_count = 0;
	cap->listener->ready(cap->data, (const int32_t(*)[4])cap->damage, count);
}

static void on_failed(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	cap->damage_count = 0;
	cap->listener->failed(cap->data);
}

static void on_paused(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	cap->listener->paused(cap->data, true);
}

static void on_resumed(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	cap->listener->paused(cap->data, false);
}

static void on_stopped(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	cap->listener->stopped(cap->data);
}

static void on_resized(void *data, struct garnet_portal_capture_v1 *proxy, int32_t width,
		       int32_t height)
{
	struct capture *cap = data;

	fprintf(stderr, "garnet-portal: resized to %dx%d\n", width, height);
	if (cap->listener->resized)
		cap->listener->resized(cap->data, width, height);
}

/* The image is read here, once: a file garnet sealed, exactly the size it names. */
static void on_pointer_image(void *data, struct garnet_portal_capture_v1 *proxy, int32_t fd,
			     int32_t width, int32_t height, int32_t hot_x, int32_t hot_y)
{
	struct capture *cap = data;
	size_t size;
	uint32_t *pixels = NULL;
	void *map;

	if (width > 0 && height > 0 && width <= 256 && height <= 256) {
		size = (size_t)width * (size_t)height * 4;
		map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED && (pixels = malloc(size)))
			memcpy(pixels, map, size);
		if (map != MAP_FAILED)
			munmap(map, size);
	}
	close(fd);
	if (!pixels)
		return; /* the listener keeps the image it had */
	free(cap->pointer_pixels);
	cap->pointer_pixels = pixels;
	if (cap->listener->pointer_image)
		cap->listener->pointer_image(cap->data, pixels, width, height, hot_x, hot_y);
}

static void on_pointer(void *data, struct garnet_portal_capture_v1 *proxy, int32_t x, int32_t y)
{
	struct capture *cap = data;

	if (cap->listener->pointer)
		cap->listener->pointer(cap->data, true, x, y);
}

static void on_pointer_hidden(void *data, struct garnet_portal_capture_v1 *proxy)
{
	struct capture *cap = data;

	if (cap->listener->pointer)
		cap->listener->pointer(cap->data, false, 0, 0);
}

static const struct garnet_portal_capture_v1_listener capture_listener = {
	.granted = on_granted,
	.refused = on_refused,
	.damage = on_damage,
	.ready = on_ready,
	.failed = on_failed,
	.paused = on_paused,
	.resumed = on_resumed,
	.stopped = on_stopped,
	.resized = on_resized,
	.pointer_image = on_pointer_image,
	.pointer = on_pointer,
	.pointer_hidden = on_pointer_hidden,
};

struct capture *capture_create(struct portal *p, const char *app_id, pid_t pid, bool stream,
			       const struct capture_listener *listener, void *data)
{
	struct capture *cap = calloc(1, sizeof(*cap));

	if (!cap)
		return NULL;
	cap->listener = listener;
	cap->data = data;
	cap->proxy = garnet_portal_v1_capture(p->garnet, app_id, (uint32_t)pid,
					      stream ? GARNET_PORTAL_V1_KIND_SCREENCAST
						     : GARNET_PORTAL_V1_KIND_SCREENSHOT);
	garnet_portal_capture_v1_add_listener(cap->proxy, &capture_listener, cap);
	wl_display_flush(p->display);
	return cap;
}

void capture_copy(struct capture *cap, struct wl_buffer *buffer, bool now)
{
	garnet_portal_capture_v1_copy(cap->proxy, buffer,
				      cap->copy_flags |
					      (now ? GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_NOW : 0));
}

bool capture_hide_pointer(struct capture *cap)
{
	if (garnet_portal_capture_v1_get_version(cap->proxy) <
	    GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_HIDE_POINTER_SINCE_VERSION)
		return false;
	cap->copy_flags |= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_HIDE_POINTER;
	return true;
}

bool capture_pointer_apart(struct capture *cap)
{
	if (garnet_portal_capture_v1_get_version(cap->proxy) <
	    GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA_SINCE_VERSION)
		return false;
	cap->copy_flags |= GARNET_PORTAL_CAPTURE_V1_COPY_FLAGS_POINTER_METADATA;
	return true;
}

void capture_hurry(struct capture *cap)
{
	garnet_portal_capture_v1_hurry(cap->proxy);
}

void capture_destroy(struct capture *cap)
{
	if (!cap)
		return;
	garnet_portal_capture_v1_destroy(cap->proxy);
	free(cap->pointer_pixels);
	free(cap);
}

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct portal *p = data;

	if (strcmp(interface, wl_shm_interface.name) == 0)
		p->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	else if (strcmp(interface, garnet_portal_v1_interface.name) == 0)
		p->garnet = wl_registry_bind(registry, name, &garnet_portal_v1_interface,
					     version < 5 ? version : 5);
	else if (strcmp(interface, zwp_linux_dmabuf_v1_interface.name) == 0 && version >= 4)
		p->dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface, 4);
}

/* Frames go out as dma-bufs when garnet writes copies into its objects and its linux-dmabuf
 * names a render node to allocate them on; otherwise only in shared memory. */
static void open_render_node(struct portal *p)
{
	char *path;

	p->drm_fd = -1;
	if (!p->dmabuf)
		return;
	if (garnet_portal_v1_get_version(p->garnet) < GEM_COPIES_SINCE_VERSION) {
		zwp_linux_dmabuf_v1_destroy(p->dmabuf);
		p->dmabuf = NULL;
		return;
	}
	path = dmabuf_client_device(p->display, p->dmabuf);
	if (path)
		p->drm_fd = open(path, O_RDWR | O_CLOEXEC);
	if (p->drm_fd >= 0)
		fprintf(stderr, "garnet-portal: frames as dma-bufs of %s too\n", path);
	else
		fprintf(stderr, "garnet-portal: frames in shared memory only (%s: %s)\n",
			path ? path : "no render node", path ? strerror(errno) : "garnet names none");
	free(path);
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
}

static const struct wl_registry_listener registry_listener = {
	.global = registry_global,
	.global_remove = registry_global_remove,
};

static void on_wayland(void *data, int fd, uint32_t mask)
{
	struct portal *p = data;

	if ((mask & (SPA_IO_ERR | SPA_IO_HUP)) || wl_display_dispatch(p->display) < 0) {
		fprintf(stderr, "garnet-portal: garnet went away\n");
		pw_main_loop_quit(p->main_loop);
	}
}

bool portal_wayland_init(struct portal *p)
{
	struct wl_registry *registry;

	p->display = wl_display_connect(NULL);
	if (!p->display) {
		fprintf(stderr, "garnet-portal: cannot connect to garnet: %s\n", strerror(errno));
		return false;
	}
	registry = wl_display_get_registry(p->display);
	wl_registry_add_listener(registry, &registry_listener, p);
	wl_display_roundtrip(p->display);
	if (!p->shm || !p->garnet) {
		fprintf(stderr, "garnet-portal: garnet does not offer garnet_portal_v1 to this "
				"program (only to the portal entry garnet launches)\n");
		return false;
	}
	open_render_node(p);
	pw_loop_add_io(p->loop, wl_display_get_fd(p->display), SPA_IO_IN | SPA_IO_ERR | SPA_IO_HUP,
		       false, on_wayland, p);
	return true;
}
