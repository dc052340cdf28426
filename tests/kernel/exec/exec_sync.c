// SPDX-License-Identifier: MIT
/*
 * Implicit sync with another driver: a buffer from vgem, imported into garnet, carries a vgem
 * fence. A garnet batch that writes the buffer must not run before that fence signals; once it
 * has, the batch runs and vgem's own mapping shows the result. The fence's signal itself wakes
 * the engine: nothing polls while a batch waits.
 *
 * Booted with dep_timeout_ms=1000, a batch waits that long at most for fences on its objects:
 * another driver's, or a queue another process put in front of its last write to a buffer it
 * shares.
 */
#include "gt_exec.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

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

/*
 * A vgem fence that is not signalled for 10 s: a fill of its buffer, and of one of garnet's,
 * runs after the 1 s the module allows, not before, and the log says what it waited for.
 * (Waiting on the vgem buffer itself would wait for vgem's fence too.)
 */
static void a_batch_waits_for_another_drivers_fence_at_most_the_timeout(void)
{
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[2], px[1024];
	volatile uint32_t *vpx;
	long long gave_up;
	struct fenced_fill f;
	struct gt_batch b;
	double t0, waited;
	int64_t t;

	gt_require_param("dep_timeout_ms", 1000);
	queue_fill_behind_vgem_fence(&f);
	gave_up = gt_exec_counter(f.fd, "dep_timeouts");
	handles[0] = f.imported;
	handles[1] = gt_create(f.fd, 4096);
	gtb_init(&b);
	gtb_fill(&b, handles[0], 4096, 0, 0, 1024, 1, 0x6b6b6b6b);
	gtb_fill(&b, handles[1], 4096, 0, 0, 1024, 1, 0x6b6b6b6b);
	gtb_end(&b);
	t0 = now_ms();
	gt_run(f.fd, &b, handles, 2);
	t = 5000ll * 1000 * 1000;
	gt_assert_eq(gt_wait(f.fd, handles[1], &t), 0);
	waited = now_ms() - t0;
	gt_info("the fill ran %.0f ms after it was queued\n", waited);
	gt_assert(waited >= 900);
	gt_assert(gt_exec_counter(f.fd, "dep_timeouts") > gave_up);
	gt_assert(gt_kmsg_count("for a fence of vgem") > 0);
	gt_pread(f.fd, handles[1], 0, px, sizeof(px));
	gt_assert_eq(px[1023], 0x6b6b6b6b);

	map.handle = f.dumb.handle;
	gt_assert_ok(gt_ioctl(f.vgem, DRM_IOCTL_MODE_MAP_DUMB, &map));
	vpx = mmap(NULL, 4096, PROT_READ, MAP_SHARED, f.vgem, (off_t)map.offset);
	gt_assert(vpx != MAP_FAILED);
	gt_assert_eq(vpx[1023], 0x6b6b6b6b);
	munmap((void *)vpx, 4096);
	signal_vgem_fence(&f);
	fenced_fill_close(&f);
}

#define SHARER_QUEUE 6

/*
 * The sharer: its own file (so its own queue), SHARER_QUEUE fills of the vgem buffer, each
 * waiting its 1 s for the vgem fence at the head of the queue, the last one also writing the
 * shared buffer. It says when they are queued, and exits once they have run.
 */
static void sharer(int vgem_dmabuf, int shared_dmabuf, int ready)
{
	int fd = gt_open_render();
	uint32_t handles[2] = { gt_prime_import(fd, vgem_dmabuf), gt_prime_import(fd, shared_dmabuf) };
	int64_t t = -1;
	struct gt_batch b;

	for (int i = 0; i < SHARER_QUEUE; i++) {
		gtb_init(&b);
		gtb_fill(&b, handles[0], 4096, 0, 0, 1024, 1, 0x11110000u + (uint32_t)i);
		if (i == SHARER_QUEUE - 1)
			gtb_fill(&b, handles[1], 4096, 0, 0, 1024, 1, 0xc0c0c0c0);
		gtb_end(&b);
		gt_run(fd, &b, handles, 2);
	}
	gt_assert(write(ready, "q", 1) == 1);
	gt_assert_eq(gt_wait(fd, handles[1], &t), 0);
	close(fd);
	_exit(0);
}

