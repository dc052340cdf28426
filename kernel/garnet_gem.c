// SPDX-License-Identifier: GPL-2.0-only
/*
 * garnet GEM objects and the i915-numbered ioctls that create, read, write and map them.
 *
 * Objects are shmem-backed through drm_gem_shmem_helper. Fresh shmem pages are zero-filled
 * by the kernel, so a new object never shows a previous user's bytes; garnet keeps no pool of
 * freed pages or objects that could break that (see doc/uapi.md, "No stale data").
 */
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/uaccess.h>
#include <linux/uio.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"
#include "garnet_mem.h"
#include "garnet_pool.h"
#include "garnet_share.h"

/* The first handle puts the object on the device list; imports and dumb buffers included. */
static int garnet_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct garnet_device *gdev = to_garnet_device(obj->dev);
	struct garnet_object *gobj = to_garnet_object(obj);

	garnet_share_handle_opened(gobj);
	mutex_lock(&gdev->objects_lock);
	if (list_empty(&gobj->device_link)) {
		list_add_tail(&gobj->device_link, &gdev->objects);
		atomic_inc(&gdev->object_count);
		atomic64_inc(&gdev->counters.objects_created);
	}
	mutex_unlock(&gdev->objects_lock);
	return 0;
}

static void garnet_gem_close(struct drm_gem_object *obj, struct drm_file *file)
{
	garnet_gtt_handle_closed(to_garnet_object(obj), file);
	garnet_share_handle_closed(to_garnet_object(obj));
}

static void garnet_gem_free(struct drm_gem_object *obj)
{
	struct garnet_device *gdev = to_garnet_device(obj->dev);
	struct garnet_object *gobj = to_garnet_object(obj);

	garnet_share_object_free(gobj);
	garnet_gtt_object_free(gobj);

	mutex_lock(&gdev->objects_lock);
	if (!list_empty(&gobj->device_link)) {
		list_del_init(&gobj->device_link);
		atomic_dec(&gdev->object_count);
		atomic64_inc(&gdev->counters.objects_freed);
	}
	mutex_unlock(&gdev->objects_lock);

	/*
	 * The pool may keep the shmem file (and its pages) for the next object of this size;
	 * not that of an object refused at creation, which never held anything.
	 */
	if (gobj->proc)
		garnet_pool_put(gobj);
	garnet_mem_uncharge(gobj);
	drm_gem_shmem_free(&gobj->shmem);
}

/*
 * MMAP_OFFSET and dma-buf mmap: the mapping is of the object's shmem file itself, as GEM_MMAP's
 * is, instead of the shmem helper's, which pins every page of the object at mmap. Pages are
 * then populated one fault at a time, charged to the faulting task's memory cgroup, counted in
 * its RSS (so the OOM killer sees whose they are) and reclaimable like any shmem page. Like
 * GEM_MMAP's, the mapping holds the file, not the object: it outlives the last handle.
 */
static int map_shmem_file(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	int ret;

	if (!obj->filp)
		return -ENXIO;
	if (is_cow_mapping(vma->vm_flags))
		return -EINVAL;
	ret = call_mmap(obj->filp, vma);
	if (ret)
		return ret;
	vma_set_file(vma, obj->filp);
	/* drm_gem_mmap_obj() insists on it; a GEM mapping never grows past its object. */
	vma->vm_flags |= VM_DONTEXPAND;
	return 0;
}

/* MMAP_OFFSET: vm_pgoff is the object's fake offset, and the caller took a reference. */
static int garnet_gem_object_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	int ret;

	if (obj->import_attach)
		return drm_gem_shmem_object_mmap(obj, vma);

	vma->vm_pgoff -= drm_vma_node_start(&obj->vma_node);
	ret = map_shmem_file(obj, vma);
	if (ret)
		return ret;
	/* shmem's vm_ops never see the object: the reference taken for them goes. */
	vma->vm_private_data = NULL;
	drm_gem_object_put(obj);
	return 0;
}

/* dma-buf mmap of an object garnet exported: vm_pgoff is already the page in the object. */
int garnet_gem_prime_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	return map_shmem_file(obj, vma);
}

