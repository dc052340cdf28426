// SPDX-License-Identifier: MIT
/*
 * garnet's display, end to end: modes, patterns on screen (scanout memory through debugfs and,
 * on bochs-display, QEMU's own screendump), pixel formats, damage clips, the cursor plane,
 * page-flip timing, refused commits, dumb buffers and DRM master.
 */
#include <fcntl.h>
#include <linux/fb.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "garnet_test.h"
#include "kms_util.h"

#define CURSOR 64

static void test_modes_listed(void)
{
	struct kms k;
	int preferred = 0;

	kms_open(&k);
	kms_mode(&k, 1024, 768);
	kms_mode(&k, 1280, 720);
	kms_mode(&k, 1920, 1080);
	for (int i = 0; i < k.connector->count_modes; i++) {
		const drmModeModeInfo *m = &k.connector->modes[i];

		gt_assert(m->hdisplay <= 1920 && m->vdisplay <= 1200);
		gt_assert(!(m->flags & DRM_MODE_FLAG_INTERLACE));
		if (m->type & DRM_MODE_TYPE_PREFERRED) {
			preferred++;
			/* The module's default (mode=1280x800 unless the test run says otherwise). */
			gt_assert_eq(m->hdisplay, 1280);
			gt_assert_eq(m->vdisplay, 800);
		}
	}
	gt_assert(preferred >= 1);
	kms_close(&k);
}

static uint64_t cap(int fd, uint64_t which)
{
	uint64_t value = 0;

	gt_assert_ok(drmGetCap(fd, which, &value));
	return value;
}

/* What compositors and libdrm ask before they modeset. */
static void test_caps(void)
{
	struct kms k;

	kms_open(&k);
	gt_assert_eq(cap(k.fd, DRM_CAP_DUMB_BUFFER), 1);
	gt_assert_eq(cap(k.fd, DRM_CAP_CURSOR_WIDTH), 64);
	gt_assert_eq(cap(k.fd, DRM_CAP_CURSOR_HEIGHT), 64);
	gt_assert_eq(cap(k.fd, DRM_CAP_TIMESTAMP_MONOTONIC), 1);
	gt_assert_eq(cap(k.fd, DRM_CAP_CRTC_IN_VBLANK_EVENT), 1);
	gt_assert_eq(cap(k.fd, DRM_CAP_DUMB_PREFERRED_DEPTH), 24);
	kms_close(&k);
}

/* DRM_IOCTL_WAIT_VBLANK: consecutive vblanks one frame apart, at the mode's refresh. */
static void test_vblank_wait(void)
{
	const drmModeModeInfo *mode;
	struct kms_fb fb;
	struct kms k;
	drmVBlank vbl;
	unsigned int seq, first_seq;
	uint64_t first_us, last_us = 0;
	double frame_ms, period_ms;

	kms_open(&k);
	mode = kms_mode(&k, 1920, 1080);
	period_ms = (double)mode->htotal * mode->vtotal / mode->clock;
	kms_fb_create(&k, &fb, 1920, 1080, DRM_FORMAT_XRGB8888);
	kms_set_mode(&k, mode, &fb);
	memset(&vbl, 0, sizeof(vbl));
	vbl.request.type = DRM_VBLANK_RELATIVE;
	vbl.request.sequence = 1;
	gt_assert_ok(drmWaitVBlank(k.fd, &vbl));
	seq = first_seq = vbl.reply.sequence;
	first_us = vbl.reply.tval_sec * 1000000ull + vbl.reply.tval_usec;
	for (int i = 0; i < 30; i++) {
		memset(&vbl, 0, sizeof(vbl));
		vbl.request.type = DRM_VBLANK_ABSOLUTE;
		vbl.request.sequence = seq + 1;
		gt_assert_ok(drmWaitVBlank(k.fd, &vbl));
		/* A late wakeup may find a later vblank, never an earlier one. */
		gt_assert(vbl.reply.sequence >= seq + 1);
		seq = vbl.reply.sequence;
		last_us = vbl.reply.tval_sec * 1000000ull + vbl.reply.tval_usec;
	}
	frame_ms = (last_us - first_us) / 1000.0 / (seq - first_seq);
	gt_info("%u vblanks, %.4f ms apart (mode: %.4f ms)\n", seq - first_seq, frame_ms,
		period_ms);
	/* Timestamps are microseconds; over 30 frames that is well within 0.01 ms a frame. */
	gt_assert(fabs(frame_ms - period_ms) < 0.01);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

/* Which display garnet drives matches what is on the PCI bus. */
static void test_output_matches_hardware(void)
{
	struct kms k;
	bool bochs_present = false;
	FILE *f;

	f = popen("cat /sys/bus/pci/devices/*/vendor /sys/bus/pci/devices/*/device 2>/dev/null | "
		  "tr '\\n' ' '", "r");
	gt_assert(f);
	{
		char ids[4096] = "";

		gt_assert(fread(ids, 1, sizeof(ids) - 1, f) > 0);
		bochs_present = strstr(ids, "0x1234") && strstr(ids, "0x1111");
	}
	pclose(f);
	kms_open(&k);
	gt_info("output: %s\n", kms_is_bochs(&k) ? "bochs" : "virtual");
	gt_assert_eq(kms_is_bochs(&k), bochs_present);
	if (bochs_present) {
		char link[256] = "";
		ssize_t n = readlink("/sys/bus/pci/drivers/garnet/module", link, sizeof(link) - 1);

		gt_assert(n > 0);
		gt_assert(strstr(link, "garnet"));
	}
	kms_close(&k);
}

/* Each mode, a pattern, a commit, the event: the screen shows exactly the pattern. */
static void test_modeset_pattern(void)
{
	static const int sizes[][2] = { { 1024, 768 }, { 1280, 720 }, { 1920, 1080 },
					{ 1280, 800 } };
	struct kms k;

	kms_open(&k);
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		const drmModeModeInfo *mode = kms_mode(&k, sizes[i][0], sizes[i][1]);
		struct kms_screen screen;
		struct kms_fb fb;

		kms_fb_create(&k, &fb, mode->hdisplay, mode->vdisplay, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&fb, i + 1);
		kms_set_mode(&k, mode, &fb);
		kms_screen_init(&screen, mode->hdisplay, mode->vdisplay);
		kms_screen_draw(&screen, &fb, 0, 0, false);
		kms_check_screen(&k, &screen);
		gt_info("%s: screen matches\n", mode->name);
		kms_screen_free(&screen);
		kms_fb_destroy(&k, &fb);
	}
	kms_close(&k);
}

