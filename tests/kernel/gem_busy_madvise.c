// SPDX-License-Identifier: MIT
/* GEM_BUSY and GEM_MADVISE, with the shrinker purging DONTNEED objects under memory pressure. */
#include "garnet_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int madvise_obj(int fd, uint32_t handle, uint32_t madv, uint32_t *retained)
{
	struct drm_i915_gem_madvise m = { .handle = handle, .madv = madv };
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &m);

	if (retained)
		*retained = m.retained;
	return ret;
}

/* Memory pressure on demand: drop_caches runs every shrinker. */
static void reclaim(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	gt_assert(fd >= 0);
	gt_assert_eq(write(fd, "3\n", 2), 2);
	close(fd);
}

static void idle_object_is_not_busy(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_busy busy = { .handle = gt_create(fd, 4096), .busy = 0xffffffff };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy));
	gt_assert_eq(busy.busy, 0);
	close(fd);
}

static void busy_bad_handle_is_enoent(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_busy busy = { .handle = 0x10101010 };

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy), ENOENT);
	close(fd);
}

static void madvise_bad_value_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(madvise_obj(fd, h, 2, NULL), EINVAL);
	gt_assert_errno(madvise_obj(fd, h, ~0u, NULL), EINVAL);
	close(fd);
}

static void madvise_bad_handle_is_enoent(void)
{
	int fd = gt_open_render();

	gt_assert_errno(madvise_obj(fd, 0x10101010, I915_MADV_DONTNEED, NULL), ENOENT);
	close(fd);
}

static uint32_t filled_object(int fd, size_t size, uint8_t value)
{
	uint32_t h = gt_create(fd, size);
	uint8_t *buf = malloc(size);

	memset(buf, value, size);
	gt_pwrite(fd, h, 0, buf, size);
	free(buf);
	return h;
}

static void dontneed_object_is_purged_under_memory_pressure(void)
{
	const size_t size = 1 << 20;
	int fd = gt_open_render();
	uint32_t h = filled_object(fd, size, 0x77);
	long long purged = gt_counter(fd, "purged");
	uint32_t retained = 0, word;
	struct drm_i915_gem_pread pr = {
		.handle = h, .size = 4, .data_ptr = (uintptr_t)&word,
	};

	gt_assert_ok(madvise_obj(fd, h, I915_MADV_DONTNEED, &retained));
	gt_assert_eq(retained, 1);
	reclaim();
	gt_assert_eq(gt_counter(fd, "purged"), purged + 1);
	/* Purged for good: WILLNEED cannot bring the contents back, and says so. */
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_WILLNEED, &retained));
	gt_assert_eq(retained, 0);
	gt_assert(strstr(gt_debugfs_read(fd, "garnet_objects"), "purged") != NULL);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr), EFAULT);
	close(fd);
}

static void willneed_object_survives_memory_pressure(void)
{
	const size_t size = 1 << 20;
	int fd = gt_open_render();
	uint32_t h = filled_object(fd, size, 0x42);
	uint32_t retained = 0;
	uint8_t out[4096];

	gt_assert_ok(madvise_obj(fd, h, I915_MADV_DONTNEED, &retained));
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_WILLNEED, &retained));
	gt_assert_eq(retained, 1);
	reclaim();
	gt_pread(fd, h, size - sizeof(out), out, sizeof(out));
	for (size_t i = 0; i < sizeof(out); i++)
		gt_assert_eq(out[i], 0x42);
	close(fd);
}

/*
 * A mapping through the DRM fd populates page by page and holds no pages (issue 19), so it
 * does not keep a DONTNEED object from being purged, as a GEM_MMAP mapping never did: the
 * contents go, the mapping then reads fresh zero pages, never anyone's data.
 */
static void mapped_dontneed_object_is_purged_and_reads_zero(void)
{
	const size_t size = 64 * 1024;
	int fd = gt_open_render();
	uint32_t h = filled_object(fd, size, 0x99);
	uint8_t *map = gt_mmap_offset(fd, h, size);
	uint32_t retained = 1;

	gt_assert_eq(map[0], 0x99);
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_DONTNEED, &retained));
	reclaim();
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_WILLNEED, &retained));
	gt_assert_eq(retained, 0);
	for (size_t i = 0; i < size; i += 4096)
		gt_assert_eq(map[i], 0);
	munmap(map, size);
	close(fd);
}

/* What the shrinker dropped never comes back as anyone's data: new pages read zero. */
static void purged_object_mapping_reads_zero(void)
{
	const size_t size = 64 * 1024;
	int fd = gt_open_render();
	uint32_t h = filled_object(fd, size, 0x33);
	uint8_t *map = gt_mmap_cpu(fd, h, 0, size);
	uint32_t retained = 1;

	gt_assert_eq(map[100], 0x33);
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_DONTNEED, &retained));
	reclaim();
	gt_assert_ok(madvise_obj(fd, h, I915_MADV_WILLNEED, &retained));
	gt_assert_eq(retained, 0);
	for (size_t i = 0; i < size; i += 512)
		gt_assert_eq(map[i], 0);
	munmap(map, size);
	close(fd);
}

