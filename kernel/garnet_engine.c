// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software engine behind the kernel's GPU scheduler (drm_sched). Each process that opens a
 * garnet file gets one entity (all its files share it), so turns go to processes, served in
 * turn by the scheduler, and opening more files buys no more of them. A request is a
 * scheduler job: its finished fence is what every object of the request carries in its
 * reservation object, so BUSY, WAIT, SET_DOMAIN, PREAD/PWRITE, dma-buf importers and other
 * garnet files wait for it like for any GPU. Its dependencies (fences of other processes'
 * requests and of other drivers on the objects it uses) come to the scheduler through the
 * dependency() hook (garnet_deps.c): it runs once they have signalled, or once it has waited
 * dep_timeout_ms for them. One job is on the engine at a time: run_job hands
 * the batch to the engine's workqueue, which runs it and signals the job's hardware fence.
 *
 * The scheduler's timeout handler is the watchdog: a batch that runs longer than watchdog_ms
 * is asked to stop (between commands, or between rows of a blit) and its fence completes with
 * -ETIMEDOUT; one that touches an address it may not is stopped with -EFAULT. Either way the
 * engine goes on with the next job, the file learns of it (its next EXECBUFFER2 returns -EIO)
 * and after ban_threshold such errors, counted per process over all its files, the process may
 * submit no more and its queued batches do not run.
 * A file holds at most GARNET_MAX_INFLIGHT requests and GARNET_MAX_INFLIGHT_BYTES in flight;
 * beyond that its submissions wait (interruptibly) for its own requests to retire.
 */
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_proc.h"

/*
 * Read-only after load: each decides what a client may do to the engine or to others (address
 * checks, how long it may hold the engine, how many hangs it gets), and a limit that can be
 * lifted at runtime, by root or a confused tool, is no promise. Tests boot with the values
 * they need (garnet-vm --module-param).
 */
bool garnet_isolation;
module_param_named(isolation, garnet_isolation, bool, 0444);
MODULE_PARM_DESC(isolation,
		 "Give each file its own address space with random placement (read at open)");

bool garnet_validate = true;
module_param_named(validate, garnet_validate, bool, 0444);
MODULE_PARM_DESC(validate,
		 "Validate batches before they run (debug: off only to measure the cost; the engine still faults on bad addresses)");

unsigned int garnet_watchdog_ms = 1000;
module_param_named(watchdog_ms, garnet_watchdog_ms, uint, 0444);
MODULE_PARM_DESC(watchdog_ms, "Longest a batch may run before it is stopped as hung");

unsigned int garnet_ban_threshold = 3;
module_param_named(ban_threshold, garnet_ban_threshold, uint, 0444);
MODULE_PARM_DESC(ban_threshold, "Faults and hangs after which a process may submit no more");

static struct garnet_request *to_request(struct drm_sched_job *job)
{
	return container_of(job, struct garnet_request, job);
}

static const char *fence_driver_name(struct dma_fence *fence)
{
	return GARNET_DRIVER_NAME;
}

static const char *fence_timeline_name(struct dma_fence *fence)
{
	return "render";
}

/*
 * The hardware fence can outlive every garnet file: the scheduler's fence keeps it (as its
 * parent) for as long as a reservation object keeps that one. Each holds the module, so its
 * ops, and the scheduler the other one names, stay valid until the last reference goes.
 */