static const struct drm_gem_object_funcs garnet_gem_funcs = {
	.free		= garnet_gem_free,
	.open		= garnet_gem_open,
	.close		= garnet_gem_close,
	.print_info	= drm_gem_shmem_object_print_info,
	.pin		= drm_gem_shmem_object_pin,
	.unpin		= drm_gem_shmem_object_unpin,
	.get_sg_table	= drm_gem_shmem_object_get_sg_table,
	.vmap		= drm_gem_shmem_object_vmap,
	.vunmap		= drm_gem_shmem_object_vunmap,
	.mmap		= garnet_gem_object_mmap,
	.vm_ops		= &drm_gem_shmem_vm_ops,
};

struct drm_gem_object *garnet_gem_create_object(struct drm_device *drm, size_t size)
{
	struct garnet_object *gobj;

	gobj = kzalloc(sizeof(*gobj), GFP_KERNEL_ACCOUNT);
	if (!gobj)
		return ERR_PTR(-ENOMEM);
	gobj->shmem.base.funcs = &garnet_gem_funcs;
	/*
	 * The engine, KMS and dma-buf importers write through kernel mappings, which set no dirty
	 * bit: pages given back unmarked would look clean to reclaim, which drops clean shmem
	 * pages, and what was written would read back as zeros.
	 */
	gobj->shmem.pages_mark_dirty_on_put = true;
	gobj->shmem.pages_mark_accessed_on_put = true;
	INIT_LIST_HEAD(&gobj->device_link);
	INIT_LIST_HEAD(&gobj->shares);
	/* A new object is only ever touched by the CPU (pwrite, mmap) first. */
	gobj->read_domains = I915_GEM_DOMAIN_CPU;
	gobj->write_domain = I915_GEM_DOMAIN_CPU;
	return &gobj->shmem.base;
}

/*
 * Mapping an imported object takes its vmap_lock, then the exporter's (dma_buf_vmap). When the
 * exporter uses the shmem helpers too (vgem), both locks are of the helpers' one lockdep class
 * and lockdep reports recursive locking. An import's lock is always the outer one: it gets a
 * class of its own, so an exporter ever taking the two the other way round is still reported.
 */
static struct lock_class_key garnet_import_vmap_key;

struct drm_gem_object *garnet_gem_prime_import_sg_table(struct drm_device *drm,
							struct dma_buf_attachment *attach,
							struct sg_table *sgt)
{
	struct drm_gem_object *obj = drm_gem_shmem_prime_import_sg_table(drm, attach, sgt);

	if (!IS_ERR(obj))
		lockdep_set_class(&to_drm_gem_shmem_obj(obj)->vmap_lock, &garnet_import_vmap_key);
	return obj;
}

/* i915 numbering: a handle that names nothing in this file is -ENOENT (see doc/uapi.md). */
struct garnet_object *garnet_gem_lookup(struct drm_file *file, u32 handle)
{
	struct drm_gem_object *obj = drm_gem_object_lookup(file, handle);

	return obj ? to_garnet_object(obj) : NULL;
}

static void garnet_object_put(struct garnet_object *gobj)
{
	drm_gem_object_put(&gobj->shmem.base);
}

/*
 * Purged by the shrinker after MADVISE(DONTNEED): the contents are gone for good. madv goes
 * negative once and never comes back, and the answer may be stale the moment a lock would be
 * dropped anyway, so it is read without pages_lock.
 */
static bool garnet_object_purged(struct garnet_object *gobj)
{
	return READ_ONCE(gobj->shmem.madv) < 0;
}

static bool range_outside(u64 offset, u64 len, u64 size)
{
	return offset > size || len > size - offset;
}

/*
 * A new object with a handle in file, charged to the file's budget (garnet_mem.c): past the
 * budget the caller gets -ENOMEM before any memory is touched.
 */
static int garnet_gem_create_handle(struct drm_file *file, u64 size, u32 *handle)
{
	struct drm_device *drm = file->minor->dev;
	struct drm_gem_shmem_object *shmem;
	struct file *reused;
	int ret;

	if (size >> PAGE_SHIFT > totalram_pages() || size >> PAGE_SHIFT > INT_MAX)
		return -E2BIG;

	shmem = drm_gem_shmem_create(drm, size);
	if (IS_ERR(shmem))
		return PTR_ERR(shmem);
	ret = garnet_mem_charge(to_garnet_object(&shmem->base), to_garnet_file(file)->proc);
	if (ret)
		goto out;
	/* Reused memory, already zeroed, instead of the fresh file; nobody has seen either. */
	reused = garnet_pool_take(to_garnet_device(drm), size);
	if (reused) {
		fput(shmem->base.filp);
		shmem->base.filp = reused;
	}

	ret = drm_gem_handle_create(file, &shmem->base, handle);
out:
	/* The handle holds the object now, or creating it failed and this frees it. */
	drm_gem_object_put(&shmem->base);
	return ret;
}

