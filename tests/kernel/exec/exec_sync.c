// SPDX-License-Identifier: MIT
/*
 * Implicit sync with another driver: a buffer from vgem, imported into garnet, carries a vgem
 * fence. A garnet batch that writes the buffer must not run before that fence signals; once it
 * has, the batch runs and vgem's own mapping shows the result. The fence's signal itself wakes
 * the engine: nothing polls while a batch waits.
 */
#include "gt_exec.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void engine_waits_for_other_drivers_fences(void)
{
	int vgem = gt_open_driver("vgem", false), fd = gt_open_render(), dmabuf;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct drm_mode_map_dumb map = { 0 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct vgem_fence_signal sig = { 0 };
	volatile uint32_t *px;
	uint32_t imported;
	struct gt_batch b;
	int64_t t = 0;

	gt_assert_ok(gt_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	map.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &map));
	px = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, vgem, (off_t)map.offset);
	gt_assert(px != MAP_FAILED);
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	gt_assert_ok(drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC, &dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(fd, dmabuf, &imported));

	gtb_init(&b);
	gtb_fill(&b, imported, 4096, 0, 0, 1024, 1, 0x5a5a5a5a);
	gtb_end(&b);
	gt_run(fd, &b, &imported, 1);
	usleep(300 * 1000);
	gt_assert_eq(gt_wait(fd, imported, &t), -ETIME);
	gt_assert_eq(px[0], 0);
	gt_assert_eq(px[1023], 0);

	sig.fence = attach.out_fence;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
	t = -1;
	gt_assert_eq(gt_wait(fd, imported, &t), 0);
	gt_assert_eq(px[0], 0x5a5a5a5a);
	gt_assert_eq(px[1023], 0x5a5a5a5a);

	munmap((void *)px, 4096);
	close(dmabuf);
	close(fd);
	close(vgem);
}

/*
 * While a batch waits for a vgem fence the engine sleeps (it used to look again every jiffy:
 * about 125 times in half a second at HZ=250), and the signal alone gets the batch run.
 */
static void fence_signal_wakes_the_engine_that_sleeps_meanwhile(void)
{
	int vgem = gt_open_driver("vgem", false), fd = gt_open_render(), dmabuf;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct vgem_fence_signal sig = { 0 };
	uint32_t imported;
	struct gt_batch b;
	long long runs;
	int64_t t = 0;

	gt_assert_ok(gt_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	gt_assert_ok(drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC, &dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(fd, dmabuf, &imported));

	gtb_init(&b);
	gtb_fill(&b, imported, 4096, 0, 0, 1024, 1, 0x5a5a5a5a);
	gtb_end(&b);
	gt_run(fd, &b, &imported, 1);
	usleep(100 * 1000);
	runs = gt_exec_counter(fd, "engine_runs");
	usleep(500 * 1000);
	gt_assert_eq(gt_wait(fd, imported, &t), -ETIME);
	gt_info("engine ran %lld times in 500 ms of waiting\n",
		gt_exec_counter(fd, "engine_runs") - runs);
	gt_assert(gt_exec_counter(fd, "engine_runs") - runs <= 2);

	sig.fence = attach.out_fence;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
	t = 2000ll * 1000 * 1000;
	gt_assert_eq(gt_wait(fd, imported, &t), 0);

	close(dmabuf);
	close(fd);
	close(vgem);
}

GT_MAIN(
	GT_SUBTEST(engine_waits_for_other_drivers_fences, "engine-waits-for-other-drivers-fences"),
	GT_SUBTEST(fence_signal_wakes_the_engine_that_sleeps_meanwhile,
		   "fence-signal-wakes-the-engine-that-sleeps-meanwhile")
)
