// SPDX-License-Identifier: GPL-2.0-only
/*
 * EXECBUFFER2 with i915's numbers and structs: takes a list of objects, binds each into the
 * file's address space (evicting others when it is full), applies relocations, resolves
 * memory domains, copies the batch (the last object, or the first with BATCH_FIRST) into the
 * kernel, validates the copy and queues it on the engine. Every object then carries the
 * request's fence, so waiting for rendering works through the reservation objects.
 *
 * Every field is checked; doc/exec.md lists what each error means.
 */
#include <linux/dma-resv.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sort.h>
#include <linux/uaccess.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "garnet_drv.h"
#include "garnet_eb.h"
#include "garnet_gem.h"

#define GARNET_MAX_OBJECTS	4096
#define GARNET_MAX_BATCH	(16u << 20)

#define EXEC_FLAGS	(I915_EXEC_RING_MASK | I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT | \
			 I915_EXEC_BATCH_FIRST)
/* Fences and 48-bit addresses mean nothing here; error capture is not kept. */
#define OBJECT_FLAGS	(EXEC_OBJECT_NEEDS_FENCE | EXEC_OBJECT_NEEDS_GTT | EXEC_OBJECT_WRITE | \
			 EXEC_OBJECT_SUPPORTS_48B_ADDRESS | EXEC_OBJECT_CAPTURE)

#define GPU_DOMAINS	(I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
			 I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
			 I915_GEM_DOMAIN_VERTEX)

static int check_args(const struct drm_i915_gem_execbuffer2 *args)
{
	u64 ring = args->flags & I915_EXEC_RING_MASK;

	if (args->flags & ~(u64)EXEC_FLAGS)
		return -EINVAL;
	/* One engine: the render ring (DEFAULT means the same). */
	if (ring != I915_EXEC_DEFAULT && ring != I915_EXEC_RENDER)
		return -EINVAL;
	if (args->buffer_count < 1 || args->buffer_count > GARNET_MAX_OBJECTS)
		return -EINVAL;
	/* i915's rule: start and length in whole qwords. */
	if ((args->batch_start_offset | args->batch_len) & 7)
		return -EINVAL;
	/* No cliprects, no DR1/DR4: garnet has no per-cliprect batch replay (doc/exec.md). */
	if (args->num_cliprects || args->cliprects_ptr || args->DR1 || args->DR4)
		return -EINVAL;
	/* Only the default context exists. */
	if (lower_32_bits(args->rsvd1))
		return -ENOENT;
	if (upper_32_bits(args->rsvd1) || args->rsvd2)
		return -EINVAL;
	return 0;
}

