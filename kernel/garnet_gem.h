/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * garnet GEM objects: shmem-backed, referenced by per-file handles, with the 2008 design's
 * memory domains.
 */
#ifndef GARNET_GEM_H
#define GARNET_GEM_H

#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_mm.h>

struct drm_mode_create_dumb;
struct garnet_device;
struct garnet_proc;
struct vm_area_struct;

struct garnet_object {
	/* First member: drm_gem_shmem_free() frees the whole allocation through it. */
	struct drm_gem_shmem_object shmem;

	/* Link in garnet_device.objects, under objects_lock; empty until the first handle. */
	struct list_head device_link;

	/*
	 * I915_GEM_DOMAIN_* bits: where the contents may be read from, and the one domain
	 * that may hold writes not yet flushed. Protected by the object's dma_resv lock.
	 */
	u32 read_domains;
	u32 write_domain;

	/*
	 * Pins (PIN ioctl), under the GPU lock (garnet_exec.h); the range is the object's binding
	 * in the global GTT. Only pin_file may add pins or unpin; SW_FINISH flushes CPU writes of
	 * pinned objects (the display may scan them out).
	 */
	unsigned int pin_count;
	struct drm_file *pin_file;

	/* Names shared from this object (garnet_share.obj_link), under names_lock. */
	struct list_head shares;
	unsigned int share_count;	/* written under names_lock; debugfs reads it racily */
	/*
	 * Handles as garnet sees them: counted up after the core counts a new handle, down
	 * (under names_lock) before the core lets one go, so never more than the core's
	 * handle_count. While it is above zero under names_lock the object keeps a handle, and
	 * with it the core's PRIME link to its dma-buf (garnet_share.c).
	 */
	atomic_t handles;

	/* The process (garnet_proc.h) whose budget paid for this object; NULL for imports. */
	struct garnet_proc *proc;
};

static inline struct garnet_object *to_garnet_object(struct drm_gem_object *obj)
{
	return container_of(obj, struct garnet_object, shmem.base);
}

struct drm_gem_object *garnet_gem_create_object(struct drm_device *drm, size_t size);
struct drm_gem_object *garnet_gem_prime_import_sg_table(struct drm_device *drm,
							struct dma_buf_attachment *attach,
							struct sg_table *sgt);
struct garnet_object *garnet_gem_lookup(struct drm_file *file, u32 handle);

int garnet_getparam_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_create_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_prime_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma);
int garnet_gem_dumb_create(struct drm_file *file, struct drm_device *drm,
			   struct drm_mode_create_dumb *args);
int garnet_gem_pread_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_pwrite_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_mmap_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_mmap_offset_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_busy_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_madvise_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_set_tiling_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_get_tiling_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* garnet_domain.c */
void garnet_object_move_domains_locked(struct garnet_object *gobj, u32 read_domains,
				       u32 write_domain);
int garnet_object_set_domain(struct garnet_object *gobj, u32 read_domains, u32 write_domain);
int garnet_gem_set_domain_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_sw_finish_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/* garnet_shrinker.c */
int garnet_shrinker_init(struct garnet_device *gdev);
void garnet_shrinker_fini(struct garnet_device *gdev);

#endif /* GARNET_GEM_H */
