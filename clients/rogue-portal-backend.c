// SPDX-License-Identifier: MIT
// garnet-rogue portal-backend [PID...] PID: a portal backend (launched by garnet as its portal
// entry). For each PID before the last it asks for a screencast on that pid's behalf and prints
// "pid PID refused" or "pid PID granted" (a backend naming processes it should not). For the
// last PID it asks, prints "granted W H" and then, for each line
// "copy [FLAGS]" on stdin, sends a copy with those flags into a fresh buffer without reading
// garnet's events first (so racing whatever garnet sent meanwhile, a stop) and prints what
// came back: "stopped", "failed", "ready" (with " pointer X Y", " pointer hidden" and
// " image W H" when garnet told of the pointer) or "error CODE" (garnet disconnected it with
// that protocol error). "copy-gem [FLAGS]" copies into an object of garnet's render node (a
// linux-dmabuf buffer) instead, and its ready says " written N", the pixels garnet wrote;
// "copy-foreign [FLAGS]" into a dumb buffer of vgem, another driver; "copy-busy [FLAGS]" into
// an object of garnet's that vgem fences for writing (GPU work that does not end), answered
// with " after MS" (how long garnet took to answer). ROGUE_PORTAL_VERSION
// binds garnet_portal_v1 at that version (1 unless set).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "garnet-portal-v1-client-protocol.h"
#include "dmabuf-client.h"
#include "rogue-gem-target.h"
#include "rogue-ignore.h"
#include "rogue.h"

struct backend {
	struct garnet_portal_v1 *portal;
	struct wl_shm *shm;
	struct zwp_linux_dmabuf_v1 *dmabuf;
	char *node; /* garnet's render node, as its linux-dmabuf feedback names it */
	int32_t width, height;
	int granted, refused, stopped, failed, ready;
	int pointer_x, pointer_y, image_width, image_height;
	enum { POINTER_UNTOLD, POINTER_SHOWN, POINTER_HIDDEN } pointer;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct backend *b = data;

	const char *wanted = getenv("ROGUE_PORTAL_VERSION");
	uint32_t bind = wanted ? (uint32_t)atoi(wanted) : 1;