static int check_exec_object(const struct drm_i915_gem_exec_object2 *e, u64 vm_size)
{
	if (e->flags & ~(u64)OBJECT_FLAGS)
		return -EINVAL;
	if (e->rsvd1 || e->rsvd2)
		return -EINVAL;
	if (e->alignment && (!is_power_of_2(e->alignment) || e->alignment > vm_size))
		return -EINVAL;
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Copies the list in, looks every handle up; duplicates are refused as in i915. */
static int eb_lookup(struct eb *eb)
{
	struct drm_i915_gem_execbuffer2 *args = eb->args;
	u64 *objs;
	u32 i;
	int ret;

	eb->count = args->buffer_count;
	eb->objs = kvcalloc(eb->count, sizeof(*eb->objs), GARNET_GFP_CLIENT);
	eb->by_handle = kvmalloc_array(eb->count, sizeof(u64), GARNET_GFP_CLIENT);
	objs = kvmalloc_array(eb->count, sizeof(u64), GARNET_GFP_CLIENT);
	ret = -ENOMEM;
	if (!eb->objs || !eb->by_handle || !objs)
		goto out;
	/* The legacy ioctl hands in a list it has converted already. */
	if (!eb->exec) {
		eb->exec = kvmalloc_array(eb->count, sizeof(*eb->exec), GARNET_GFP_CLIENT);
		if (!eb->exec)
			goto out;
		ret = -EFAULT;
		if (copy_from_user(eb->exec, u64_to_user_ptr(args->buffers_ptr),
				   (size_t)eb->count * sizeof(*eb->exec)))
			goto out;
	}

	for (i = 0; i < eb->count; i++) {
		struct drm_i915_gem_exec_object2 *e = &eb->exec[i];

		ret = check_exec_object(e, eb->client->vm->size);
		if (ret)
			goto out;
		eb->objs[i].handle = e->handle;
		eb->objs[i].obj = garnet_gem_lookup(eb->file, e->handle);
		ret = -ENOENT;
		if (!eb->objs[i].obj)
			goto out;
		eb->by_handle[i] = (u64)e->handle << 32 | i;
		objs[i] = (unsigned long)eb->objs[i].obj;
	}

	sort(eb->by_handle, eb->count, sizeof(u64), u64_cmp, NULL);
	sort(objs, eb->count, sizeof(u64), u64_cmp, NULL);
	ret = 0;
	for (i = 1; i < eb->count; i++)
		if (objs[i] == objs[i - 1])
			ret = -EINVAL;
out:
	kvfree(objs);
	return ret;
}

static int eb_check_batch(struct eb *eb, u32 *start, u32 *len)
{
	struct drm_i915_gem_execbuffer2 *args = eb->args;
	struct eb_obj *batch;
	u64 size;

	eb->batch = args->flags & I915_EXEC_BATCH_FIRST ? 0 : eb->count - 1;
	batch = &eb->objs[eb->batch];
	size = batch->obj->shmem.base.size;
	*start = args->batch_start_offset;
	*len = args->batch_len ?: (u32)min_t(u64, size - min_t(u64, *start, size), U32_MAX & ~7u);
	if (!*len || *start >= size || *len > size - *start || *len > GARNET_MAX_BATCH)
		return -EINVAL;
	/* The engine reads the batch; nothing may say it writes it. */
	if (batch->write_domain || eb->exec[eb->batch].flags & EXEC_OBJECT_WRITE)
		return -EINVAL;
	batch->read_domains |= I915_GEM_DOMAIN_COMMAND;
	return 0;
}

static void eb_unpin(struct eb *eb)
{
	u32 i;

	for (i = 0; i < eb->count; i++) {
		if (eb->objs[i].vma)
			garnet_vma_unpin(eb->objs[i].vma);
		eb->objs[i].vma = NULL;
	}
}

/*
 * Binds every object, pinned until the call ends. If they do not all fit, everything else in
 * the space is evicted and binding starts over once: -ENOSPC then means the list can never
 * fit. A busy binding in the way is -EAGAIN with eb->busy. Caller holds gpu->lock.
 */
static int eb_bind(struct eb *eb)
{
	struct garnet_vm *vm = eb->client->vm;
	u64 total = 0;
	int pass, ret = 0;
	u32 i;

	for (i = 0; i < eb->count; i++)
		total += eb->objs[i].obj->shmem.base.size;
	if (total > vm->end - vm->start)
		return -ENOSPC;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < eb->count; i++) {
			struct garnet_vma *vma;

			vma = garnet_vma_bind(eb->gpu, vm, eb->objs[i].obj, eb->exec[i].alignment,
					      &eb->busy);
			if (IS_ERR(vma)) {
				ret = PTR_ERR(vma);
				break;
			}
			eb->objs[i].vma = vma;
			eb->exec[i].offset = vma->node.start;
		}
		if (ret != -ENOSPC)
			return ret;
		eb_unpin(eb);
		ret = garnet_vm_evict_all(eb->gpu, vm, &eb->busy);
		if (ret)
			return ret;
		ret = -ENOSPC;
	}
	return ret;
}

/*
 * The 2008 design's move to the GPU domains (garnet_domain.c applies the rules and counts each
 * flush and invalidate; the CPU's are bookkeeping only). The GPU caches that must be flushed
 * or invalidated are all handled by one MI_FLUSH for the whole execbuffer. Nothing here waits:
 * a request runs after its process's earlier ones and after the other processes' requests it
 * depends on (their fences in the objects' reservations), so a GPU write is visible to every
 * later request that uses the object.
 * Caller holds every reservation lock.
 */
static void eb_move_to_gpu(struct eb *eb)
{
	bool gpu_flush = false;
	u32 i;

	for (i = 0; i < eb->count; i++) {
		struct eb_obj *o = &eb->objs[i];
		struct garnet_object *gobj = o->vma->obj;
		u32 read = o->read_domains, write = o->write_domain;

		if (eb->exec[i].flags & EXEC_OBJECT_WRITE && !write)
			write = I915_GEM_DOMAIN_RENDER;
		read |= write;
		o->write_domain = write;
		if (!read)
			continue;
		if ((gobj->write_domain & GPU_DOMAINS && gobj->write_domain != read) ||
		    read & ~gobj->read_domains & GPU_DOMAINS)
			gpu_flush = true;
		garnet_object_move_domains_locked(gobj, read, write);
	}
	if (gpu_flush)
		atomic64_inc(&eb->gpu->counters.gpu_flushes);
}

