// SPDX-License-Identifier: MIT
// Reading a garnet buffer's pixels: implicit synchronisation with the GPU work pending on the
// object, without ever blocking the compositor on a client's GPU work.
//
// A buffer is shown in place, from the compositor's mapping of the object, once the GPU work
// pending on it is done. A commit of a buffer the engine is still writing starts a wait on the
// object's dma-buf (poll says readable once no write fence is pending; a hung batch is ended by
// the kernel's watchdog, which signals its fence); the surface keeps showing what it showed
// until then. At most one wait exists per surface: attaching anything else abandons it.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>
#include <i915_drm.h>

#include "gem-buffer.h"
#include "surface.h"
#include "buffer.h"

/* How often to look again when the object cannot be polled (no dma-buf export). */
#define BUSY_POLL_MS 4

struct garnet_gem_import {
	struct garnet_surface *surface;
	struct garnet_gem_buffer *buffer;
	struct wl_list buffer_link;
	struct wl_listener surface_destroy;
	struct wl_event_source *source;
	int dmabuf_fd;
};

/* A pending GPU write (readers do not matter: the CPU only reads too). */
static bool gpu_is_writing(struct garnet_gem_buffer *buffer)
{
	struct drm_i915_gem_busy busy = {.handle = buffer->handle};

	if (drmIoctl(buffer->drm_fd, DRM_IOCTL_I915_GEM_BUSY, &busy) < 0)
		return false; /* SET_DOMAIN will wait if need be */
	return (busy.busy & 0xffff) != 0;
}

/* The CPU read domain, as the 2008 design asks before the CPU reads what the GPU wrote (an
 * ioctl per commit that a coherent device does not need); then the surface shows the mapping. */
static bool show_pixels(struct garnet_surface *surface, struct garnet_gem_buffer *buffer,
			bool *full_damage)
{
	struct drm_i915_gem_set_domain domain = {
		.handle = buffer->handle,
		.read_domains = I915_GEM_DOMAIN_CPU,
	};

	if (!buffer->coherent &&
	    drmIoctl(buffer->drm_fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &domain) < 0)
		garnet_log(surface->compositor, GARNET_LOG_WARNING, "gem",
			   "SET_DOMAIN of a client's buffer: %s", strerror(errno));
	return garnet_surface_show_buffer(surface, buffer->resource, buffer->format, buffer->width,
					  buffer->height, buffer->stride, full_damage);
}

static void import_free(struct garnet_gem_import *import)
{
	if (import->source)
		wl_event_source_remove(import->source);
	if (import->dmabuf_fd >= 0)
		close(import->dmabuf_fd);
	wl_list_remove(&import->buffer_link);
	wl_list_remove(&import->surface_destroy.link);
	free(import);
}

static void import_finish(struct garnet_gem_import *import)
{
	struct garnet_surface *surface = import->surface;
	struct garnet_gem_buffer *buffer = import->buffer;
	bool full, shown;

	import_free(import);
	shown = show_pixels(surface, buffer, &full);
	if (!shown)
		garnet_log(surface->compositor, GARNET_LOG_ERROR, "gem",
			   "no memory to show wl_buffer@%u", wl_resource_get_id(buffer->resource));
	garnet_surface_content_resized(surface);
	garnet_surface_wait_ended(surface);
	/* Shown, it is held until the surface shows something else. */
	if (!shown)
		garnet_buffer_release_if_unused(surface->compositor, buffer->resource);
}

static int import_poll_timer(void *data)
{
	struct garnet_gem_import *import = data;

	if (gpu_is_writing(import->buffer))
		wl_event_source_timer_update(import->source, BUSY_POLL_MS);
	else
		import_finish(import);
	return 0;
}

static int import_fence_ready(int fd, uint32_t mask, void *data)
{
	struct garnet_gem_import *import = data;

	(void)fd;
	/* The client may have queued more writes since; wait for those too (poll stays level
	 * triggered on the newest fences). An error on the fd ends the wait. */
	if (!(mask & (WL_EVENT_ERROR | WL_EVENT_HANGUP)) && gpu_is_writing(import->buffer))
		return 0;
	import_finish(import);
	return 0;
}

