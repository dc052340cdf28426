// SPDX-License-Identifier: MIT
/*
 * Garbage in, clear errors out: every driver ioctl number (and the core GEM ones garnet
 * screens) gets random arguments of random sizes, with random handles, names, offsets and
 * pointers. The test passes when the process survives; the VM harness fails the run on any
 * kernel warning, oops or leak report, and the unload test checks nothing leaked.
 */
#include "garnet_test.h"

#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* Small values, edge values, real handles and real pointers are likelier to get somewhere. */
static uint64_t interesting(const uint32_t *handles, int nhandles, void *buf)
{
	switch (next() % 8) {
	case 0:
		return next() % 8;
	case 1:
		return handles[next() % nhandles];
	case 2:
		return (uintptr_t)buf + next() % 4096;
	case 3:
		return ~0ull - next() % 4;
	case 4:
		return 1ull << (next() % 64);
	case 5:
		return 4096 * (next() % 512);
	default:
		return next();
	}
}

static void fuzz(int fd, int iterations)
{
	uint32_t handles[8];
	void *buf = malloc(1 << 20);

	for (int i = 0; i < 8; i++)
		handles[i] = gt_create(fd, 4096 << i);
	for (int i = 0; i < iterations; i++) {
		uint64_t args[16];
		unsigned int nr = DRM_COMMAND_BASE + next() % 0x60;
		unsigned int size = (next() % 2) ? 8 * (1 + next() % 8) : 8 * (1 + next() % 16);
		unsigned int dir = (unsigned int)(next() % 4);
		unsigned long cmd;
		int ret;

		/* GEM_INIT would shrink the aperture under later tests; it is covered in gem_pin. */
		if (nr == DRM_COMMAND_BASE + DRM_I915_GEM_INIT)
			continue;
		for (int j = 0; j < 16; j++)
			args[j] = interesting(handles, 8, buf);
		if (next() % 4 == 0) {
			/* The core GEM ioctls, with the sizes drm_ioctl() would adapt. */
			static const unsigned int core[] = { 0x09, 0x0a, 0x0b, 0x2d, 0x2e };

			nr = core[next() % 5];
		}
		cmd = _IOC(dir, DRM_IOCTL_BASE, nr, size);
		ret = ioctl(fd, cmd, args);
		if (ret == -1 && errno == 0)
			gt_fail(__FILE__, __LINE__, "ioctl 0x%lx failed without errno", cmd);
		/* Close any prime fd a lucky export produced, so fds do not run out. */
		if (ret == 0 && nr == 0x2d && (int)args[1] > 2)
			close((int)args[1]);
	}
	free(buf);
}

static void random_arguments_to_every_ioctl_on_render_node(void)
{
	int fd = gt_open_render();

	fuzz(fd, 20000);
	close(fd);
}

static void random_arguments_to_every_ioctl_as_master(void)
{
	int fd = gt_open_card();

	gt_assert(drmIsMaster(fd));
	state = 0x243f6a8885a308d3ull;
	fuzz(fd, 20000);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(random_arguments_to_every_ioctl_on_render_node,
		   "random-arguments-to-every-ioctl-on-render-node"),
	GT_SUBTEST(random_arguments_to_every_ioctl_as_master,
		   "random-arguments-to-every-ioctl-as-master"),
)
