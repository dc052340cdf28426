// SPDX-License-Identifier: MIT
// The Screenshot portal: one capture of garnet's (decided for the application like a cast),
// written as a PNG file in the user's runtime directory, whose path the application gets.
#include <fcntl.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "portal.h"

struct shot {
	struct portal *portal;
	struct capture *capture;
	struct wl_buffer *buffer;
	int fd;
	void *pixels;
	int32_t width, height;
	void (*done)(void *data, const char *path);
	void *data;
};

static bool write_png(const char *path, const uint8_t *pixels, int32_t w, int32_t h)
{
	/* The screen is the user's alone: a new file (no link followed) only they can read. */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
	png_structp png;
	png_infop info;
	uint8_t *row;
	bool ok = false;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	info = png ? png_create_info_struct(png) : NULL;
	row = malloc((size_t)w * 3);
	if (!png || !info || !row || setjmp(png_jmpbuf(png)))
		goto out;
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (int32_t y = 0; y < h; y++) {
		const uint32_t *src = (const uint32_t *)(pixels + (size_t)y * (size_t)w * 4);

		for (int32_t x = 0; x < w; x++) {
			row[x * 3] = (uint8_t)(src[x] >> 16);
			row[x * 3 + 1] = (uint8_t)(src[x] >> 8);
			row[x * 3 + 2] = (uint8_t)src[x];
		}
		png_write_row(png, row);
	}
	png_write_end(png, NULL);
	ok = true;
out:
	png_destroy_write_struct(&png, &info);
	free(row);
	return fclose(f) == 0 && ok;
}

static void finish(struct shot *s, const char *path)
{
	s->done(s->data, path);
	if (s->buffer)
		wl_buffer_destroy(s->buffer);
	if (s->pixels)
		munmap(s->pixels, (size_t)s->width * (size_t)s->height * 4);
	if (s->fd >= 0)
		close(s->fd);
	capture_destroy(s->capture);
	free(s);
}

static void on_granted(void *data, int32_t width, int32_t height, bool window)
{
	struct shot *s = data;
	size_t size = (size_t)width * (size_t)height * 4;

	s->width = width;
	s->height = height;
	s->fd = portal_memfd(size);
	s->pixels = s->fd < 0 ? MAP_FAILED : mmap(NULL, size, PROT_READ, MAP_SHARED, s->fd, 0);
	if (s->pixels == MAP_FAILED) {
		s->pixels = NULL;
		finish(s, NULL);
		return;
	}
	s->buffer = portal_shm_buffer(s->portal, s->fd, width, height, width * 4);
	capture_copy(s->capture, s->buffer, true);
}

static void on_refused(void *data)
{
	finish(data, NULL);
}

static void on_ready(void *data, const int32_t (*damage)[4], int count)
{
	struct shot *s = data;
	static unsigned int serial;
	const char *dir = getenv("XDG_RUNTIME_DIR");
	char path[4096];
	struct stat st;

	/* Only in the user's own runtime directory: a shared one (/tmp) could hold a directory
	 * of that name another user made, and every screenshot would be theirs to read. */
	if (!dir || !*dir) {
		finish(s, NULL);
		return;
	}
	snprintf(path, sizeof(path), "%s/garnet-portal", dir);
	mkdir(path, 0700);
	if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 077)) {
		finish(s, NULL);
		return;
	}
	snprintf(path, sizeof(path), "%s/garnet-portal/screenshot-%d-%u.png", dir, (int)getpid(),
		 serial++);
	finish(s, write_png(path, s->pixels, s->width, s->height) ? path : NULL);
}

static void on_failed(void *data)
{
	finish(data, NULL);
}

static void on_paused(void *data, bool paused)
{
}

static void on_stopped(void *data)
{
	finish(data, NULL);
}

static const struct capture_listener listener = {
	.granted = on_granted,
	.refused = on_refused,
	.ready = on_ready,
	.failed = on_failed,
	.paused = on_paused,
	.stopped = on_stopped,
};

void screenshot_take(struct portal *p, const char *app_id, pid_t pid,
		     void (*done)(void *data, const char *path), void *data)
{
	struct shot *s = calloc(1, sizeof(*s));

	if (!s) {
		done(data, NULL);
		return;
	}
	s->portal = p;
	s->fd = -1;
	s->done = done;
	s->data = data;
	s->capture = capture_create(p, app_id, pid, false, &listener, s);
	if (!s->capture) {
		free(s);
		done(data, NULL);
	}
}