static void import_surface_destroy(struct wl_listener *listener, void *data)
{
	struct garnet_gem_import *import = wl_container_of(listener, import, surface_destroy);

	(void)data;
	import_free(import);
}

static struct garnet_gem_import *import_for_surface(struct garnet_surface *surface)
{
	struct wl_listener *listener =
		wl_signal_get(&surface->events.destroy, import_surface_destroy);
	struct garnet_gem_import *import;

	if (!listener)
		return NULL;
	return wl_container_of(listener, import, surface_destroy);
}

static bool start_wait(struct garnet_surface *surface, struct garnet_gem_buffer *buffer)
{
	struct wl_event_loop *loop = surface->compositor->loop;
	struct garnet_gem_import *import = calloc(1, sizeof(*import));

	if (!import)
		return false;
	import->surface = surface;
	import->buffer = buffer;
	import->dmabuf_fd = -1;
	if (drmPrimeHandleToFD(buffer->drm_fd, buffer->handle, DRM_CLOEXEC,
			       &import->dmabuf_fd) == 0)
		import->source = wl_event_loop_add_fd(loop, import->dmabuf_fd, WL_EVENT_READABLE,
						      import_fence_ready, import);
	if (!import->source) {
		if (import->dmabuf_fd >= 0)
			close(import->dmabuf_fd);
		import->dmabuf_fd = -1;
		import->source = wl_event_loop_add_timer(loop, import_poll_timer, import);
		if (!import->source) {
			free(import);
			return false;
		}
		wl_event_source_timer_update(import->source, BUSY_POLL_MS);
	}
	wl_list_insert(&buffer->imports, &import->buffer_link);
	import->surface_destroy.notify = import_surface_destroy;
	wl_signal_add(&surface->events.destroy, &import->surface_destroy);
	return true;
}

bool garnet_gem_buffer_upload(struct garnet_surface *surface, struct garnet_gem_buffer *buffer,
			      const pixman_region32_t *damage, bool *full_damage)
{
	(void)damage; /* what the client damaged is read at the next repaint */
	/* The surface shows what it showed until the wait ends. */
	*full_damage = false;
	if (gpu_is_writing(buffer)) {
		/* A surface with nothing to show yet maps now, as roles decide at commit: clear
		 * pixels of garnet's until the buffer is ready. */
		if (!surface->content && !garnet_surface_show_own(surface, buffer->format,
								  buffer->width, buffer->height,
								  full_damage))
			return false;
		if (!start_wait(surface, buffer))
			goto err_memory;
		return true;
	}
	if (!show_pixels(surface, buffer, full_damage))
		goto err_memory;
	return true;

err_memory:
	wl_resource_post_no_memory(surface->resource);
	return false;
}

bool garnet_gem_buffer_is_held(struct garnet_gem_buffer *buffer)
{
	return !wl_list_empty(&buffer->imports);
}

bool garnet_gem_import_pending(struct garnet_surface *surface)
{
	return import_for_surface(surface) != NULL;
}

void garnet_gem_import_surface_attach(struct garnet_surface *surface,
				      struct wl_resource *new_buffer)
{
	struct garnet_gem_import *import = import_for_surface(surface);
	struct wl_resource *old;

	if (!import)
		return;
	old = import->buffer->resource;
	import_free(import);
	garnet_surface_wait_ended(surface);
	if (old != new_buffer)
		garnet_buffer_release_if_unused(surface->compositor, old);
}

void garnet_gem_import_buffer_destroyed(struct garnet_gem_buffer *buffer)
{
	struct garnet_gem_import *import, *tmp;

	wl_list_for_each_safe(import, tmp, &buffer->imports, buffer_link) {
		struct garnet_surface *surface = import->surface;

		import_free(import);
		garnet_surface_wait_ended(surface);
	}
}
