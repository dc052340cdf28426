// SPDX-License-Identifier: GPL-2.0-only
/*
 * The object pool: reuse of freed memory with zeroing before reuse.
 *
 * A freed object whose shmem file nobody else holds (no GEM_MMAP mapping, no dma-buf, no
 * pinned pages) gives its file to the pool instead of to the page allocator. A new object of
 * the same size takes a file from the pool instead of faulting in fresh pages. Every file is
 * zeroed before it leaves the pool:
 *   zero_policy=alloc  the creating ioctl zeroes it (synchronously), before any handle exists;
 *   zero_policy=idle   a background worker zeroes freed files ahead of time, and only files it
 *                      has finished are handed out.
 * pool_mb bounds the pool (0 turns reuse off); both are set at load only. The pool's own
 * shrinker empties it under memory pressure. Only pages nothing else references are cleared
 * in place (see zero_file()).
 */
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/sched.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>

#include "garnet_drv.h"
#include "garnet_gem.h"
#include "garnet_pool.h"

enum zero_policy { ZERO_AT_ALLOC, ZERO_WHEN_IDLE };
static const char *const zero_policy_names[] = { "alloc", "idle" };
static int zero_policy = ZERO_AT_ALLOC;

static int zero_policy_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(zero_policy_names, val);

	if (i < 0)
		return -EINVAL;
	WRITE_ONCE(zero_policy, i);
	return 0;
}

static int zero_policy_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%s\n", zero_policy_names[READ_ONCE(zero_policy)]);
}

static const struct kernel_param_ops zero_policy_ops = {
	.set = zero_policy_set,
	.get = zero_policy_get,
};
/* Read-only after load, as pool_mb: how freed memory is cleared is no runtime choice. */
module_param_cb(zero_policy, &zero_policy_ops, NULL, 0444);
MODULE_PARM_DESC(zero_policy,
		 "When reused object memory is zeroed: alloc (by the creating ioctl) or idle (ahead of time by a worker)");

static unsigned int pool_mb = 64;
module_param(pool_mb, uint, 0444);
MODULE_PARM_DESC(pool_mb, "Freed object memory kept for reuse, in MiB (0: no reuse)");

struct pool_entry {
	struct list_head link;
	struct file *filp;
	size_t size;
};

static struct garnet_device *pool_device(struct garnet_pool *pool)
{
	return container_of(pool, struct garnet_device, pool);
}

/*
 * True if a page of a pooled file is referenced by nothing but the page cache and the caller.
 * Anything else (a pipe that vmsplice filled from an old mapping, in-flight direct I/O, a
 * pin) could read the page later, so it must not be cleared and handed to someone new.
 */
static bool page_is_private(struct page *page)
{
	return !PageCompound(page) && page_count(page) == 2 && !page_mapped(page);
}

/*
 * Clears every resident page in place. A page something else still references is cut out of
 * the file instead (its holder keeps the old page; the file gets a fresh zero page when next
 * touched). Large pages, and pages already on swap, cannot be cleared safely in place either:
 * then the whole file is truncated.
 */
static void zero_file(struct file *filp)
{
	struct inode *inode = file_inode(filp);
	pgoff_t n = i_size_read(inode) >> PAGE_SHIFT;
	bool drop_all = false;
	pgoff_t i;

	for (i = 0; i < n && !drop_all; i++) {
		struct page *page = find_lock_page(filp->f_mapping, i);
		bool private;

		if (!page)
			continue;
		private = page_is_private(page);
		drop_all = PageCompound(page);
		if (private) {
			clear_highpage(page);
			/* Dirty, so reclaim writes the zeros out instead of keeping an old swap copy. */
			set_page_dirty(page);
		}
		unlock_page(page);
		put_page(page);
		if (!private && !drop_all)
			shmem_truncate_range(inode, (loff_t)i << PAGE_SHIFT,
					     ((loff_t)(i + 1) << PAGE_SHIFT) - 1);
		cond_resched();
	}
	/*
	 * Pages swapped out before the loop still hold old data on swap. Pages swapped out
	 * after it was cleared carry zeros, so checking once, here, is enough.
	 */
	if (drop_all || READ_ONCE(SHMEM_I(inode)->swapped))
		shmem_truncate_range(inode, 0, (loff_t)-1);
}

static void drop_entry(struct garnet_pool *pool, struct pool_entry *entry)
{
	lockdep_assert_held(&pool->lock);
	list_del(&entry->link);
	WRITE_ONCE(pool->bytes, pool->bytes - entry->size);
	fput(entry->filp);
	kfree(entry);
}

static void zero_worker(struct work_struct *work)
{
	struct garnet_pool *pool = container_of(work, struct garnet_pool, zero_work);
	struct garnet_device *gdev = pool_device(pool);
	struct pool_entry *entry;

	for (;;) {
		mutex_lock(&pool->lock);
		entry = list_first_entry_or_null(&pool->dirty, struct pool_entry, link);
		if (entry)
			list_del_init(&entry->link);
		mutex_unlock(&pool->lock);
		if (!entry)
			return;

		/* Off every list while zeroing: nobody can take it half done. */
		zero_file(entry->filp);
		atomic64_inc(&gdev->counters.pool_zeroed_idle);

		mutex_lock(&pool->lock);
		list_add_tail(&entry->link, &pool->clean);
		mutex_unlock(&pool->lock);
	}
}