static void hw_fence_release(struct dma_fence *fence)
{
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops hw_fence_ops = {
	.get_driver_name = fence_driver_name,
	.get_timeline_name = fence_timeline_name,
	.release = hw_fence_release,
};

/* The process's entity, made with its first file; NULL without memory. */
static struct garnet_entity *entity_get(struct garnet_gpu *gpu, struct garnet_proc *proc)
{
	struct garnet_entity *entity;

	mutex_lock(&gpu->entity_lock);
	entity = proc->entity;
	if (entity) {
		entity->refs++;
		goto out;
	}
	entity = kzalloc(sizeof(*entity), GFP_KERNEL_ACCOUNT);
	if (!entity)
		goto out;
	if (drm_sched_entity_init(&entity->base, DRM_SCHED_PRIORITY_NORMAL, gpu->sched_list, 1,
				  NULL)) {
		kfree(entity);
		entity = NULL;
		goto out;
	}
	entity->refs = 1;
	entity->proc = proc;
	proc->entity = entity;
out:
	mutex_unlock(&gpu->entity_lock);
	return entity;
}

/*
 * With the process's last client: every job of the entity has retired (each holds its
 * client), so nothing of it is queued and the scheduler lets it go at once.
 */
static void entity_put(struct garnet_gpu *gpu, struct garnet_entity *entity)
{
	bool last;

	mutex_lock(&gpu->entity_lock);
	last = !--entity->refs;
	if (last)
		entity->proc->entity = NULL;
	mutex_unlock(&gpu->entity_lock);
	if (!last)
		return;
	drm_sched_entity_fini(&entity->base);
	kfree_rcu(entity, rcu);
}

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
	client->proc = garnet_proc_get(gfile->proc);
	init_waitqueue_head(&client->retired);
	ratelimit_state_init(&client->log_rs, 5 * HZ, 10);
	client->vm = &gpu->ggtt;
	client->entity = entity_get(gpu, client->proc);
	if (!client->entity)
		goto err;
	if (READ_ONCE(garnet_isolation)) {
		client->own_vm = kzalloc(sizeof(*client->own_vm), GFP_KERNEL);
		if (!client->own_vm) {
			entity_put(gpu, client->entity);
			goto err;
		}
		garnet_vm_init(client->own_vm, gpu->ggtt.size, true);
		mutex_lock(&gpu->lock);
		list_add_tail(&client->own_vm->gpu_link, &gpu->vms);
		mutex_unlock(&gpu->lock);
		client->vm = client->own_vm;
	}
	gfile->client = client;
	return 0;

err:
	garnet_proc_put(client->proc);
	kfree(client);
	return -ENOMEM;
}

static void client_release(struct kref *ref)
{
	struct garnet_client *client = container_of(ref, struct garnet_client, ref);

	if (client->own_vm) {
		garnet_vm_fini(client->gpu, client->own_vm);
		kfree(client->own_vm);
	}
	entity_put(client->gpu, client->entity);
	garnet_proc_put(client->proc);
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

/*
 * -EIO once for every fault or hang not yet reported, and for good once banned: the file, the
 * process that opened it, or the process submitting. So a banned process's files stay banned
 * in the hands of its children or of whoever it passes them to.
 */
int garnet_client_check(struct garnet_client *client)
{
	if (atomic_add_unless(&client->unreported, -1, 0))
		return -EIO;
	if (READ_ONCE(client->banned) || READ_ONCE(client->proc->banned) ||
	    garnet_proc_current_banned())
		return -EIO;
	return 0;
}

static void client_error(struct garnet_request *req, int error)
{
	struct garnet_client *client = req->client;
	struct garnet_gpu *gpu = client->gpu;
	struct drm_device *drm = &gpu->gdev->drm;
	struct garnet_proc *proc = req->proc;
	unsigned int threshold = READ_ONCE(garnet_ban_threshold);

	atomic_inc(&client->unreported);
	/* Requests run one at a time on the engine, so nothing races this. */
	if (atomic_inc_return(&client->errors) >= threshold)
		WRITE_ONCE(client->banned, true);
	if (garnet_proc_error(proc, threshold)) {
		WRITE_ONCE(client->banned, true);
		atomic64_inc(&gpu->counters.bans);
		drm_notice(drm, "client %llu banned after %u faults and hangs of process %d\n",
			   client->id, proc->errors, pid_nr(proc->tgid));
	}
	if (__ratelimit(&client->log_rs))
		drm_notice(drm, "client %llu: request %llu %s\n", client->id, req->job.s_fence->finished.seqno,
			   error == -ETIMEDOUT ? "hung and was stopped" : "faulted");
}

static bool try_charge(struct garnet_client *client, u64 bytes)
{
	struct garnet_gpu *gpu = client->gpu;
	bool ok;

	spin_lock(&gpu->sched_lock);
	ok = !client->inflight ||
	     (client->inflight < GARNET_MAX_INFLIGHT &&
	      client->inflight_bytes + bytes <= GARNET_MAX_INFLIGHT_BYTES);
	/* debugfs reads both without the lock. */
	if (ok) {
		WRITE_ONCE(client->inflight, client->inflight + 1);
		WRITE_ONCE(client->inflight_bytes, client->inflight_bytes + bytes);
	}
	spin_unlock(&gpu->sched_lock);
	return ok;
}

/*
 * Counts one more request holding bytes against the file's limits; at the limit, waits
 * (interruptibly, holding nothing) for its own requests to retire, or -EAGAIN with O_NONBLOCK.
 */
int garnet_client_charge(struct garnet_client *client, u64 bytes, bool nonblock)
{
	if (try_charge(client, bytes))
		return 0;
	if (nonblock)
		return -EAGAIN;
	return wait_event_interruptible(client->retired, try_charge(client, bytes));
}

void garnet_client_uncharge(struct garnet_client *client, u64 bytes)
{
	struct garnet_gpu *gpu = client->gpu;

	spin_lock(&gpu->sched_lock);
	WRITE_ONCE(client->inflight, client->inflight - 1);
	WRITE_ONCE(client->inflight_bytes, client->inflight_bytes - bytes);
	spin_unlock(&gpu->sched_lock);
	wake_up_all(&client->retired);
}

static void put_proc(struct garnet_request *req)
{
	garnet_proc_put(req->proc);
	req->proc = NULL;
}

static void request_run(struct work_struct *work);
static void request_retire(struct work_struct *work);

struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj)
{
	struct garnet_request *req;

	/* Up to 128 KiB for 4096 objects, charged to the client's memory cgroup. */
	req = kzalloc(struct_size(req, objs, nobj), GARNET_GFP_CLIENT);
	if (!req)
		return NULL;
	/* Made now: run_job must not allocate. */
	req->hw = kzalloc(sizeof(*req->hw), GFP_KERNEL_ACCOUNT);
	req->proc = garnet_proc_get_current();
	if (!req->hw || !req->proc) {
		garnet_proc_put(req->proc);
		kfree(req->hw);
		kfree(req);
		return NULL;
	}
	req->gpu = gpu;
	req->client = client;
	kref_get(&client->ref);
	req->nobj = nobj;
	INIT_WORK(&req->run_work, request_run);
	INIT_WORK(&req->retire_work, request_retire);
	garnet_deps_init(req);
	return req;
}

