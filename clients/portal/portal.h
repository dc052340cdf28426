/* SPDX-License-Identifier: MIT */
/* garnet-portal: the desktop portal's backend garnet launches. D-Bus side (dbus.c), the
 * Wayland side (wayland.c) and the PipeWire streams (stream.c) share this. */
#ifndef GARNET_PORTAL_H
#define GARNET_PORTAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <pipewire/pipewire.h>
#include <systemd/sd-bus.h>
#include <wayland-client.h>

struct portal {
	struct pw_main_loop *main_loop;
	struct pw_loop *loop;
	struct pw_context *pw_context;
	struct pw_core *pw_core;
	struct wl_display *display;
	struct wl_shm *shm;
	struct garnet_portal_v1 *garnet;
	/* Frames as dma-bufs: garnet's linux-dmabuf and its render node (garnet.ko), opened
	 * when garnet takes copies into such buffers (garnet_portal_v1 version 5); else -1. */
	struct zwp_linux_dmabuf_v1 *dmabuf;
	int drm_fd;
	sd_bus *bus;
	struct wl_list sessions; /* session.link */
};

/* What a capture asked of garnet hears back (wayland.c calls these). */
struct capture_listener {
	/* window: the user chose a window, not an output (garnet names it "window"). */
	void (*granted)(void *data, int32_t width, int32_t height, bool window);
	void (*refused)(void *data);
	/* A copy made (damage: the changed boxes, count of them, more than COPIES_MAX_DAMAGE
	 * when more changed than were kept) or failed: one for each copy, in order. */
	void (*ready)(void *data, const int32_t (*damage)[4], int count);
	void (*failed)(void *data);
	void (*paused)(void *data, bool paused);
	void (*stopped)(void *data);
	/* The window or output changed size: copies from now on take buffers of this size
	 * (the waiting one, if any, was answered failed). NULL: a single picture ignores it. */
	void (*resized)(void *data, int32_t width, int32_t height);
	/* Before the ready of a copy that carries the pointer apart: its image when it changed
	 * (pixels: width * height argb8888, the capture's until the next image) and its place
	 * (visible false: none over the picture). */
	void (*pointer_image)(void *data, const uint32_t *pixels, int32_t width, int32_t height,
			      int32_t hot_x, int32_t hot_y);
	void (*pointer)(void *data, bool visible, int32_t x, int32_t y);
};

/* wayland.c */
bool portal_wayland_init(struct portal *p);
struct capture;
struct capture *capture_create(struct portal *p, const char *app_id, pid_t pid, bool stream,
			       const struct capture_listener *listener, void *data);
/* now: the picture on screen, not the next change (a consumer that has nothing yet). */
void capture_copy(struct capture *cap, struct wl_buffer *buffer, bool now);
/* Every copy from now on is of the output without the pointer; false when garnet is too old
 * to leave it out. */
bool capture_hide_pointer(struct capture *cap);
/* Every copy from now on is without the pointer, whose place and image come beside it (the
 * listener's pointer and pointer_image); false when garnet is too old for that. */
bool capture_pointer_apart(struct capture *cap);
/* The waiting copy, if any, is made from the picture on screen now (no answer of its own). */
void capture_hurry(struct capture *cap);
void capture_destroy(struct capture *cap);
/* A wl_shm buffer over fd (size bytes, xrgb8888). */
struct wl_buffer *portal_shm_buffer(struct portal *p, int fd, int32_t width, int32_t height,
				    int32_t stride);
/* A new zeroed object of garnet.ko, width x height xrgb8888 at stride, as a wl_buffer for
 * garnet and a dma-buf (*fd) for consumers; *handle names it on p->drm_fd. NULL on failure
 * (errno), with nothing left to free. */
struct wl_buffer *portal_gem_buffer(struct portal *p, int32_t width, int32_t height,
				    int32_t stride, uint32_t *handle, int *fd);
void portal_gem_close(struct portal *p, uint32_t handle);

/* stream.c: a PipeWire video source fed by one capture. */
struct stream;
/* The pointer as the application asked: in the picture, left out, or beside it as PipeWire's
 * cursor metadata. */
enum stream_pointer {
	STREAM_POINTER_EMBEDDED,
	STREAM_POINTER_HIDDEN,
	STREAM_POINTER_APART,
};
/* ready(data, node_id) once the node exists (node_id 0: it failed); ended(data) when it
 * stopped for good (the user's stop binding). */
struct stream *stream_create(struct portal *p, const char *app_id, pid_t pid,
			     enum stream_pointer pointer,
			     void (*ready)(void *data, uint32_t node_id, int32_t w, int32_t h),
			     void (*refused)(void *data), void (*ended)(void *data), void *data);
void stream_destroy(struct stream *s);
/* A window's cast, not an output's (known once ready was called). */
bool stream_is_window(const struct stream *s);

/* screenshot.c: one picture into a PNG file; done(data, path or NULL). */
void screenshot_take(struct portal *p, const char *app_id, pid_t pid,
		     void (*done)(void *data, const char *path), void *data);

/* dbus.c */
bool portal_dbus_init(struct portal *p);
/* Ends every session (before the connections close). */
void portal_dbus_fini(struct portal *p);
/* Handles what the bus has queued and sends what waits (before the loop sleeps). */
void portal_dbus_dispatch(struct portal *p);

int portal_memfd(size_t size);

#endif
