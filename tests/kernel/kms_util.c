// SPDX-License-Identifier: MIT
/* Display test helpers: see kms_util.h. */
#include "kms_util.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

#include "garnet_test.h"

static uint32_t prop_id(struct kms *k, uint32_t object, uint32_t type, const char *name)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(k->fd, object, type);
	uint32_t id = 0;

	gt_assert(props);
	for (uint32_t i = 0; i < props->count_props && !id; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(k->fd, props->props[i]);

		if (prop && strcmp(prop->name, name) == 0)
			id = prop->prop_id;
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	if (!id)
		gt_fail(__FILE__, __LINE__, "object %u has no property %s", object, name);
	return id;
}

static uint64_t plane_type(struct kms *k, uint32_t plane)
{
	drmModeObjectProperties *props = drmModeObjectGetProperties(k->fd, plane,
								    DRM_MODE_OBJECT_PLANE);
	uint64_t type = ~0ull;

	gt_assert(props);
	for (uint32_t i = 0; i < props->count_props; i++) {
		drmModePropertyRes *prop = drmModeGetProperty(k->fd, props->props[i]);

		if (prop && strcmp(prop->name, "type") == 0)
			type = props->prop_values[i];
		drmModeFreeProperty(prop);
	}
	drmModeFreeObjectProperties(props);
	return type;
}

static void plane_props(struct kms *k, uint32_t plane, struct kms_plane_props *p)
{
	uint32_t t = DRM_MODE_OBJECT_PLANE;

	p->fb_id = prop_id(k, plane, t, "FB_ID");
	p->crtc_id = prop_id(k, plane, t, "CRTC_ID");
	p->src_x = prop_id(k, plane, t, "SRC_X");
	p->src_y = prop_id(k, plane, t, "SRC_Y");
	p->src_w = prop_id(k, plane, t, "SRC_W");
	p->src_h = prop_id(k, plane, t, "SRC_H");
	p->crtc_x = prop_id(k, plane, t, "CRTC_X");
	p->crtc_y = prop_id(k, plane, t, "CRTC_Y");
	p->crtc_w = prop_id(k, plane, t, "CRTC_W");
	p->crtc_h = prop_id(k, plane, t, "CRTC_H");
	p->damage_clips = prop_id(k, plane, t, "FB_DAMAGE_CLIPS");
}

