// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software engine: requests run one at a time, in the order they were submitted, on an
 * ordered workqueue. Each request has a seqno and a dma_fence, which every object of the
 * request carries in its reservation object, so BUSY, WAIT, SET_DOMAIN, PREAD/PWRITE and
 * dma-buf importers wait for it like for any GPU.
 *
 * A watchdog bounds every batch: one that runs longer than watchdog_ms is stopped and its
 * fence completes with -ETIMEDOUT; one that touches an address it may not is stopped with
 * -EFAULT. Either way the engine goes on with the next request, the file learns of it (its
 * next EXECBUFFER2 returns -EIO) and after ban_threshold such errors it may submit no more.
 */
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"

bool garnet_isolation;
module_param_named(isolation, garnet_isolation, bool, 0644);
MODULE_PARM_DESC(isolation,
		 "Give each file its own address space with random placement (read at open)");

bool garnet_validate = true;
module_param_named(validate, garnet_validate, bool, 0644);
MODULE_PARM_DESC(validate,
		 "Validate batches before they run (debug: off only to measure the cost; the engine still faults on bad addresses)");

unsigned int garnet_watchdog_ms = 1000;
module_param_named(watchdog_ms, garnet_watchdog_ms, uint, 0644);
MODULE_PARM_DESC(watchdog_ms, "Longest a batch may run before it is stopped as hung");

unsigned int garnet_ban_threshold = 3;
module_param_named(ban_threshold, garnet_ban_threshold, uint, 0644);
MODULE_PARM_DESC(ban_threshold, "Faults and hangs after which a file may submit no more");

static struct garnet_request *to_request(struct dma_fence *fence)
{
	return container_of(fence, struct garnet_request, fence);
}

static const char *fence_driver_name(struct dma_fence *fence)
{
	return GARNET_DRIVER_NAME;
}

static const char *fence_timeline_name(struct dma_fence *fence)
{
	return "render";
}

static void put_deps(struct garnet_request *req)
{
	while (req->ndeps)
		dma_fence_put(req->deps[--req->ndeps]);
	kfree(req->deps);
	req->deps = NULL;
}

/*
 * A fence can outlive every garnet file: another driver's reservation object may hold it.
 * Each fence holds the module, so its ops stay valid until the last reference goes.
 */
static void fence_release(struct dma_fence *fence)
{
	struct garnet_request *req = to_request(fence);

	put_deps(req);
	kvfree(req->cmds);
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

const struct dma_fence_ops garnet_request_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = fence_timeline_name,
	.release = fence_release,
};

int garnet_client_open(struct garnet_file *gfile)
{
	struct garnet_gpu *gpu = gfile->gdev->gpu;
	struct garnet_client *client;

	client = kzalloc(sizeof(*client), GFP_KERNEL);
	if (!client)
		return -ENOMEM;
	kref_init(&client->ref);
	client->gpu = gpu;
	client->id = gfile->client_id;
	ratelimit_state_init(&client->log_rs, 5 * HZ, 10);
	client->vm = &gpu->ggtt;
	if (READ_ONCE(garnet_isolation)) {
		client->own_vm = kzalloc(sizeof(*client->own_vm), GFP_KERNEL);
		if (!client->own_vm) {
			kfree(client);
			return -ENOMEM;
		}
		garnet_vm_init(client->own_vm, gpu->ggtt.size, true);
		mutex_lock(&gpu->lock);
		list_add_tail(&client->own_vm->gpu_link, &gpu->vms);
		mutex_unlock(&gpu->lock);
		client->vm = client->own_vm;
	}
	gfile->client = client;
	return 0;
}

static void client_release(struct kref *ref)
{
	struct garnet_client *client = container_of(ref, struct garnet_client, ref);

	if (client->own_vm) {
		garnet_vm_fini(client->gpu, client->own_vm);
		kfree(client->own_vm);
	}
	kfree(client);
}

void garnet_client_put(struct garnet_client *client)
{
	kref_put(&client->ref, client_release);
}

/* The file is gone; its requests keep the client (and its address space) until they retire. */
void garnet_client_close(struct garnet_file *gfile)
{
	struct garnet_client *client = gfile->client;

	if (!client)
		return;
	gfile->client = NULL;
	garnet_client_put(client);
}

/* -EIO once for every fault or hang not yet reported, and for good once banned. */
int garnet_client_check(struct garnet_client *client)
{
	if (atomic_add_unless(&client->unreported, -1, 0))
		return -EIO;
	return READ_ONCE(client->banned) ? -EIO : 0;
}

static void client_error(struct garnet_client *client, int error, u64 seqno)
{
	struct garnet_gpu *gpu = client->gpu;
	struct drm_device *drm = &gpu->gdev->drm;

	atomic_inc(&client->unreported);
	/* Requests retire one at a time on the engine, so nothing races this. */
	if (atomic_inc_return(&client->errors) >= garnet_ban_threshold && !client->banned) {
		WRITE_ONCE(client->banned, true);
		atomic64_inc(&gpu->counters.bans);
		drm_notice(drm, "client %llu banned after %d faults and hangs\n", client->id,
			   atomic_read(&client->errors));
	}
	if (__ratelimit(&client->log_rs))
		drm_notice(drm, "client %llu: request %llu %s\n", client->id, seqno,
			   error == -ETIMEDOUT ? "hung and was stopped" : "faulted");
}

struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj)
{
	struct garnet_request *req;

	/* Up to 128 KiB for 4096 objects, charged to the client's memory cgroup. */
	req = kzalloc(struct_size(req, objs, nobj), GFP_KERNEL_ACCOUNT);
	if (!req)
		return NULL;
	req->gpu = gpu;
	req->client = client;
	kref_get(&client->ref);
	req->nobj = nobj;
	return req;
}

