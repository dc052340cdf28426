// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory domains as the 2008 GEM design defines them: an object may be readable from several
 * domains (caches) at once but written through at most one. Moving an object flushes the write
 * domain when someone else will read, and invalidates the domains that start reading. Every
 * flush and invalidate is counted, so tests can prove which rule fired.
 *
 * Garnet's engine is the CPU, coherent with every CPU mapping (GETPARAM says HAS_LLC): a CPU
 * domain flush or invalidate is bookkeeping only, with no clflush pass over the pages, which
 * would cost a full walk of the object and buy nothing.
 */
#include <linux/dma-resv.h>
#include <linux/sched.h>

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_gem.h"

#define GARNET_GPU_DOMAINS	(I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
				 I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
				 I915_GEM_DOMAIN_VERTEX)
#define GARNET_ALL_DOMAINS	(I915_GEM_DOMAIN_CPU | GARNET_GPU_DOMAINS | \
				 I915_GEM_DOMAIN_GTT | I915_GEM_DOMAIN_WC)

static void count_domains(atomic64_t *counters, u32 domains)
{
	unsigned long bits = domains;
	unsigned int bit;

	for_each_set_bit(bit, &bits, 8)
		atomic64_inc(&counters[bit]);
}

/* CPU access must wait for the GPU: reads for its writes, writes for all its accesses. */
static int wait_for_gpu(struct garnet_object *gobj, u32 read_domains, u32 write_domain)
{
	enum dma_resv_usage usage;
	long ret;

	if (write_domain)
		usage = DMA_RESV_USAGE_READ;
	else if (read_domains & ~GARNET_GPU_DOMAINS)
		usage = DMA_RESV_USAGE_WRITE;
	else
		return 0;

	ret = dma_resv_wait_timeout(gobj->shmem.base.resv, usage, true, MAX_SCHEDULE_TIMEOUT);
	return ret < 0 ? ret : 0;
}

/*
 * Applies the move rules; the caller holds the object's dma_resv lock (execbuffer moves many
 * objects under one ww acquire context) and has checked the domains: write_domain is zero or
 * one bit inside read_domains. Waiting for the GPU is the caller's business.
 */
void garnet_object_move_domains_locked(struct garnet_object *gobj, u32 read_domains,
				       u32 write_domain)
{
	struct garnet_device *gdev = to_garnet_device(gobj->shmem.base.dev);
	u32 flush = 0, invalidate = 0;

	dma_resv_assert_held(gobj->shmem.base.resv);

	/* Without a new writer, readers accumulate: nothing has made their copies stale. */
	if (!write_domain)
		read_domains |= gobj->read_domains;

	/*
	 * Pending writes must reach memory before anyone but the writer reads, and every new
	 * reader's copy predates those writes.
	 */
	if (gobj->write_domain && gobj->write_domain != read_domains) {
		flush |= gobj->write_domain;
		invalidate |= read_domains & ~gobj->write_domain;
	}
	/* A domain that was not reading may hold stale data from before. */
	invalidate |= read_domains & ~gobj->read_domains;

	count_domains(gdev->counters.flush, flush);
	count_domains(gdev->counters.invalidate, invalidate);

	/* debugfs reads both without the reservation lock. */
	WRITE_ONCE(gobj->read_domains, read_domains);
	WRITE_ONCE(gobj->write_domain, write_domain);
}

/*
 * The move would change nothing: no flush, no invalidate, the same domains after. Read without
 * the lock, as the object may change the moment it is dropped anyway.
 */
static bool move_is_noop(struct garnet_object *gobj, u32 read_domains, u32 write_domain)
{
	u32 cur_read = READ_ONCE(gobj->read_domains), cur_write = READ_ONCE(gobj->write_domain);

	if (!write_domain)
		read_domains |= cur_read;
	return read_domains == cur_read && write_domain == cur_write &&
	       (!cur_write || cur_write == read_domains);
}

/*
 * Moves one object for a CPU-side caller: waits for the GPU, locks, applies the rules. A move
 * that changes nothing (every PREAD or PWRITE after the first) takes no lock.
 */
int garnet_object_set_domain(struct garnet_object *gobj, u32 read_domains, u32 write_domain)
{
	struct dma_resv *resv = gobj->shmem.base.resv;
	int ret;

	ret = wait_for_gpu(gobj, read_domains, write_domain);
	if (ret)
		return ret;
	if (move_is_noop(gobj, read_domains, write_domain))
		return 0;

	ret = dma_resv_lock_interruptible(resv, NULL);
	if (ret)
		return ret;
	garnet_object_move_domains_locked(gobj, read_domains, write_domain);
	dma_resv_unlock(resv);
	return 0;
}

int garnet_gem_set_domain_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_set_domain *args = data;
	struct garnet_object *gobj;
	int ret;

	if ((args->read_domains | args->write_domain) & ~GARNET_ALL_DOMAINS)
		return -EINVAL;
	if (!args->read_domains)
		return -EINVAL;
	/* One write domain at most, and the writer must be among the readers. */
	if (args->write_domain & (args->write_domain - 1))
		return -EINVAL;
	if (args->write_domain & ~args->read_domains)
		return -EINVAL;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;
	ret = garnet_object_set_domain(gobj, args->read_domains, args->write_domain);
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

/*
 * The CPU is done writing. Only a pinned object (one the display may scan out) has its CPU
 * write domain flushed now; for any other object the next domain change does it.
 */
int garnet_gem_sw_finish_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_sw_finish *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_object *gobj;
	int ret;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	ret = dma_resv_lock_interruptible(gobj->shmem.base.resv, NULL);
	if (ret)
		goto out;
	if (READ_ONCE(gobj->pin_count) && gobj->write_domain == I915_GEM_DOMAIN_CPU) {
		count_domains(gdev->counters.flush, I915_GEM_DOMAIN_CPU);
		WRITE_ONCE(gobj->write_domain, 0);
	}
	dma_resv_unlock(gobj->shmem.base.resv);
out:
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}