/* The request becomes a job of its process's entity. */
int garnet_request_prepare(struct garnet_request *req)
{
	int ret;

	ret = drm_sched_job_init(&req->job, &req->client->entity->base, req->client);
	if (!ret)
		req->job_inited = true;
	return ret;
}

/*
 * The point of no return: the job gets its place on the entity's timeline (seqnos in
 * submission order: caller holds gpu->lock until garnet_request_submit()). Returns the fence
 * the objects must carry.
 */
struct dma_fence *garnet_request_arm(struct garnet_request *req)
{
	lockdep_assert_held(&req->gpu->lock);
	drm_sched_job_arm(&req->job);
	/* Dropped at retire: the module stays while requests are queued or running. */
	__module_get(THIS_MODULE);
	atomic_inc(&req->gpu->requests);
	return &req->job.s_fence->finished;
}

/* Hands the job to the scheduler. Caller holds gpu->lock (push order is seqno order). */
void garnet_request_submit(struct garnet_request *req)
{
	lockdep_assert_held(&req->gpu->lock);
	atomic64_inc(&req->gpu->counters.submitted);
	drm_sched_entity_push_job(&req->job);
}

/* For a request that was never armed (execbuffer failed before submission). */
void garnet_request_free_unsubmitted(struct garnet_request *req)
{
	unsigned int i;

	if (req->job_inited)
		drm_sched_job_cleanup(&req->job);
	garnet_deps_fini(req);
	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	put_proc(req);
	garnet_client_put(req->client);
	kvfree(req->cmds);
	kfree(req->hw);
	kfree(req);
}

/*
 * The engine: runs the batch in process context (on the ordered engine_wq, one at a time),
 * then signals the hardware fence, which completes the job's finished fence.
 */
static void request_run(struct work_struct *work)
{
	struct garnet_request *req = container_of(work, struct garnet_request, run_work);
	struct dma_fence *finished = &req->job.s_fence->finished, *hw = req->hw;
	struct garnet_gpu *gpu = req->gpu;
	int ret;

	atomic64_inc(&gpu->counters.engine_runs);
	if (!READ_ONCE(req->client->banned) && !READ_ONCE(req->proc->banned))
		ret = garnet_cmd_execute(req);
	else
		ret = -EIO;

	if (ret == -ETIMEDOUT)
		atomic64_inc(&gpu->counters.hangs);
	else if (ret == -EFAULT)
		atomic64_inc(&gpu->counters.faults);
	if (ret == -ETIMEDOUT || ret == -EFAULT)
		client_error(req, ret);
	if (ret) {
		/* The scheduler does not pass the hardware fence's error on. */
		dma_fence_set_error(finished, ret);
		dma_fence_set_error(hw, ret);
	}
	/*
	 * The batch copy goes now, and the file's limits count the request no more: whoever sees
	 * the fence signalled sees them given back. The rest goes at retire.
	 */
	kvfree(req->cmds);
	req->cmds = NULL;
	garnet_client_uncharge(req->client, req->charged);
	atomic64_set(&gpu->completed_seqno, hw->seqno);
	atomic64_inc(&gpu->counters.completed);
	/* From here the job may be freed: the scheduler is told it is done. */
	dma_fence_signal(hw);
	dma_fence_put(hw);
}