static void check_format(uint32_t format, unsigned int seed)
{
	const drmModeModeInfo *mode;
	struct kms_screen screen;
	struct kms_fb fb;
	struct kms k;

	kms_open(&k);
	mode = kms_mode(&k, 1024, 768);
	kms_fb_create(&k, &fb, 1024, 768, format);
	kms_fb_fill_pattern(&fb, seed);
	kms_set_mode(&k, mode, &fb);
	kms_screen_init(&screen, 1024, 768);
	kms_screen_draw(&screen, &fb, 0, 0, false);
	kms_check_screen(&k, &screen);
	kms_screen_free(&screen);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

static void test_format_rgb565(void)
{
	check_format(DRM_FORMAT_RGB565, 5);
}

static void test_format_argb8888(void)
{
	check_format(DRM_FORMAT_ARGB8888, 6);
}

static uint32_t damage_blob(struct kms *k, const struct drm_mode_rect *rects, int n)
{
	uint32_t blob;

	gt_assert_ok(drmModeCreatePropertyBlob(k->fd, rects, sizeof(*rects) * n, &blob));
	return blob;
}

/*
 * What the display copies of a commit that changed damage bytes of screen: all of it on
 * bochs-display (the screen is VRAM), nothing on the virtual output, which reads a
 * framebuffer where it is.
 */
static long long expected_copy(struct kms *k, long long damage)
{
	return kms_is_bochs(k) ? damage : 0;
}

/*
 * The whole framebuffer changes, but the commit names one rectangle as damaged: on
 * bochs-display only that rectangle changes on screen, which proves the copy is limited to
 * the damage. The virtual output reads the framebuffer in place: all of it shows, and
 * nothing is copied.
 */
static void test_damage_clip(void)
{
	const struct drm_mode_rect clip = { .x1 = 100, .y1 = 50, .x2 = 356, .y2 = 178 };
	struct kms_screen screen;
	drmModeAtomicReq *req;
	struct kms_fb fb, after;
	long long bytes, damage;
	uint32_t blob;
	struct kms k;
	bool bochs;

	kms_open(&k);
	kms_fb_create(&k, &fb, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_create(&k, &after, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_fill_pattern(&fb, 7);
	kms_fb_fill_pattern(&after, 8);
	kms_set_mode(&k, kms_mode(&k, 1024, 768), &fb);
	kms_screen_init(&screen, 1024, 768);
	kms_screen_draw(&screen, &fb, 0, 0, false);
	kms_check_screen(&k, &screen);

	memcpy(fb.map, after.map, fb.size);
	blob = damage_blob(&k, &clip, 1);
	bytes = kms_display_value(&k, "bytes_copied");
	damage = kms_display_value(&k, "damage_bytes");
	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.fb_id, fb.fb_id);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.damage_clips, blob);
	gt_assert_eq(kms_commit(&k, req, DRM_MODE_PAGE_FLIP_EVENT), 0);
	drmModeAtomicFree(req);
	gt_assert(kms_wait_event(&k, 2000, NULL, NULL));
	damage = kms_display_value(&k, "damage_bytes") - damage;
	gt_assert_eq(damage, (clip.x2 - clip.x1) * (clip.y2 - clip.y1) * 4);
	gt_assert_eq(kms_display_value(&k, "bytes_copied") - bytes, expected_copy(&k, damage));

	bochs = kms_is_bochs(&k);
	for (int y = 0; y < 768; y++)
		for (int x = 0; x < 1024; x++)
			if (!bochs || (x >= clip.x1 && x < clip.x2 && y >= clip.y1 &&
						  y < clip.y2))
				screen.pixels[y * 1024 + x] = kms_pattern(x, y, 8);
	kms_check_screen(&k, &screen);

	drmModeDestroyPropertyBlob(k.fd, blob);
	kms_screen_free(&screen);
	kms_fb_destroy(&k, &after);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

/*
 * A framebuffer larger than the mode, shown from an offset (panning); damage clips are in
 * framebuffer coordinates and land on screen shifted by that offset (on the virtual output,
 * which reads the framebuffer in place, the whole redraw shows).
 */
static void test_pan_and_damage(void)
{
	enum { FW = 1200, FH = 900, SX = 50, SY = 40, W = 1024, H = 768 };
	const struct drm_mode_rect clip = { .x1 = 100, .y1 = 100, .x2 = 300, .y2 = 150 };
	struct kms_screen screen;
	drmModeAtomicReq *req;
	struct kms_fb fb;
	uint32_t blob;
	struct kms k;
	bool bochs;

	kms_open(&k);
	kms_fb_create(&k, &fb, FW, FH, DRM_FORMAT_XRGB8888);
	kms_fb_fill_pattern(&fb, 70);
	kms_set_mode(&k, kms_mode(&k, W, H), &fb);	/* at 0,0 first: the mode needs a plane */

	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.src_x, (uint64_t)SX << 16);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.src_y, (uint64_t)SY << 16);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.src_w, (uint64_t)W << 16);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.src_h, (uint64_t)H << 16);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.crtc_w, W);
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.crtc_h, H);
	gt_assert_eq(kms_commit(&k, req, DRM_MODE_PAGE_FLIP_EVENT), 0);
	drmModeAtomicFree(req);
	gt_assert(kms_wait_event(&k, 2000, NULL, NULL));

	kms_screen_init(&screen, W, H);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			screen.pixels[y * W + x] = kms_pattern(x + SX, y + SY, 70);
	kms_check_screen(&k, &screen);

	/* Redraw the whole fb, but declare only the clip damaged. */
	for (int y = 0; y < FH; y++)
		for (int x = 0; x < FW; x++)
			((uint32_t *)((uint8_t *)fb.map + y * fb.pitch))[x] = kms_pattern(x, y, 71);
	gt_assert_ok(drmModeCreatePropertyBlob(k.fd, &clip, sizeof(clip), &blob));
	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, k.primary_id, k.primary.damage_clips, blob);
	gt_assert_eq(kms_commit(&k, req, DRM_MODE_PAGE_FLIP_EVENT), 0);
	drmModeAtomicFree(req);
	gt_assert(kms_wait_event(&k, 2000, NULL, NULL));
	bochs = kms_is_bochs(&k);
	for (int y = SY; y < SY + H; y++)
		for (int x = SX; x < SX + W; x++)
			if (!bochs || (x >= clip.x1 && x < clip.x2 && y >= clip.y1 &&
						  y < clip.y2))
				screen.pixels[(y - SY) * W + (x - SX)] = kms_pattern(x, y, 71);
	kms_check_screen(&k, &screen);

	drmModeDestroyPropertyBlob(k.fd, blob);
	kms_screen_free(&screen);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