bool garnet_pool_put(struct garnet_object *gobj)
{
	struct garnet_device *gdev = to_garnet_device(gobj->shmem.base.dev);
	struct drm_gem_object *obj = &gobj->shmem.base;
	struct garnet_pool *pool = &gdev->pool;
	struct pool_entry *entry;
	u64 limit = (u64)READ_ONCE(pool_mb) << 20;

	/*
	 * Only a file nobody else can reach: a mapping would keep its own reference to the file
	 * (and would see the next owner's data), and dma-bufs or pinned pages belong elsewhere.
	 * The inode may also be open through another struct file (root opening a mapping's
	 * /proc/PID/map_files entry): every such file holds the dentry, so it must have no
	 * holder but obj->filp. Nothing can open it anew once no mapping is left.
	 */
	if (!limit || !obj->filp || obj->import_attach || obj->dma_buf ||
	    gobj->shmem.pages_use_count || gobj->shmem.sgt || gobj->shmem.madv < 0 ||
	    file_count(obj->filp) != 1 || d_count(obj->filp->f_path.dentry) != 1)
		return false;

	entry = kmalloc(sizeof(*entry), GFP_KERNEL | __GFP_NOWARN);
	if (!entry)
		return false;

	mutex_lock(&pool->lock);
	if (pool->bytes + obj->size > limit) {
		mutex_unlock(&pool->lock);
		kfree(entry);
		return false;
	}
	entry->filp = obj->filp;
	entry->size = obj->size;
	obj->filp = NULL;	/* drm_gem_object_release() must not drop it now */
	WRITE_ONCE(pool->bytes, pool->bytes + entry->size);
	list_add_tail(&entry->link, &pool->dirty);
	mutex_unlock(&pool->lock);

	if (READ_ONCE(zero_policy) == ZERO_WHEN_IDLE)
		queue_work(pool->zero_wq, &pool->zero_work);
	return true;
}

static struct pool_entry *find_size(struct list_head *list, size_t size)
{
	struct pool_entry *entry;

	list_for_each_entry(entry, list, link)
		if (entry->size == size)
			return entry;
	return NULL;
}

struct file *garnet_pool_take(struct garnet_device *gdev, size_t size)
{
	struct garnet_pool *pool = &gdev->pool;
	struct pool_entry *entry;
	bool dirty = false;
	struct file *filp;

	mutex_lock(&pool->lock);
	entry = find_size(&pool->clean, size);
	/* At-allocation zeroing may take a dirty file and clear it right here. */
	if (!entry && READ_ONCE(zero_policy) == ZERO_AT_ALLOC) {
		entry = find_size(&pool->dirty, size);
		dirty = entry != NULL;
	}
	if (entry) {
		list_del(&entry->link);
		WRITE_ONCE(pool->bytes, pool->bytes - entry->size);
	}
	mutex_unlock(&pool->lock);
	if (!entry)
		return NULL;

	filp = entry->filp;
	kfree(entry);
	if (dirty) {
		zero_file(filp);
		atomic64_inc(&gdev->counters.pool_zeroed_alloc);
	}
	atomic64_inc(&gdev->counters.pool_reused);
	return filp;
}

static unsigned long pool_count(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_pool *pool = container_of(shrinker, struct garnet_pool, shrinker);
	unsigned long pages = READ_ONCE(pool->bytes) >> PAGE_SHIFT;

	return pages ?: SHRINK_EMPTY;
}

static unsigned long pool_scan(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_pool *pool = container_of(shrinker, struct garnet_pool, shrinker);
	struct pool_entry *entry, *tmp;
	unsigned long freed = 0;

	if (!mutex_trylock(&pool->lock))
		return SHRINK_STOP;
	list_for_each_entry_safe(entry, tmp, &pool->dirty, link) {
		if (freed >= sc->nr_to_scan)
			break;
		freed += entry->size >> PAGE_SHIFT;
		drop_entry(pool, entry);
	}
	list_for_each_entry_safe(entry, tmp, &pool->clean, link) {
		if (freed >= sc->nr_to_scan)
			break;
		freed += entry->size >> PAGE_SHIFT;
		drop_entry(pool, entry);
	}
	mutex_unlock(&pool->lock);
	return freed;
}

int garnet_pool_init(struct garnet_device *gdev)
{
	struct garnet_pool *pool = &gdev->pool;
	int ret;

	mutex_init(&pool->lock);
	INIT_LIST_HEAD(&pool->dirty);
	INIT_LIST_HEAD(&pool->clean);
	INIT_WORK(&pool->zero_work, zero_worker);
	pool->zero_wq = alloc_workqueue("garnet-zero", WQ_UNBOUND | WQ_FREEZABLE, 1);
	if (!pool->zero_wq)
		return -ENOMEM;

	pool->shrinker.count_objects = pool_count;
	pool->shrinker.scan_objects = pool_scan;
	pool->shrinker.seeks = DEFAULT_SEEKS;
	ret = register_shrinker(&pool->shrinker, "drm-garnet-pool");
	if (ret) {
		destroy_workqueue(pool->zero_wq);
		return ret;
	}
	pool->shrinker_registered = true;
	return 0;
}

void garnet_pool_fini(struct garnet_device *gdev)
{
	struct garnet_pool *pool = &gdev->pool;
	struct pool_entry *entry, *tmp;

	if (!pool->shrinker_registered)
		return;
	unregister_shrinker(&pool->shrinker);
	pool->shrinker_registered = false;
	/* The worker holds an entry off the lists while zeroing: let it put it back first. */
	destroy_workqueue(pool->zero_wq);

	mutex_lock(&pool->lock);
	list_for_each_entry_safe(entry, tmp, &pool->dirty, link)
		drop_entry(pool, entry);
	list_for_each_entry_safe(entry, tmp, &pool->clean, link)
		drop_entry(pool, entry);
	mutex_unlock(&pool->lock);
	mutex_destroy(&pool->lock);
}