static int req_obj_cmp(const void *a, const void *b)
{
	const struct garnet_req_obj *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The kernel's copy of the batch, and what the engine may reach: what runs. */
static struct garnet_request *eb_build_request(struct eb *eb, u32 start, u32 len)
{
	struct garnet_request *req;
	struct garnet_vma *batch = eb->objs[eb->batch].vma;
	u32 i;

	req = garnet_request_alloc(eb->gpu, eb->client, eb->count);
	if (!req)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < eb->count; i++) {
		struct garnet_vma *vma = eb->objs[i].vma;

		req->objs[i].start = vma->node.start;
		req->objs[i].size = vma->obj->shmem.base.size;
		req->objs[i].vaddr = vma->vaddr;
		req->objs[i].index = i;
		req->objs[i].written = eb->objs[i].write_domain ||
				       eb->exec[i].flags & EXEC_OBJECT_WRITE;
		/* The request takes a reference of its own; the call keeps its lookup. */
		req->objs[i].obj = eb->objs[i].obj;
		drm_gem_object_get(&req->objs[i].obj->shmem.base);
	}
	sort(req->objs, req->nobj, sizeof(req->objs[0]), req_obj_cmp, NULL);

	/* Up to 16 MiB the client asked for: its memory cgroup pays, until the request retires. */
	req->cmds = kvmalloc(len, GARNET_GFP_CLIENT);
	if (!req->cmds)
		return req;	/* the caller sees cmds == NULL */
	memcpy(req->cmds, batch->vaddr + start, len);
	req->cmd_dwords = len / 4;
	req->batch_addr = batch->node.start + start;
	return req;
}

static void eb_add_fence(struct eb *eb, struct garnet_request *req)
{
	struct dma_fence *fence = garnet_request_arm(req);
	u32 i;

	for (i = 0; i < eb->count; i++) {
		struct garnet_vma *vma = eb->objs[i].vma;

		dma_resv_add_fence(vma->obj->shmem.base.resv, fence,
				   eb->objs[i].write_domain ? DMA_RESV_USAGE_WRITE :
							      DMA_RESV_USAGE_READ);
	}
}

static void eb_release(struct eb *eb)
{
	u32 i;

	if (eb->objs)
		for (i = 0; i < eb->count; i++)
			if (eb->objs[i].obj)
				drm_gem_object_put(&eb->objs[i].obj->shmem.base);
	kvfree(eb->objs);
	kvfree(eb->exec);
	kvfree(eb->by_handle);
	kvfree(eb->relocs);
}

/*
 * The validator found every object a command of the batch writes (or, with validation off,
 * could not tell, and then every object counts): each is fenced as a write, so BUSY,
 * SET_DOMAIN, dma-buf poll and implicit sync see what the engine really does, whatever the
 * flags said.
 */
static void eb_mark_written(struct eb *eb, struct garnet_request *req, bool validated)
{
	u32 i;

	for (i = 0; i < req->nobj; i++) {
		struct eb_obj *o = &eb->objs[req->objs[i].index];

		if ((req->objs[i].written || !validated) && !o->write_domain)
			o->write_domain = I915_GEM_DOMAIN_RENDER;
	}
}

/*
 * Everything under gpu->lock: binding, relocations, validation, domains, fences, queueing.
 * Nothing here waits: what must wait first (a busy binding in the way, an object to relocate
 * that is still in use, a batch whose earlier writers have not finished) is -EAGAIN with
 * eb->busy, and eb_submit() waits for it with no lock held, then starts over.
 */
static int eb_submit_locked(struct eb *eb, struct drm_gem_object **gem, u32 start, u32 len,
			    u64 charge)
{
	struct garnet_request *req = NULL;
	struct ww_acquire_ctx ctx;
	bool validate;
	u32 i;
	int ret;

	ret = mutex_lock_interruptible(&eb->gpu->lock);
	if (ret)
		return ret;
	ret = eb_bind(eb);
	if (ret)
		goto out_unpin;
	ret = drm_gem_lock_reservations(gem, eb->count, &ctx);
	if (ret)
		goto out_unpin;
	for (i = 0; i < eb->count && !ret; i++)
		ret = dma_resv_reserve_fences(gem[i]->resv, 1);
	if (ret)
		goto out_unlock_resv;
	ret = eb_apply_relocs(eb);
	if (ret)
		goto out_unlock_resv;
	/* The batch is read now: an earlier request (or another driver) may still write it. */
	ret = garnet_resv_busy(gem[eb->batch]->resv, DMA_RESV_USAGE_WRITE, &eb->busy);
	if (ret)
		goto out_unlock_resv;

	req = eb_build_request(eb, start, len);
	if (IS_ERR(req)) {
		ret = PTR_ERR(req);
		req = NULL;
		goto out_unlock_resv;
	}
	ret = -ENOMEM;
	if (!req->cmds)
		goto out_unlock_resv;
	ret = 0;
	validate = READ_ONCE(garnet_validate);
	if (validate)
		/* With its own address space a file's addresses are checked as they are used. */
		ret = garnet_cmd_validate(req, !eb->client->own_vm);
	if (ret)
		goto out_unlock_resv;
	eb_mark_written(eb, req, validate);

	ret = garnet_request_prepare(req);
	for (i = 0; i < eb->count && !ret; i++)
		ret = garnet_deps_collect(req, gem[i], eb->objs[i].write_domain);
	if (ret)
		goto out_unlock_resv;

	eb_move_to_gpu(eb);
	req->charged = charge;
	eb_add_fence(eb, req);
	garnet_request_submit(req);
	req = NULL;	/* the scheduler's now: it may retire and go at any time */

out_unlock_resv:
	drm_gem_unlock_reservations(gem, eb->count, &ctx);
out_unpin:
	eb_unpin(eb);
	mutex_unlock(&eb->gpu->lock);
	/* Dropping object references may free objects, which takes gpu->lock. */
	if (req)
		garnet_request_free_unsubmitted(req);
	return ret;
}