int garnet_gem_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_create *args = data;
	u64 size;
	u32 handle;
	int ret;

	/* Sizes that round up to zero (0 and the last page of u64) are invalid, as in i915. */
	if (args->size == 0 || args->size > U64_MAX - (PAGE_SIZE - 1))
		return -EINVAL;
	size = round_up(args->size, PAGE_SIZE);

	ret = garnet_gem_create_handle(file, size, &handle);
	if (ret)
		return ret;
	args->handle = handle;
	args->size = size;
	return 0;
}

/*
 * Dumb buffers are objects like any other, with the same budget. The core has checked the
 * arguments for overflow and zeroed pitch, size and handle; the layout is the shmem helper's.
 */
int garnet_gem_dumb_create(struct drm_file *file, struct drm_device *drm,
			   struct drm_mode_create_dumb *args)
{
	u32 pitch = DIV_ROUND_UP(args->width * args->bpp, 8);
	u64 size = PAGE_ALIGN((u64)pitch * args->height);

	args->pitch = pitch;
	args->size = size;
	return garnet_gem_create_handle(file, size, &args->handle);
}

/*
 * Copies between user memory and the object's shmem pages, a page at a time. No lock is
 * held while user memory is touched, so the user buffer may be a mapping of this very object.
 * The copy goes through an iov_iter, as the page cache's own reads and writes do: the pages
 * are whole page-cache pages, so the hardened-usercopy walk that copy_to_user() makes of a
 * kernel address on every call would only cost time (6% of a 4 KiB PREAD in the guest).
 */
static int garnet_object_copy(struct garnet_object *gobj, u64 offset, u64 len,
			      char __user *user, bool to_object)
{
	struct address_space *mapping = gobj->shmem.base.filp->f_mapping;
	struct iov_iter iter;

	iov_iter_ubuf(&iter, to_object ? ITER_SOURCE : ITER_DEST, user, len);
	while (len) {
		unsigned int in_page = offset_in_page(offset);
		unsigned int chunk = min_t(u64, len, PAGE_SIZE - in_page);
		struct page *page;
		size_t done;

		page = shmem_read_mapping_page(mapping, offset >> PAGE_SHIFT);
		if (IS_ERR(page))
			return PTR_ERR(page);

		if (to_object) {
			done = copy_page_from_iter(page, in_page, chunk, &iter);
			set_page_dirty(page);
		} else {
			done = copy_page_to_iter(page, in_page, chunk, &iter);
		}
		mark_page_accessed(page);
		put_page(page);
		if (done != chunk)
			return -EFAULT;

		offset += chunk;
		len -= chunk;
	}
	return 0;
}

static int garnet_gem_rw(struct drm_file *file, u32 handle, u64 offset, u64 size,
			 u64 data_ptr, bool to_object)
{
	char __user *user = u64_to_user_ptr(data_ptr);
	struct garnet_object *gobj;
	int ret;

	if (size == 0)
		return 0;
	if (!access_ok(user, size))
		return -EFAULT;

	gobj = garnet_gem_lookup(file, handle);
	if (!gobj)
		return -ENOENT;

	if (range_outside(offset, size, gobj->shmem.base.size)) {
		ret = -EINVAL;
		goto out;
	}
	/* Imported dma-bufs have no shmem file of ours to copy through. */
	if (!gobj->shmem.base.filp) {
		ret = -ENXIO;
		goto out;
	}
	if (garnet_object_purged(gobj)) {
		ret = -EFAULT;
		goto out;
	}

	/* The 2008 design: pread moves the object to the CPU read domain, pwrite to CPU write. */
	ret = garnet_object_set_domain(gobj, I915_GEM_DOMAIN_CPU,
				       to_object ? I915_GEM_DOMAIN_CPU : 0);
	if (ret)
		goto out;

	ret = garnet_object_copy(gobj, offset, size, user, to_object);
out:
	garnet_object_put(gobj);
	return ret;
}

int garnet_gem_pread_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_pread *args = data;

	if (args->pad)
		return -EINVAL;
	return garnet_gem_rw(file, args->handle, args->offset, args->size, args->data_ptr, false);
}

