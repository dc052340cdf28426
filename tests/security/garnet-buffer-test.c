// SPDX-License-Identifier: MIT
/*
 * garnet_buffer_v1 against the real garnet.ko (inside the VM): garnet-gem-demo's GPU-rendered
 * frames reach the screen exactly, and a rogue client that sniffs, replays, guesses or
 * misdirects names gets one uniform protocol error and never a pixel of the demo. Clients that
 * destroy buffers in use or hang the GPU before committing cannot stall the compositor.
 * garnet_buffer_broker_v1 hands one client's object to another only under a libwmac decision,
 * as a name no third file can open, withdrawn when the owner revokes it.
 */
#include <drm_fourcc.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <i915_drm.h>
#include <garnet_drm.h>

#include "garnet-buffer-v1-client-protocol.h"
#include "garnet-buffer-broker-v1-client-protocol.h"
#include "garnet/compositor.h"
#include "garnet/security.h"
#include "garnet-security.h"
#include "dmabuf-client.h"
#include "gem-demo-scene.h"
#include "harness.h"

#define DEMO_W 320
#define DEMO_H 240
#define DEMO_OUTPUT {DEMO_W, DEMO_H, 1, 0, 0}
#define MAX_SNIFFED 8

#define MI_NOOP 0u
#define MI_BATCH_BUFFER_END 0x05000000u
#define MI_BATCH_BUFFER_START (0x18800000u | 2u << 6)
#define XY_COLOR_BLT 0x54300004u
#define BR13_32BPP (3u << 24)
#define ROP_PATCOPY (0xf0u << 16)

/* ---- a client of garnet_buffer_v1 with its own DRM file ---- */

struct gem_client {
	struct client *c;
	struct garnet_buffer_v1 *gem;
	char device[256];
	uint64_t recipient;
	int fd;
};

static void gem_device(void *data, struct garnet_buffer_v1 *gem, const char *path)
{
	struct gem_client *g = data;

	(void)gem;
	snprintf(g->device, sizeof(g->device), "%s", path);
}

static void gem_recipient(void *data, struct garnet_buffer_v1 *gem, uint32_t hi, uint32_t lo)
{
	struct gem_client *g = data;

	(void)gem;
	g->recipient = (uint64_t)hi << 32 | lo;
}

static void gem_format(void *data, struct garnet_buffer_v1 *gem, uint32_t format)
{
	(void)data, (void)gem, (void)format;
}

static const struct garnet_buffer_v1_listener gem_listener = {gem_device, gem_recipient,
								gem_format};

static struct gem_client *gem_client_create(struct test_context *t)
{
	struct gem_client *g = calloc(1, sizeof(*g));
	uint32_t global;

	g->c = client_create(t);
	global = client_find_global(g->c, "garnet_buffer_v1");
	if (!global)
		test_fail(t, __FILE__, __LINE__, "garnet_buffer_v1 is not offered (garnet.ko?)");
	g->gem = wl_registry_bind(g->c->registry, global, &garnet_buffer_v1_interface, 1);
	garnet_buffer_v1_add_listener(g->gem, &gem_listener, g);
	client_roundtrip(g->c);
	check(t, g->device[0] != '\0');
	check(t, g->recipient != 0);
	g->fd = open(g->device, O_RDWR | O_CLOEXEC);
	if (g->fd < 0)
		test_fail(t, __FILE__, __LINE__, "%s: %s", g->device, strerror(errno));
	return g;
}

static void gem_client_destroy(struct gem_client *g)
{
	close(g->fd);
	client_destroy(g->c);
	free(g);
}

static uint32_t gem_create(struct test_context *t, int fd, uint64_t size)
{
	struct drm_i915_gem_create create = {.size = size};

	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create) < 0)
		test_fail(t, __FILE__, __LINE__, "GEM_CREATE: %s", strerror(errno));
	return create.handle;
}

static void gem_fill_cpu(struct test_context *t, int fd, uint32_t handle, uint64_t size,
			 uint32_t pixel)
{
	uint32_t *data = malloc(size);
	struct drm_i915_gem_pwrite pwrite = {.handle = handle, .size = size,
					     .data_ptr = (uintptr_t)data};

	for (uint64_t i = 0; i < size / 4; i++)
		data[i] = pixel;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pwrite) < 0)
		test_fail(t, __FILE__, __LINE__, "GEM_PWRITE: %s", strerror(errno));
	free(data);
}

static void gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close close_arg = {.handle = handle};

	drmIoctl(fd, DRM_IOCTL_GEM_CLOSE, &close_arg);
}

static uint64_t gem_share(struct test_context *t, int fd, uint32_t handle, uint64_t recipient,
			  uint32_t flags)
{
	struct drm_garnet_share share = {.handle = handle, .flags = flags,
					 .recipient = recipient};

	if (drmIoctl(fd, DRM_IOCTL_GARNET_SHARE, &share) < 0)
		test_fail(t, __FILE__, __LINE__, "GARNET_SHARE: %s", strerror(errno));
	return share.name;
}

static uint64_t own_client_id(struct test_context *t, int fd)
{
	struct drm_garnet_get_client_id get = {0};

	if (drmIoctl(fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &get) < 0)
		test_fail(t, __FILE__, __LINE__, "GET_CLIENT_ID: %s", strerror(errno));
	return get.client_id;
}

static struct wl_buffer *create_buffer(struct gem_client *g, uint64_t name, int32_t w,
				       int32_t h)
{
	return garnet_buffer_v1_create_buffer(g->gem, (uint32_t)(name >> 32), (uint32_t)name, w,
					      h, w * 4, DRM_FORMAT_XRGB8888);
}

/* An object of w x h pixels in one colour, shared single-use with the compositor. */
static uint64_t shared_object(struct test_context *t, struct gem_client *g, int32_t w,
			      int32_t h, uint32_t pixel, uint32_t *handle_out)
{
	uint64_t size = (uint64_t)w * (uint64_t)h * 4;
	uint32_t handle = gem_create(t, g->fd, size);

	gem_fill_cpu(t, g->fd, handle, size, pixel);
	if (handle_out)
		*handle_out = handle;
	return gem_share(t, g->fd, handle, g->recipient, GARNET_SHARE_SINGLE_USE);
}

/* ---- the uniform error ---- */

static char last_error[512];

static void record_client_log(const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
}

/* The connection must die with invalid_name on garnet_buffer_v1; returns the message with
 * the object id cut off ("error 0: ..."), so callers can compare cases. */
static void expect_invalid_name(struct test_context *t, struct gem_client *g, char *message,
				size_t size)
{
	const char *text;

	last_error[0] = '\0';
	wl_log_set_handler_client(record_client_log);
	client_expect_protocol_error(g->c, &garnet_buffer_v1_interface,
				     GARNET_BUFFER_V1_ERROR_INVALID_NAME);
	text = strstr(last_error, "error ");
	if (!text)
		test_fail(t, __FILE__, __LINE__, "no error message logged (got '%s')", last_error);
	snprintf(message, size, "%s", text);
}

static const char *uniform_message(struct test_context *t, const char *message)
{
	static char first[512];

	if (!first[0])
		snprintf(first, sizeof(first), "%s", message);
	else if (strcmp(first, message) != 0)
		test_fail(t, __FILE__, __LINE__, "error differs: '%s' vs '%s'", first, message);
	return first;
}

/* One rogue connection per attempt: each failed attempt ends its connection. */
static void rogue_offers_name(struct test_context *t, uint64_t name)
{
	struct gem_client *rogue = gem_client_create(t);
	struct wl_buffer *buffer = create_buffer(rogue, name, DEMO_W, DEMO_H);
	char message[512];

	(void)buffer;
	expect_invalid_name(t, rogue, message, sizeof(message));
	uniform_message(t, message);
	gem_client_destroy(rogue);
}

/* ---- the demo, as a separate process, its protocol stream logged ---- */

struct demo {
	pid_t pid;
	char log[512];
	uint64_t names[MAX_SNIFFED];
	int name_count;
	uint64_t recipient;
	char report[128];
};

