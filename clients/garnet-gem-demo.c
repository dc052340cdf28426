// SPDX-License-Identifier: MIT
// garnet-gem-demo: an animated window drawn entirely by garnet's GPU. Frames are rendered with
// blits (XY_COLOR_BLT, XY_SRC_COPY_BLT) that libdrm_intel submits through EXECBUFFER2, into two
// buffers shared with the compositor alone through garnet_buffer_v1.
//
// usage: garnet-gem-demo [--size WxH] [--frames N] [--done-file NAME] [--shm | --dmabuf]
//                        [--fullscreen]
//   --frames N      stop animating after frame N-1 (the window stays)
//   --done-file F   once the last frame was shown, write "frames N commit-to-frame-us T" (the
//                   mean time from commit to frame callback) to $XDG_RUNTIME_DIR/F
//   --shm           for comparison: wait for the GPU, copy each frame into wl_shm, send that
//   --dmabuf        share the frames as dma-bufs through zwp_linux_dmabuf_v1 instead, on the
//                   device its feedback names
//   --fullscreen    ask to be fullscreen (at --size still: give the output's size to fill it)
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <drm_fourcc.h>
#include <intel_bufmgr.h>
#include <i915_drm.h>
#include <wayland-client.h>
#include <xf86drm.h>
#include <garnet_drm.h>

#include "garnet-buffer-v1-client-protocol.h"
#include "dmabuf-client.h"
#include "gem-demo-scene.h"
#include "xdg-shell-client-protocol.h"

#define XY_COLOR_BLT 0x54300004u    /* 6 dwords, writes alpha and RGB */
#define XY_SRC_COPY_BLT 0x54f00006u /* 8 dwords, writes alpha and RGB */
#define BR13_32BPP (3u << 24)
#define ROP_PATCOPY (0xf0u << 16)
#define ROP_SRCCOPY (0xccu << 16)
#define MI_BATCH_BUFFER_END 0x05000000u
#define MI_NOOP 0u
#define BATCH_DWORDS 256

struct frame {
	struct demo *demo;
	drm_intel_bo *bo;
	struct wl_buffer *buffer;
	void *shm_pixels; /* --shm: the buffer's memory */
	bool busy; /* attached and not yet released */
};

struct demo {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct xdg_wm_base *wm_base;
	struct garnet_buffer_v1 *gem;
	char *device;
	uint64_t recipient;
	bool has_recipient, has_xrgb;
	int drm_fd;
	drm_intel_bufmgr *bufmgr;
	drm_intel_bo *sprite;

	struct wl_surface *surface;
	struct xdg_surface *xdg_surface;
	struct xdg_toplevel *toplevel;
	struct wl_callback *frame_callback;
	struct frame frames[2];
	int32_t width, height;
	uint32_t frame_number, frame_limit; /* 0: no limit */
	const char *done_file;
	bool configured, closed, drawn_once, done, use_shm, use_dmabuf, fullscreen;
	struct zwp_linux_dmabuf_v1 *dmabuf;
	struct wl_shm *shm;
	int64_t commit_ns, commit_to_frame_ns;

	uint32_t batch[BATCH_DWORDS];
	unsigned int batch_length;
	drm_intel_bo *batch_bo;
};

static void die(const char *what)
{
	fprintf(stderr, "garnet-gem-demo: %s\n", what);
	exit(1);
}

