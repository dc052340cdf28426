// SPDX-License-Identifier: MIT
/*
 * Core GEM_FLINK and GEM_OPEN. FLINK works as in the core; opening a global name succeeds
 * only for the DRM master or for a file the object was shared with.
 * In each test the first primary-node file opened is the master, the next ones are not
 * (all run as root, so the core regards them as authenticated).
 */
#include "garnet_test.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int gem_open(int fd, uint32_t name, struct drm_gem_open *out)
{
	*out = (struct drm_gem_open){ .name = name };
	return gt_ioctl(fd, DRM_IOCTL_GEM_OPEN, out);
}

static int open_non_master(void)
{
	int fd = gt_open_card();

	gt_assert(drmIsMaster(fd) == 0);
	return fd;
}

static void master_opens_a_flinked_object(void)
{
	int master = gt_open_card();
	uint32_t h = gt_create(master, 16384);
	uint32_t word = 0xfeedface, out = 0;
	struct drm_gem_open op;

	gt_assert(drmIsMaster(master));
	gt_pwrite(master, h, 0, &word, sizeof(word));
	gt_assert_ok(gem_open(master, gt_flink(master, h), &op));
	gt_assert(op.handle != 0);
	gt_assert_eq(op.size, 16384);
	gt_pread(master, op.handle, 0, &out, sizeof(out));
	gt_assert_eq(out, word);
	close(master);
}

static void double_flink_returns_the_same_name(void)
{
	int master = gt_open_card();
	uint32_t h = gt_create(master, 4096);

	gt_assert_eq(gt_flink(master, h), gt_flink(master, h));
	close(master);
}

static void flink_of_bad_handle_is_enoent(void)
{
	int master = gt_open_card();
	struct drm_gem_flink flink = { .handle = 0x10101010 };

	gt_assert_errno(gt_ioctl(master, DRM_IOCTL_GEM_FLINK, &flink), ENOENT);
	close(master);
}

static void open_of_unknown_name_is_enoent(void)
{
	int master = gt_open_card();
	struct drm_gem_open op;

	gt_assert_errno(gem_open(master, 0x10101010, &op), ENOENT);
	close(master);
}

/* IGT flink-lifetime: a handle in another file keeps the name alive. */
static void name_lives_while_any_file_holds_a_handle(void)
{
	int master = gt_open_card();
	int creator = open_non_master();
	uint32_t name = gt_flink(creator, gt_create(creator, 4096));
	struct drm_gem_open op;

	gt_assert_ok(gem_open(master, name, &op));
	close(creator);
	gt_assert_ok(gem_open(master, name, &op));
	close(master);
}

static void name_dies_with_the_last_handle(void)
{
	int master = gt_open_card();
	uint32_t h = gt_create(master, 4096);
	uint32_t name = gt_flink(master, h);
	struct drm_gem_open op;

	gt_close(master, h);
	gt_assert_errno(gem_open(master, name, &op), ENOENT);
	close(master);
}

/* The hole the 2012 review found: any authenticated file could open any name. */
static void non_master_cannot_open_a_global_name(void)
{
	int master = gt_open_card();
	int other = open_non_master();
	uint32_t name = gt_flink(master, gt_create(master, 4096));
	long long denied = gt_counter(master, "open_denied");
	struct drm_gem_open op;

	gt_assert_errno(gem_open(other, name, &op), ENOENT);
	gt_assert_eq(op.handle, 0);
	gt_assert_eq(gt_counter(master, "open_denied"), denied + 1);
	close(other);
	close(master);
}

static void render_node_cannot_flink_or_open(void)
{
	int render = gt_open_render();
	struct drm_gem_flink flink = { .handle = gt_create(render, 4096) };
	struct drm_gem_open op;

	gt_assert_errno(gt_ioctl(render, DRM_IOCTL_GEM_FLINK, &flink), EACCES);
	gt_assert_errno(gem_open(render, 1, &op), EACCES);
	close(render);
}

/* Sharing the object with a file opens its global name to that file, and only to it. */
static void share_recipient_may_open_the_global_name(void)
{
	int master = gt_open_card();
	int friend = open_non_master(), stranger = open_non_master();
	uint32_t h = gt_create(master, 4096);
	uint32_t name = gt_flink(master, h);
	struct drm_gem_open op;

	gt_share(master, h, gt_client_id(friend), 0);
	gt_assert_ok(gem_open(friend, name, &op));
	gt_assert_eq(op.size, 4096);
	gt_assert_errno(gem_open(stranger, name, &op), ENOENT);
	close(stranger);
	close(friend);
	close(master);
}