static void demo_start_with(struct test_context *t, struct demo *d, int frames, const char *done,
			    int32_t width, int32_t height, const char *sharing)
{
	char frames_arg[32], size_arg[32];

	snprintf(d->log, sizeof(d->log), "%s/%s.log", getenv("XDG_RUNTIME_DIR"), done);
	snprintf(frames_arg, sizeof(frames_arg), "%d", frames);
	snprintf(size_arg, sizeof(size_arg), "%dx%d", width, height);
	runtime_file_remove(done);
	d->pid = fork();
	if (d->pid < 0)
		test_fail(t, __FILE__, __LINE__, "fork: %s", strerror(errno));
	if (d->pid == 0) {
		int log = open(d->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		if (log < 0 || dup2(log, 2) < 0)
			_exit(127);
		setenv("WAYLAND_DISPLAY", test_socket(t), 1);
		setenv("WAYLAND_DEBUG", "client", 1);
		execl(GEM_DEMO, GEM_DEMO, "--size", size_arg, "--frames", frames_arg,
		      "--done-file", done, sharing, (char *)NULL);
		_exit(127);
	}
}

static void demo_start(struct test_context *t, struct demo *d, int frames, const char *done)
{
	demo_start_with(t, d, frames, done, DEMO_W, DEMO_H, NULL);
}

/* Waits (up to 60 s: the guest is slow) for the demo's done file; its first line goes into
 * d->report. */
static void demo_wait_done(struct test_context *t, struct demo *d, const char *done)
{
	char path[512];
	int status;

	snprintf(path, sizeof(path), "%s/%s", getenv("XDG_RUNTIME_DIR"), done);
	for (int i = 0; i < 3000; i++) {
		FILE *f = fopen(path, "r");

		if (f) {
			if (!fgets(d->report, sizeof(d->report), f))
				d->report[0] = '\0';
			fclose(f);
			unlink(path);
			return;
		}
		if (waitpid(d->pid, &status, WNOHANG) == d->pid)
			test_fail(t, __FILE__, __LINE__, "garnet-gem-demo ended early (status %d), "
				  "see %s", status, d->log);
		usleep(20000);
	}
	test_fail(t, __FILE__, __LINE__, "garnet-gem-demo did not finish, see %s", d->log);
}

static void demo_stop(struct demo *d)
{
	int status;

	kill(d->pid, SIGTERM);
	waitpid(d->pid, &status, 0);
}

/* What anyone who can read WAYLAND_DEBUG output (a log file, a terminal) learns. */
static void demo_sniff(struct test_context *t, struct demo *d)
{
	FILE *f = fopen(d->log, "r");
	char line[1024];

	if (!f)
		test_fail(t, __FILE__, __LINE__, "%s: %s", d->log, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		const char *call = strstr(line, ".create_buffer(new id wl_buffer@");
		const char *recipient = strstr(line, ".recipient(");
		unsigned int id, hi, lo;

		if (call && d->name_count < MAX_SNIFFED &&
		    sscanf(call, ".create_buffer(new id wl_buffer@%u, %u, %u", &id, &hi, &lo) == 3)
			d->names[d->name_count++] = (uint64_t)hi << 32 | lo;
		if (recipient && sscanf(recipient, ".recipient(%u, %u)", &hi, &lo) == 2)
			d->recipient = (uint64_t)hi << 32 | lo;
	}
	fclose(f);
	if (d->name_count < 2 || !d->recipient)
		test_fail(t, __FILE__, __LINE__, "the demo's log %s shows no names", d->log);
}

/* Compares the output with frame n of the demo's scene; the compositor may still be waiting
 * for the GPU, so it looks again for a while before failing. */
static void check_demo_frame_sized(struct test_context *t, struct client *c, uint32_t n,
				   int32_t width, int32_t height)
{
	int32_t bad_x = -1, bad_y = -1;
	uint32_t got = 0, want = 0;

	for (int attempt = 0; attempt < 50; attempt++) {
		pixman_image_t *shot = capture_output(c, client_first_output(c));

		bad_x = -1;
		for (int32_t y = 0; y < height && bad_x < 0; y++) {
			for (int32_t x = 0; x < width; x++) {
				want = gem_demo_expected_pixel(n, width, height, x, y) | 0xff000000u;
				got = image_pixel(shot, x, y) | 0xff000000u;
				if (got != want) {
					bad_x = x, bad_y = y;
					break;
				}
			}
		}
		if (bad_x < 0) {
			pixman_image_unref(shot);
			return;
		}
		if (attempt == 49) {
			char path[512];

			snprintf(path, sizeof(path), "%s/%s-actual.png",
				 getenv("GARNET_TEST_OUTPUT_PATH") ?: "/tmp", test_name(t));
			png_write(path, shot);
		}
		pixman_image_unref(shot);
		client_dispatch_for(c, 100);
	}
	test_fail(t, __FILE__, __LINE__, "pixel %d,%d of frame %u: 0x%08x, want 0x%08x", bad_x,
		  bad_y, n, got, want);
}

static void check_demo_frame(struct test_context *t, struct client *c, uint32_t n)
{
	check_demo_frame_sized(t, c, n, DEMO_W, DEMO_H);
}

/* ---- the demo on screen ---- */

TEST_WITH(gem_demo_frames_reach_the_screen_exactly, NULL, DEMO_OUTPUT)
{
	struct client *c = client_create(t);
	struct demo d = {0};

	demo_start(t, &d, 30, "demo-exact");
	demo_wait_done(t, &d, "demo-exact");
	check_demo_frame(t, c, 29);
	demo_stop(&d);
	client_destroy(c);
}

/* ---- the rogue ---- */

TEST_WITH(rogue_cannot_accept_the_demos_names_on_its_own_file, NULL, DEMO_OUTPUT)
{
	struct gem_client *rogue = gem_client_create(t);
	struct demo d = {0};
	unsigned int seed = (unsigned int)time(NULL);

	demo_start(t, &d, 3, "demo-accept");
	demo_wait_done(t, &d, "demo-accept");
	demo_sniff(t, &d);
	/* The real names, their neighbours, and thousands of random guesses. */
	for (int i = 0; i < d.name_count; i++) {
		for (int64_t delta = -16; delta <= 16; delta++) {
			struct drm_garnet_accept accept = {.name = d.names[i] + (uint64_t)delta};

			check_int(t, drmIoctl(rogue->fd, DRM_IOCTL_GARNET_ACCEPT, &accept), ==, -1);
			check_int(t, errno, ==, ENOENT);
			check_int(t, accept.handle, ==, 0);
		}
	}
	for (int i = 0; i < 5000; i++) {
		struct drm_garnet_accept accept = {
			.name = (uint64_t)rand_r(&seed) << 33 ^ (uint64_t)rand_r(&seed) << 2 ^
				(uint64_t)i};

		check_int(t, drmIoctl(rogue->fd, DRM_IOCTL_GARNET_ACCEPT, &accept), ==, -1);
		check_int(t, errno, ==, ENOENT);
	}
	check_demo_frame(t, rogue->c, 2);
	demo_stop(&d);
	gem_client_destroy(rogue);
}

TEST_WITH(rogue_replaying_sniffed_names_gets_the_uniform_error, NULL, DEMO_OUTPUT)
{
	struct client *observer = client_create(t);
	struct demo d = {0};

	demo_start(t, &d, 3, "demo-replay");
	demo_wait_done(t, &d, "demo-replay");
	demo_sniff(t, &d);
	for (int i = 0; i < d.name_count; i++)
		rogue_offers_name(t, d.names[i]);
	/* The demo is untouched and the compositor still serves. */
	check_demo_frame(t, observer, 2);
	demo_stop(&d);
	/* Its buffers are gone now: the names are names of destroyed objects. */
	for (int i = 0; i < d.name_count; i++)
		rogue_offers_name(t, d.names[i]);
	check_compositor_serves(t);
	client_destroy(observer);
}

TEST(rogue_guessing_names_gets_the_uniform_error)
{
	unsigned int seed = (unsigned int)time(NULL) ^ 0x5eed;

	rogue_offers_name(t, 0);
	rogue_offers_name(t, 1);
	rogue_offers_name(t, ~0ull);
	for (int i = 0; i < 5; i++)
		rogue_offers_name(t, (uint64_t)rand_r(&seed) << 32 | (uint64_t)rand_r(&seed));
	check_compositor_serves(t);
}

TEST_WITH(rogue_sharing_to_the_wrong_recipient_gets_the_uniform_error, NULL, DEMO_OUTPUT)
{
	struct gem_client *victim = gem_client_create(t);
	struct gem_client *rogue = gem_client_create(t);
	uint32_t handle = gem_create(t, rogue->fd, DEMO_W * DEMO_H * 4);
	char message[512];

	/* Shared with the compositor's file of another client, with itself, and with the
	 * victim's own DRM file: none of them is the recipient the compositor announced to the
	 * rogue. */
	uint64_t to_other = gem_share(t, rogue->fd, handle, victim->recipient, 0);
	uint64_t to_self = gem_share(t, rogue->fd, handle, own_client_id(t, rogue->fd), 0);
	uint64_t to_victim = gem_share(t, rogue->fd, handle, own_client_id(t, victim->fd), 0);

	check(t, victim->recipient != rogue->recipient);
	create_buffer(rogue, to_other, DEMO_W, DEMO_H);
	expect_invalid_name(t, rogue, message, sizeof(message));
	uniform_message(t, message);
	rogue_offers_name(t, to_self);
	rogue_offers_name(t, to_victim);
	gem_client_destroy(rogue);
	gem_client_destroy(victim);
	check_compositor_serves(t);
}

TEST(single_use_name_replayed_gets_the_uniform_error)
{
	struct gem_client *g = gem_client_create(t);
	uint64_t name = shared_object(t, g, 64, 64, 0xff00ff00, NULL);
	char message[512];

	create_buffer(g, name, 64, 64);
	client_roundtrip(g->c); /* the first use is fine */
	create_buffer(g, name, 64, 64);
	expect_invalid_name(t, g, message, sizeof(message));
	uniform_message(t, message);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

TEST(names_of_destroyed_objects_and_revoked_names_get_the_uniform_error)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t handle = gem_create(t, g->fd, 64 * 64 * 4);
	uint64_t gone = gem_share(t, g->fd, handle, g->recipient, 0);
	uint64_t revoked;
	struct drm_garnet_revoke revoke;
	char message[512];

	gem_close(g->fd, handle);
	create_buffer(g, gone, 64, 64);
	expect_invalid_name(t, g, message, sizeof(message));
	uniform_message(t, message);
	gem_client_destroy(g);

	g = gem_client_create(t);
	handle = gem_create(t, g->fd, 64 * 64 * 4);
	revoked = gem_share(t, g->fd, handle, g->recipient, 0);
	revoke = (struct drm_garnet_revoke){.name = revoked};
	check_int(t, drmIoctl(g->fd, DRM_IOCTL_GARNET_REVOKE, &revoke), ==, 0);
	create_buffer(g, revoked, 64, 64);
	expect_invalid_name(t, g, message, sizeof(message));
	uniform_message(t, message);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

/* Sizes are checked against the object before anything reads it. */
TEST(sizes_beyond_the_object_are_refused)
{
	struct gem_client *g = gem_client_create(t);
	uint64_t name = shared_object(t, g, 64, 64, 0xff00ff00, NULL);

	garnet_buffer_v1_create_buffer(g->gem, (uint32_t)(name >> 32), (uint32_t)name, 64, 65,
				       256, DRM_FORMAT_XRGB8888);
	client_expect_protocol_error(g->c, &garnet_buffer_v1_interface,
				     GARNET_BUFFER_V1_ERROR_INVALID_SIZE);
	gem_client_destroy(g);

	g = gem_client_create(t);
	name = shared_object(t, g, 64, 64, 0xff00ff00, NULL);
	garnet_buffer_v1_create_buffer(g->gem, (uint32_t)(name >> 32), (uint32_t)name, 64, 64,
				       252, DRM_FORMAT_XRGB8888);
	client_expect_protocol_error(g->c, &garnet_buffer_v1_interface,
				     GARNET_BUFFER_V1_ERROR_INVALID_SIZE);
	gem_client_destroy(g);

	g = gem_client_create(t);
	name = shared_object(t, g, 64, 64, 0xff00ff00, NULL);
	garnet_buffer_v1_create_buffer(g->gem, (uint32_t)(name >> 32), (uint32_t)name, 64, 64,
				       256, DRM_FORMAT_RGB565);
	client_expect_protocol_error(g->c, &garnet_buffer_v1_interface,
				     GARNET_BUFFER_V1_ERROR_INVALID_FORMAT);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

/* ---- buffers in use ---- */

static struct client_surface *show_gem_buffer(struct test_context *t, struct gem_client *g,
					      struct wl_buffer *buffer, int32_t x, int32_t y)
{
	struct client_surface *s = surface_create(g->c);

	garnet_test_move_surface(g->c->garnet_test, s->wl_surface, x, y);
	wl_surface_attach(s->wl_surface, buffer, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
	check(t, surface_commit_and_wait_frame(s));
	return s;
}

static uint32_t pixel_on_screen(struct client *c, int32_t x, int32_t y)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	uint32_t pixel = image_pixel(shot, x, y) | 0xff000000u;

	pixman_image_unref(shot);
	return pixel;
}

TEST(buffer_stays_valid_after_the_client_revokes_and_closes_it)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t handle;
	uint64_t name = shared_object(t, g, 32, 32, 0xff3366cc, &handle);
	struct wl_buffer *buffer = create_buffer(g, name, 32, 32);
	struct drm_garnet_revoke revoke = {.name = name};
	struct client_surface *s;

	client_roundtrip(g->c);
	drmIoctl(g->fd, DRM_IOCTL_GARNET_REVOKE, &revoke); /* used up already: -ENOENT is fine */
	gem_close(g->fd, handle);
	s = show_gem_buffer(t, g, buffer, 10, 10);
	check_int(t, pixel_on_screen(g->c, 20, 20), ==, 0xff3366ccu);
	surface_destroy(s);
	wl_buffer_destroy(buffer);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

static uint32_t output_renders(struct client *c)
{
	query_output_stats(c, client_first_output(c));
	return c->stats[1];
}

/* A buffer alone on the output and of its size is shown as it is (headless outputs take GEM
 * buffers as a primary plane does), and the client cannot pull it from under garnet: a
 * wl_buffer destroyed while on screen leaves garnet's copy there, a client gone takes its
 * picture with it. */
TEST_WITH(a_buffer_shown_as_it_is_outlives_its_wl_buffer_not_its_client, NULL, {64, 48, 1, 0, 0})
{
	struct client *watcher = client_create(t);
	struct gem_client *g = gem_client_create(t);
	struct wl_buffer *first = create_buffer(g, shared_object(t, g, 64, 48, 0xff3366cc, NULL),
						64, 48);
	struct wl_buffer *second = create_buffer(g, shared_object(t, g, 64, 48, 0xff22aa44, NULL),
						 64, 48);
	struct client_surface *s = show_gem_buffer(t, g, first, 0, 0);
	uint32_t renders;

	check_int(t, pixel_on_screen(watcher, 63, 47), ==, 0xff3366ccu);
	renders = output_renders(watcher);
	wl_surface_attach(s->wl_surface, second, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
	check(t, surface_commit_and_wait_frame(s));
	check_int(t, pixel_on_screen(watcher, 0, 0), ==, 0xff22aa44u);
	check_int(t, output_renders(watcher), ==, renders);

	wl_buffer_destroy(second);
	client_roundtrip(g->c);
	check_int(t, pixel_on_screen(watcher, 32, 24), ==, 0xff22aa44u);

	/* Gone without a word: the surface goes with it, and garnet paints the desktop. */
	wl_buffer_destroy(first);
	gem_client_destroy(g);
	client_dispatch_for(watcher, 100);
	check(t, pixel_on_screen(watcher, 32, 24) != 0xff22aa44u);
	check_int(t, output_renders(watcher), >, renders);
	client_destroy(watcher);
	check_compositor_serves(t);
}

/* A batch that fills target (w x h) with colour `repeat` times, and loops for ever after
 * when `hang` (the kernel's watchdog ends it), submitted with raw EXECBUFFER2 and not waited
 * for. */
static void gpu_fill(struct test_context *t, int fd, uint32_t target, int32_t w, int32_t h,
		     uint32_t colour, int repeat, bool hang)
{
	static uint32_t dw[1024];
	static struct drm_i915_gem_relocation_entry relocs[160];
	struct drm_i915_gem_exec_object2 objects[2] = {
		{.handle = target, .flags = EXEC_OBJECT_WRITE},
	};
	struct drm_i915_gem_execbuffer2 exec = {0};
	uint32_t batch = gem_create(t, fd, 4096);
	struct drm_i915_gem_pwrite pwrite = {.handle = batch, .data_ptr = (uintptr_t)dw};
	unsigned int n = 0, nrelocs = 0;

	for (int i = 0; i < repeat; i++) {
		dw[n++] = XY_COLOR_BLT;
		dw[n++] = BR13_32BPP | ROP_PATCOPY | (uint32_t)w * 4;
		dw[n++] = 0;
		dw[n++] = (uint32_t)h << 16 | (uint32_t)w;
		relocs[nrelocs++] = (struct drm_i915_gem_relocation_entry){
			.target_handle = target, .offset = n * 4, .presumed_offset = ~0ull,
			.read_domains = I915_GEM_DOMAIN_RENDER,
			.write_domain = I915_GEM_DOMAIN_RENDER};
		dw[n++] = 0;
		dw[n++] = colour;
	}
	if (hang) {
		/* Back to the first fill, for ever. */
		dw[n++] = MI_BATCH_BUFFER_START;
		relocs[nrelocs++] = (struct drm_i915_gem_relocation_entry){
			.target_handle = batch, .offset = n * 4, .presumed_offset = ~0ull,
			.read_domains = I915_GEM_DOMAIN_COMMAND};
		dw[n++] = 0;
	}
	dw[n++] = MI_BATCH_BUFFER_END;
	if (n & 1)
		dw[n++] = MI_NOOP;
	pwrite.size = n * 4;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pwrite) < 0)
		test_fail(t, __FILE__, __LINE__, "GEM_PWRITE: %s", strerror(errno));
	objects[1] = (struct drm_i915_gem_exec_object2){
		.handle = batch, .relocation_count = nrelocs, .relocs_ptr = (uintptr_t)relocs};
	exec.buffers_ptr = (uintptr_t)objects;
	exec.buffer_count = 2;
	exec.batch_len = n * 4;
	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &exec) < 0)
		test_fail(t, __FILE__, __LINE__, "EXECBUFFER2: %s", strerror(errno));
	gem_close(fd, batch);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A client with its own shm window keeps getting frames while another's GPU work hangs. */
static void check_frames_flow(struct test_context *t, int64_t budget_ms)
{
	struct client *other = client_create(t);
	struct buffer *b = NULL;
	struct client_surface *s = surface_create_placed(other, 200, 100, 20, 20, 0xff00ff00, &b);

	for (int i = 0; i < 5; i++) {
		int64_t start = now_ms();

		buffer_fill(b, 0xff000000u | (uint32_t)i * 40);
		wl_surface_attach(s->wl_surface, b->wl_buffer, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 0, 0, 20, 20);
		check(t, surface_commit_and_wait_frame(s));
		check_int(t, now_ms() - start, <, budget_ms);
	}
	surface_destroy(s);
	buffer_destroy(b);
	client_destroy(other);
}

/* A garnet.ko module parameter (read-only after load: meson loads garnet with what tests need). */
static long module_param(struct test_context *t, const char *name)
{
	char path[256];
	long value = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/garnet/parameters/%s", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &value) != 1 || fclose(f) != 0)
		test_fail(t, __FILE__, __LINE__, "%s: %s", path, strerror(errno));
	return value;
}

TEST(hung_gpu_work_before_commit_does_not_stall_other_clients)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t handle;
	uint64_t name = shared_object(t, g, 64, 64, 0xff202020, &handle);
	struct wl_buffer *buffer = create_buffer(g, name, 64, 64);
	struct client_surface *s = surface_create(g->c);
	int64_t start;

	/* Three seconds before the kernel stops the batch (meson.build loads garnet with
	 * watchdog_ms=3000): long enough to see a stall. */
	check_int(t, module_param(t, "watchdog_ms"), ==, 3000);

	client_roundtrip(g->c);
	garnet_test_move_surface(g->c->garnet_test, s->wl_surface, 0, 0);
	gpu_fill(t, g->fd, handle, 64, 64, 0xffc0c000, 1, true);
	start = now_ms();
	wl_surface_attach(s->wl_surface, buffer, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, 64, 64);
	wl_surface_commit(s->wl_surface);
	wl_display_flush(g->c->display);
	/* Meanwhile another client connects and gets its frames at once. */
	check_frames_flow(t, 1000);
	check_int(t, now_ms() - start, <, 2000);
	/* Once the kernel stopped the batch, its pixels (the fill ran before the loop) show. */
	for (int i = 0; i < 100 && pixel_on_screen(g->c, 10, 10) != 0xffc0c000u; i++)
		client_dispatch_for(g->c, 100);
	check_int(t, pixel_on_screen(g->c, 10, 10), ==, 0xffc0c000u);
	surface_destroy(s);
	wl_buffer_destroy(buffer);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

TEST(buffer_destroyed_while_the_compositor_waits_for_it)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t handle;
	uint64_t name = shared_object(t, g, 256, 256, 0xff202020, &handle);
	struct wl_buffer *buffer = create_buffer(g, name, 256, 256);
	struct client_surface *s = surface_create(g->c);

	client_roundtrip(g->c);
	/* Long GPU work, then commit, destroy everything and leave at once. */
	gpu_fill(t, g->fd, handle, 256, 256, 0xff804000, 150, false);
	garnet_test_move_surface(g->c->garnet_test, s->wl_surface, 0, 0);
	wl_surface_attach(s->wl_surface, buffer, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, 256, 256);
	wl_surface_commit(s->wl_surface);
	wl_buffer_destroy(buffer);
	wl_surface_destroy(s->wl_surface);
	free(s);
	gem_close(g->fd, handle);
	wl_display_flush(g->c->display);
	gem_client_destroy(g);
	check_frames_flow(t, 2000);
	check_compositor_serves(t);
}

