// SPDX-License-Identifier: MIT
/*
 * PIN and UNPIN racing GEM_CLOSE (root, primary node). Written as the process that races them
 * for seconds on purpose: a pin must never land on an object whose handle is already closed,
 * so no object is freed pinned (the kernel would WARN), the pinned bytes go back to zero and
 * GEM_INIT, which refuses to move the range under pinned objects, still works afterwards.
 */
#include "garnet_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define SLOTS		4
#define RACE_SECONDS	4

struct race {
	int fd;
	_Atomic uint32_t slot[SLOTS];
	atomic_bool stop;
	atomic_long pins;
};

static int gem_close(int fd, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	return gt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static struct drm_i915_gem_get_aperture aperture(int fd)
{
	struct drm_i915_gem_get_aperture ap = { 0 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
	return ap;
}

/* "pinned_bytes N" of garnet_exec in debugfs. */
static long long pinned_bytes(int fd)
{
	return gt_debugfs_value(fd, "garnet_exec", "pinned_bytes");
}

/* Creates objects into the slots and pins, unpins and closes them itself as well. */
static void *creator(void *data)
{
	struct race *r = data;
	unsigned int i = 0;

	while (!atomic_load(&r->stop)) {
		struct drm_i915_gem_create create = { .size = 64 << 10 };
		uint32_t h;

		if (gt_ioctl(r->fd, DRM_IOCTL_I915_GEM_CREATE, &create))
			continue;
		h = create.handle;
		atomic_store(&r->slot[i++ % SLOTS], h);
		if (gt_pin(r->fd, h, 0, NULL) == 0)
			atomic_fetch_add(&r->pins, 1);
		gt_unpin(r->fd, h);
		if (gt_pin(r->fd, h, 0, NULL) == 0)
			atomic_fetch_add(&r->pins, 1);
		gem_close(r->fd, h);
	}
	return NULL;
}

/* Closes whatever handle a slot names, pinned or not. */
static void *closer(void *data)
{
	struct race *r = data;
	unsigned int i = 0;

	while (!atomic_load(&r->stop)) {
		uint32_t h = atomic_load(&r->slot[i++ % SLOTS]);

		if (h)
			gem_close(r->fd, h);
	}
	return NULL;
}

/* Pins and unpins whatever handle a slot names. */
static void *pinner(void *data)
{
	struct race *r = data;
	unsigned int i = 0;

	while (!atomic_load(&r->stop)) {
		uint32_t h = atomic_load(&r->slot[i++ % SLOTS]);

		if (!h)
			continue;
		if (gt_pin(r->fd, h, 0, NULL) == 0)
			atomic_fetch_add(&r->pins, 1);
		if (i % 2)
			gt_unpin(r->fd, h);
	}
	return NULL;
}

static void pin_racing_gem_close_leaves_nothing_pinned(void)
{
	int master = gt_open_card();
	int fd = gt_open_card();
	struct drm_i915_gem_get_aperture before = aperture(master);
	void *(*fns[])(void *) = { creator, creator, closer, pinner, pinner };
	pthread_t threads[sizeof(fns) / sizeof(fns[0])];
	struct race r = { .fd = fd };
	int warnings = gt_kmsg_count("WARNING:");
	size_t i;

	gt_assert(drmIsMaster(master));
	gt_assert_eq(before.aper_available_size, before.aper_size);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		gt_assert_ok(pthread_create(&threads[i], NULL, fns[i], &r));
	sleep(RACE_SECONDS);
	atomic_store(&r.stop, true);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		pthread_join(threads[i], NULL);
	gt_info("%ld pins during the race\n", atomic_load(&r.pins));
	gt_assert(atomic_load(&r.pins) > 0);

	/* Every handle goes with the file, and every pin with its handle. */
	close(fd);
	gt_assert_eq(gt_kmsg_count("WARNING:"), warnings);
	gt_assert_eq(pinned_bytes(master), 0);
	gt_assert_eq(aperture(master).aper_available_size, before.aper_size);
	/* GEM_INIT refuses to move the range only while something is pinned. */
	{
		struct drm_i915_gem_init init = { .gtt_start = 0, .gtt_end = before.aper_size };

		gt_assert_ok(gt_ioctl(master, DRM_IOCTL_I915_GEM_INIT, &init));
	}
	close(master);
}

/* Control: a pin through a live handle holds, and closing that handle releases it. */
static void pin_through_a_live_handle_holds_until_close(void)
{
	int fd = gt_open_card();
	uint32_t h = gt_create(fd, 1 << 20);

	gt_assert_ok(gt_pin(fd, h, 0, NULL));
	gt_assert_eq(pinned_bytes(fd), 1 << 20);
	gt_assert_ok(gem_close(fd, h));
	gt_assert_eq(pinned_bytes(fd), 0);
	gt_assert_errno(gt_pin(fd, h, 0, NULL), ENOENT);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(pin_racing_gem_close_leaves_nothing_pinned,
		   "pin-racing-gem-close-leaves-nothing-pinned"),
	GT_SUBTEST(pin_through_a_live_handle_holds_until_close,
		   "pin-through-a-live-handle-holds-until-close"),
)