/* Shows fb on the primary plane and waits for the flip; the display's counters move by
 * the bytes it copied and the commits it showed in place. */
static void show_primary(struct kms *k, struct kms_fb *fb, long long *copied,
			 long long *in_place)
{
	long long bytes = kms_display_value(k, "bytes_copied");
	long long shown = kms_display_value(k, "in_place_commits");
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	kms_req_plane(k, req, k->primary_id, &k->primary, fb, 0, 0);
	gt_assert_eq(kms_commit(k, req, DRM_MODE_PAGE_FLIP_EVENT), 0);
	drmModeAtomicFree(req);
	gt_assert(kms_wait_event(k, 2000, NULL, NULL));
	*copied = kms_display_value(k, "bytes_copied") - bytes;
	*in_place = kms_display_value(k, "in_place_commits") - shown;
}

static void expect_fb_on_screen(struct kms *k, const struct kms_fb *fb)
{
	struct kms_screen screen;

	kms_screen_init(&screen, fb->width, fb->height);
	kms_screen_draw(&screen, fb, 0, 0, false);
	kms_check_screen(k, &screen);
	kms_screen_free(&screen);
}

/*
 * The virtual output shows an XRGB8888 framebuffer in place, as a display engine scans out
 * of memory: a flip copies nothing, and what is drawn into the framebuffer on screen shows
 * without a commit. One it cannot show as it is (RGB565) is copied, the whole screen first
 * (the scanout memory was stale), and the next XRGB8888 one is in place again.
 * bochs-display copies every flip, and shows nothing drawn without a commit.
 */
static void test_in_place(void)
{
	enum { W = 1024, H = 768 };
	struct kms_fb xrgb[2], rgb565;
	long long copied, in_place;
	struct kms k;
	bool bochs;

	kms_open(&k);
	bochs = kms_is_bochs(&k);
	for (int i = 0; i < 2; i++) {
		kms_fb_create(&k, &xrgb[i], W, H, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&xrgb[i], 30 + i);
	}
	kms_fb_create(&k, &rgb565, W, H, DRM_FORMAT_RGB565);
	kms_fb_fill_pattern(&rgb565, 32);
	kms_set_mode(&k, kms_mode(&k, W, H), &xrgb[0]);

	for (int i = 1; i <= 4; i++) {
		show_primary(&k, &xrgb[i % 2], &copied, &in_place);
		gt_info("flip %d: %lld bytes copied, %lld in place\n", i, copied, in_place);
		gt_assert_eq(copied, bochs ? W * H * 4 : 0);
		gt_assert_eq(in_place, bochs ? 0 : 1);
		expect_fb_on_screen(&k, &xrgb[i % 2]);
	}

	/* Drawn into the framebuffer on screen (xrgb[0]), no commit. */
	kms_fb_fill_pattern(&xrgb[0], 33);
	if (bochs)
		kms_fb_fill_pattern(&xrgb[1], 30);	/* what bochs still shows */
	expect_fb_on_screen(&k, bochs ? &xrgb[1] : &xrgb[0]);

	show_primary(&k, &rgb565, &copied, &in_place);
	gt_assert_eq(copied, W * H * 4);
	gt_assert_eq(in_place, 0);
	expect_fb_on_screen(&k, &rgb565);

	show_primary(&k, &xrgb[0], &copied, &in_place);
	gt_assert_eq(copied, bochs ? W * H * 4 : 0);
	gt_assert_eq(in_place, bochs ? 0 : 1);
	expect_fb_on_screen(&k, &xrgb[0]);

	for (int i = 0; i < 2; i++)
		kms_fb_destroy(&k, &xrgb[i]);
	kms_fb_destroy(&k, &rgb565);
	kms_close(&k);
}

/*
 * One whole read of the screen in a process of its own, while the planes change: each pixel is
 * one of two patterns or black (the plane off); the read may end early when the mode goes.
 * Returns the number of pixels that are none of these, or -1 when the read failed.
 */
static long read_screen_checked(struct kms *k, int width, unsigned int seed_a,
				unsigned int seed_b, uint32_t *buf, size_t size)
{
	size_t done = 0;
	long bad = 0;
	int fd = kms_open_scanout(k);

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = read(fd, (char *)buf + done, size - done);

		if (n < 0) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		done += n;
	}
	close(fd);
	for (size_t i = 0; i < done / 4; i++) {
		int x = i % width, y = i / width;
		uint32_t p = buf[i] & 0xffffff;

		if (p && p != kms_pattern(x, y, seed_a) && p != kms_pattern(x, y, seed_b))
			bad++;
	}
	return bad;
}