int garnet_gem_pwrite_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_pwrite *args = data;

	if (args->pad)
		return -EINVAL;
	return garnet_gem_rw(file, args->handle, args->offset, args->size, args->data_ptr, true);
}

/*
 * The 2008 GEM_MMAP: maps the object's shmem file straight into the caller and returns the
 * address. The mapping keeps the pages alive after the handle is closed, for this process only.
 */
int garnet_gem_mmap_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_mmap *args = data;
	struct garnet_object *gobj;
	unsigned long addr;
	int ret = 0;

	if (args->flags & ~I915_MMAP_WC)
		return -EINVAL;
	/* Objects are always CPU-cached; there is no write-combined view to give. */
	if (args->flags & I915_MMAP_WC)
		return -ENODEV;
	if (args->pad)
		return -EINVAL;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	if (args->size == 0 || !PAGE_ALIGNED(args->offset) ||
	    range_outside(args->offset, args->size, gobj->shmem.base.size)) {
		ret = -EINVAL;
		goto out;
	}
	if (!gobj->shmem.base.filp) {
		ret = -ENXIO;
		goto out;
	}

	addr = vm_mmap(gobj->shmem.base.filp, 0, args->size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, args->offset);
	if (IS_ERR_VALUE(addr)) {
		ret = (int)addr;
		goto out;
	}
	args->addr_ptr = addr;
out:
	garnet_object_put(gobj);
	return ret;
}

int garnet_gem_mmap_offset_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_mmap_offset *args = data;
	struct garnet_object *gobj;
	int ret;

	if (args->pad || args->extensions)
		return -EINVAL;
	switch (args->flags) {
	case I915_MMAP_OFFSET_GTT:
	case I915_MMAP_OFFSET_WB:
		/* Both are the object's pages, CPU-cached and coherent. */
		break;
	case I915_MMAP_OFFSET_WC:
	case I915_MMAP_OFFSET_UC:
	case I915_MMAP_OFFSET_FIXED:
		return -ENODEV;
	default:
		return -EINVAL;
	}

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	if (garnet_object_purged(gobj)) {
		ret = -EFAULT;
		goto out;
	}
	ret = drm_gem_create_mmap_offset(&gobj->shmem.base);
	if (ret)
		goto out;
	args->offset = drm_vma_node_offset_addr(&gobj->shmem.base.vma_node);
out:
	garnet_object_put(gobj);
	return ret;
}

/*
 * i915's encoding: the low 16 bits name the engine that writes (uabi class + 1), the high
 * 16 bits are a mask of engine classes that read. garnet has one engine, class 0 (render).
 */
int garnet_gem_busy_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_busy *args = data;
	struct garnet_object *gobj;
	struct dma_resv *resv;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	resv = gobj->shmem.base.resv;
	args->busy = 0;
	if (!dma_resv_test_signaled(resv, DMA_RESV_USAGE_WRITE))
		args->busy |= 1 | BIT(16);
	else if (!dma_resv_test_signaled(resv, DMA_RESV_USAGE_READ))
		args->busy |= BIT(16);

	garnet_object_put(gobj);
	return 0;
}

int garnet_gem_madvise_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_madvise *args = data;
	struct garnet_object *gobj;
	int ret = 0;

	if (args->madv != I915_MADV_WILLNEED && args->madv != I915_MADV_DONTNEED)
		return -EINVAL;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;

	/* Shared with another driver, the pages are not ours to drop. */
	if (gobj->shmem.base.import_attach) {
		ret = -EINVAL;
		goto out;
	}
	/* Once purged, an object stays purged; retained tells the caller. */
	args->retained = drm_gem_shmem_madvise(&gobj->shmem, args->madv);
out:
	garnet_object_put(gobj);
	return ret;
}

/*
 * garnet has no fence registers and no tiled layouts: only linear objects exist. These two
 * exist because libdrm_intel asks GET_TILING about every object it opens by name.
 */
int garnet_gem_set_tiling_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_set_tiling *args = data;
	struct garnet_object *gobj;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;
	garnet_object_put(gobj);

	if (args->tiling_mode != I915_TILING_NONE)
		return -EINVAL;
	args->stride = 0;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	return 0;
}

int garnet_gem_get_tiling_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_get_tiling *args = data;
	struct garnet_object *gobj;

	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -ENOENT;
	garnet_object_put(gobj);

	args->tiling_mode = I915_TILING_NONE;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	args->phys_swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	return 0;
}