/* A client whose GPU still writes its buffer at commit, having damaged one corner of it: once
 * the buffer is shown, garnet paints that corner, not the whole window (it used to repaint all
 * of every such surface, every frame). */
TEST(a_busy_buffer_is_painted_only_where_it_was_damaged)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t first, second;
	uint64_t first_name = shared_object(t, g, 256, 256, 0xff202020, &first);
	uint64_t second_name = shared_object(t, g, 256, 256, 0xff202020, &second);
	struct wl_buffer *b1 = create_buffer(g, first_name, 256, 256);
	struct wl_buffer *b2 = create_buffer(g, second_name, 256, 256);
	struct client_surface *s = show_gem_buffer(t, g, b1, 0, 0);
	struct drm_i915_gem_busy busy = {.handle = second};

	/* Small damage for a few frames: no recent frame's damage is large. */
	for (int i = 0; i < 3; i++) {
		wl_surface_attach(s->wl_surface, b1, 0, 0);
		wl_surface_damage_buffer(s->wl_surface, 0, 0, 16, 16);
		check(t, surface_commit_and_wait_frame(s));
	}
	gpu_fill(t, g->fd, second, 256, 256, 0xff804000, 150, false);
	check_int(t, drmIoctl(g->fd, DRM_IOCTL_I915_GEM_BUSY, &busy), ==, 0);
	check(t, busy.busy != 0);
	wl_surface_attach(s->wl_surface, b2, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, 16, 16);
	check(t, surface_commit_and_wait_frame(s));
	query_output_stats(g->c, client_first_output(g->c));
	fprintf(stderr, "# the frame that showed the busy buffer painted %u pixels\n",
		g->c->stats[2]);
	check_int(t, g->c->stats[2], <=, 2 * 16 * 16);
	check_int(t, pixel_on_screen(g->c, 5, 5), ==, 0xff804000u);
	surface_destroy(s);
	wl_buffer_destroy(b1);
	wl_buffer_destroy(b2);
	gem_close(g->fd, first);
	gem_close(g->fd, second);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