static struct dma_fence *garnet_run_job(struct drm_sched_job *job)
{
	struct garnet_request *req = to_request(job);
	struct garnet_gpu *gpu = req->gpu;

	/* Jobs run one at a time, in this order: the engine's timeline. */
	__module_get(THIS_MODULE);	/* dropped when the fence is released */
	dma_fence_init(req->hw, &hw_fence_ops, &gpu->fence_lock, gpu->hw_context,
		       ++gpu->hw_seqno);
	req->hw_inited = true;
	/* One reference for the scheduler (returned), one for the engine until it signals. */
	dma_fence_get(req->hw);
	queue_work(gpu->engine_wq, &req->run_work);
	return req->hw;
}

/*
 * The watchdog: the job has been on the engine for watchdog_ms. The engine is asked to stop it
 * (it then completes with -ETIMEDOUT, which counts against the process), and the job goes back
 * where the scheduler took it from, its pending list, from which it is freed once finished:
 * there is no reset to make, nothing else is affected. Should it not have stopped by the next
 * timeout, this runs again. The scheduler took the job off the list, so it cannot be freed
 * meanwhile; once it is back, this no longer touches it.
 */
static enum drm_gpu_sched_stat garnet_timedout_job(struct drm_sched_job *job)
{
	struct garnet_request *req = to_request(job);
	struct drm_gpu_scheduler *sched = job->sched;

	WRITE_ONCE(req->stop, true);
	spin_lock(&sched->job_list_lock);
	list_add(&job->list, &sched->pending_list);
	spin_unlock(&sched->job_list_lock);
	wake_up_interruptible(&sched->wake_up_worker);
	return DRM_GPU_SCHED_STAT_NOMINAL;
}

/*
 * Drops what the request holds; runs in process context, away from the scheduler's thread
 * (dropping objects may free them, which takes gpu->lock). The finished fence may live on long
 * after (reservation objects and other drivers keep it), but it is small: the request and its
 * dependencies go now (its batch copy went when the engine finished with it).
 */
static void request_retire(struct work_struct *work)
{
	struct garnet_request *req = container_of(work, struct garnet_request, retire_work);
	struct garnet_client *client = req->client;
	struct garnet_gpu *gpu = req->gpu;
	unsigned int i;

	drm_sched_job_cleanup(&req->job);
	garnet_deps_fini(req);
	if (!req->hw_inited)
		kfree(req->hw);
	kvfree(req->cmds);	/* NULL unless the job never ran */
	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	put_proc(req);
	if (!req->hw_inited)
		garnet_client_uncharge(client, req->charged);
	garnet_client_put(client);
	kfree(req);
	if (atomic_dec_and_test(&gpu->requests))
		wake_up_var(&gpu->requests);
	module_put(THIS_MODULE);
}

static void garnet_free_job(struct drm_sched_job *job)
{
	struct garnet_request *req = to_request(job);

	queue_work(req->gpu->retire_wq, &req->retire_work);
}

static struct dma_fence *garnet_dependency(struct drm_sched_job *job,
					   struct drm_sched_entity *entity)
{
	return garnet_deps_next(to_request(job));
}

static const struct drm_sched_backend_ops garnet_sched_ops = {
	.dependency = garnet_dependency,
	.run_job = garnet_run_job,
	.timedout_job = garnet_timedout_job,
	.free_job = garnet_free_job,
};

int garnet_engine_init(struct garnet_gpu *gpu)
{
	struct drm_sched_init_args args = {
		.ops = &garnet_sched_ops,
		/* One job on the engine at a time: the next is chosen when it is free. */
		.credit_limit = 1,
		.timeout = msecs_to_jiffies(READ_ONCE(garnet_watchdog_ms)) ?: 1,
		.name = "garnet-render",
		.dev = gpu->gdev->drm.dev,
	};
	int ret;

	spin_lock_init(&gpu->sched_lock);
	mutex_init(&gpu->entity_lock);
	atomic_set(&gpu->requests, 0);
	gpu->hw_context = dma_fence_context_alloc(1);
	gpu->sched_list[0] = &gpu->sched;
	ret = drm_sched_init(&gpu->sched, &args);
	if (!ret)
		gpu->sched_ready = true;
	return ret;
}

/*
 * Every file is closed, and the module was unloadable, so no request is left; wait anyway for
 * the last ones to finish retiring before the scheduler goes.
 */
void garnet_engine_fini(struct garnet_gpu *gpu)
{
	if (!gpu->sched_ready)
		return;
	wait_var_event(&gpu->requests, !atomic_read(&gpu->requests));
	drm_sched_fini(&gpu->sched);
	gpu->sched_ready = false;
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
