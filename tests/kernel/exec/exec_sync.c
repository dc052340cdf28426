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

/* A vgem buffer holding an unsignalled vgem write fence, imported into garnet, and a garnet
 * batch queued that fills it: the batch must wait for the fence. */
struct fenced_fill {
	int vgem, fd, dmabuf;
	struct drm_mode_create_dumb dumb;
	struct vgem_fence_attach attach;
	uint32_t imported;
};

static void queue_fill_behind_vgem_fence(struct fenced_fill *f)
{
	struct gt_batch b;

	f->vgem = gt_open_driver("vgem", false);
	f->fd = gt_open_render();
	f->dumb = (struct drm_mode_create_dumb){ .width = 1024, .height = 1, .bpp = 32 };
	gt_assert_ok(gt_ioctl(f->vgem, DRM_IOCTL_MODE_CREATE_DUMB, &f->dumb));
	f->attach = (struct vgem_fence_attach){ .handle = f->dumb.handle,
						.flags = VGEM_FENCE_WRITE };
	gt_assert_ok(gt_ioctl(f->vgem, VGEM_IOCTL_FENCE_ATTACH, &f->attach));
	gt_assert_ok(drmPrimeHandleToFD(f->vgem, f->dumb.handle, DRM_CLOEXEC, &f->dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(f->fd, f->dmabuf, &f->imported));

	gtb_init(&b);
	gtb_fill(&b, f->imported, 4096, 0, 0, 1024, 1, 0x5a5a5a5a);
	gtb_end(&b);
	gt_run(f->fd, &b, &f->imported, 1);
}

static void signal_vgem_fence(struct fenced_fill *f)
{
	struct vgem_fence_signal sig = { .fence = f->attach.out_fence };

	gt_assert_ok(gt_ioctl(f->vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
}

static void fenced_fill_close(struct fenced_fill *f)
{
	close(f->dmabuf);
	close(f->fd);
	close(f->vgem);
}

static void engine_waits_for_other_drivers_fences(void)
{
	struct drm_mode_map_dumb map = { 0 };
	struct fenced_fill f;
	volatile uint32_t *px;
	int64_t t = 0;

	queue_fill_behind_vgem_fence(&f);
	map.handle = f.dumb.handle;
	gt_assert_ok(gt_ioctl(f.vgem, DRM_IOCTL_MODE_MAP_DUMB, &map));
	px = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, f.vgem, (off_t)map.offset);
	gt_assert(px != MAP_FAILED);
	usleep(300 * 1000);
	gt_assert_eq(gt_wait(f.fd, f.imported, &t), -ETIME);
	gt_assert_eq(px[0], 0);
	gt_assert_eq(px[1023], 0);

	signal_vgem_fence(&f);
	t = -1;
	gt_assert_eq(gt_wait(f.fd, f.imported, &t), 0);
	gt_assert_eq(px[0], 0x5a5a5a5a);
	gt_assert_eq(px[1023], 0x5a5a5a5a);

	munmap((void *)px, 4096);
	fenced_fill_close(&f);
}

/*
 * While a batch waits for a vgem fence the engine sleeps (it used to look again every jiffy:
 * about 125 times in half a second at HZ=250), and the signal alone gets the batch run.
 */
static void fence_signal_wakes_the_engine_that_sleeps_meanwhile(void)
{
	struct fenced_fill f;
	long long runs;
	int64_t t = 0;

	queue_fill_behind_vgem_fence(&f);
	usleep(100 * 1000);
	runs = gt_exec_counter(f.fd, "engine_runs");
	usleep(500 * 1000);
	gt_assert_eq(gt_wait(f.fd, f.imported, &t), -ETIME);
	gt_info("engine ran %lld times in 500 ms of waiting\n",
		gt_exec_counter(f.fd, "engine_runs") - runs);
	gt_assert(gt_exec_counter(f.fd, "engine_runs") - runs <= 2);

	signal_vgem_fence(&f);
	t = 2000ll * 1000 * 1000;
	gt_assert_eq(gt_wait(f.fd, f.imported, &t), 0);
	fenced_fill_close(&f);
}

GT_MAIN(
	GT_SUBTEST(engine_waits_for_other_drivers_fences, "engine-waits-for-other-drivers-fences"),
	GT_SUBTEST(fence_signal_wakes_the_engine_that_sleeps_meanwhile,
		   "fence-signal-wakes-the-engine-that-sleeps-meanwhile")
)