TEST(client_leaving_with_a_buffer_the_compositor_waits_for)
{
	struct gem_client *g = gem_client_create(t);
	uint32_t handle;
	uint64_t name = shared_object(t, g, 256, 256, 0xff202020, &handle);
	struct wl_buffer *buffer = create_buffer(g, name, 256, 256);
	struct client_surface *s = surface_create(g->c);

	client_roundtrip(g->c);
	gpu_fill(t, g->fd, handle, 256, 256, 0xff804000, 150, false);
	wl_surface_attach(s->wl_surface, buffer, 0, 0);
	wl_surface_damage_buffer(s->wl_surface, 0, 0, 256, 256);
	wl_surface_commit(s->wl_surface);
	wl_display_flush(g->c->display);
	/* Leave with the surface, the wait and the buffer still alive in the compositor (the
	 * proxies are not destroyed: the server sees only the disconnection). */
	(void)buffer;
	free(s);
	gem_client_destroy(g);
	check_frames_flow(t, 2000);
	check_compositor_serves(t);
}

/* ---- other clients' pixels: only through a libwmac decision ---- */

/* The shipped security layer with the installed default policy, as garnet loads it:
 * screenshots only for the launcher entry "screenshooter", here gem-shooter started on demand. */
struct shooter_state {
	struct garnet_security *security;
	char dir[64], result[128];
};

static void security_setup(struct garnet_compositor *c, struct test_context *t)
{
	struct shooter_state *m = calloc(1, sizeof(*m));
	char error[512], command[512];

	snprintf(m->dir, sizeof(m->dir), "%s/gem-shooter-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(m->dir))
		test_fail(t, __FILE__, __LINE__, "mkdtemp: %s", strerror(errno));
	snprintf(m->result, sizeof(m->result), "%s/result", m->dir);
	m->security = garnet_security_create(c, WMAC_DEFAULT_POLICY, NULL, error, sizeof(error));
	if (!m->security || error[0])
		test_fail(t, __FILE__, __LINE__, "security layer: %s", error);
	/* The harness's own client drives the compositor through garnet_test. */
	garnet_security_set_test_mode(m->security, true);
	snprintf(command, sizeof(command), "%s %s 10 10", GEM_SHOOTER, m->result);
	if (!garnet_security_launch(m->security, "screenshooter", command, 0, true))
		test_fail(t, __FILE__, __LINE__, "cannot set up the screenshooter");
	test_set_data(t, m);
}

static void start_shooter(struct garnet_compositor *c, void *data)
{
	struct shooter_state *m = data;

	(void)c;
	garnet_security_start_on_demand(m->security, "screenshooter");
}

static void security_finish(struct garnet_compositor *c, void *data)
{
	struct shooter_state *m = data;

	(void)c;
	garnet_security_destroy(m->security);
	m->security = NULL;
}

/* The line gem-shooter left, once it is there (it renames it into place whole). */
static bool read_shooter_result(struct shooter_state *m, char *line, size_t size)
{
	FILE *f;

	for (int i = 0; i < 200; i++) {
		f = fopen(m->result, "r");
		if (f) {
			bool ok = fgets(line, (int)size, f) != NULL;

			fclose(f);
			return ok;
		}
		usleep(50 * 1000);
	}
	return false;
}

struct capture_result {
	bool done, ready;
	uint64_t name;
	int32_t width, height, stride;
};

static void capture_ready(void *data, struct garnet_buffer_capture_v1 *capture, uint32_t hi,
			  uint32_t lo, int32_t width, int32_t height, int32_t stride,
			  uint32_t format)
{
	struct capture_result *r = data;

	(void)capture, (void)format;
	*r = (struct capture_result){true, true, (uint64_t)hi << 32 | lo, width, height, stride};
}

static void capture_failed(void *data, struct garnet_buffer_capture_v1 *capture)
{
	struct capture_result *r = data;

	(void)capture;
	r->done = true;
}

static const struct garnet_buffer_capture_v1_listener capture_listener = {capture_ready,
									    capture_failed};

static struct garnet_buffer_capture_v1 *capture(struct test_context *t, struct gem_client *g,
						uint64_t client_id, struct capture_result *r)
{
	struct garnet_buffer_capture_v1 *cap = garnet_buffer_v1_capture_output(
		g->gem, client_first_output(g->c)->wl_output, (uint32_t)(client_id >> 32),
		(uint32_t)client_id);

	*r = (struct capture_result){0};
	garnet_buffer_capture_v1_add_listener(cap, &capture_listener, r);
	if (!client_dispatch_until(g->c, &r->done))
		test_fail(t, __FILE__, __LINE__, "capture_output was not answered");
	return cap;
}

/* garnet.ko's count of names ever made (debugfs), to see whether the compositor made one. */
static long long shares_created(struct test_context *t, int fd)
{
	char path[128], line[128];
	long long value = -1;
	struct stat st;
	FILE *f;

	check_int(t, fstat(fd, &st), ==, 0);
	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%u/garnet_counters",
		 minor(st.st_rdev));
	f = fopen(path, "r");
	if (!f)
		test_fail(t, __FILE__, __LINE__, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f))
		sscanf(line, "share_created %lld", &value);
	fclose(f);
	check(t, value >= 0);
	return value;
}

TEST_WITH(output_capture_is_a_libwmac_screenshot_decision, security_setup, DEFAULT_OUTPUT)
{
	struct shooter_state *m = test_data(t);
	struct gem_client *victim = gem_client_create(t);
	struct client_surface *secret = surface_create_placed(victim->c, 0, 0, 64, 64,
							      0xff5a1e33, NULL);
	struct gem_client *rogue = gem_client_create(t);
	struct garnet_buffer_capture_v1 *cap;
	struct capture_result r;
	unsigned int pixel = 0;
	int again = -1;
	char line[128];
	long long shares;

	/* An ordinary client is refused by the default policy ("ask" cannot be asked here), and
	 * libwmac decides first: the compositor never even made a name for it. */
	shares = shares_created(t, rogue->fd);
	cap = capture(t, rogue, own_client_id(t, rogue->fd), &r);
	check(t, !r.ready);
	check_int(t, shares_created(t, rogue->fd), ==, shares);
	garnet_buffer_capture_v1_destroy(cap);
	/* Its own client id makes no difference: a capture for the victim's file is refused too. */
	cap = capture(t, rogue, own_client_id(t, victim->fd), &r);
	check(t, !r.ready);
	check_int(t, shares_created(t, rogue->fd), ==, shares);
	garnet_buffer_capture_v1_destroy(cap);

	/* The compositor's screenshooter, known by its launch record, is allowed; the name opens
	 * once, on its own file, and holds the victim's pixels. */
	test_run_on_compositor(t, start_shooter, m);
	if (!read_shooter_result(m, line, sizeof(line)))
		test_fail(t, __FILE__, __LINE__, "gem-shooter left no result in %s", m->result);
	check_int(t, sscanf(line, "ready pixel=%x again=%d", &pixel, &again), ==, 2);
	check_int(t, pixel | 0xff000000u, ==, 0xff5a1e33u);
	check_int(t, again, ==, ENOENT);
	check_int(t, shares_created(t, rogue->fd), ==, shares + 1);

	surface_destroy(secret);
	gem_client_destroy(rogue);
	gem_client_destroy(victim);
	test_run_on_compositor(t, security_finish, m);
	unlink(m->result);
	rmdir(m->dir);
}

/* ---- cost: garnet_buffer_v1 against the same frames as wl_shm ---- */

/* The compositor thread's CPU time (us) and page faults so far. */
struct compositor_cost {
	int64_t cpu_us, faults, system_us;
};

static void read_compositor_cpu(struct garnet_compositor *c, void *data)
{
	struct compositor_cost *cost = data;
	struct rusage usage;
	struct timespec ts;

	(void)c;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	cost->cpu_us = (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
	getrusage(RUSAGE_THREAD, &usage);
	cost->faults = usage.ru_minflt + usage.ru_majflt;
	cost->system_us = (int64_t)usage.ru_stime.tv_sec * 1000000 + usage.ru_stime.tv_usec;
}

static int64_t median_of(int64_t *v, int n)
{
	int64_t s[8];

	memcpy(s, v, sizeof(*v) * (size_t)n);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && s[j - 1] > s[j]; j--) {
			int64_t tmp = s[j];

			s[j] = s[j - 1], s[j - 1] = tmp;
		}
	return s[n / 2];
}

/* One path's cost over one run of the demo. */
struct path_cost {
	int64_t cpu_us, system_us, faults, latency_us, renders;
};