	if (strcmp(interface, garnet_portal_v1_interface.name) == 0)
		b->portal = wl_registry_bind(r, name, &garnet_portal_v1_interface,
					     bind < version ? bind : version);
	else if (strcmp(interface, wl_shm_interface.name) == 0)
		b->shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
	else if (strcmp(interface, zwp_linux_dmabuf_v1_interface.name) == 0 && version >= 4)
		b->dmabuf = wl_registry_bind(r, name, &zwp_linux_dmabuf_v1_interface, 4);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void on_granted(void *data, struct garnet_portal_capture_v1 *c, const char *output,
		       int32_t w, int32_t h)
{
	struct backend *b = data;

	b->granted = 1;
	b->width = w;
	b->height = h;
}

static void on_refused(void *data, struct garnet_portal_capture_v1 *c)
{
	((struct backend *)data)->refused = 1;
}

static void on_damage(void *data, struct garnet_portal_capture_v1 *c, uint32_t x, uint32_t y,
		      uint32_t w, uint32_t h)
{
}

static void on_ready(void *data, struct garnet_portal_capture_v1 *c, uint32_t a, uint32_t b,
		     uint32_t n)
{
	((struct backend *)data)->ready++;
}

static void on_failed(void *data, struct garnet_portal_capture_v1 *c)
{
	((struct backend *)data)->failed++;
}

static void on_pause(void *data, struct garnet_portal_capture_v1 *c)
{
}

static void on_stopped(void *data, struct garnet_portal_capture_v1 *c)
{
	((struct backend *)data)->stopped = 1;
}

static void on_resized(void *data, struct garnet_portal_capture_v1 *c, int32_t w, int32_t h)
{
}

static void on_pointer_image(void *data, struct garnet_portal_capture_v1 *c, int32_t fd,
			     int32_t w, int32_t h, int32_t hot_x, int32_t hot_y)
{
	struct backend *b = data;

	close(fd);
	b->image_width = w;
	b->image_height = h;
}

static void on_pointer(void *data, struct garnet_portal_capture_v1 *c, int32_t x, int32_t y)
{
	struct backend *b = data;

	b->pointer = POINTER_SHOWN;
	b->pointer_x = x;
	b->pointer_y = y;
}

static void on_pointer_hidden(void *data, struct garnet_portal_capture_v1 *c)
{
	((struct backend *)data)->pointer = POINTER_HIDDEN;
}

static const struct garnet_portal_capture_v1_listener capture_listener = {
	.granted = on_granted,
	.refused = on_refused,
	.damage = on_damage,
	.ready = on_ready,
	.failed = on_failed,
	.paused = on_pause,
	.resumed = on_pause,
	.stopped = on_stopped,
	.resized = on_resized,
	.pointer_image = on_pointer_image,
	.pointer = on_pointer,
	.pointer_hidden = on_pointer_hidden,
};

static struct wl_buffer *make_buffer(struct backend *b)
{
	int32_t stride = b->width * 4;
	int fd = memfd_create("garnet-rogue-backend", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *buffer;

	if (fd < 0 || ftruncate(fd, (off_t)stride * b->height) < 0)
		return NULL;
	pool = wl_shm_create_pool(b->shm, fd, stride * b->height);
	buffer = wl_shm_pool_create_buffer(pool, 0, b->width, b->height, stride,
					   WL_SHM_FORMAT_XRGB8888);
	wl_shm_pool_destroy(pool);
	close(fd);
	return buffer;
}

/* Asks on pid's behalf; the capture, answered granted or refused (b says which). */
static struct garnet_portal_capture_v1 *ask(struct wl_display *display, struct backend *b,
					    uint32_t pid)
{
	struct garnet_portal_capture_v1 *capture = garnet_portal_v1_capture(
		b->portal, "org.rogue.Backend", pid, GARNET_PORTAL_V1_KIND_SCREENCAST);

	b->granted = b->refused = 0;
	garnet_portal_capture_v1_add_listener(capture, &capture_listener, b);
	while (!b->granted && !b->refused && wl_display_dispatch(display) >= 0)
		;
	return capture;
}

int rogue_portal_backend(const uint32_t *pids, int count)
{
	struct wl_display *display = rogue_connect();
	struct backend b = {0};
	struct garnet_portal_capture_v1 *capture;
	char line[64];

	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &b);
	if (wl_display_roundtrip(display) < 0 || !b.portal || !b.shm) {
		printf("no global\n");
		return 2;
	}
	for (int i = 0; i + 1 < count; i++) {
		capture = ask(display, &b, pids[i]);
		printf("pid %u %s\n", pids[i], b.granted ? "granted" : b.refused ? "refused" : "error");
		fflush(stdout);
		garnet_portal_capture_v1_destroy(capture);
	}
	capture = ask(display, &b, pids[count - 1]);
	if (!b.granted) {
		printf("refused\n");
		return 1;
	}
	printf("granted %d %d\n", b.width, b.height);
	fflush(stdout);
	if (b.dmabuf)
		b.node = dmabuf_client_device(display, b.dmabuf);
	while (fgets(line, sizeof(line), stdin)) {
		struct rogue_gem_target gem = {.dmabuf_fd = -1, .vgem_fd = -1};
		struct wl_buffer *buffer;
		const char *flags = line + 4;
		bool foreign = strncmp(line, "copy-foreign", 12) == 0;
		bool busy = strncmp(line, "copy-busy", 9) == 0;
		uint64_t sent;

		if (strncmp(line, "copy", 4) != 0)
			continue;
		/* Whatever garnet sent meanwhile is still unread: the copy races it. */
		if (strncmp(line, "copy-gem", 8) == 0 || foreign || busy) {
			flags = line + (foreign ? 12 : busy ? 9 : 8);
			if (!b.dmabuf || (!foreign && !b.node) ||
			    !rogue_gem_target_make(b.dmabuf, foreign ? NULL : b.node, b.width,
						   b.height, &gem) ||
			    (busy && !rogue_gem_target_block(&gem)))
				return 2;
			buffer = gem.buffer;
		} else if (!(buffer = make_buffer(&b))) {
			return 2;
		}
		garnet_portal_capture_v1_copy(capture, buffer, (uint32_t)strtoul(flags, NULL, 0));
		sent = rogue_now_us();
		b.ready = b.failed = b.image_width = b.image_height = 0;
		b.pointer = POINTER_UNTOLD;
		if (wl_display_roundtrip(display) < 0) {
			printf("error %d\n", wl_display_get_protocol_error(display, NULL, NULL));
			fflush(stdout);
			return 1;
		}
		printf("%s%s%s", b.stopped ? "stopped " : "", b.failed ? "failed" : "",
		       b.ready ? "ready" : "");
		if (b.pointer == POINTER_SHOWN)
			printf(" pointer %d %d", b.pointer_x, b.pointer_y);
		else if (b.pointer == POINTER_HIDDEN)
			printf(" pointer hidden");
		if (b.image_width)
			printf(" image %d %d", b.image_width, b.image_height);
		if (gem.buffer && b.ready && !busy)
			printf(" written %ld", rogue_gem_target_written(&gem));
		if (busy)
			printf(" after %llu", (unsigned long long)((rogue_now_us() - sent) / 1000));
		printf("\n");
		fflush(stdout);
		/* garnet answered: the copy is over and the object is the rogue's alone again. */
		if (gem.buffer)
			rogue_gem_target_free(&gem);
	}
	free(b.node);
	wl_display_disconnect(display);
	return 0;
}