static void die_errno(const char *what)
{
	fprintf(stderr, "garnet-gem-demo: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ---- rendering with the blitter ---- */

static void batch_begin(struct demo *d)
{
	d->batch_bo = drm_intel_bo_alloc(d->bufmgr, "batch", BATCH_DWORDS * 4, 4096);
	if (!d->batch_bo)
		die("cannot allocate a batch buffer");
	d->batch_length = 0;
}

static void emit(struct demo *d, uint32_t dword)
{
	if (d->batch_length == BATCH_DWORDS)
		die("batch overflow");
	d->batch[d->batch_length++] = dword;
}

/* An address: what libdrm_intel presumes now, with a relocation so the kernel corrects it. */
static void emit_address(struct demo *d, drm_intel_bo *target, uint32_t write_domain)
{
	if (drm_intel_bo_emit_reloc(d->batch_bo, d->batch_length * 4, target, 0,
				    I915_GEM_DOMAIN_RENDER, write_domain) != 0)
		die("cannot add a relocation");
	emit(d, (uint32_t)target->offset64);
}

static void emit_fill(struct demo *d, drm_intel_bo *dst, uint32_t pitch,
		      const struct gem_demo_op *op)
{
	emit(d, XY_COLOR_BLT);
	emit(d, BR13_32BPP | ROP_PATCOPY | pitch);
	emit(d, (uint32_t)op->y << 16 | (uint32_t)op->x);
	emit(d, (uint32_t)(op->y + op->height) << 16 | (uint32_t)(op->x + op->width));
	emit_address(d, dst, I915_GEM_DOMAIN_RENDER);
	emit(d, op->color);
}

static void emit_copy(struct demo *d, drm_intel_bo *dst, uint32_t dst_pitch, int32_t x,
		      int32_t y, int32_t w, int32_t h, drm_intel_bo *src, uint32_t src_pitch)
{
	emit(d, XY_SRC_COPY_BLT);
	emit(d, BR13_32BPP | ROP_SRCCOPY | dst_pitch);
	emit(d, (uint32_t)y << 16 | (uint32_t)x);
	emit(d, (uint32_t)(y + h) << 16 | (uint32_t)(x + w));
	emit_address(d, dst, I915_GEM_DOMAIN_RENDER);
	emit(d, 0); /* source x, y */
	emit(d, src_pitch);
	emit_address(d, src, 0);
}

/* Submits without waiting: the compositor waits for the work itself (implicit sync). */
static void batch_submit(struct demo *d)
{
	emit(d, MI_BATCH_BUFFER_END);
	if (d->batch_length & 1)
		emit(d, MI_NOOP);
	if (drm_intel_bo_subdata(d->batch_bo, 0, d->batch_length * 4, d->batch) != 0 ||
	    drm_intel_bo_exec(d->batch_bo, (int)(d->batch_length * 4), NULL, 0, 0) != 0)
		die_errno("EXECBUFFER2");
	drm_intel_bo_unreference(d->batch_bo);
	d->batch_bo = NULL;
}

static void draw_sprite(struct demo *d)
{
	const int32_t s = GEM_DEMO_SPRITE;

	d->sprite = drm_intel_bo_alloc(d->bufmgr, "sprite", (unsigned long)s * s * 4, 4096);
	if (!d->sprite)
		die("cannot allocate the sprite");
	batch_begin(d);
	for (int32_t q = 0; q < 4; q++) {
		int32_t x = (q % 2) * s / 2, y = (q / 2) * s / 2;
		struct gem_demo_op op = {GEM_DEMO_FILL, x, y, s / 2, s / 2,
					 gem_demo_sprite_pixel(x, y)};

		emit_fill(d, d->sprite, (uint32_t)s * 4, &op);
	}
	batch_submit(d);
}

static void render(struct demo *d, struct frame *f, uint32_t n)
{
	struct gem_demo_op ops[GEM_DEMO_MAX_OPS];
	int count = gem_demo_scene(n, d->width, d->height, ops);
	uint32_t pitch = (uint32_t)d->width * 4;

	batch_begin(d);
	for (int i = 0; i < count; i++) {
		if (ops[i].kind == GEM_DEMO_FILL)
			emit_fill(d, f->bo, pitch, &ops[i]);
		else
			emit_copy(d, f->bo, pitch, ops[i].x, ops[i].y, ops[i].width,
				  ops[i].height, d->sprite, GEM_DEMO_SPRITE * 4);
	}
	batch_submit(d);
}

/* ---- sharing with the compositor ---- */

static void buffer_release(void *data, struct wl_buffer *buffer)
{
	struct frame *f = data;

	(void)buffer;
	f->busy = false;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static void shm_frame_init(struct demo *d, struct frame *f, unsigned long size)
{
	int fd = memfd_create("garnet-gem-demo", MFD_CLOEXEC);
	struct wl_shm_pool *pool;

	if (fd < 0 || ftruncate(fd, (off_t)size) < 0)
		die_errno("shared memory");
	f->shm_pixels = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (f->shm_pixels == MAP_FAILED)
		die_errno("mmap");
	pool = wl_shm_create_pool(d->shm, fd, (int32_t)size);
	f->buffer = wl_shm_pool_create_buffer(pool, 0, d->width, d->height, d->width * 4,
					      WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	wl_buffer_add_listener(f->buffer, &buffer_listener, f);
}

/* --shm: the CPU waits for the GPU and copies the frame, as a client without
 * garnet_buffer_v1 would have to. */
static void shm_upload(struct demo *d, struct frame *f)
{
	if (drm_intel_bo_map(f->bo, 0) != 0)
		die_errno("mapping a frame");
	memcpy(f->shm_pixels, f->bo->virtual, (size_t)d->width * 4 * (size_t)d->height);
	drm_intel_bo_unmap(f->bo);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void frame_init(struct demo *d, struct frame *f)
{
	unsigned long size = (unsigned long)d->width * 4 * (unsigned long)d->height;
	struct drm_garnet_share share = {.flags = GARNET_SHARE_SINGLE_USE,
					 .recipient = d->recipient};

	f->demo = d;
	f->bo = drm_intel_bo_alloc(d->bufmgr, "frame", size, 4096);
	if (!f->bo)
		die("cannot allocate a frame");
	if (d->use_shm) {
		shm_frame_init(d, f, size);
		return;
	}
	if (d->use_dmabuf) {
		f->buffer = dmabuf_client_buffer(d->dmabuf, d->drm_fd, (uint32_t)f->bo->handle,
						   d->width, d->height, d->width * 4,
						   DRM_FORMAT_XRGB8888);
		if (!f->buffer)
			die_errno("exporting a frame as a dma-buf");
		wl_buffer_add_listener(f->buffer, &buffer_listener, f);
		return;
	}
	share.handle = (uint32_t)f->bo->handle;
	if (drmIoctl(d->drm_fd, DRM_IOCTL_GARNET_SHARE, &share) < 0)
		die_errno("GARNET_SHARE");
	f->buffer = garnet_buffer_v1_create_buffer(d->gem, (uint32_t)(share.name >> 32),
						   (uint32_t)share.name, d->width, d->height,
						   d->width * 4, DRM_FORMAT_XRGB8888);
	wl_buffer_add_listener(f->buffer, &buffer_listener, f);
}

static void frame_finish(struct demo *d, struct frame *f)
{
	if (f->shm_pixels)
		munmap(f->shm_pixels, (size_t)d->width * 4 * (size_t)d->height);
	if (f->buffer)
		wl_buffer_destroy(f->buffer);
	if (f->bo)
		drm_intel_bo_unreference(f->bo);
	f->buffer = NULL;
	f->bo = NULL;
}

/* ---- the window ---- */

static void draw_next(struct demo *d);

static void write_done_file(struct demo *d)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	char path[4096], tmp[4200];
	FILE *f;

	if (!dir)
		die("XDG_RUNTIME_DIR is not set");
	snprintf(path, sizeof(path), "%s/%s", dir, d->done_file);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f ||
	    fprintf(f, "frames %u commit-to-frame-us %lld\n", d->frame_number,
		    (long long)(d->commit_to_frame_ns / 1000 / (d->frame_number ?: 1))) < 0 ||
	    fclose(f) != 0 ||
	    rename(tmp, path) < 0)
		die_errno(path);
}

static void frame_done(void *data, struct wl_callback *callback, uint32_t time)
{
	struct demo *d = data;

	(void)time;
	wl_callback_destroy(callback);
	d->frame_callback = NULL;
	d->commit_to_frame_ns += now_ns() - d->commit_ns;
	if (d->frame_limit && d->frame_number >= d->frame_limit) {
		if (!d->done && d->done_file)
			write_done_file(d);
		d->done = true;
		return;
	}
	draw_next(d);
}

static const struct wl_callback_listener frame_listener = {frame_done};

static void draw_next(struct demo *d)
{
	struct frame *f = !d->frames[0].busy ? &d->frames[0] : &d->frames[1];

	if (f->busy) {
		/* Both still held: the release will come, draw then. */
		wl_display_roundtrip(d->display);
		f = !d->frames[0].busy ? &d->frames[0] : &d->frames[1];
		if (f->busy)
			die("the compositor holds both buffers");
	}
	render(d, f, d->frame_number++);
	if (d->use_shm)
		shm_upload(d, f);
	f->busy = true;
	wl_surface_attach(d->surface, f->buffer, 0, 0);
	wl_surface_damage_buffer(d->surface, 0, 0, d->width, d->height);
	d->frame_callback = wl_surface_frame(d->surface);
	wl_callback_add_listener(d->frame_callback, &frame_listener, d);
	d->commit_ns = now_ns();
	wl_surface_commit(d->surface);
}

static void xdg_surface_configure(void *data, struct xdg_surface *xdg_surface, uint32_t serial)
{
	struct demo *d = data;

	xdg_surface_ack_configure(xdg_surface, serial);
	d->configured = true;
	if (!d->drawn_once) {
		d->drawn_once = true;
		draw_next(d);
	} else {
		wl_surface_commit(d->surface);
	}
}

static const struct xdg_surface_listener xdg_surface_listener = {xdg_surface_configure};

/* The window keeps the size it was started with: its buffers are made for it. */
static void toplevel_configure(void *data, struct xdg_toplevel *t, int32_t w, int32_t h,
			       struct wl_array *states)
{
	(void)data, (void)t, (void)w, (void)h, (void)states;
}

static void toplevel_close(void *data, struct xdg_toplevel *t)
{
	struct demo *d = data;

	(void)t;
	d->closed = true;
}

static void toplevel_bounds(void *data, struct xdg_toplevel *t, int32_t w, int32_t h)
{
	(void)data, (void)t, (void)w, (void)h;
}

static void toplevel_capabilities(void *data, struct xdg_toplevel *t, struct wl_array *caps)
{
	(void)data, (void)t, (void)caps;
}

static const struct xdg_toplevel_listener toplevel_listener = {
	toplevel_configure, toplevel_close, toplevel_bounds, toplevel_capabilities,
};

static void wm_base_ping(void *data, struct xdg_wm_base *wm_base, uint32_t serial)
{
	(void)data;
	xdg_wm_base_pong(wm_base, serial);
}

static const struct xdg_wm_base_listener wm_base_listener = {wm_base_ping};

static void gem_device(void *data, struct garnet_buffer_v1 *gem, const char *path)
{
	struct demo *d = data;

	(void)gem;
	free(d->device);
	d->device = strdup(path);
}

static void gem_recipient(void *data, struct garnet_buffer_v1 *gem, uint32_t hi, uint32_t lo)
{
	struct demo *d = data;

	(void)gem;
	d->recipient = (uint64_t)hi << 32 | lo;
	d->has_recipient = true;
}

static void gem_format(void *data, struct garnet_buffer_v1 *gem, uint32_t format)
{
	struct demo *d = data;

	(void)gem;
	d->has_xrgb |= format == DRM_FORMAT_XRGB8888;
}

static const struct garnet_buffer_v1_listener gem_listener = {gem_device, gem_recipient,
								gem_format};

static void registry_global(void *data, struct wl_registry *registry, uint32_t name,
			    const char *interface, uint32_t version)
{
	struct demo *d = data;

	if (strcmp(interface, "wl_compositor") == 0) {
		d->compositor = wl_registry_bind(registry, name, &wl_compositor_interface, 4);
	} else if (strcmp(interface, "xdg_wm_base") == 0) {
		d->wm_base = wl_registry_bind(registry, name, &xdg_wm_base_interface, 1);
		xdg_wm_base_add_listener(d->wm_base, &wm_base_listener, d);
	} else if (strcmp(interface, "wl_shm") == 0) {
		d->shm = wl_registry_bind(registry, name, &wl_shm_interface, 1);
	} else if (strcmp(interface, "zwp_linux_dmabuf_v1") == 0 && version >= 4) {
		d->dmabuf = wl_registry_bind(registry, name, &zwp_linux_dmabuf_v1_interface, 4);
	} else if (strcmp(interface, "garnet_buffer_v1") == 0) {
		d->gem = wl_registry_bind(registry, name, &garnet_buffer_v1_interface, 1);
		garnet_buffer_v1_add_listener(d->gem, &gem_listener, d);
	}
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t name)
{
	(void)data, (void)registry, (void)name;
}

static const struct wl_registry_listener registry_listener = {registry_global,
							       registry_global_remove};

static void parse_args(struct demo *d, int argc, char **argv)
{
	static const struct option options[] = {
		{"size", required_argument, NULL, 's'},
		{"frames", required_argument, NULL, 'n'},
		{"done-file", required_argument, NULL, 'd'},
		{"shm", no_argument, NULL, 'm'},
		{"dmabuf", no_argument, NULL, 'b'},
		{"fullscreen", no_argument, NULL, 'f'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
		switch (opt) {
		case 's':
			if (sscanf(optarg, "%dx%d", &d->width, &d->height) != 2 ||
			    d->width < 128 || d->height < 128 || d->width > 4096 ||
			    d->height > 4096)
				die("--size needs WxH between 128x128 and 4096x4096");
			break;
		case 'n':
			d->frame_limit = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'd':
			d->done_file = optarg;
			break;
		case 'm':
			d->use_shm = true;
			break;
		case 'b':
			d->use_dmabuf = true;
			break;
		case 'f':
			d->fullscreen = true;
			break;
		default:
			fprintf(stderr, "usage: garnet-gem-demo [--size WxH] [--frames N] "
					"[--done-file NAME] [--shm | --dmabuf] [--fullscreen]\n");
			exit(2);
		}
	}
}

int main(int argc, char **argv)
{
	struct demo d = {.width = 480, .height = 320, .drm_fd = -1};
	struct wl_registry *registry;

	parse_args(&d, argc, argv);
	d.display = wl_display_connect(NULL);
	if (!d.display)
		die("cannot connect to a Wayland display");
	registry = wl_display_get_registry(d.display);
	wl_registry_add_listener(registry, &registry_listener, &d);
	wl_display_roundtrip(d.display);
	if (!d.compositor || !d.wm_base || !d.gem || !d.shm)
		die("the compositor lacks wl_compositor, wl_shm, xdg_wm_base or garnet_buffer_v1");
	wl_display_roundtrip(d.display);
	if (!d.device || !d.has_recipient || !d.has_xrgb)
		die("garnet_buffer_v1 announced no device, recipient or XRGB8888");
	if (d.use_dmabuf) {
		if (d.use_shm)
			die("--shm and --dmabuf exclude each other");
		if (!d.dmabuf)
			die("the compositor lacks zwp_linux_dmabuf_v1 version 4");
		free(d.device);
		d.device = dmabuf_client_device(d.display, d.dmabuf);
		if (!d.device)
			die("the dma-buf feedback names no render node with XRGB8888 linear");
	}

	d.drm_fd = open(d.device, O_RDWR | O_CLOEXEC);
	if (d.drm_fd < 0)
		die_errno(d.device);
	d.bufmgr = drm_intel_bufmgr_gem_init(d.drm_fd, 4096);
	if (!d.bufmgr)
		die("libdrm_intel does not drive this device");
	draw_sprite(&d);
	frame_init(&d, &d.frames[0]);
	frame_init(&d, &d.frames[1]);

	d.surface = wl_compositor_create_surface(d.compositor);
	d.xdg_surface = xdg_wm_base_get_xdg_surface(d.wm_base, d.surface);
	xdg_surface_add_listener(d.xdg_surface, &xdg_surface_listener, &d);
	d.toplevel = xdg_surface_get_toplevel(d.xdg_surface);
	xdg_toplevel_add_listener(d.toplevel, &toplevel_listener, &d);
	xdg_toplevel_set_title(d.toplevel, "garnet GPU demo");
	xdg_toplevel_set_app_id(d.toplevel, "garnet-gem-demo");
	if (d.fullscreen)
		xdg_toplevel_set_fullscreen(d.toplevel, NULL);
	wl_surface_commit(d.surface);
	while (!d.closed && wl_display_dispatch(d.display) >= 0)
		;

	frame_finish(&d, &d.frames[0]);
	frame_finish(&d, &d.frames[1]);
	drm_intel_bo_unreference(d.sprite);
	drm_intel_bufmgr_destroy(d.bufmgr);
	close(d.drm_fd);
	free(d.device);
	wl_display_disconnect(d.display);
	return 0;
}