static void measure_path(struct test_context *t, struct client *c, const char *sharing,
			 int frames, struct path_cost *out)
{
	struct client_output *output = client_first_output(c);
	struct compositor_cost before, after;
	struct demo d = {0};
	uint32_t renders_before;
	unsigned int shown;
	long long latency;

	query_output_stats(c, output);
	renders_before = c->stats[1];
	test_run_on_compositor(t, read_compositor_cpu, &before);
	demo_start_with(t, &d, frames, "demo-cost", 1280, 720, sharing);
	demo_wait_done(t, &d, "demo-cost");
	test_run_on_compositor(t, read_compositor_cpu, &after);
	query_output_stats(c, output);
	check_int(t, sscanf(d.report, "frames %u commit-to-frame-us %lld", &shown, &latency), ==,
		  2);
	check_int(t, shown, ==, frames);
	check_demo_frame_sized(t, c, (uint32_t)frames - 1, 1280, 720);
	demo_stop(&d);
	out->cpu_us = (after.cpu_us - before.cpu_us) / frames;
	out->system_us = (after.system_us - before.system_us) / frames;
	out->faults = (after.faults - before.faults) / frames;
	out->latency_us = latency;
	out->renders = c->stats[1] - renders_before;
}

/*
 * All three paths show the same last frame exactly, in a window of the output's size: a GEM
 * buffer is shown as it is (as on a display's primary plane), a wl_shm buffer is composited.
 * The figures (compositor CPU per frame, the median of GARNET_BENCH_ROUNDS rounds, default 1;
 * commit to frame callback) are printed side by side; the benchmark runs this test alone, with
 * 3 rounds.
 */
TEST_WITH(gem_and_shm_paths_show_the_same_frames_at_720p, NULL, {1280, 720, 1, 0, 0})
{
	static const char *mode_names[3] = {"garnet_buffer_v1", "wl_shm", "linux-dmabuf"};
	static const char *mode_args[3] = {NULL, "--shm", "--dmabuf"};
	const char *rounds_env = getenv("GARNET_BENCH_ROUNDS");
	int rounds = rounds_env ? atoi(rounds_env) : 1;
	struct client *c = client_create(t);
	const int frames = 60;
	struct path_cost cost[8][3];

	if (rounds < 1 || rounds > 8)
		rounds = 1;
	/* Rounds interleave the paths, so the machine's load falls on all of them. */
	for (int r = 0; r < rounds; r++)
		for (int mode = 0; mode < 3; mode++)
			measure_path(t, c, mode_args[mode], frames, &cost[r][mode]);
	for (int mode = 0; mode < 3; mode++) {
		int64_t cpu[8], sys[8], faults[8], latency[8], renders[8];

		for (int r = 0; r < rounds; r++) {
			cpu[r] = cost[r][mode].cpu_us;
			sys[r] = cost[r][mode].system_us;
			faults[r] = cost[r][mode].faults;
			latency[r] = cost[r][mode].latency_us;
			renders[r] = cost[r][mode].renders;
		}
		fprintf(stderr, "# %-16s 1280x720, %d frames, median of %d: compositor CPU %lld "
				"us/frame (%lld in the kernel, %lld page faults), %lld frames "
				"painted, commit to frame callback %lld us\n",
			mode_names[mode], frames, rounds, (long long)median_of(cpu, rounds),
			(long long)median_of(sys, rounds), (long long)median_of(faults, rounds),
			(long long)median_of(renders, rounds), (long long)median_of(latency, rounds));
	}
	/* Only wl_shm was painted; the GEM buffers were shown as they are (but a frame or two
	 * while the window maps). */
	for (int r = 0; r < rounds; r++) {
		check(t, cost[r][0].renders < frames / 4);
		check(t, cost[r][2].renders < frames / 4);
		check(t, cost[r][1].renders >= frames * 3 / 4);
	}
	client_destroy(c);
}

/* ---- zwp_linux_dmabuf_v1 ---- */

TEST_WITH(dmabuf_demo_frames_reach_the_screen_exactly, NULL, DEMO_OUTPUT)
{
	struct client *c = client_create(t);
	struct demo d = {0};

	demo_start_with(t, &d, 30, "demo-dmabuf", DEMO_W, DEMO_H, "--dmabuf");
	demo_wait_done(t, &d, "demo-dmabuf");
	check_demo_frame(t, c, 29);
	demo_stop(&d);
	client_destroy(c);
}

static struct zwp_linux_dmabuf_v1 *dmabuf_bind(struct test_context *t, struct client *c,
					       uint32_t version)
{
	uint32_t global = client_find_global(c, "zwp_linux_dmabuf_v1");

	if (!global)
		test_fail(t, __FILE__, __LINE__, "zwp_linux_dmabuf_v1 is not offered");
	return wl_registry_bind(c->registry, global, &zwp_linux_dmabuf_v1_interface, version);
}

static void dmabuf_format(void *data, struct zwp_linux_dmabuf_v1 *d, uint32_t format)
{
}

static void dmabuf_modifier(void *data, struct zwp_linux_dmabuf_v1 *d, uint32_t format,
			    uint32_t hi, uint32_t lo)
{
	uint64_t *linear_xrgb = data;

	if (format == DRM_FORMAT_XRGB8888)
		*linear_xrgb = (uint64_t)hi << 32 | lo;
}

static const struct zwp_linux_dmabuf_v1_listener dmabuf_listener = {dmabuf_format,
								     dmabuf_modifier};

TEST(dmabuf_feedback_names_the_render_node_and_linear_formats)
{
	struct gem_client *g = gem_client_create(t);
	struct zwp_linux_dmabuf_v1 *v4 = dmabuf_bind(t, g->c, 4), *v3 = dmabuf_bind(t, g->c, 3);
	struct dmabuf_feedback f;
	uint64_t v3_modifier = 1;
	struct stat st;
	char buf[4];

	zwp_linux_dmabuf_v1_add_listener(v3, &dmabuf_listener, &v3_modifier);
	check(t, dmabuf_client_feedback(g->c->display, v4, &f));
	client_roundtrip(g->c);
	check(t, f.has_device);
	check_int(t, stat(g->device, &st), ==, 0);
	check(t, f.device == st.st_rdev);
	check(t, f.xrgb_linear);
	/* Version 3 learns the same from modifier events. */
	check(t, v3_modifier == DRM_FORMAT_MOD_LINEAR);
	/* The table is one for every client: nobody may change it. */
	check(t, f.table_fd >= 0);
	check_int(t, write(f.table_fd, buf, sizeof(buf)), ==, -1);
	check(t, mmap(NULL, f.table_size, PROT_READ | PROT_WRITE, MAP_SHARED, f.table_fd, 0) ==
		 MAP_FAILED);
	close(f.table_fd);
	zwp_linux_dmabuf_v1_destroy(v3);
	zwp_linux_dmabuf_v1_destroy(v4);
	gem_client_destroy(g);
}

/* A dma-buf of a fresh garnet object of w x h pixels, filled with pixel. */
static int gem_dmabuf(struct test_context *t, struct gem_client *g, int32_t w, int32_t h,
		      uint32_t pixel)
{
	uint64_t size = (uint64_t)w * (uint64_t)h * 4;
	uint32_t handle = gem_create(t, g->fd, size);
	int fd;

	gem_fill_cpu(t, g->fd, handle, size, pixel);
	if (drmPrimeHandleToFD(g->fd, handle, DRM_CLOEXEC, &fd) != 0)
		test_fail(t, __FILE__, __LINE__, "PRIME export: %s", strerror(errno));
	gem_close(g->fd, handle);
	return fd;
}

enum params_misuse {
	PLANE_INDEX_TOO_HIGH,
	PLANE_ADDED_TWICE,
	NO_PLANE,
	UNKNOWN_FORMAT,
	ZERO_WIDTH,
	BEYOND_THE_DMABUF,
	USED_TWICE,
};

/* Each misuse of zwp_linux_buffer_params_v1 is the protocol error the specification names. */
static void check_params_misuse(struct test_context *t, enum params_misuse misuse,
				uint32_t code)
{
	struct gem_client *g = gem_client_create(t);
	struct zwp_linux_dmabuf_v1 *dmabuf = dmabuf_bind(t, g->c, 4);
	struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(dmabuf);
	int fd = gem_dmabuf(t, g, 64, 64, 0xff00ff00u);
	uint32_t format = misuse == UNKNOWN_FORMAT ? 0x12345678u : DRM_FORMAT_XRGB8888;
	int32_t width = misuse == ZERO_WIDTH ? 0 : 64;
	int32_t height = misuse == BEYOND_THE_DMABUF ? 65 : 64;

	if (misuse != NO_PLANE)
		zwp_linux_buffer_params_v1_add(params, fd, misuse == PLANE_INDEX_TOO_HIGH ? 4 : 0,
					       0, 256, 0, 0);
	if (misuse == PLANE_ADDED_TWICE)
		zwp_linux_buffer_params_v1_add(params, fd, 0, 0, 256, 0, 0);
	zwp_linux_buffer_params_v1_create(params, width, height, format, 0);
	if (misuse == USED_TWICE)
		zwp_linux_buffer_params_v1_create(params, width, height, format, 0);
	close(fd);
	client_expect_protocol_error(g->c, &zwp_linux_buffer_params_v1_interface, code);
	zwp_linux_buffer_params_v1_destroy(params);
	zwp_linux_dmabuf_v1_destroy(dmabuf);
	gem_client_destroy(g);
}

TEST(dmabuf_params_misuse_is_the_protocol_error_for_it)
{
	check_params_misuse(t, PLANE_INDEX_TOO_HIGH, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_IDX);
	check_params_misuse(t, PLANE_ADDED_TWICE, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_PLANE_SET);
	check_params_misuse(t, NO_PLANE, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INCOMPLETE);
	check_params_misuse(t, UNKNOWN_FORMAT, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_FORMAT);
	check_params_misuse(t, ZERO_WIDTH, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_DIMENSIONS);
	check_params_misuse(t, BEYOND_THE_DMABUF, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_OUT_OF_BOUNDS);
	check_params_misuse(t, USED_TWICE, ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_ALREADY_USED);
	check_compositor_serves(t);
}

struct create_result {
	struct wl_buffer *buffer;
	bool failed;
};

static void params_created(void *data, struct zwp_linux_buffer_params_v1 *p,
			   struct wl_buffer *buffer)
{
	((struct create_result *)data)->buffer = buffer;
}