/* A process reading the screen whole reads times; it exits 0 when every read was right. */
static pid_t start_reader(struct kms *k, int width, int height, int reads)
{
	pid_t reader = fork();

	gt_assert(reader >= 0);
	if (reader == 0) {
		uint32_t *buf = malloc((size_t)width * height * 4);
		long bad = 0;

		for (int i = 0; buf && i < reads && bad == 0; i++)
			bad = read_screen_checked(k, width, 40, 41, buf, (size_t)width * height * 4);
		_exit(!buf || bad != 0 ? 1 : 0);
	}
	return reader;
}

/*
 * Reading the screen races the planes changing: one process reads it whole, again and again,
 * while this one flips between two framebuffers and then removes the one on screen (RMFB
 * turns the plane off). Every read succeeds and shows only those framebuffers' pixels (or
 * black once off), and the screen is black after; the kernel warns about nothing (a WARN fails
 * the boot).
 */
static void test_read_races_flips(void)
{
	enum { W = 1024, H = 768, READS = 40, MAX_FLIPS = 2000 };
	struct kms_fb fb[2];
	struct kms k;
	int status, flips = 0;
	pid_t reader;

	kms_open(&k);
	for (int i = 0; i < 2; i++) {
		kms_fb_create(&k, &fb[i], W, H, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&fb[i], 40 + i);
	}
	kms_set_mode(&k, kms_mode(&k, W, H), &fb[0]);

	reader = start_reader(&k, W, H, READS);
	while (waitpid(reader, &status, WNOHANG) == 0 && flips < MAX_FLIPS) {
		flips++;
		gt_assert_ok(drmModePageFlip(k.fd, k.crtc_id, fb[flips % 2].fb_id,
					     DRM_MODE_PAGE_FLIP_EVENT, &k));
		gt_assert(kms_wait_event(&k, 2000, NULL, NULL));
	}
	if (flips == MAX_FLIPS)
		gt_assert_eq(waitpid(reader, &status, 0), reader);
	gt_info("%d flips while the screen was read %d times\n", flips, READS);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);

	/* The framebuffer on screen goes: the screen reads as nothing, and reading is fine. */
	reader = start_reader(&k, W, H, READS);
	gt_assert_ok(drmModeRmFB(k.fd, fb[flips % 2].fb_id));
	gt_assert_eq(waitpid(reader, &status, 0), reader);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	{
		int w, h;
		uint32_t *pixels = kms_read_scanout(&k, &w, &h);

		gt_info("after RMFB: %dx%d on screen\n", w, h);
		for (size_t i = 0; i < (size_t)w * h; i++)
			if (pixels[i] & 0xffffff)
				gt_fail(__FILE__, __LINE__, "pixel %zu still shows 0x%06x", i,
					pixels[i] & 0xffffff);
		free(pixels);
	}

	kms_fb_destroy(&k, &fb[(flips + 1) % 2]);
	/* The removed one's memory. */
	munmap(fb[flips % 2].map, fb[flips % 2].size);
	gt_assert_ok(gt_ioctl(k.fd, DRM_IOCTL_MODE_DESTROY_DUMB,
			      &(struct drm_mode_destroy_dumb){ .handle = fb[flips % 2].handle }));
	kms_close(&k);
}

static void make_cursor(struct kms *k, struct kms_fb *fb, int size)
{
	kms_fb_create(k, fb, size, size, DRM_FORMAT_ARGB8888);
	/* An opaque square inside a transparent frame: both must come out right. */
	for (int y = 0; y < size; y++)
		for (int x = 0; x < size; x++)
			((uint32_t *)((uint8_t *)fb->map + y * fb->pitch))[x] =
				x >= 8 && x < size - 8 && y >= 8 && y < size - 8 ?
				0xff000000u | kms_pattern(x, y, 99) : 0;
}

static void commit_cursor(struct kms *k, struct kms_fb *cursor, int x, int y)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	kms_req_plane(k, req, k->cursor_id, &k->cursor, cursor, x, y);
	gt_assert_eq(kms_commit(k, req, DRM_MODE_PAGE_FLIP_EVENT), 0);
	drmModeAtomicFree(req);
	gt_assert(kms_wait_event(k, 2000, NULL, NULL));
}

static void expect_cursor_at(struct kms *k, const struct kms_fb *primary,
			     const struct kms_fb *cursor, int x, int y)
{
	struct kms_screen screen;

	kms_screen_init(&screen, primary->width, primary->height);
	kms_screen_draw(&screen, primary, 0, 0, false);
	if (cursor)
		kms_screen_draw(&screen, cursor, x, y, true);
	kms_check_screen(k, &screen);
	kms_screen_free(&screen);
}