/*
 * Drops what the request holds; runs in process context, away from the engine. The fence may
 * live on long after (reservation objects and other drivers keep it), so the batch copy and
 * the foreign fences go now, not with the fence's last reference.
 */
static void request_retire(struct work_struct *work)
{
	struct garnet_request *req = container_of(work, struct garnet_request, retire_work);
	unsigned int i;

	kvfree(req->cmds);
	req->cmds = NULL;
	put_deps(req);
	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	garnet_client_put(req->client);
	req->client = NULL;
	dma_fence_put(&req->fence);
}

/* For a request that was never given a fence (execbuffer failed before submission). */
void garnet_request_free_unsubmitted(struct garnet_request *req)
{
	unsigned int i;

	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	garnet_client_put(req->client);
	put_deps(req);
	kvfree(req->cmds);
	kfree(req);
}

/*
 * Implicit sync with other drivers: fences of other contexts in an object's reservation
 * object (all of them when this request writes, the writers' when it reads) are waited for
 * before the batch runs. garnet's own requests are already ordered by the engine queue.
 * Caller holds the reservation lock.
 */
int garnet_request_add_deps(struct garnet_request *req, struct dma_resv *resv, bool write)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;

	dma_resv_for_each_fence(&cursor, resv, write ? DMA_RESV_USAGE_READ : DMA_RESV_USAGE_WRITE,
				fence) {
		struct dma_fence **deps;

		if (fence->context == req->gpu->fence_context || dma_fence_is_signaled(fence))
			continue;
		deps = krealloc_array(req->deps, req->ndeps + 1, sizeof(*deps),
				      GFP_KERNEL_ACCOUNT);
		if (!deps)
			return -ENOMEM;
		req->deps = deps;
		req->deps[req->ndeps++] = dma_fence_get(fence);
	}
	return 0;
}

/* Other drivers get as long as vgem gives its own fences; then the batch does not run. */
#define GARNET_DEP_TIMEOUT	(10 * HZ)

static int wait_deps(struct garnet_request *req)
{
	unsigned int i;

	for (i = 0; i < req->ndeps; i++)
		if (dma_fence_wait_timeout(req->deps[i], false, GARNET_DEP_TIMEOUT) <= 0)
			return -ETIMEDOUT;
	return 0;
}

static void request_run(struct work_struct *work)
{
	struct garnet_request *req = container_of(work, struct garnet_request, run_work);
	struct garnet_gpu *gpu = req->gpu;
	unsigned long deadline;
	int ret = 0;

	if (wait_deps(req)) {
		/* Not this batch's fault: it does not run, and nobody is blamed. */
		dma_fence_set_error(&req->fence, -ETIMEDOUT);
		goto signal;
	}
	deadline = jiffies + msecs_to_jiffies(READ_ONCE(garnet_watchdog_ms));
	if (!READ_ONCE(req->client->banned))
		ret = garnet_cmd_execute(req, deadline);
	else
		ret = -EIO;

	if (ret == -ETIMEDOUT)
		atomic64_inc(&gpu->counters.hangs);
	else if (ret == -EFAULT)
		atomic64_inc(&gpu->counters.faults);
	if (ret == -ETIMEDOUT || ret == -EFAULT)
		client_error(req->client, ret, req->fence.seqno);
	if (ret)
		dma_fence_set_error(&req->fence, ret);
signal:
	atomic64_set(&gpu->completed_seqno, req->fence.seqno);
	atomic64_inc(&gpu->counters.completed);
	dma_fence_signal(&req->fence);
	/* Dropping objects may free them, which takes gpu->lock: not on the engine. */
	INIT_WORK(&req->retire_work, request_retire);
	queue_work(gpu->retire_wq, &req->retire_work);
}

/*
 * Gives the request its fence and queues it. Caller holds gpu->lock (seqnos follow queue
 * order) and has added the fence to every object's reservation object.
 */
void garnet_request_submit(struct garnet_request *req)
{
	struct garnet_gpu *gpu = req->gpu;

	lockdep_assert_held(&gpu->lock);
	dma_fence_get(&req->fence);	/* the engine's, dropped at retire */
	atomic64_inc(&gpu->counters.submitted);
	INIT_WORK(&req->run_work, request_run);
	queue_work(gpu->engine_wq, &req->run_work);
}

/* i915's WAIT: flags must be 0; a negative timeout waits forever; -ETIME when still busy. */
int garnet_gem_wait_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_i915_gem_wait *args = data;
	struct garnet_object *gobj;
	unsigned long timeout;
	ktime_t start;
	long ret;

	if (args->flags)
		return -EINVAL;
	gobj = garnet_gem_lookup(file, args->bo_handle);
	if (!gobj)
		return -ENOENT;

	if (args->timeout_ns < 0)
		timeout = MAX_SCHEDULE_TIMEOUT;
	else
		timeout = nsecs_to_jiffies(args->timeout_ns) + 1;
	start = ktime_get();
	if (args->timeout_ns == 0)
		ret = dma_resv_test_signaled(gobj->shmem.base.resv, DMA_RESV_USAGE_READ);
	else
		ret = dma_resv_wait_timeout(gobj->shmem.base.resv, DMA_RESV_USAGE_READ, true,
					    timeout);
	drm_gem_object_put(&gobj->shmem.base);

	if (args->timeout_ns > 0) {
		args->timeout_ns -= ktime_to_ns(ktime_sub(ktime_get(), start));
		if (args->timeout_ns < 0 || ret == 0)
			args->timeout_ns = 0;
	}
	if (ret < 0)
		return ret;
	return ret == 0 ? -ETIME : 0;
}