void kms_open(struct kms *k)
{
	drmModeRes *res;
	drmModePlaneRes *planes;

	struct stat st;

	memset(k, 0, sizeof(*k));
	k->fd = gt_open_card();
	gt_assert_ok(fstat(k->fd, &st));
	snprintf(k->debugfs, sizeof(k->debugfs), "/sys/kernel/debug/dri/%u", minor(st.st_rdev));
	gt_assert_ok(drmSetClientCap(k->fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1));
	gt_assert_ok(drmSetClientCap(k->fd, DRM_CLIENT_CAP_ATOMIC, 1));

	res = drmModeGetResources(k->fd);
	gt_assert(res);
	gt_assert_eq(res->count_crtcs, 1);
	gt_assert_eq(res->count_connectors, 1);
	k->crtc_id = res->crtcs[0];
	k->connector_id = res->connectors[0];
	drmModeFreeResources(res);

	k->connector = drmModeGetConnector(k->fd, k->connector_id);
	gt_assert(k->connector);
	gt_assert_eq(k->connector->connection, DRM_MODE_CONNECTED);

	planes = drmModeGetPlaneResources(k->fd);
	gt_assert(planes);
	for (uint32_t i = 0; i < planes->count_planes; i++) {
		uint64_t type = plane_type(k, planes->planes[i]);

		if (type == DRM_PLANE_TYPE_PRIMARY)
			k->primary_id = planes->planes[i];
		else if (type == DRM_PLANE_TYPE_CURSOR)
			k->cursor_id = planes->planes[i];
	}
	drmModeFreePlaneResources(planes);
	gt_assert(k->primary_id && k->cursor_id);

	plane_props(k, k->primary_id, &k->primary);
	plane_props(k, k->cursor_id, &k->cursor);
	k->crtc_active = prop_id(k, k->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE");
	k->crtc_mode_id = prop_id(k, k->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID");
	k->connector_crtc_id = prop_id(k, k->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID");
}

void kms_close(struct kms *k)
{
	drmModeFreeConnector(k->connector);
	close(k->fd);
}

const drmModeModeInfo *kms_mode(struct kms *k, int width, int height)
{
	const drmModeModeInfo *best = NULL;

	for (int i = 0; i < k->connector->count_modes; i++) {
		const drmModeModeInfo *m = &k->connector->modes[i];

		if (m->hdisplay != width || m->vdisplay != height)
			continue;
		if (!best || (m->vrefresh == 60 && best->vrefresh != 60))
			best = m;
	}
	if (!best)
		gt_fail(__FILE__, __LINE__, "the connector offers no %dx%d mode", width, height);
	return best;
}

void kms_fb_create(struct kms *k, struct kms_fb *fb, int width, int height, uint32_t format)
{
	struct drm_mode_create_dumb create = {
		.width = width, .height = height,
		.bpp = format == DRM_FORMAT_RGB565 ? 16 : 32,
	};
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	memset(fb, 0, sizeof(*fb));
	gt_assert_ok(gt_ioctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create));
	fb->handle = create.handle;
	fb->pitch = create.pitch;
	fb->size = create.size;
	fb->width = width;
	fb->height = height;
	fb->format = format;
	gt_assert(fb->pitch >= (uint32_t)width * (create.bpp / 8));

	map.handle = fb->handle;
	gt_assert_ok(gt_ioctl(k->fd, DRM_IOCTL_MODE_MAP_DUMB, &map));
	fb->map = mmap(NULL, fb->size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd, map.offset);
	gt_assert(fb->map != MAP_FAILED);

	handles[0] = fb->handle;
	pitches[0] = fb->pitch;
	gt_assert_ok(drmModeAddFB2(k->fd, width, height, format, handles, pitches, offsets,
				   &fb->fb_id, 0));
}

void kms_fb_destroy(struct kms *k, struct kms_fb *fb)
{
	struct drm_mode_destroy_dumb destroy = { .handle = fb->handle };

	gt_assert_ok(drmModeRmFB(k->fd, fb->fb_id));
	munmap(fb->map, fb->size);
	gt_assert_ok(gt_ioctl(k->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy));
}

uint32_t kms_pattern(int x, int y, unsigned int seed)
{
	uint32_t r = (x * 3 + seed * 11) & 0xff;
	uint32_t g = (y * 5 + seed * 29) & 0xff;
	uint32_t b = ((x ^ y) + (x >> 8) * 67 + (y >> 8) * 31 + seed) & 0xff;

	return r << 16 | g << 8 | b;
}

void kms_fb_fill_pattern(struct kms_fb *fb, unsigned int seed)
{
	for (uint32_t y = 0; y < fb->height; y++) {
		uint8_t *row = (uint8_t *)fb->map + (size_t)y * fb->pitch;

		for (uint32_t x = 0; x < fb->width; x++) {
			uint32_t p = kms_pattern(x, y, seed);

			if (fb->format == DRM_FORMAT_RGB565)
				((uint16_t *)row)[x] = ((p >> 19) & 0x1f) << 11 |
						       ((p >> 10) & 0x3f) << 5 | ((p >> 3) & 0x1f);
			else if (fb->format == DRM_FORMAT_ARGB8888)
				((uint32_t *)row)[x] = p | 0xff000000u;
			else
				((uint32_t *)row)[x] = p | (seed & 1 ? 0x5a000000u : 0);
		}
	}
}

static uint32_t fb_pixel(const struct kms_fb *fb, int x, int y)
{
	const uint8_t *row = (const uint8_t *)fb->map + (size_t)y * fb->pitch;

	if (fb->format == DRM_FORMAT_RGB565) {
		uint16_t p = ((const uint16_t *)row)[x];
		uint32_t r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f;

		return (r << 3 | r >> 2) << 16 | (g << 2 | g >> 4) << 8 | (b << 3 | b >> 2);
	}
	return ((const uint32_t *)row)[x];
}

void kms_req_plane(struct kms *k, drmModeAtomicReq *req, uint32_t plane_id,
		   const struct kms_plane_props *p, const struct kms_fb *fb, int x, int y)
{
	(void)k;
	drmModeAtomicAddProperty(req, plane_id, p->fb_id, fb ? fb->fb_id : 0);
	drmModeAtomicAddProperty(req, plane_id, p->crtc_id, fb ? k->crtc_id : 0);
	if (!fb)
		return;
	drmModeAtomicAddProperty(req, plane_id, p->src_x, 0);
	drmModeAtomicAddProperty(req, plane_id, p->src_y, 0);
	drmModeAtomicAddProperty(req, plane_id, p->src_w, (uint64_t)fb->width << 16);
	drmModeAtomicAddProperty(req, plane_id, p->src_h, (uint64_t)fb->height << 16);
	drmModeAtomicAddProperty(req, plane_id, p->crtc_x, (uint64_t)(int64_t)x);
	drmModeAtomicAddProperty(req, plane_id, p->crtc_y, (uint64_t)(int64_t)y);
	drmModeAtomicAddProperty(req, plane_id, p->crtc_w, fb->width);
	drmModeAtomicAddProperty(req, plane_id, p->crtc_h, fb->height);
}

int kms_commit(struct kms *k, drmModeAtomicReq *req, uint32_t flags)
{
	int ret = drmModeAtomicCommit(k->fd, req, flags, k);

	return ret ? -errno : 0;
}

void kms_set_mode(struct kms *k, const drmModeModeInfo *mode, struct kms_fb *fb)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();
	uint32_t blob;

	gt_assert_ok(drmModeCreatePropertyBlob(k->fd, mode, sizeof(*mode), &blob));
	drmModeAtomicAddProperty(req, k->connector_id, k->connector_crtc_id, k->crtc_id);
	drmModeAtomicAddProperty(req, k->crtc_id, k->crtc_mode_id, blob);
	drmModeAtomicAddProperty(req, k->crtc_id, k->crtc_active, 1);
	kms_req_plane(k, req, k->primary_id, &k->primary, fb, 0, 0);
	kms_req_plane(k, req, k->cursor_id, &k->cursor, NULL, 0, 0);
	gt_assert_eq(kms_commit(k, req, DRM_MODE_ATOMIC_ALLOW_MODESET | DRM_MODE_PAGE_FLIP_EVENT),
		     0);
	drmModeAtomicFree(req);
	drmModeDestroyPropertyBlob(k->fd, blob);
	if (!kms_wait_event(k, 2000, NULL, NULL))
		gt_fail(__FILE__, __LINE__, "no event for the modeset to %s", mode->name);
}

void kms_disable(struct kms *k)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	drmModeAtomicAddProperty(req, k->connector_id, k->connector_crtc_id, 0);
	drmModeAtomicAddProperty(req, k->crtc_id, k->crtc_mode_id, 0);
	drmModeAtomicAddProperty(req, k->crtc_id, k->crtc_active, 0);
	kms_req_plane(k, req, k->primary_id, &k->primary, NULL, 0, 0);
	kms_req_plane(k, req, k->cursor_id, &k->cursor, NULL, 0, 0);
	gt_assert_eq(kms_commit(k, req, DRM_MODE_ATOMIC_ALLOW_MODESET), 0);
	drmModeAtomicFree(req);
}

