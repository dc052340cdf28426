// SPDX-License-Identifier: MIT
// Buffers shown in place (core/texture.c): garnet reads the client's memory at each repaint,
// holds the buffer while any surface shows it, keeps the last pixels of a buffer destroyed
// while shown, and follows a pool that grew (and moved) under a shown buffer.
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"

/* Damage without a new buffer: garnet paints the surface again from what it shows. */
static void repaint(struct client_surface *s)
{
	wl_surface_damage_buffer(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
	wl_surface_commit(s->wl_surface);
}

TEST(buffer_destroyed_while_shown_keeps_its_last_pixels)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 10, 10, 50, 50, 0xffff0000, &b);
	pixman_image_t *shot = capture_output(c, out);

	check_int(t, image_pixel(shot, 20, 20), ==, 0xffff0000u);
	pixman_image_unref(shot);
	wl_buffer_destroy(b->wl_buffer);
	client_roundtrip(c);
	/* The client's memory is its own again: nothing it writes there may reach the screen. */
	memset(b->data, 0x55, b->size);
	repaint(s);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 20, 20), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 59, 59), ==, 0xffff0000u);
	pixman_image_unref(shot);
	pixman_image_unref(b->image);
	munmap(b->data, b->size);
	close(b->fd);
	free(b);
	surface_destroy(s);
	client_destroy(c);
}

static struct client_surface *surface_at(struct client *c, int32_t x, int32_t y)
{
	struct client_surface *s = surface_create(c);

	garnet_test_move_surface(c->garnet_test, s->wl_surface, x, y);
	return s;
}

TEST(buffer_on_two_surfaces_is_released_once_neither_shows_it)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *shared = buffer_create(c, 20, 20, WL_SHM_FORMAT_XRGB8888);
	struct buffer *other = buffer_create(c, 20, 20, WL_SHM_FORMAT_XRGB8888);
	struct client_surface *a = surface_at(c, 0, 0), *b = surface_at(c, 40, 0);
	pixman_image_t *shot;

	buffer_fill(shared, 0xff00ff00);
	buffer_fill(other, 0xff0000ff);
	surface_show(a, shared);
	surface_show(b, shared);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 5, 5), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 45, 5), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	surface_show(a, other);
	shot = capture_output(c, out);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check(t, !shared->released);
	surface_show(b, other);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 45, 5), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check(t, shared->released);
	check(t, !other->released);
	surface_destroy(a);
	surface_destroy(b);
	client_roundtrip(c);
	check(t, other->released);
	buffer_destroy(shared);
	buffer_destroy(other);
	client_destroy(c);
}

/* libwayland remaps a pool that grows, maybe elsewhere: garnet must read where it is now. */
TEST(pool_grown_while_shown_is_read_where_it_now_is)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	const size_t small = 40 * 40 * 4, big = 64u << 20;
	int fd = memfd_create("garnet-test-pool", MFD_CLOEXEC);
	struct wl_shm_pool *pool;
	struct wl_buffer *first, *second;
	struct client_surface *s = surface_at(c, 0, 0), *s2 = surface_at(c, 50, 0);
	uint32_t *pixels;
	pixman_image_t *shot;

	check(t, fd >= 0 && ftruncate(fd, (off_t)small) == 0);
	pixels = mmap(NULL, small, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check(t, pixels != MAP_FAILED);
	for (size_t i = 0; i < small / 4; i++)
		pixels[i] = 0xffff0000;
	pool = wl_shm_create_pool(c->shm, fd, (int32_t)small);
	first = wl_shm_pool_create_buffer(pool, 0, 40, 40, 160, WL_SHM_FORMAT_XRGB8888);
	wl_surface_attach(s->wl_surface, first, 0, 0);
	repaint(s);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 10, 10), ==, 0xffff0000u);
	pixman_image_unref(shot);

	check(t, ftruncate(fd, (off_t)big) == 0);
	wl_shm_pool_resize(pool, (int32_t)big);
	for (size_t i = 0; i < small / 4; i++)
		pixels[i] = 0xff00ff00;
	second = wl_shm_pool_create_buffer(pool, (int32_t)(big - small), 40, 40, 160,
					   WL_SHM_FORMAT_XRGB8888);
	wl_surface_attach(s2->wl_surface, second, 0, 0);
	repaint(s2);
	repaint(s);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 10, 10), ==, 0xff00ff00u);
	/* The grown part of a memfd reads as zeroes: black, opaque for XRGB. */
	check_int(t, image_pixel(shot, 60, 10), ==, 0xff000000u);
	pixman_image_unref(shot);
	wl_buffer_destroy(first);
	wl_buffer_destroy(second);
	wl_shm_pool_destroy(pool);
	munmap(pixels, small);
	close(fd);
	surface_destroy(s);
	surface_destroy(s2);
	client_destroy(c);
}

/* Only what the client damages changes on screen, but what garnet paints comes from the
 * buffer as it is at the repaint: a buffer is the client's to change only once released. */
TEST(commit_of_the_shown_buffer_again_shows_its_new_pixels)
{
	struct client *c = client_create(t);
	struct client_output *out = client_first_output(c);
	struct buffer *b;
	struct client_surface *s = surface_create_placed(c, 0, 0, 30, 30, 0xffff0000, &b);
	pixman_image_t *shot;

	buffer_fill(b, 0xff0000ff);
	surface_show(s, b);
	shot = capture_output(c, out);
	check_int(t, image_pixel(shot, 15, 15), ==, 0xff0000ffu);
	pixman_image_unref(shot);
	client_roundtrip(c);
	check(t, !b->released);
	buffer_destroy(b);
	surface_destroy(s);
	client_destroy(c);
}