/*
 * Another process shares a buffer and puts a long queue in front of its last write to it
 * (SHARER_QUEUE requests, each waiting 1 s for a vgem fence). A batch of this process that
 * writes the shared buffer (and one of its own) waits 1 s for it, then runs: its own buffer is
 * filled long before the sharer's queue has run, and the sharer's later write lands after it.
 */
static void a_sharers_long_queue_delays_another_process_at_most_the_timeout(void)
{
	int vgem = gt_open_driver("vgem", false), fd = gt_open_render(), ready[2], status;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct vgem_fence_signal sig = { 0 };
	uint32_t shared = gt_create(fd, 4096), own = gt_create(fd, 4096), handles[2];
	int vgem_dmabuf, shared_dmabuf;
	double t0, mine, theirs;
	uint32_t px[1024];
	struct gt_batch b;
	int64_t t;
	char c;
	pid_t pid;

	gt_require_param("dep_timeout_ms", 1000);
	gt_assert_ok(gt_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	gt_assert_ok(drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC, &vgem_dmabuf));
	shared_dmabuf = gt_prime_export(fd, shared);
	gt_assert_ok(pipe(ready));

	t0 = now_ms();
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0)
		sharer(vgem_dmabuf, shared_dmabuf, ready[1]);
	gt_assert(read(ready[0], &c, 1) == 1);

	gtb_init(&b);
	gtb_fill(&b, shared, 4096, 0, 0, 1024, 1, 0xa0a0a0a0);
	gtb_fill(&b, own, 4096, 0, 0, 1024, 1, 0xa0a0a0a0);
	gtb_end(&b);
	handles[0] = shared;
	handles[1] = own;
	gt_run(fd, &b, handles, 2);
	t = 10000ll * 1000 * 1000;
	gt_assert_eq(gt_wait(fd, own, &t), 0);
	mine = now_ms() - t0;

	gt_assert(waitpid(pid, &status, 0) == pid);
	theirs = now_ms() - t0;
	gt_info("this process's batch ran after %.0f ms, the sharer's queue after %.0f ms\n", mine,
		theirs);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* The sharer's queue was long, and this process did not wait for it. */
	gt_assert(theirs >= (SHARER_QUEUE - 1) * 1000.0);
	gt_assert(mine < 3500);
	gt_pread(fd, own, 0, px, sizeof(px));
	gt_assert_eq(px[1023], 0xa0a0a0a0);
	gt_pread(fd, shared, 0, px, sizeof(px));
	gt_assert_eq(px[1023], 0xc0c0c0c0);

	sig.fence = attach.out_fence;
	gt_ioctl(vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig);	/* vgem may have given up already */
	close(ready[0]);
	close(ready[1]);
	close(shared_dmabuf);
	close(vgem_dmabuf);
	close(fd);
	close(vgem);
}

GT_MAIN(
	GT_SUBTEST(engine_waits_for_other_drivers_fences, "engine-waits-for-other-drivers-fences"),
	GT_SUBTEST(fence_signal_wakes_the_engine_that_sleeps_meanwhile,
		   "fence-signal-wakes-the-engine-that-sleeps-meanwhile"),
	GT_SUBTEST_BOOT(a_batch_waits_for_another_drivers_fence_at_most_the_timeout,
			"a-batch-waits-for-another-drivers-fence-at-most-the-timeout",
			"dep_timeout_ms=1000"),
	GT_SUBTEST_BOOT(a_sharers_long_queue_delays_another_process_at_most_the_timeout,
			"a-sharers-long-queue-delays-another-process-at-most-the-timeout",
			"dep_timeout_ms=1000")
)