struct event_result {
	bool seen;
	unsigned int sequence;
	uint64_t time_ns;
};

/* Where the flip handler reports; the event's user data is not needed. */
static struct event_result *pending_result;

static void flip_handler(int fd, unsigned int sequence, unsigned int sec, unsigned int usec,
			 unsigned int crtc_id, void *user_data)
{
	(void)fd;
	(void)crtc_id;
	(void)user_data;
	pending_result->seen = true;
	pending_result->sequence = sequence;
	pending_result->time_ns = (uint64_t)sec * 1000000000ull + (uint64_t)usec * 1000ull;
}

bool kms_wait_event(struct kms *k, int timeout_ms, unsigned int *sequence, uint64_t *time_ns)
{
	drmEventContext ctx = {
		.version = 3,
		.page_flip_handler2 = flip_handler,
	};
	struct event_result result = { 0 };
	struct pollfd pfd = { .fd = k->fd, .events = POLLIN };

	pending_result = &result;
	while (!result.seen) {
		int n = poll(&pfd, 1, timeout_ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		gt_assert_ok(drmHandleEvent(k->fd, &ctx));
	}
	if (sequence)
		*sequence = result.sequence;
	if (time_ns)
		*time_ns = result.time_ns;
	return true;
}

static char *debugfs_path(struct kms *k, const char *file)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", k->debugfs, file);
	return path;
}