/* drm_ioctl() adapts any argument size, so every encoding of the number is screened. */
static void open_with_another_size_encoding_is_refused(void)
{
	int master = gt_open_card();
	int other = open_non_master();
	uint32_t name = gt_flink(master, gt_create(master, 4096));
	struct drm_gem_open op = { .name = name };
	unsigned long odd = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				 _IOC_NR(DRM_IOCTL_GEM_OPEN), 8);

	gt_assert_errno(gt_ioctl(other, odd, &op), EINVAL);
	gt_assert_errno(gt_ioctl(other, _IOC(_IOC_WRITE, DRM_IOCTL_BASE,
					     _IOC_NR(DRM_IOCTL_GEM_OPEN), 16), &op), EINVAL);
	gt_assert_eq(op.handle, 0);
	close(other);
	close(master);
}

/* A master that drops mastership loses the right to open names. */
static void dropped_master_cannot_open(void)
{
	int master = gt_open_card();
	int creator = open_non_master();
	uint32_t name = gt_flink(creator, gt_create(creator, 4096));
	struct drm_gem_open op;

	gt_assert_ok(drmDropMaster(master));
	gt_assert_errno(gem_open(master, name, &op), ENOENT);
	gt_assert_ok(drmSetMaster(master));
	gt_assert_ok(gem_open(master, name, &op));
	close(creator);
	close(master);
}

struct flink_race {
	int fd;
	volatile int stop;
};

static void *flink_close_loop(void *data)
{
	struct flink_race *r = data;

	for (int i = 0; i < 3000; i++) {
		struct drm_i915_gem_create create = { .size = 4096 };
		struct drm_gem_flink flink = { 0 };
		struct drm_gem_close cl = { 0 };

		if (gt_ioctl(r->fd, DRM_IOCTL_I915_GEM_CREATE, &create))
			continue;
		flink.handle = cl.handle = create.handle;
		gt_ioctl(r->fd, DRM_IOCTL_GEM_FLINK, &flink);
		gt_ioctl(r->fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	r->stop = 1;
	return NULL;
}

/*
 * IGT gem_flink_race, inverted: while one thread creates, flinks and closes, others open small
 * names. The master may catch objects (and must close them); a non-master never opens one.
 */
static void open_by_name_races_with_flink_and_close(void)
{
	struct flink_race r = { .fd = gt_open_card() };
	int other = open_non_master();
	long long objects = gt_counter(r.fd, "objects");
	int opened_by_other = 0;
	pthread_t t;

	gt_assert_ok(pthread_create(&t, NULL, flink_close_loop, &r));
	while (!r.stop) {
		for (uint32_t name = 1; name <= 4; name++) {
			struct drm_gem_open op = { .name = name };
			struct drm_gem_close cl;

			if (gt_ioctl(r.fd, DRM_IOCTL_GEM_OPEN, &op) == 0) {
				cl = (struct drm_gem_close){ .handle = op.handle };
				gt_assert_ok(gt_ioctl(r.fd, DRM_IOCTL_GEM_CLOSE, &cl));
			}
			op = (struct drm_gem_open){ .name = name };
			if (gt_ioctl(other, DRM_IOCTL_GEM_OPEN, &op) == 0)
				opened_by_other++;
		}
	}
	gt_assert_ok(pthread_join(t, NULL));
	gt_assert_eq(opened_by_other, 0);
	gt_assert_eq(gt_counter(r.fd, "objects"), objects);
	close(other);
	close(r.fd);
}

GT_MAIN(
	GT_SUBTEST(master_opens_a_flinked_object, "master-opens-a-flinked-object"),
	GT_SUBTEST(double_flink_returns_the_same_name, "double-flink-returns-the-same-name"),
	GT_SUBTEST(flink_of_bad_handle_is_enoent, "flink-of-bad-handle-is-enoent"),
	GT_SUBTEST(open_of_unknown_name_is_enoent, "open-of-unknown-name-is-enoent"),
	GT_SUBTEST(name_lives_while_any_file_holds_a_handle,
		   "name-lives-while-any-file-holds-a-handle"),
	GT_SUBTEST(name_dies_with_the_last_handle, "name-dies-with-the-last-handle"),
	GT_SUBTEST(non_master_cannot_open_a_global_name, "non-master-cannot-open-a-global-name"),
	GT_SUBTEST(render_node_cannot_flink_or_open, "render-node-cannot-flink-or-open"),
	GT_SUBTEST(share_recipient_may_open_the_global_name,
		   "share-recipient-may-open-the-global-name"),
	GT_SUBTEST(open_with_another_size_encoding_is_refused,
		   "open-with-another-size-encoding-is-refused"),
	GT_SUBTEST(open_by_name_races_with_flink_and_close,
		   "open-by-name-races-with-flink-and-close"),
	GT_SUBTEST(dropped_master_cannot_open, "dropped-master-cannot-open"),
)