/* Moving the cursor recomposes its old and new rectangles only: no full-screen copy. */
static void test_cursor_move(void)
{
	static const int positions[][2] = { { 100, 100 }, { 500, 300 }, { 990, 740 },
					    { -20, -30 } };
	struct kms_fb fb, cursor;
	struct kms k;

	kms_open(&k);
	kms_fb_create(&k, &fb, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_fill_pattern(&fb, 10);
	make_cursor(&k, &cursor, CURSOR);
	kms_set_mode(&k, kms_mode(&k, 1024, 768), &fb);

	for (unsigned int i = 0; i < sizeof(positions) / sizeof(positions[0]); i++) {
		long long before = kms_display_value(&k, "bytes_copied");
		long long damage = kms_display_value(&k, "damage_bytes");
		long long full = kms_display_value(&k, "full_repaints");
		long long copied;

		commit_cursor(&k, &cursor, positions[i][0], positions[i][1]);
		copied = kms_display_value(&k, "bytes_copied") - before;
		damage = kms_display_value(&k, "damage_bytes") - damage;
		gt_info("cursor to (%d, %d): %lld bytes changed, %lld copied\n", positions[i][0],
			positions[i][1], damage, copied);
		gt_assert(damage > 0 && damage <= 2 * CURSOR * CURSOR * 4);
		gt_assert_eq(copied, expected_copy(&k, damage));
		gt_assert_eq(kms_display_value(&k, "full_repaints"), full);
		expect_cursor_at(&k, &fb, &cursor, positions[i][0], positions[i][1]);
	}

	/* The legacy cursor ioctls go through the same plane. */
	gt_assert_ok(drmModeMoveCursor(k.fd, k.crtc_id, 300, 200));
	usleep(100000);
	expect_cursor_at(&k, &fb, &cursor, 300, 200);

	commit_cursor(&k, NULL, 0, 0);
	expect_cursor_at(&k, &fb, NULL, 0, 0);
	kms_fb_destroy(&k, &cursor);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static double median(double *v, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			double t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}

/*
 * 300 page flips at 60 Hz, each waiting for the previous event: every event arrives, the
 * sequence grows by exactly one per flip and the timestamps are one frame apart.
 */
static void test_flip_300(void)
{
	enum { FLIPS = 300 };
	static double delta_ms[FLIPS];
	unsigned int seq[FLIPS + 1];
	uint64_t ts[FLIPS + 1];
	const drmModeModeInfo *mode;
	double period_ms, worst = 0, sum = 0, sum2 = 0, jitter;
	struct kms_fb fb[2];
	int skipped = 0;
	double wake_ms = 0;
	struct kms k;

	kms_open(&k);
	mode = kms_mode(&k, 1024, 768);
	gt_assert_eq(mode->vrefresh, 60);
	period_ms = (double)mode->htotal * mode->vtotal / mode->clock;
	for (int i = 0; i < 2; i++) {
		kms_fb_create(&k, &fb[i], 1024, 768, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&fb[i], 20 + i);
	}
	kms_set_mode(&k, mode, &fb[0]);

	gt_assert_ok(drmModePageFlip(k.fd, k.crtc_id, fb[1].fb_id, DRM_MODE_PAGE_FLIP_EVENT, &k));
	gt_assert(kms_wait_event(&k, 1000, &seq[0], &ts[0]));
	for (int i = 1; i <= FLIPS; i++) {
		int ret = drmModePageFlip(k.fd, k.crtc_id, fb[(i + 1) % 2].fb_id,
					  DRM_MODE_PAGE_FLIP_EVENT, &k);

		if (ret)
			gt_fail(__FILE__, __LINE__, "flip %d: %s", i, strerror(errno));
		if (!kms_wait_event(&k, 1000, &seq[i], &ts[i]))
			gt_fail(__FILE__, __LINE__, "no event for flip %d", i);
		wake_ms += (monotonic_ns() - ts[i]) / 1e6;
		if (seq[i] <= seq[i - 1])
			gt_fail(__FILE__, __LINE__, "flip %d: sequence %u after %u", i, seq[i],
				seq[i - 1]);
		skipped += seq[i] - seq[i - 1] - 1;
		delta_ms[i - 1] = (ts[i] - ts[i - 1]) / 1e6 / (seq[i] - seq[i - 1]);
		/* Timestamps are vblank times, a whole number of frames apart. */
		if (delta_ms[i - 1] < period_ms - 1.0 || delta_ms[i - 1] > period_ms + 1.0)
			gt_fail(__FILE__, __LINE__, "flip %d: %.3f ms per frame, expected %.3f", i,
				delta_ms[i - 1], period_ms);
		sum += delta_ms[i - 1];
		sum2 += delta_ms[i - 1] * delta_ms[i - 1];
		if (fabs(delta_ms[i - 1] - period_ms) > worst)
			worst = fabs(delta_ms[i - 1] - period_ms);
	}
	jitter = sqrt(sum2 / FLIPS - (sum / FLIPS) * (sum / FLIPS));
	gt_info("300 flips: frame %.3f ms (median %.3f, mode %.3f), jitter %.3f ms (stddev), "
		"worst %.3f ms, %d frames missed, %.2f s in all, event read %.2f ms after "
		"its vblank on average\n", sum / FLIPS, median(delta_ms, FLIPS), period_ms,
		jitter, worst, skipped, (ts[FLIPS] - ts[0]) / 1e9, wake_ms / FLIPS);
	/*
	 * Each flip is issued only after the previous event arrived, so a flip lands on the next
	 * vblank only if the event's wakeup, the ioctl and the copy fit in one frame. Under QEMU's
	 * TCG that holds for 98-100 % of the flips on an idle machine, but with other VMs on the
	 * same cores it failed for most of them; the sequence then correctly skips frames. What
	 * must hold regardless is asserted above (every event, increasing sequence, timestamps a
	 * whole number of frames apart); here only a gross error fails: flips landing on average
	 * more than four frames after the previous one, on a kernel that runs at Debian's speed.
	 * A debug kernel (KASAN, lockdep) takes that many times longer per flip, which garnet-vm
	 * passes on as GARNET_VM_TIMEOUT_SCALE: it missed 7 frames a flip on a loaded machine.
	 */
	gt_assert(skipped <= 3 * FLIPS * gt_vm_slowdown());

	for (int i = 0; i < 2; i++)
		kms_fb_destroy(&k, &fb[i]);
	kms_close(&k);
}

/* The scanout as it is now, to prove a refused commit changed nothing. */
struct snapshot {
	uint32_t *pixels;
	int width, height;
	long long bytes, modesets;
};

static void snap(struct kms *k, struct snapshot *s)
{
	s->pixels = kms_read_scanout(k, &s->width, &s->height);
	s->bytes = kms_display_value(k, "bytes_copied");
	s->modesets = kms_display_value(k, "modesets");
}

static void expect_unchanged(struct kms *k, struct snapshot *s)
{
	struct snapshot now;

	snap(k, &now);
	gt_assert_eq(now.bytes, s->bytes);
	gt_assert_eq(now.modesets, s->modesets);
	gt_assert_eq(now.width, s->width);
	gt_assert_eq(now.height, s->height);
	gt_assert(memcmp(now.pixels, s->pixels, (size_t)now.width * now.height * 4) == 0);
	free(now.pixels);
}

static int commit_plane(struct kms *k, uint32_t plane, const struct kms_plane_props *props,
			const struct kms_fb *fb, int x, int y, int w, int h, uint32_t flags)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	int ret;

	kms_req_plane(k, req, plane, props, fb, x, y);
	drmModeAtomicAddProperty(req, plane, props->crtc_w, w);
	drmModeAtomicAddProperty(req, plane, props->crtc_h, h);
	drmModeAtomicAddProperty(req, plane, props->src_w, (uint64_t)w << 16);
	drmModeAtomicAddProperty(req, plane, props->src_h, (uint64_t)h << 16);
	ret = kms_commit(k, req, flags);
	drmModeAtomicFree(req);
	return ret;
}

static void test_bad_input(void)
{
	const drmModeModeInfo *mode;
	struct kms_fb fb, small, big_cursor, cursor, xrgb_cursor;
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 }, id;
	struct snapshot s;
	struct kms k;

	kms_open(&k);
	mode = kms_mode(&k, 1024, 768);
	kms_fb_create(&k, &fb, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_fill_pattern(&fb, 30);
	kms_fb_create(&k, &small, 800, 600, DRM_FORMAT_XRGB8888);
	kms_fb_create(&k, &big_cursor, 128, 128, DRM_FORMAT_ARGB8888);
	kms_fb_create(&k, &xrgb_cursor, 64, 64, DRM_FORMAT_XRGB8888);
	make_cursor(&k, &cursor, CURSOR);
	kms_set_mode(&k, mode, &fb);
	snap(&k, &s);

	/* A framebuffer smaller than the mode cannot cover the CRTC. */
	gt_assert_eq(commit_plane(&k, k.primary_id, &k.primary, &small, 0, 0, 800, 600,
				  DRM_MODE_PAGE_FLIP_EVENT), -EINVAL);
	/* Nor can a framebuffer be stretched: there is no scaler. */
	{
		drmModeAtomicReq *req = drmModeAtomicAlloc();

		kms_req_plane(&k, req, k.primary_id, &k.primary, &small, 0, 0);
		drmModeAtomicAddProperty(req, k.primary_id, k.primary.crtc_w, 1024);
		drmModeAtomicAddProperty(req, k.primary_id, k.primary.crtc_h, 768);
		gt_assert_eq(kms_commit(&k, req, 0), -EINVAL);
		drmModeAtomicFree(req);
	}
	/* Formats: unknown fourcc, a real format no plane supports, a primary-only format. */
	handles[0] = fb.handle;
	pitches[0] = fb.pitch;
	gt_assert_eq(drmModeAddFB2(k.fd, 64, 64, fourcc_code('G', 'A', 'R', 'N'), handles,
				   pitches, offsets, &id, 0), -EINVAL);
	/* The core makes framebuffers of any real format; the plane refuses it. */
	{
		struct kms_fb odd = fb;

		gt_assert_eq(drmModeAddFB2(k.fd, 1024, 768, DRM_FORMAT_XBGR2101010, handles,
					   pitches, offsets, &odd.fb_id, 0), 0);
		gt_assert_eq(commit_plane(&k, k.primary_id, &k.primary, &odd, 0, 0, 1024, 768,
					  0), -EINVAL);
		gt_assert_ok(drmModeRmFB(k.fd, odd.fb_id));
	}
	gt_assert_eq(commit_plane(&k, k.cursor_id, &k.cursor, &xrgb_cursor, 10, 10, 64, 64, 0),
		     -EINVAL);
	/* A cursor larger than 64x64, whether the framebuffer or the rectangle. */
	gt_assert_eq(commit_plane(&k, k.cursor_id, &k.cursor, &big_cursor, 10, 10, 128, 128, 0),
		     -EINVAL);
	gt_assert_eq(commit_plane(&k, k.cursor_id, &k.cursor, &big_cursor, 10, 10, 64, 64, 0),
		     -EINVAL);
	gt_assert_eq(drmModeSetCursor(k.fd, k.crtc_id, big_cursor.handle, 128, 128), -EINVAL);
	/* A mode no connector offers: 4000 pixels wide. */
	{
		drmModeModeInfo huge = *mode;
		drmModeAtomicReq *req = drmModeAtomicAlloc();
		uint32_t blob;

		huge.hdisplay = 4000;
		huge.hsync_start = 4010;
		huge.hsync_end = 4020;
		huge.htotal = 4100;
		gt_assert_ok(drmModeCreatePropertyBlob(k.fd, &huge, sizeof(huge), &blob));
		drmModeAtomicAddProperty(req, k.crtc_id, k.crtc_mode_id, blob);
		gt_assert_eq(kms_commit(&k, req, DRM_MODE_ATOMIC_ALLOW_MODESET), -EINVAL);
		drmModeAtomicFree(req);
		drmModeDestroyPropertyBlob(k.fd, blob);
	}
	expect_unchanged(&k, &s);
	free(s.pixels);

	/* Flips on a disabled CRTC. */
	kms_disable(&k);
	snap(&k, &s);
	gt_assert_eq(commit_plane(&k, k.primary_id, &k.primary, &fb, 0, 0, 1024, 768,
				  DRM_MODE_PAGE_FLIP_EVENT), -EINVAL);
	/* The legacy ioctl is refused by the core before the driver: no fb on the CRTC. */
	gt_assert_eq(drmModePageFlip(k.fd, k.crtc_id, fb.fb_id, DRM_MODE_PAGE_FLIP_EVENT, &k),
		     -EBUSY);
	expect_unchanged(&k, &s);
	free(s.pixels);

	kms_fb_destroy(&k, &cursor);
	kms_fb_destroy(&k, &xrgb_cursor);
	kms_fb_destroy(&k, &big_cursor);
	kms_fb_destroy(&k, &small);
	kms_fb_destroy(&k, &fb);
	kms_close(&k);
}

static void test_dumb_buffers(void)
{
	struct drm_mode_create_dumb create = { .width = 1920, .height = 1080, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	struct drm_mode_destroy_dumb destroy = { 0 };
	struct kms k;
	uint32_t *p;

	kms_open(&k);
	gt_assert_ok(gt_ioctl(k.fd, DRM_IOCTL_MODE_CREATE_DUMB, &create));
	gt_assert(create.pitch >= 1920 * 4);
	gt_assert(create.size >= (uint64_t)create.pitch * 1080);
	map.handle = create.handle;
	gt_assert_ok(gt_ioctl(k.fd, DRM_IOCTL_MODE_MAP_DUMB, &map));
	p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, k.fd, map.offset);
	gt_assert(p != MAP_FAILED);
	gt_assert_eq(p[12345], 0);	/* fresh memory is zero */
	p[12345] = 0xdeadbeef;
	munmap(p, create.size);
	destroy.handle = create.handle;
	gt_assert_ok(gt_ioctl(k.fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy));
	/* The core's answer for a handle that names nothing. */
	gt_assert_errno(gt_ioctl(k.fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy), EINVAL);
	gt_assert_errno(gt_ioctl(k.fd, DRM_IOCTL_MODE_MAP_DUMB, &map), ENOENT);

	/* Zero sizes are refused. */
	create = (struct drm_mode_create_dumb){ .width = 0, .height = 10, .bpp = 32 };
	gt_assert_errno(gt_ioctl(k.fd, DRM_IOCTL_MODE_CREATE_DUMB, &create), EINVAL);
	create = (struct drm_mode_create_dumb){ .width = 10, .height = 10, .bpp = 0 };
	gt_assert_errno(gt_ioctl(k.fd, DRM_IOCTL_MODE_CREATE_DUMB, &create), EINVAL);
	kms_close(&k);
}

/* Only the DRM master modesets; another client of the same node is refused until it is master. */
static void test_master_only(void)
{
	struct kms master, other;
	struct kms_fb fb, fb2;
	const drmModeModeInfo *mode;

	kms_open(&master);
	kms_open(&other);
	gt_assert(drmIsMaster(master.fd));
	gt_assert(!drmIsMaster(other.fd));
	mode = kms_mode(&master, 1024, 768);
	kms_fb_create(&master, &fb, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_create(&other, &fb2, 1024, 768, DRM_FORMAT_XRGB8888);
	kms_fb_fill_pattern(&fb, 40);
	kms_set_mode(&master, mode, &fb);

	gt_assert_eq(drmModeSetCrtc(other.fd, other.crtc_id, fb2.fb_id, 0, 0,
				    &other.connector_id, 1, (drmModeModeInfo *)mode), -EACCES);
	gt_assert_eq(drmModePageFlip(other.fd, other.crtc_id, fb2.fb_id, 0, NULL), -EACCES);
	gt_assert_eq(commit_plane(&other, other.primary_id, &other.primary, &fb2, 0, 0, 1024, 768,
				  0), -EACCES);
	gt_assert_eq(drmModeSetCursor(other.fd, other.crtc_id, 0, 0, 0), -EACCES);

	/* Handing master over (as a seat manager does on VT switch) moves the right with it. */
	gt_assert_ok(drmDropMaster(master.fd));
	gt_assert_ok(drmSetMaster(other.fd));
	gt_assert_eq(commit_plane(&other, other.primary_id, &other.primary, &fb2, 0, 0, 1024, 768,
				  0), 0);
	gt_assert_eq(commit_plane(&master, master.primary_id, &master.primary, &fb, 0, 0, 1024,
				  768, 0), -EACCES);

	kms_fb_destroy(&other, &fb2);
	kms_fb_destroy(&master, &fb);
	kms_close(&other);
	kms_close(&master);
}

static char *read_text(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return buf;
}

static bool fbcon_bound(void)
{
	char path[64];

	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "/sys/class/vtconsole/vtcon%d/name", i);
		if (!strstr(read_text(path), "frame buffer"))
			continue;
		snprintf(path, sizeof(path), "/sys/class/vtconsole/vtcon%d/bind", i);
		return strcmp(read_text(path), "1\n") == 0;
	}
	return false;
}