static void params_failed(void *data, struct zwp_linux_buffer_params_v1 *p)
{
	((struct create_result *)data)->failed = true;
}

static const struct zwp_linux_buffer_params_v1_listener params_listener = {params_created,
									   params_failed};

/* create (not immed) of a 64x64 XRGB8888 buffer from fd (closed here); the answer in *result. */
static void dmabuf_create_64(struct gem_client *g, struct zwp_linux_dmabuf_v1 *dmabuf, int fd,
			     struct create_result *result)
{
	struct zwp_linux_buffer_params_v1 *params = zwp_linux_dmabuf_v1_create_params(dmabuf);

	zwp_linux_buffer_params_v1_add_listener(params, &params_listener, result);
	zwp_linux_buffer_params_v1_add(params, fd, 0, 0, 256, 0, 0);
	zwp_linux_buffer_params_v1_create(params, 64, 64, DRM_FORMAT_XRGB8888, 0);
	client_roundtrip(g->c);
	zwp_linux_buffer_params_v1_destroy(params);
	close(fd);
}

/* A dma-buf of another driver (vgem, which the VM loads next to garnet.ko): a dumb buffer of
 * w x h pixels filled with pixel through that driver's own mapping. */
static int vgem_dmabuf(struct test_context *t, int32_t w, int32_t h, uint32_t pixel)
{
	struct drm_mode_create_dumb create = {.width = (uint32_t)w, .height = (uint32_t)h,
					      .bpp = 32};
	struct drm_mode_map_dumb map = {0};
	char path[32];
	uint32_t *pixels;
	int card = -1, fd;

	for (int i = 0; i < 16 && card < 0; i++) {
		drmVersionPtr version;

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		card = open(path, O_RDWR | O_CLOEXEC);
		if (card < 0)
			continue;
		version = drmGetVersion(card);
		if (!version || strcmp(version->name, "vgem") != 0) {
			close(card);
			card = -1;
		}
		drmFreeVersion(version);
	}
	if (card < 0)
		test_fail(t, __FILE__, __LINE__, "no vgem device (the VM loads the module)");
	if (drmIoctl(card, DRM_IOCTL_MODE_CREATE_DUMB, &create) != 0)
		test_fail(t, __FILE__, __LINE__, "vgem dumb buffer: %s", strerror(errno));
	map.handle = create.handle;
	if (drmIoctl(card, DRM_IOCTL_MODE_MAP_DUMB, &map) != 0)
		test_fail(t, __FILE__, __LINE__, "vgem map: %s", strerror(errno));
	pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, card,
		      (off_t)map.offset);
	if (pixels == MAP_FAILED)
		test_fail(t, __FILE__, __LINE__, "vgem mmap: %s", strerror(errno));
	for (uint32_t y = 0; y < (uint32_t)h; y++) {
		for (uint32_t x = 0; x < (uint32_t)w; x++)
			pixels[y * (create.pitch / 4) + x] = pixel;
	}
	munmap(pixels, create.size);
	if (create.pitch != (uint32_t)w * 4)
		test_fail(t, __FILE__, __LINE__, "vgem pitch %u for %d pixels", create.pitch, w);
	if (drmPrimeHandleToFD(card, create.handle, DRM_CLOEXEC, &fd) != 0)
		test_fail(t, __FILE__, __LINE__, "vgem PRIME export: %s", strerror(errno));
	close(card);
	return fd;
}

TEST(dmabuf_of_another_driver_shows_its_pixels)
{
	struct gem_client *g = gem_client_create(t);
	struct zwp_linux_dmabuf_v1 *dmabuf = dmabuf_bind(t, g->c, 4);
	struct create_result made = {0};
	struct client_surface *s;

	dmabuf_create_64(g, dmabuf, vgem_dmabuf(t, 64, 64, 0xff996633u), &made);
	check(t, made.buffer != NULL && !made.failed);
	s = show_gem_buffer(t, g, made.buffer, 10, 10);
	check_int(t, pixel_on_screen(g->c, 10, 10), ==, 0xff996633u);
	check_int(t, pixel_on_screen(g->c, 73, 73), ==, 0xff996633u);
	surface_destroy(s);
	wl_buffer_destroy(made.buffer);
	zwp_linux_dmabuf_v1_destroy(dmabuf);
	gem_client_destroy(g);
}

TEST(dmabuf_shows_its_pixels_and_what_is_no_dmabuf_fails_cleanly)
{
	struct gem_client *g = gem_client_create(t);
	struct zwp_linux_dmabuf_v1 *dmabuf = dmabuf_bind(t, g->c, 4);
	struct zwp_linux_buffer_params_v1 *params;
	struct create_result good = {0}, bad = {0};
	struct client_surface *s;
	int memfd = memfd_create("not-a-dmabuf", MFD_CLOEXEC);

	dmabuf_create_64(g, dmabuf, gem_dmabuf(t, g, 64, 64, 0xff3366ccu), &good);
	check(t, good.buffer != NULL && !good.failed);
	s = show_gem_buffer(t, g, good.buffer, 10, 10);
	check_int(t, pixel_on_screen(g->c, 10, 10), ==, 0xff3366ccu);
	check_int(t, pixel_on_screen(g->c, 73, 73), ==, 0xff3366ccu);

	/* Memory that is no dma-buf of the device: "failed", and the client carries on. */
	check(t, memfd >= 0 && ftruncate(memfd, 64 * 64 * 4) == 0);
	dmabuf_create_64(g, dmabuf, dup(memfd), &bad);
	check(t, bad.failed && !bad.buffer);
	/* The same through create_immed ends the client: it was already using the id. */
	params = zwp_linux_dmabuf_v1_create_params(dmabuf);
	zwp_linux_buffer_params_v1_add(params, memfd, 0, 0, 256, 0, 0);
	zwp_linux_buffer_params_v1_create_immed(params, 64, 64, DRM_FORMAT_XRGB8888, 0);
	close(memfd);
	client_expect_protocol_error(g->c, &zwp_linux_buffer_params_v1_interface,
				     ZWP_LINUX_BUFFER_PARAMS_V1_ERROR_INVALID_WL_BUFFER);
	zwp_linux_buffer_params_v1_destroy(params);
	surface_destroy(s);
	wl_buffer_destroy(good.buffer);
	zwp_linux_dmabuf_v1_destroy(dmabuf);
	gem_client_destroy(g);
	check_compositor_serves(t);
}

/* ---- garnet_buffer_broker_v1: client to client, under a decision ---- */

/* The shipped security layer with a system policy: the installed one (buffer-import denied to
 * everyone) or that one plus a grant. The harness's clients run in the compositor's own
 * process, so libwmac verifies no executable for them: a grant between them names the owner
 * "unverified" and the receiver by its uid; broker-owner, a process of its own, is named by
 * its executable. */
struct broker_security {
	struct garnet_security *security;
	char policy[128];
};