/*
 * What a request holds until it retires, counted against the file's limits: its batch copy
 * and its own struct.
 */
static u64 eb_charge(struct eb *eb, u32 len)
{
	return (u64)len + struct_size((struct garnet_request *)NULL, objs, eb->count);
}

static int eb_submit(struct eb *eb, u32 start, u32 len)
{
	struct drm_gem_object **gem;
	u64 charge = eb_charge(eb, len);
	u32 i;
	int ret;

	/* At its limit a file waits for its own requests, holding no lock. */
	ret = garnet_client_charge(eb->client, charge, eb->file->filp->f_flags & O_NONBLOCK);
	if (ret)
		return ret;
	gem = kvmalloc_array(eb->count, sizeof(*gem), GARNET_GFP_CLIENT);
	ret = -ENOMEM;
	if (!gem)
		goto out_uncharge;
	for (i = 0; i < eb->count; i++)
		gem[i] = &eb->objs[i].obj->shmem.base;
	for (;;) {
		ret = eb_submit_locked(eb, gem, start, len, charge);
		if (ret != -EAGAIN || !eb->busy)
			break;
		ret = garnet_wait_busy(&eb->busy);
		if (ret)
			break;
	}
	kvfree(gem);
out_uncharge:
	if (ret)
		garnet_client_uncharge(eb->client, charge);
	return ret;
}

static int execbuffer(struct eb *eb)
{
	u32 start, len;
	int ret;

	ret = garnet_client_check(eb->client);
	if (!ret)
		ret = check_args(eb->args);
	if (!ret)
		ret = eb_lookup(eb);
	if (!ret)
		ret = eb_copy_relocs(eb);
	if (!ret)
		ret = eb_check_batch(eb, &start, &len);
	if (!ret)
		ret = eb_submit(eb, start, len);
	if (!ret)
		ret = eb_write_back(eb);
	eb_release(eb);
	return ret;
}

int garnet_execbuffer2_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct eb eb = {
		.file = file,
		.gpu = to_garnet_device(drm)->gpu,
		.client = to_garnet_file(file)->client,
		.args = data,
	};

	return execbuffer(&eb);
}

/*
 * The 2008 EXECBUFFER: the same call with the first version of the object list (no flags),
 * always on the render ring. Offsets go back into the caller's list of that version.
 */
int garnet_execbuffer_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_execbuffer *args = data;
	struct drm_i915_gem_exec_object __user *ulist = u64_to_user_ptr(args->buffers_ptr);
	struct drm_i915_gem_execbuffer2 args2 = {
		.buffers_ptr = args->buffers_ptr,
		.buffer_count = args->buffer_count,
		.batch_start_offset = args->batch_start_offset,
		.batch_len = args->batch_len,
		.DR1 = args->DR1,
		.DR4 = args->DR4,
		.num_cliprects = args->num_cliprects,
		.cliprects_ptr = args->cliprects_ptr,
		.flags = I915_EXEC_RENDER,
	};
	struct eb eb = {
		.file = file,
		.gpu = to_garnet_device(drm)->gpu,
		.client = to_garnet_file(file)->client,
		.args = &args2,
		.legacy = true,
	};
	u32 i;

	if (args->buffer_count < 1 || args->buffer_count > GARNET_MAX_OBJECTS)
		return -EINVAL;
	eb.exec = kvcalloc(args->buffer_count, sizeof(*eb.exec), GARNET_GFP_CLIENT);
	if (!eb.exec)
		return -ENOMEM;
	for (i = 0; i < args->buffer_count; i++) {
		struct drm_i915_gem_exec_object e;

		if (copy_from_user(&e, &ulist[i], sizeof(e))) {
			kvfree(eb.exec);
			return -EFAULT;
		}
		eb.exec[i].handle = e.handle;
		eb.exec[i].relocation_count = e.relocation_count;
		eb.exec[i].relocs_ptr = e.relocs_ptr;
		eb.exec[i].alignment = e.alignment;
		eb.exec[i].offset = e.offset;
	}
	return execbuffer(&eb);
}