/*
 * The scanout's top rows, without the band [skip_from, skip_to) where the console's cursor
 * blinks; false if the screen is not width x height.
 */
enum { SKIP_FROM = 48, SKIP_TO = 96 };

static bool read_rows(struct kms *k, int width, int height, int rows, uint32_t *out)
{
	int w, h;
	uint32_t *px = kms_read_scanout(k, &w, &h);
	bool ok = w == width && h == height;

	if (ok)
		for (size_t i = 0; i < (size_t)w * rows; i++)
			out[i] = i / w >= SKIP_FROM && i / w < SKIP_TO ? 0 : px[i] & 0xffffff;
	free(px);
	return ok;
}

/* Waits until the top rows of a width x height screen are exactly want. */
static bool wait_for_rows(struct kms *k, int width, int height, int rows, const uint32_t *want)
{
	uint32_t *now = malloc((size_t)width * rows * 4);
	bool same = false;

	gt_assert(now);
	for (int tries = 0; tries < 50 && !same; tries++) {
		same = read_rows(k, width, height, rows, now) &&
		       memcmp(now, want, (size_t)width * rows * 4) == 0;
		if (!same)
			usleep(100000);
	}
	free(now);
	return same;
}

/*
 * The VT text console runs on garnet's fbdev emulation: text written to tty1 and pixels drawn
 * into a mapping of /dev/fb0 reach the screen, and come back when a modesetting client (a
 * compositor) exits.
 */
