// SPDX-License-Identifier: GPL-2.0-only
/*
 * Purgeable objects: after MADVISE(DONTNEED) the kernel may drop an object's pages under
 * memory pressure. Afterwards the object reports purged (MADVISE's retained = 0) and its
 * contents are gone; new pages that appear later are zero, never someone else's data.
 *
 * The shrinker runs in reclaim, which any allocation (also one made under garnet's own locks)
 * may enter, so it only ever trylocks.
 */
#include <linux/dma-resv.h>
#include <linux/fs.h>
#include <linux/shmem_fs.h>

#include <drm/drm_vma_manager.h>

#include "garnet_drv.h"
#include "garnet_gem.h"

/* Caller holds pages_lock, or reads racily to decide whether to try at all. */
static bool purgeable(struct garnet_object *gobj)
{
	struct drm_gem_shmem_object *shmem = &gobj->shmem;
	struct drm_gem_object *obj = &shmem->base;

	return shmem->madv > 0 && !shmem->pages_use_count && !shmem->vmap_use_count &&
	       !gobj->pin_count && obj->filp && obj->filp->f_mapping->nrpages &&
	       !obj->dma_buf && !obj->import_attach &&
	       dma_resv_test_signaled(obj->resv, DMA_RESV_USAGE_BOOKKEEP);
}

static unsigned long purge(struct garnet_device *gdev, struct garnet_object *gobj)
{
	struct drm_gem_object *obj = &gobj->shmem.base;
	struct inode *inode = file_inode(obj->filp);
	unsigned long pages = obj->filp->f_mapping->nrpages;

	WRITE_ONCE(gobj->shmem.madv, -1);	/* PREAD/PWRITE read it without pages_lock */
	drm_vma_node_unmap(&obj->vma_node, obj->dev->anon_inode->i_mapping);
	/* Truncation also unmaps the pages from every GEM_MMAP mapping of the shmem file. */
	shmem_truncate_range(inode, 0, (loff_t)-1);
	invalidate_mapping_pages(inode->i_mapping, 0, (pgoff_t)-1);
	atomic64_inc(&gdev->counters.purged);
	return pages;
}

static unsigned long garnet_shrinker_count(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_device *gdev = container_of(shrinker, struct garnet_device, shrinker);
	struct garnet_object *gobj;
	unsigned long count = 0;

	if (!mutex_trylock(&gdev->objects_lock))
		return 0;
	list_for_each_entry(gobj, &gdev->objects, device_link)
		if (purgeable(gobj))
			count += gobj->shmem.base.filp->f_mapping->nrpages;
	mutex_unlock(&gdev->objects_lock);
	return count ?: SHRINK_EMPTY;
}

static unsigned long garnet_shrinker_scan(struct shrinker *shrinker, struct shrink_control *sc)
{
	struct garnet_device *gdev = container_of(shrinker, struct garnet_device, shrinker);
	struct garnet_object *gobj;
	unsigned long freed = 0;

	if (!mutex_trylock(&gdev->objects_lock))
		return SHRINK_STOP;
	list_for_each_entry(gobj, &gdev->objects, device_link) {
		if (freed >= sc->nr_to_scan)
			break;
		if (!purgeable(gobj))
			continue;
		if (!mutex_trylock(&gobj->shmem.pages_lock))
			continue;
		if (purgeable(gobj))
			freed += purge(gdev, gobj);
		mutex_unlock(&gobj->shmem.pages_lock);
	}
	mutex_unlock(&gdev->objects_lock);
	return freed;
}

int garnet_shrinker_init(struct garnet_device *gdev)
{
	int ret;

	gdev->shrinker.count_objects = garnet_shrinker_count;
	gdev->shrinker.scan_objects = garnet_shrinker_scan;
	gdev->shrinker.seeks = DEFAULT_SEEKS;
	ret = register_shrinker(&gdev->shrinker, "drm-garnet");
	if (!ret)
		gdev->shrinker_registered = true;
	return ret;
}

void garnet_shrinker_fini(struct garnet_device *gdev)
{
	if (gdev->shrinker_registered)
		unregister_shrinker(&gdev->shrinker);
	gdev->shrinker_registered = false;
}