static void broker_security_setup(struct garnet_compositor *c, struct test_context *t,
				  const char *grant_owner)
{
	struct broker_security *b = calloc(1, sizeof(*b));
	char error[512], chunk[4096];
	const char *path = WMAC_DEFAULT_POLICY;
	uid_t owner = 0;

	if (grant_owner) {
		FILE *in = fopen(WMAC_DEFAULT_POLICY, "r"), *out;
		int fd;
		size_t n;

		snprintf(b->policy, sizeof(b->policy), "%s/broker-policy-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(b->policy);
		if (!in || fd < 0)
			test_fail(t, __FILE__, __LINE__, "grant policy: %s", strerror(errno));
		fchmod(fd, 0644);
		out = fdopen(fd, "w");
		while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
			fwrite(chunk, 1, n, out);
		fprintf(out, "allow buffer-import:%s uid=%u\n", grant_owner,
			(unsigned int)getuid());
		fclose(in);
		if (fclose(out) != 0)
			test_fail(t, __FILE__, __LINE__, "grant policy: %s", strerror(errno));
		path = b->policy;
		owner = getuid();
	}
	b->security = garnet_security_create_owned(c, path, owner, NULL, error, sizeof(error));
	if (!b->security || error[0])
		test_fail(t, __FILE__, __LINE__, "security layer: %s", error);
	garnet_security_set_test_mode(b->security, true);
	test_set_data(t, b);
}

static void broker_default_setup(struct garnet_compositor *c, struct test_context *t)
{
	broker_security_setup(c, t, NULL);
}

static void broker_grant_setup(struct garnet_compositor *c, struct test_context *t)
{
	broker_security_setup(c, t, "unverified");
}

static void broker_exe_grant_setup(struct garnet_compositor *c, struct test_context *t)
{
	broker_security_setup(c, t, "exe:" BROKER_OWNER);
}

static void broker_security_finish(struct garnet_compositor *c, void *data)
{
	struct broker_security *b = data;

	(void)c;
	garnet_security_destroy(b->security);
	b->security = NULL;
	if (b->policy[0])
		unlink(b->policy);
}

struct peer {
	struct gem_client *g;
	struct garnet_buffer_broker_v1 *broker;
	uint64_t recipient;
};

static void broker_recipient(void *data, struct garnet_buffer_broker_v1 *broker, uint32_t hi,
			     uint32_t lo)
{
	struct peer *p = data;

	(void)broker;
	p->recipient = (uint64_t)hi << 32 | lo;
}

static const struct garnet_buffer_broker_v1_listener broker_listener = {broker_recipient};

static struct peer *peer_create(struct test_context *t)
{
	struct peer *p = calloc(1, sizeof(*p));
	uint32_t global;

	p->g = gem_client_create(t);
	global = client_find_global(p->g->c, "garnet_buffer_broker_v1");
	if (!global)
		test_fail(t, __FILE__, __LINE__, "garnet_buffer_broker_v1 is not offered");
	p->broker = wl_registry_bind(p->g->c->registry, global,
				     &garnet_buffer_broker_v1_interface, 1);
	garnet_buffer_broker_v1_add_listener(p->broker, &broker_listener, p);
	client_roundtrip(p->g->c);
	/* One compositor file per client, whichever global announces it. */
	check_int(t, p->recipient, ==, p->g->recipient);
	return p;
}

static void peer_destroy(struct peer *p)
{
	gem_client_destroy(p->g);
	free(p);
}

struct receiver_state {
	struct garnet_buffer_receiver_v1 *proxy;
	bool has_token, offered, failed, revoked;
	uint64_t token, name, size;
};

static void receiver_token(void *data, struct garnet_buffer_receiver_v1 *r, uint32_t hi,
			   uint32_t lo)
{
	struct receiver_state *s = data;

	(void)r;
	s->has_token = true;
	s->token = (uint64_t)hi << 32 | lo;
}

static void receiver_offered(void *data, struct garnet_buffer_receiver_v1 *r, uint32_t name_hi,
			     uint32_t name_lo, uint32_t size_hi, uint32_t size_lo)
{
	struct receiver_state *s = data;

	(void)r;
	s->offered = true;
	s->name = (uint64_t)name_hi << 32 | name_lo;
	s->size = (uint64_t)size_hi << 32 | size_lo;
}

static void receiver_failed(void *data, struct garnet_buffer_receiver_v1 *r)
{
	(void)r;
	((struct receiver_state *)data)->failed = true;
}

static void receiver_revoked(void *data, struct garnet_buffer_receiver_v1 *r)
{
	(void)r;
	((struct receiver_state *)data)->revoked = true;
}

static const struct garnet_buffer_receiver_v1_listener receiver_listener = {
	receiver_token, receiver_offered, receiver_failed, receiver_revoked};

/* B gets ready to receive into its own DRM file. */
static void receive(struct test_context *t, struct peer *b, struct receiver_state *s)
{
	uint64_t id = own_client_id(t, b->g->fd);

	*s = (struct receiver_state){0};
	s->proxy = garnet_buffer_broker_v1_receive(b->broker, (uint32_t)(id >> 32), (uint32_t)id);
	garnet_buffer_receiver_v1_add_listener(s->proxy, &receiver_listener, s);
	if (!client_dispatch_until(b->g->c, &s->has_token))
		test_fail(t, __FILE__, __LINE__, "no token for the receiver");
	check(t, s->token != 0);
}

struct offer_state {
	struct garnet_buffer_offer_v1 *proxy;
	bool done, delivered;
};

static void offer_delivered(void *data, struct garnet_buffer_offer_v1 *o)
{
	struct offer_state *s = data;

	(void)o;
	s->done = s->delivered = true;
}

static void offer_failed(void *data, struct garnet_buffer_offer_v1 *o)
{
	(void)o;
	((struct offer_state *)data)->done = true;
}

static const struct garnet_buffer_offer_v1_listener offer_listener = {offer_delivered,
									offer_failed};

static void offer_send(struct peer *a, uint64_t name, uint64_t token, struct offer_state *s)
{
	*s = (struct offer_state){0};
	s->proxy = garnet_buffer_broker_v1_offer(a->broker, (uint32_t)(name >> 32), (uint32_t)name,
						 (uint32_t)(token >> 32), (uint32_t)token);
	garnet_buffer_offer_v1_add_listener(s->proxy, &offer_listener, s);
}

/* A offers the object behind name to the token and hears back; true when delivered. */
static bool offer(struct test_context *t, struct peer *a, uint64_t name, uint64_t token,
		  struct offer_state *s)
{
	offer_send(a, name, token, s);
	if (!client_dispatch_until(a->g->c, &s->done))
		test_fail(t, __FILE__, __LINE__, "the offer was not answered");
	return s->delivered;
}

/* A's object of size bytes in one colour and a name for its compositor file. */
static uint64_t owner_object(struct test_context *t, struct peer *a, uint64_t size,
			     uint32_t pixel, uint32_t flags, uint32_t *handle_out)
{
	uint32_t handle = gem_create(t, a->g->fd, size);

	gem_fill_cpu(t, a->g->fd, handle, size, pixel);
	if (handle_out)
		*handle_out = handle;
	return gem_share(t, a->g->fd, handle, a->recipient, flags);
}

static int accept_on(int fd, uint64_t name, uint32_t *handle, uint64_t *size)
{
	struct drm_garnet_accept accept = {.name = name};

	if (drmIoctl(fd, DRM_IOCTL_GARNET_ACCEPT, &accept) < 0)
		return -errno;
	if (handle)
		*handle = accept.handle;
	if (size)
		*size = accept.size;
	return 0;
}

/* Every pixel of the object as the CPU reads it after SET_DOMAIN, which waits for the GPU
 * writes pending on it: the first one that differs from want, or -1. */
static int64_t first_pixel_not(struct test_context *t, int fd, uint32_t handle, uint64_t size,
			       uint32_t want)
{
	struct drm_i915_gem_mmap map = {.handle = handle, .size = size};
	struct drm_i915_gem_set_domain domain = {.handle = handle,
						 .read_domains = I915_GEM_DOMAIN_CPU};
	const uint32_t *pixels;
	int64_t bad = -1;

	if (drmIoctl(fd, DRM_IOCTL_I915_GEM_MMAP, &map) < 0 ||
	    drmIoctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &domain) < 0)
		test_fail(t, __FILE__, __LINE__, "map and SET_DOMAIN: %s", strerror(errno));
	pixels = (const uint32_t *)(uintptr_t)map.addr_ptr;
	for (uint64_t i = 0; i < size / 4 && bad < 0; i++)
		if (pixels[i] != want)
			bad = (int64_t)i;
	munmap((void *)(uintptr_t)map.addr_ptr, size);
	return bad;
}

static void broker_finish(struct test_context *t)
{
	check_compositor_serves(t);
	test_run_on_compositor(t, broker_security_finish, test_data(t));
}