static void test_fbdev_console(void)
{
	/* Three lines of text on coloured backgrounds; the blinking cursor goes below them. */
	static const char text[] = "\033[2J\033[H\033[41;37m garnet console \033[0m\r\n"
				   "\033[42;30m  green line  \033[0m\r\n"
				   "\033[44;33m  blue line with yellow text  \033[0m\r\n\r\n";
	enum { ROWS = 160 };	/* three 16-pixel text lines, the cursor's band, mapped pixels */
	struct fb_fix_screeninfo fix;
	uint8_t *map;
	struct fb_var_screeninfo var;
	uint32_t *console;
	long long before;
	struct kms_fb fb;
	struct kms k;
	int fd, tty, colours = 0;

	gt_assert(strcmp(read_text("/sys/class/graphics/fb0/name"), "garnetdrmfb\n") == 0);
	gt_assert(fbcon_bound());
	fd = open("/dev/fb0", O_RDWR);
	gt_assert(fd >= 0);
	gt_assert_ok(ioctl(fd, FBIOGET_VSCREENINFO, &var));
	gt_assert_ok(ioctl(fd, FBIOGET_FSCREENINFO, &fix));
	gt_info("fb0: %ux%u, %u bpp\n", var.xres, var.yres, var.bits_per_pixel);

	/*
	 * Only debugfs is used from here: the console comes back when the last file of the
	 * device closes, so this test keeps none open.
	 */
	kms_open(&k);
	close(k.fd);

	before = kms_display_value(&k, "damage_bytes");
	tty = open("/dev/tty1", O_WRONLY | O_NOCTTY);
	gt_assert(tty >= 0);
	gt_assert(write(tty, text, sizeof(text) - 1) == sizeof(text) - 1);
	close(tty);
	usleep(500000);
	gt_assert(kms_display_value(&k, "damage_bytes") > before);

	console = malloc((size_t)var.xres * ROWS * 4);
	gt_assert(console);
	gt_assert(read_rows(&k, var.xres, var.yres, SKIP_FROM, console));
	for (size_t i = 1; i < (size_t)var.xres * SKIP_FROM; i++)
		if (console[i] != console[i - 1])
			colours++;
	gt_info("console text: %d colour changes in the top %d rows\n", colours, SKIP_FROM);
	gt_assert(colours > 100);
	/* The first cell has the red background. */
	gt_assert((console[0] >> 16) > 0x80 && (console[0] & 0xffff) < 0x4000);
	/* And QEMU's display shows the same text. */
	{
		int w, h;
		uint8_t *rgb = kms_screendump(&k, &w, &h);

		if (rgb) {
			gt_assert_eq(w, var.xres);
			gt_assert_eq(h, var.yres);
			for (size_t i = 0; i < (size_t)w * SKIP_FROM; i++)
				if ((uint32_t)(rgb[i * 3] << 16 | rgb[i * 3 + 1] << 8 |
					       rgb[i * 3 + 2]) != console[i])
					gt_fail(__FILE__, __LINE__, "screendump differs at (%zu, %zu)",
						i % w, i / w);
			free(rgb);
		}
	}

	/* Pixels drawn through a mapping of /dev/fb0 (write(2) is not used: see doc/kms.md). */
	map = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	gt_assert(map != MAP_FAILED);
	for (unsigned int y = SKIP_TO; y < ROWS; y++)
		for (unsigned int x = 0; x < var.xres; x++)
			((uint32_t *)(map + (size_t)(y + var.yoffset) * fix.line_length))[x] =
				kms_pattern(x, y, 52);
	gt_assert_ok(msync(map, fix.smem_len, MS_SYNC));
	munmap(map, fix.smem_len);
	close(fd);
	for (unsigned int y = SKIP_TO; y < ROWS; y++)
		for (unsigned int x = 0; x < var.xres; x++)
			console[(size_t)y * var.xres + x] = kms_pattern(x, y, 52);
	if (!wait_for_rows(&k, var.xres, var.yres, ROWS, console))
		gt_fail(__FILE__, __LINE__, "what was drawn into /dev/fb0 is not on screen");

	/* A compositor takes over, shows its own picture and exits... */
	{
		struct kms master;
		uint32_t *mine = malloc(1024 * ROWS * 4);

		gt_assert(mine);
		kms_open(&master);
		kms_fb_create(&master, &fb, 1024, 768, DRM_FORMAT_XRGB8888);
		kms_fb_fill_pattern(&fb, 51);
		kms_set_mode(&master, kms_mode(&master, 1024, 768), &fb);
		for (int y = 0; y < ROWS; y++)
			for (int x = 0; x < 1024; x++)
				mine[y * 1024 + x] = y >= SKIP_FROM && y < SKIP_TO ? 0 :
						     kms_pattern(x, y, 51);
		gt_assert(wait_for_rows(&k, 1024, 768, ROWS, mine));
		free(mine);
		kms_fb_destroy(&master, &fb);
		kms_close(&master);
	}
	/* ... and the console is back, showing what it showed before. */
	if (!wait_for_rows(&k, var.xres, var.yres, ROWS, console))
		gt_fail(__FILE__, __LINE__, "the console did not come back after the master exited");
	free(console);
	drmModeFreeConnector(k.connector);
}

GT_MAIN(
	GT_SUBTEST(test_output_matches_hardware, "output-matches-hardware"),
	GT_SUBTEST(test_modes_listed, "modes-listed"),
	GT_SUBTEST(test_caps, "caps"),
	GT_SUBTEST(test_vblank_wait, "vblank-wait"),
	GT_SUBTEST(test_dumb_buffers, "dumb-buffers"),
	GT_SUBTEST(test_modeset_pattern, "modeset-pattern"),
	GT_SUBTEST(test_format_rgb565, "format-rgb565"),
	GT_SUBTEST(test_format_argb8888, "format-argb8888"),
	GT_SUBTEST(test_damage_clip, "damage-clip"),
	GT_SUBTEST(test_pan_and_damage, "pan-and-damage"),
	GT_SUBTEST(test_cursor_move, "cursor-move"),
	GT_SUBTEST(test_in_place, "in-place"),
	GT_SUBTEST(test_read_races_flips, "read-races-flips"),
	GT_SUBTEST(test_flip_300, "flip-300"),
	GT_SUBTEST(test_bad_input, "bad-input"),
	GT_SUBTEST(test_master_only, "master-only"),
	GT_SUBTEST(test_fbdev_console, "fbdev-console"),
)
