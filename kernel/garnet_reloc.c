// SPDX-License-Identifier: GPL-2.0-only
/*
 * Relocations, as the 2008 design has them: each says "write the address of that object, plus
 * delta, at this offset of this object". The target must be an object of the same execbuffer.
 * When the user's presumed_offset is already right nothing is written (the fast path); the
 * addresses used are written back into the user's lists so the next call can take it.
 */
#include <linux/bsearch.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/uaccess.h>

#include "garnet_drv.h"
#include "garnet_eb.h"
#include "garnet_gem.h"

#define GARNET_MAX_RELOCS	(1u << 20)	/* per execbuffer */

#define GPU_DOMAINS	(I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
			 I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
			 I915_GEM_DOMAIN_VERTEX)

static int handle_cmp(const void *key, const void *elt)
{
	u32 handle = *(const u32 *)key, other = *(const u64 *)elt >> 32;

	return handle < other ? -1 : handle > other;
}

/* Index of the object the relocation targets, or -ENOENT: never outside the list. */
static int reloc_target(struct eb *eb, u32 target_handle)
{
	const u64 *hit;

	if (eb->args->flags & I915_EXEC_HANDLE_LUT)
		return target_handle < eb->count ? (int)target_handle : -ENOENT;
	hit = bsearch(&target_handle, eb->by_handle, eb->count, sizeof(u64), handle_cmp);
	return hit ? (int)(u32)*hit : -ENOENT;
}

static int check_reloc(struct eb *eb, struct eb_obj *o, struct drm_i915_gem_relocation_entry *r)
{
	struct eb_obj *target;
	int t = reloc_target(eb, r->target_handle);

	if (t < 0)
		return t;
	/* One write domain at most, GPU domains only. */
	if (r->write_domain & (r->write_domain - 1))
		return -EINVAL;
	if ((r->read_domains | r->write_domain) & ~GPU_DOMAINS)
		return -EINVAL;
	/* A whole, aligned dword inside the object being patched. */
	if (r->offset & 3 || r->offset > o->obj->shmem.base.size - 4)
		return -EINVAL;

	target = &eb->objs[t];
	if (r->write_domain && target->write_domain && r->write_domain != target->write_domain)
		return -EINVAL;
	target->read_domains |= r->read_domains;
	target->write_domain |= r->write_domain;
	/* The kernel copy keeps the index; only presumed_offset ever goes back to the user. */
	r->target_handle = t;
	return 0;
}

int eb_copy_relocs(struct eb *eb)
{
	u64 total = 0, at = 0;
	u32 i, j;
	int ret;

	for (i = 0; i < eb->count; i++)
		total += eb->exec[i].relocation_count;
	if (total > GARNET_MAX_RELOCS)
		return -EINVAL;
	if (!total)
		return 0;

	eb->relocs = kvmalloc_array(total, sizeof(*eb->relocs), GARNET_GFP_CLIENT);
	if (!eb->relocs)
		return -ENOMEM;
	eb->nrelocs = total;

	for (i = 0; i < eb->count; i++) {
		struct eb_obj *o = &eb->objs[i];
		u32 n = eb->exec[i].relocation_count;

		o->relocs = eb->relocs + at;
		o->nreloc = n;
		at += n;
		if (!n)
			continue;
		if (copy_from_user(o->relocs, u64_to_user_ptr(eb->exec[i].relocs_ptr),
				   (size_t)n * sizeof(*o->relocs)))
			return -EFAULT;
		for (j = 0; j < n; j++) {
			ret = check_reloc(eb, o, &o->relocs[j]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Caller holds gpu->lock and every reservation lock; every object is bound. An object still
 * in use (by the engine or another driver) must be idle before the first value is written
 * into it: -EAGAIN sends the caller to wait for it without its locks (eb->busy) and start over.
 */
int eb_apply_relocs(struct eb *eb)
{
	struct garnet_gpu *gpu = eb->gpu;
	u32 i, j;

	for (i = 0; i < eb->count; i++) {
		struct eb_obj *o = &eb->objs[i];
		bool idle = false;

		for (j = 0; j < o->nreloc; j++) {
			struct drm_i915_gem_relocation_entry *r = &o->relocs[j];
			u64 target = eb->objs[r->target_handle].vma->node.start;

			if (r->presumed_offset == target) {
				atomic64_inc(&gpu->counters.reloc_fast);
				continue;
			}
			if (!idle) {
				int ret = garnet_resv_busy(o->obj->shmem.base.resv,
							   DMA_RESV_USAGE_BOOKKEEP, &eb->busy);

				if (ret) {
					atomic64_inc(&gpu->counters.cpu_waits);
					return ret;
				}
				idle = true;
			}
			/* Gen3 addresses are 32 bits wide; the GTT is never larger than 4 GiB. */
			*(u32 *)(o->vma->vaddr + r->offset) = lower_32_bits(target + r->delta);
			r->presumed_offset = target;
			o->relocs_changed = true;
			atomic64_inc(&gpu->counters.reloc_written);
		}
	}
	return 0;
}

/* The addresses used go back to the user: exec objects' offset, relocations' presumed_offset. */
int eb_write_back(struct eb *eb)
{
	struct drm_i915_gem_exec_object2 __user *uexec = u64_to_user_ptr(eb->args->buffers_ptr);
	struct drm_i915_gem_exec_object __user *ulegacy = u64_to_user_ptr(eb->args->buffers_ptr);
	u32 i, j;

	for (i = 0; i < eb->count; i++) {
		struct drm_i915_gem_relocation_entry __user *urelocs;
		struct eb_obj *o = &eb->objs[i];
		u64 __user *offset = eb->legacy ? &ulegacy[i].offset : &uexec[i].offset;

		if (put_user(eb->exec[i].offset, offset))
			return -EFAULT;
		if (!o->relocs_changed)
			continue;
		urelocs = u64_to_user_ptr(eb->exec[i].relocs_ptr);
		for (j = 0; j < o->nreloc; j++)
			if (put_user(o->relocs[j].presumed_offset, &urelocs[j].presumed_offset))
				return -EFAULT;
	}
	return 0;
}