long long kms_display_value(struct kms *k, const char *name)
{
	FILE *f = fopen(debugfs_path(k, "garnet_display"), "r");
	char line[256];
	size_t n = strlen(name);
	long long value = -1;

	gt_assert(f);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, name, n) == 0 && line[n] == ' ') {
			value = strtoll(line + n + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return value;
}

bool kms_is_bochs(struct kms *k)
{
	FILE *f = fopen(debugfs_path(k, "garnet_display"), "r");
	char line[256] = "";

	gt_assert(f);
	gt_assert(fgets(line, sizeof(line), f));
	fclose(f);
	return strcmp(line, "output bochs\n") == 0;
}

static void screen_mode(struct kms *k, int *width, int *height)
{
	FILE *f = fopen(debugfs_path(k, "garnet_display"), "r");
	char line[256];

	gt_assert(f);
	*width = *height = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "mode %dx%d", width, height) == 2)
			break;
	fclose(f);
	gt_assert(*width >= 0);
}

int kms_open_scanout(struct kms *k)
{
	return open(debugfs_path(k, "garnet_scanout"), O_RDONLY);
}

uint32_t *kms_read_scanout(struct kms *k, int *width, int *height)
{
	size_t size, done = 0;
	uint32_t *pixels;
	int fd;

	screen_mode(k, width, height);
	size = (size_t)*width * *height * 4;
	pixels = malloc(size ? size : 1);
	gt_assert(pixels);
	fd = open(debugfs_path(k, "garnet_scanout"), O_RDONLY);
	gt_assert(fd >= 0);
	while (done < size) {
		ssize_t n = read(fd, (char *)pixels + done, size - done);

		gt_assert(n > 0);
		done += n;
	}
	close(fd);
	return pixels;
}

void kms_screen_init(struct kms_screen *s, int width, int height)
{
	s->width = width;
	s->height = height;
	s->pixels = calloc((size_t)width * height, 4);
	gt_assert(s->pixels);
}

void kms_screen_free(struct kms_screen *s)
{
	free(s->pixels);
	s->pixels = NULL;
}

static uint32_t blend(uint32_t src, uint32_t dst)
{
	uint32_t a = src >> 24, out = 0;

	for (int shift = 0; shift < 24; shift += 8) {
		uint32_t c = ((src >> shift) & 0xff) + (((dst >> shift) & 0xff) * (255 - a) + 127) / 255;

		out |= (c > 255 ? 255 : c) << shift;
	}
	return out;
}

void kms_screen_draw(struct kms_screen *s, const struct kms_fb *fb, int x0, int y0, bool alpha)
{
	for (int y = 0; y < (int)fb->height; y++) {
		for (int x = 0; x < (int)fb->width; x++) {
			int sx = x0 + x, sy = y0 + y;
			uint32_t *dst;

			if (sx < 0 || sy < 0 || sx >= s->width || sy >= s->height)
				continue;
			dst = &s->pixels[(size_t)sy * s->width + sx];
			*dst = alpha ? blend(fb_pixel(fb, x, y), *dst) : fb_pixel(fb, x, y);
		}
	}
}