struct fenced {
	int vgem, fd;
	uint32_t handle;	/* in garnet */
	uint32_t fence;		/* in vgem */
};

static struct fenced fenced_import(uint32_t fence_flags)
{
	struct fenced f = { .vgem = gt_open_driver("vgem", false), .fd = gt_open_render() };
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = fence_flags };
	int dmabuf;

	gt_assert_ok(gt_ioctl(f.vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(f.vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	f.fence = attach.out_fence;
	gt_assert_ok(drmPrimeHandleToFD(f.vgem, dumb.handle, DRM_CLOEXEC, &dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(f.fd, dmabuf, &f.handle));
	close(dmabuf);
	return f;
}

static void signal_fence(struct fenced *f)
{
	struct vgem_fence_signal sig = { .fence = f->fence };

	gt_assert_ok(gt_ioctl(f->vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
}

static uint32_t busy_of(int fd, uint32_t handle)
{
	struct drm_i915_gem_busy busy = { .handle = handle };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy));
	return busy.busy;
}

/* i915's encoding: a pending write sets the writer (class 0 + 1) and its read bit. */
static void busy_reports_pending_write_until_signalled(void)
{
	struct fenced f = fenced_import(VGEM_FENCE_WRITE);

	gt_assert_eq(busy_of(f.fd, f.handle), 1 | 1 << 16);
	signal_fence(&f);
	gt_assert_eq(busy_of(f.fd, f.handle), 0);
	close(f.fd);
	close(f.vgem);
}

static void busy_reports_pending_read_until_signalled(void)
{
	struct fenced f = fenced_import(0);

	gt_assert_eq(busy_of(f.fd, f.handle), 1 << 16);
	signal_fence(&f);
	gt_assert_eq(busy_of(f.fd, f.handle), 0);
	close(f.fd);
	close(f.vgem);
}

struct waiter {
	struct fenced *f;
	uint32_t read, write;
	volatile int done;
	int ret;
};

static void *set_domain_thread(void *data)
{
	struct waiter *w = data;

	w->ret = gt_set_domain(w->f->fd, w->f->handle, w->read, w->write);
	w->done = 1;
	return NULL;
}

/* Returns whether SET_DOMAIN(read, write) waited for the fence to be signalled. */
static bool set_domain_waits(uint32_t fence_flags, uint32_t read, uint32_t write)
{
	struct fenced f = fenced_import(fence_flags);
	struct waiter w = { .f = &f, .read = read, .write = write };
	struct timespec pause = { 0, 200 * 1000 * 1000 };
	bool waited;
	pthread_t t;

	gt_assert_ok(pthread_create(&t, NULL, set_domain_thread, &w));
	nanosleep(&pause, NULL);
	waited = !w.done;
	signal_fence(&f);
	gt_assert_ok(pthread_join(t, NULL));
	gt_assert_eq(w.ret, 0);
	close(f.fd);
	close(f.vgem);
	return waited;
}

/* A CPU read waits for pending GPU writes; a CPU write waits for pending reads too. */
static void cpu_access_waits_for_pending_gpu_work(void)
{
	gt_assert(set_domain_waits(VGEM_FENCE_WRITE, I915_GEM_DOMAIN_CPU, 0));
	gt_assert(set_domain_waits(0, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU));
	/* Reading alongside another reader needs no wait. */
	gt_assert(!set_domain_waits(0, I915_GEM_DOMAIN_CPU, 0));
}

GT_MAIN(
	GT_SUBTEST(idle_object_is_not_busy, "idle-object-is-not-busy"),
	GT_SUBTEST(busy_bad_handle_is_enoent, "busy-bad-handle-is-enoent"),
	GT_SUBTEST(busy_reports_pending_write_until_signalled,
		   "busy-reports-pending-write-until-signalled"),
	GT_SUBTEST(busy_reports_pending_read_until_signalled,
		   "busy-reports-pending-read-until-signalled"),
	GT_SUBTEST(cpu_access_waits_for_pending_gpu_work, "cpu-access-waits-for-pending-gpu-work"),
	GT_SUBTEST(madvise_bad_value_is_einval, "madvise-bad-value-is-einval"),
	GT_SUBTEST(madvise_bad_handle_is_enoent, "madvise-bad-handle-is-enoent"),
	GT_SUBTEST(dontneed_object_is_purged_under_memory_pressure,
		   "dontneed-object-is-purged-under-memory-pressure"),
	GT_SUBTEST(willneed_object_survives_memory_pressure,
		   "willneed-object-survives-memory-pressure"),
	GT_SUBTEST(mapped_dontneed_object_is_purged_and_reads_zero,
		   "mapped-dontneed-object-is-purged-and-reads-zero"),
	GT_SUBTEST(purged_object_mapping_reads_zero, "purged-object-mapping-reads-zero"),
)
