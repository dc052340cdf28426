// SPDX-License-Identifier: MIT
/*
 * Names against PRIME: a garnet name dies with the object's last handle, as a flink name does,
 * so no name can bring an object back behind the DRM core's dma-buf bookkeeping. Written as
 * the client that tries: it exports, shares, closes its last handle and has the recipient
 * accept, export and import again; the kernel must keep one dma-buf per object and no WARN.
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static int accept_name(int fd, uint64_t name, uint32_t *handle)
{
	struct drm_garnet_accept acc = { .name = name };
	int ret = gt_ioctl(fd, DRM_IOCTL_GARNET_ACCEPT, &acc);

	*handle = acc.handle;
	return ret;
}

/* Every dma-buf has an inode of its own: two fds are one dma-buf iff their inodes match. */
static bool same_dmabuf(int x, int y)
{
	struct stat sx, sy;

	gt_assert_ok(fstat(x, &sx));
	gt_assert_ok(fstat(y, &sy));
	return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
}

/* Warnings from the DRM core's PRIME bookkeeping (and any other) since boot. */
static int warnings(void)
{
	return gt_kmsg_count("WARNING:");
}

static void accept_after_the_last_handle_closed_is_enoent(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint32_t h = gt_create(a, 4096), hb;
	int before = warnings();
	int first, second;
	uint64_t name;

	gt_pwrite(a, h, 0, "pixels", 7);
	first = gt_prime_export(a, h);
	name = gt_share(a, h, gt_client_id(b), 0);
	/* The dma-buf keeps the object alive; the core forgets the object's dma-buf. */
	gt_close(a, h);

	if (accept_name(b, name, &hb) == 0) {
		/* The attack goes on: a second dma-buf for the object, then the first imported. */
		second = gt_prime_export(b, hb);
		hb = gt_prime_import(b, first);
		gt_fail(__FILE__, __LINE__,
			"ACCEPT gave a handle to an object with none left: %s dma-bufs, %d new warnings",
			same_dmabuf(first, second) ? "one" : "two", warnings() - before);
	}
	gt_assert_eq(errno, ENOENT);

	/* The dma-buf itself still works, and stays the object's only one. */
	hb = gt_prime_import(b, first);
	second = gt_prime_export(b, hb);
	gt_assert(same_dmabuf(first, second));
	gt_assert_eq(warnings(), before);
	close(second);
	close(first);
	close(a);
	close(b);
}

/* GEM_OPEN of a flink name follows the same rule; the core drops the name at the last close. */
static void open_by_name_after_the_last_handle_closed_is_enoent(void)
{
	int master = gt_open_card(), other = gt_open_render();
	uint32_t h = gt_create(master, 4096);
	struct drm_gem_open op = { .name = gt_flink(master, h) };
	int first = gt_prime_export(master, h);

	gt_close(master, h);
	gt_assert_errno(gt_ioctl(master, DRM_IOCTL_GEM_OPEN, &op), ENOENT);
	close(first);
	close(other);
	close(master);
}

/* Control: while any handle lives, a name works, and the object keeps its one dma-buf. */
static void accept_while_a_handle_lives_keeps_one_dmabuf(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint32_t h = gt_create(a, 4096), hb;
	uint64_t name = gt_share(a, h, gt_client_id(b), 0);
	int first = gt_prime_export(a, h), second;
	char out[8] = { 0 };

	gt_pwrite(a, h, 0, "pixels", 7);
	gt_assert_ok(accept_name(b, name, &hb));
	gt_close(a, h);
	/* B's handle keeps the name alive: B may accept it again. */
	gt_assert_ok(accept_name(b, name, &h));
	gt_close(b, h);
	gt_pread(b, hb, 0, out, 7);
	gt_assert(strcmp(out, "pixels") == 0);
	second = gt_prime_export(b, hb);
	gt_assert(same_dmabuf(first, second));
	gt_assert_eq(gt_prime_import(b, first), hb);
	close(second);
	close(first);
	close(a);
	close(b);
}

/* Control: the name dies when the recipient's handle, the last one, is closed too. */
static void name_dies_with_the_recipients_last_handle(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint32_t h = gt_create(a, 4096), hb;
	uint64_t name = gt_share(a, h, gt_client_id(b), 0);

	gt_assert_ok(accept_name(b, name, &hb));
	gt_close(a, h);
	gt_close(b, hb);
	gt_assert_errno(accept_name(b, name, &hb), ENOENT);
	close(a);
	close(b);
}

struct race {
	int b;
	uint64_t name;
	pthread_barrier_t go;
	int accepted;
	uint32_t handle;
};

static void *accept_thread(void *data)
{
	struct race *r = data;

	pthread_barrier_wait(&r->go);
	r->accepted = accept_name(r->b, r->name, &r->handle) == 0;
	return NULL;
}

/*
 * ACCEPT racing the owner's close of the last handle: the recipient either got the object
 * while a handle lived or gets nothing; either way the exported dma-buf stays the only one.
 */
static void accept_racing_the_last_close_keeps_one_dmabuf(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint64_t id = gt_client_id(b);
	int before = warnings(), accepted = 0, i;

	for (i = 0; i < 300; i++) {
		struct race r = { .b = b };
		uint32_t h = gt_create(a, 4096), hb;
		int first = gt_prime_export(a, h), second;
		pthread_t t;

		r.name = gt_share(a, h, id, 0);
		pthread_barrier_init(&r.go, NULL, 2);
		gt_assert_ok(pthread_create(&t, NULL, accept_thread, &r));
		pthread_barrier_wait(&r.go);
		gt_close(a, h);
		pthread_join(t, NULL);
		pthread_barrier_destroy(&r.go);

		/* A handle accepted from a dead object would be exported as a new dma-buf. */
		if (r.accepted) {
			second = gt_prime_export(b, r.handle);
			gt_assert(same_dmabuf(first, second));
			close(second);
			accepted++;
		}
		hb = gt_prime_import(b, first);
		second = gt_prime_export(b, hb);
		gt_assert(same_dmabuf(first, second));
		close(second);
		close(first);
		/* Closing the file's handles keeps B's table small for the next round. */
		gt_close(b, hb);
		if (r.accepted && r.handle != hb)
			gt_close(b, r.handle);
	}
	gt_info("%d of %d accepted before the close\n", accepted, i);
	gt_assert_eq(warnings(), before);
	close(a);
	close(b);
}

GT_MAIN(
	GT_SUBTEST(accept_after_the_last_handle_closed_is_enoent,
		   "accept-after-the-last-handle-closed-is-enoent"),
	GT_SUBTEST(open_by_name_after_the_last_handle_closed_is_enoent,
		   "open-by-name-after-the-last-handle-closed-is-enoent"),
	GT_SUBTEST(accept_while_a_handle_lives_keeps_one_dmabuf,
		   "accept-while-a-handle-lives-keeps-one-dmabuf"),
	GT_SUBTEST(name_dies_with_the_recipients_last_handle,
		   "name-dies-with-the-recipients-last-handle"),
	GT_SUBTEST(accept_racing_the_last_close_keeps_one_dmabuf,
		   "accept-racing-the-last-close-keeps-one-dmabuf"),
)