static void compare(const char *what, const struct kms_screen *s, int width, int height,
		    uint32_t (*get)(const void *data, size_t i), const void *data)
{
	long mismatches = 0;
	int first_x = -1, first_y = -1;
	uint32_t got = 0, want = 0;

	if (width != s->width || height != s->height)
		gt_fail(__FILE__, __LINE__, "%s is %dx%d, expected %dx%d", what, width, height,
			s->width, s->height);
	for (int y = 0; y < height; y++) {
		for (int x = 0; x < width; x++) {
			size_t i = (size_t)y * width + x;
			uint32_t g = get(data, i) & 0xffffff, w = s->pixels[i] & 0xffffff;

			if (g != w && mismatches++ == 0) {
				first_x = x;
				first_y = y;
				got = g;
				want = w;
			}
		}
	}
	if (mismatches)
		gt_fail(__FILE__, __LINE__, "%s: %ld pixels differ; first at (%d, %d): 0x%06x, "
			"expected 0x%06x", what, mismatches, first_x, first_y, got, want);
}

static uint32_t get_xrgb(const void *data, size_t i)
{
	return ((const uint32_t *)data)[i];
}

static uint32_t get_rgb(const void *data, size_t i)
{
	const uint8_t *p = (const uint8_t *)data + i * 3;

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

void kms_check_scanout(struct kms *k, const struct kms_screen *s)
{
	int width, height;
	uint32_t *pixels = kms_read_scanout(k, &width, &height);

	compare("scanout memory (debugfs)", s, width, height, get_xrgb, pixels);
	free(pixels);
}

void kms_check_screen(struct kms *k, const struct kms_screen *s)
{
	int width, height;
	uint8_t *rgb;

	kms_check_scanout(k, s);
	rgb = kms_screendump(k, &width, &height);
	if (!rgb)
		return;
	compare("QEMU screendump", s, width, height, get_rgb, rgb);
	free(rgb);
}

static bool wait_for_file(const char *path, int timeout_ms)
{
	for (int waited = 0; waited < timeout_ms; waited += 20) {
		if (access(path, F_OK) == 0)
			return true;
		usleep(20000);
	}
	return false;
}

uint8_t *kms_screendump(struct kms *k, int *width, int *height)
{
	static unsigned int serial;
	const char *results = getenv("GARNET_VM_RESULTS");
	char base[256], path[300], magic[3] = "";
	int maxval, fd;
	uint8_t *rgb;
	size_t size;
	FILE *f;

	if (!kms_is_bochs(k))
		return NULL;
	if (!results)
		gt_fail(__FILE__, __LINE__, "bochs-display needs the host's screendump server "
			"(GARNET_VM_RESULTS is unset)");
	snprintf(path, sizeof(path), "%s/screendump-server.ready", results);
	if (!wait_for_file(path, 20000))
		gt_fail(__FILE__, __LINE__, "no screendump server on the host (%s)", path);

	snprintf(base, sizeof(base), "%s/screendump-%d-%u", results, (int)getpid(), serial++);
	snprintf(path, sizeof(path), "%s.req", base);
	/* The 9p share now and then fails a create while the host renames in the directory. */
	for (int tries = 0; tries < 10; tries++) {
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0 || errno != ENOENT)
			break;
		usleep(50000);
	}
	if (fd < 0)
		gt_fail(__FILE__, __LINE__, "cannot ask for a screendump (%s): %s", path,
			strerror(errno));
	close(fd);
	snprintf(path, sizeof(path), "%s.done", base);
	if (!wait_for_file(path, 30000))
		gt_fail(__FILE__, __LINE__, "the host did not take the screendump %s", base);
	unlink(path);

	snprintf(path, sizeof(path), "%s.ppm", base);
	f = fopen(path, "rb");
	gt_assert(f);
	gt_assert(fscanf(f, "%2s %d %d %d", magic, width, height, &maxval) == 4);
	gt_assert(strcmp(magic, "P6") == 0 && maxval == 255);
	fgetc(f);
	size = (size_t)*width * *height * 3;
	rgb = malloc(size);
	gt_assert(rgb);
	gt_assert(fread(rgb, 1, size, f) == size);
	fclose(f);
	unlink(path);
	return rgb;
}