TEST_WITH(broker_import_without_a_grant_yields_no_name, broker_default_setup, DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	struct receiver_state r;
	struct offer_state o;
	uint64_t name = owner_object(t, a, 64 * 64 * 4, 0xff5a1e33, GARNET_SHARE_SINGLE_USE, NULL);
	long long shares = shares_created(t, a->g->fd);

	/* The installed policy grants buffer-import to nobody: B, who asked, gets failed and
	 * no name; garnet never even made one. */
	receive(t, b, &r);
	check(t, !offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.failed);
	check(t, !r.offered);
	check_int(t, shares_created(t, a->g->fd), ==, shares);
	/* The token is spent: asking again with it reaches nobody either. */
	garnet_buffer_offer_v1_destroy(o.proxy);
	name = owner_object(t, a, 64 * 64 * 4, 0xff5a1e33, GARNET_SHARE_SINGLE_USE, NULL);
	check(t, !offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, !r.offered);
	check_int(t, shares_created(t, a->g->fd), ==, shares + 1);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

/* The positive control of the test above, and implicit sync across the hand-over: A fills
 * its object with the GPU and offers it at once; B, reading after SET_DOMAIN, sees exactly
 * the batch's last write. */
TEST_WITH(broker_grant_hands_over_exactly_the_owners_last_gpu_write, broker_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	const uint64_t size = 256 * 256 * 4;
	struct drm_i915_gem_busy busy = {0};
	struct receiver_state r;
	struct offer_state o;
	uint32_t handle, mine;
	uint64_t name = owner_object(t, a, size, 0xff101010, GARNET_SHARE_SINGLE_USE, &handle);
	uint64_t got_size = 0;
	int64_t bad;

	receive(t, b, &r);
	gpu_fill(t, a->g->fd, handle, 256, 256, 0xff2080c0, 150, false);
	check(t, offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered);
	check_int(t, r.size, ==, size);
	check_int(t, accept_on(b->g->fd, r.name, &mine, &got_size), ==, 0);
	check_int(t, got_size, ==, size);
	busy.handle = mine;
	check_int(t, drmIoctl(b->g->fd, DRM_IOCTL_I915_GEM_BUSY, &busy), ==, 0);
	fprintf(stderr, "# A's batch %s when B imported the object\n",
		busy.busy ? "was still running" : "had finished");
	bad = first_pixel_not(t, b->g->fd, mine, size, 0xff2080c0);
	if (bad >= 0)
		test_fail(t, __FILE__, __LINE__, "pixel %lld is not the batch's last write",
			  (long long)bad);
	/* The name was single-use, and A's handles are not B's concern. */
	check_int(t, accept_on(b->g->fd, r.name, NULL, NULL), ==, -ENOENT);
	gem_close(a->g->fd, handle);
	check_int(t, first_pixel_not(t, b->g->fd, mine, size, 0xff2080c0), ==, -1);
	gem_close(b->g->fd, mine);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

TEST_WITH(broker_name_given_to_the_receiver_opens_on_no_other_file, broker_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t), *c = peer_create(t);
	struct receiver_state r, rc;
	struct offer_state o, oc;
	uint64_t name = owner_object(t, a, 64 * 64 * 4, 0xff336699, GARNET_SHARE_SINGLE_USE, NULL);
	uint32_t mine;

	receive(t, b, &r);
	receive(t, c, &rc);
	check(t, offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered);
	/* C, with a receiver of its own, heard nothing of B's offer. */
	client_roundtrip(c->g->c);
	check(t, !rc.offered && !rc.failed);
	/* B's name on C's file, on A's own file and on the compositor's files: the kernel's
	 * -ENOENT, as for a name that never existed. */
	check_int(t, accept_on(c->g->fd, r.name, NULL, NULL), ==, -ENOENT);
	check_int(t, accept_on(a->g->fd, r.name, NULL, NULL), ==, -ENOENT);
	/* C cannot push its own object at B with the spent token. */
	check(t, !offer(t, c, owner_object(t, c, 4096, 0xffee0000, GARNET_SHARE_SINGLE_USE, NULL),
			r.token, &oc));
	client_roundtrip(b->g->c);
	check(t, !r.failed);
	/* The failed attempts used nothing up: B's own import works and holds A's pixels. */
	check_int(t, accept_on(b->g->fd, r.name, &mine, NULL), ==, 0);
	check_int(t, first_pixel_not(t, b->g->fd, mine, 64 * 64 * 4, 0xff336699), ==, -1);
	peer_destroy(c);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

TEST_WITH(broker_revoked_offer_fails_the_receivers_next_import, broker_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	struct receiver_state r;
	struct offer_state o;
	uint64_t name = owner_object(t, a, 4096, 0xff00ff00, GARNET_SHARE_SINGLE_USE, NULL);
	uint32_t mine;

	/* A withdraws before B imported: B hears revoked, and the name is dead. */
	receive(t, b, &r);
	check(t, offer(t, a, name, r.token, &o));
	garnet_buffer_offer_v1_destroy(o.proxy);
	client_roundtrip(a->g->c);
	client_roundtrip(b->g->c);
	check(t, r.offered && r.revoked);
	check_int(t, accept_on(b->g->fd, r.name, NULL, NULL), ==, -ENOENT);
	garnet_buffer_receiver_v1_destroy(r.proxy);

	/* B drops its receiver before importing: that name is withdrawn too. */
	name = owner_object(t, a, 4096, 0xff00ff00, GARNET_SHARE_SINGLE_USE, NULL);
	receive(t, b, &r);
	check(t, offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered);
	garnet_buffer_receiver_v1_destroy(r.proxy);
	client_roundtrip(b->g->c);
	check_int(t, accept_on(b->g->fd, r.name, NULL, NULL), ==, -ENOENT);
	garnet_buffer_offer_v1_destroy(o.proxy);

	/* Positive control: not revoked, the same steps import. */
	name = owner_object(t, a, 4096, 0xff00ff00, GARNET_SHARE_SINGLE_USE, NULL);
	receive(t, b, &r);
	check(t, offer(t, a, name, r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered && !r.revoked);
	check_int(t, accept_on(b->g->fd, r.name, &mine, NULL), ==, 0);
	/* A revoking after the import takes nothing back from B (a handle is a reference). */
	garnet_buffer_offer_v1_destroy(o.proxy);
	client_roundtrip(a->g->c);
	check_int(t, first_pixel_not(t, b->g->fd, mine, 4096, 0xff00ff00), ==, -1);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

/* An offer of a name that is not a live name shared with the owner's compositor file ends the
 * connection with invalid_name, the same message whatever was wrong; B's token survives. */
static void offer_expect_invalid_name(struct test_context *t, uint64_t name, uint64_t token)
{
	struct peer *a = peer_create(t);
	struct offer_state o;
	const char *text;

	offer_send(a, name, token, &o);
	last_error[0] = '\0';
	wl_log_set_handler_client(record_client_log);
	client_expect_protocol_error(a->g->c, &garnet_buffer_broker_v1_interface,
				     GARNET_BUFFER_BROKER_V1_ERROR_INVALID_NAME);
	text = strstr(last_error, "error ");
	if (!text)
		test_fail(t, __FILE__, __LINE__, "no error message logged (got '%s')", last_error);
	uniform_message(t, text);
	check(t, !o.done);
	peer_destroy(a);
}

TEST_WITH(broker_forged_foreign_and_dead_names_get_the_uniform_error, broker_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	unsigned int seed = (unsigned int)time(NULL);
	struct drm_garnet_revoke revoke;
	struct receiver_state r;
	struct offer_state o;
	uint32_t handle;
	uint64_t name;

	receive(t, b, &r);
	offer_expect_invalid_name(t, 0, r.token);
	offer_expect_invalid_name(t, ~0ull, r.token);
	offer_expect_invalid_name(t, (uint64_t)rand_r(&seed) << 32 | (uint64_t)rand_r(&seed),
				  r.token);
	/* Shared with another client's compositor file (B's), and with B's own DRM file: not
	 * A's to offer through its connection. */
	handle = gem_create(t, a->g->fd, 4096);
	offer_expect_invalid_name(t, gem_share(t, a->g->fd, handle, b->recipient, 0), r.token);
	offer_expect_invalid_name(t, gem_share(t, a->g->fd, handle, own_client_id(t, b->g->fd), 0),
				  r.token);
	/* A name whose object is gone, a revoked name, a used single-use name. */
	name = gem_share(t, a->g->fd, handle, a->recipient, 0);
	gem_close(a->g->fd, handle);
	offer_expect_invalid_name(t, name, r.token);
	name = owner_object(t, a, 4096, 0, 0, NULL);
	revoke = (struct drm_garnet_revoke){.name = name};
	check_int(t, drmIoctl(a->g->fd, DRM_IOCTL_GARNET_REVOKE, &revoke), ==, 0);
	offer_expect_invalid_name(t, name, r.token);
	name = owner_object(t, a, 4096, 0, GARNET_SHARE_SINGLE_USE, NULL);
	check_int(t, accept_on(a->g->fd, name, NULL, NULL), ==, -ENOENT); /* not A's file */
	{
		struct receiver_state spare;

		receive(t, b, &spare);
		check(t, offer(t, a, name, spare.token, &o)); /* first use */
	}
	/* Each rogue connection above is a fresh one; the uniform message was compared. A's
	 * live connection replays the used name itself: */
	offer_send(a, name, r.token, &o);
	client_expect_protocol_error(a->g->c, &garnet_buffer_broker_v1_interface,
				     GARNET_BUFFER_BROKER_V1_ERROR_INVALID_NAME);
	peer_destroy(a);
	/* Positive control: none of it touched B's token. */
	a = peer_create(t);
	check(t, offer(t, a, owner_object(t, a, 4096, 0xff0000ff, GARNET_SHARE_SINGLE_USE, NULL),
		       r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

TEST_WITH(broker_offers_to_unknown_spent_or_gone_tokens_reach_nobody, broker_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	unsigned int seed = (unsigned int)time(NULL) ^ 0x70c3;
	struct receiver_state r, gone;
	struct offer_state o;
	uint64_t tokens[4];

	receive(t, b, &r);
	receive(t, b, &gone);
	garnet_buffer_receiver_v1_destroy(gone.proxy);
	client_roundtrip(b->g->c);
	tokens[0] = 0;
	tokens[1] = ~0ull;
	tokens[2] = (uint64_t)rand_r(&seed) << 32 | (uint64_t)rand_r(&seed);
	tokens[3] = gone.token;
	for (int i = 0; i < 4; i++) {
		check(t, !offer(t, a, owner_object(t, a, 4096, 0xffaaaaaa, GARNET_SHARE_SINGLE_USE,
						   NULL), tokens[i], &o));
		garnet_buffer_offer_v1_destroy(o.proxy);
	}
	client_roundtrip(b->g->c);
	check(t, !r.offered && !r.failed);
	/* Positive control: the real token, once. */
	check(t, offer(t, a, owner_object(t, a, 4096, 0xffaaaaaa, GARNET_SHARE_SINGLE_USE, NULL),
		       r.token, &o));
	check(t, !offer(t, a, owner_object(t, a, 4096, 0xffaaaaaa, GARNET_SHARE_SINGLE_USE, NULL),
			r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.offered);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

/* The owner as the policy names it: broker-owner, verified by its executable, is granted; the
 * harness's own unverified client is not, under the same policy. */
TEST_WITH(broker_grant_names_the_owner_by_its_verified_executable, broker_exe_grant_setup,
	  DEFAULT_OUTPUT)
{
	struct peer *a = peer_create(t), *b = peer_create(t);
	struct receiver_state r;
	struct offer_state o;
	int to_owner[2], from_owner[2], status;
	char token[32], line[64] = "";
	uint32_t mine;
	ssize_t n;
	pid_t pid;

	/* The harness's client is refused (the control). */
	receive(t, b, &r);
	check(t, !offer(t, a, owner_object(t, a, 4096, 0xff44aa11, GARNET_SHARE_SINGLE_USE, NULL),
			r.token, &o));
	client_roundtrip(b->g->c);
	check(t, r.failed && !r.offered);

	receive(t, b, &r);
	snprintf(token, sizeof(token), "%llx", (unsigned long long)r.token);
	if (pipe2(to_owner, O_CLOEXEC) < 0 || pipe2(from_owner, O_CLOEXEC) < 0)
		test_fail(t, __FILE__, __LINE__, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		test_fail(t, __FILE__, __LINE__, "fork: %s", strerror(errno));
	if (pid == 0) {
		if (dup2(to_owner[0], 0) < 0 || dup2(from_owner[1], 1) < 0)
			_exit(127);
		setenv("WAYLAND_DISPLAY", test_socket(t), 1);
		execl(BROKER_OWNER, BROKER_OWNER, token, "ff44aa11", (char *)NULL);
		_exit(127);
	}
	close(to_owner[0]);
	close(from_owner[1]);
	n = read(from_owner[0], line, sizeof(line) - 1);
	check(t, n > 0);
	check(t, strncmp(line, "delivered", 9) == 0);
	client_roundtrip(b->g->c);
	check(t, r.offered);
	check_int(t, accept_on(b->g->fd, r.name, &mine, NULL), ==, 0);
	check_int(t, first_pixel_not(t, b->g->fd, mine, 4096, 0xff44aa11), ==, -1);
	close(to_owner[1]);
	close(from_owner[0]);
	check_int(t, waitpid(pid, &status, 0), ==, pid);
	check(t, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	peer_destroy(a);
	peer_destroy(b);
	broker_finish(t);
}

/* No security layer here: every offer fails (no hook, no import), and still counts until it is
 * destroyed. */
TEST(broker_floods_of_offers_and_receivers_are_bounded_per_client)
{
	struct peer *a = peer_create(t), *b;
	static struct offer_state offers[17];
	static struct receiver_state receivers[17];
	uint64_t name = owner_object(t, a, 4096, 0, 0, NULL); /* multi-use: one per offer */

	for (int i = 0; i < 16; i++)
		check(t, !offer(t, a, name, (uint64_t)i + 1, &offers[i]));
	/* Positive control: a destroyed offer frees its place. */
	garnet_buffer_offer_v1_destroy(offers[0].proxy);
	check(t, !offer(t, a, name, 99, &offers[0]));
	offer_send(a, name, 100, &offers[16]);
	client_expect_protocol_error(a->g->c, &garnet_buffer_broker_v1_interface,
				     GARNET_BUFFER_BROKER_V1_ERROR_TOO_MANY);
	peer_destroy(a);

	b = peer_create(t);
	for (int i = 0; i < 16; i++)
		receive(t, b, &receivers[i]);
	garnet_buffer_receiver_v1_destroy(receivers[0].proxy);
	receive(t, b, &receivers[0]);
	garnet_buffer_broker_v1_receive(b->broker, 0, 1);
	client_expect_protocol_error(b->g->c, &garnet_buffer_broker_v1_interface,
				     GARNET_BUFFER_BROKER_V1_ERROR_TOO_MANY);
	peer_destroy(b);
	check_compositor_serves(t);
}
