// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software engine: requests run one at a time. Each file has a queue and a timeline of its
 * own. Turns go to the processes that opened files, the one served longest ago first, and
 * within a process to its files in turn; a turn runs the oldest request of a file, once it
 * is ready: once its dependencies (fences of other files and other drivers on the objects it
 * uses) have signalled. Each request has a dma_fence on its
 * file's timeline, which every object of the request carries in its reservation object, so
 * BUSY, WAIT, SET_DOMAIN, PREAD/PWRITE, dma-buf importers and other garnet files wait for it
 * like for any GPU.
 *
 * A watchdog bounds every batch: one that runs longer than watchdog_ms is stopped and its
 * fence completes with -ETIMEDOUT; one that touches an address it may not is stopped with
 * -EFAULT. Either way the engine goes on with the next request, the file learns of it (its
 * next EXECBUFFER2 returns -EIO) and after ban_threshold such errors, counted per process
 * over all its files, the process may submit no more and its queued batches do not run.
 * A file holds at most GARNET_MAX_INFLIGHT requests and GARNET_MAX_INFLIGHT_BYTES in flight;
 * beyond that its submissions wait (interruptibly) for its own requests to retire.
 */
#include <linux/delay.h>
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_print.h>
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

/*
 * Once dma_fence_remove_callback() returns, the callback is not running: fences call them
 * under their lock, which it takes.
 */
static void put_deps(struct garnet_request *req)
{
	while (req->ndeps) {
		struct garnet_dep *dep = &req->deps[--req->ndeps];

		if (req->deps_armed)
			dma_fence_remove_callback(dep->fence, &dep->cb);
		dma_fence_put(dep->fence);
	}
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
	client->proc = garnet_proc_get(gfile->proc);
	client->fence_context = dma_fence_context_alloc(1);
	INIT_LIST_HEAD(&client->queue);
	INIT_LIST_HEAD(&client->active_link);
	init_waitqueue_head(&client->retired);
	ratelimit_state_init(&client->log_rs, 5 * HZ, 10);
	client->vm = &gpu->ggtt;
	if (READ_ONCE(garnet_isolation)) {
		client->own_vm = kzalloc(sizeof(*client->own_vm), GFP_KERNEL);
		if (!client->own_vm) {
			garnet_proc_put(client->proc);
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
		drm_notice(drm, "client %llu: request %llu %s\n", client->id, req->fence.seqno,
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

struct garnet_request *garnet_request_alloc(struct garnet_gpu *gpu, struct garnet_client *client,
					    unsigned int nobj)
{
	struct garnet_request *req;

	/* Up to 128 KiB for 4096 objects, charged to the client's memory cgroup. */
	req = kzalloc(struct_size(req, objs, nobj), GFP_KERNEL_ACCOUNT);
	if (!req)
		return NULL;
	req->proc = garnet_proc_get_current();
	if (!req->proc) {
		kfree(req);
		return NULL;
	}
	req->gpu = gpu;
	req->client = client;
	kref_get(&client->ref);
	req->nobj = nobj;
	INIT_LIST_HEAD(&req->queue_link);
	return req;
}

static void put_proc(struct garnet_request *req)
{
	garnet_proc_put(req->proc);
	req->proc = NULL;
}

/* On the file's timeline, in submission order. Caller holds gpu->lock. */
void garnet_request_init_fence(struct garnet_request *req)
{
	struct garnet_client *client = req->client;

	lockdep_assert_held(&req->gpu->lock);
	/* Dropped when the fence is released; an open file holds one already. */
	__module_get(THIS_MODULE);
	dma_fence_init(&req->fence, &garnet_request_fence_ops, &req->gpu->fence_lock,
		       client->fence_context, ++client->next_seqno);
}

/*
 * Drops what the request holds; runs in process context, away from the engine. The fence may
 * live on long after (reservation objects and other drivers keep it), so the batch copy and
 * the foreign fences go now, not with the fence's last reference.
 */
static void request_retire(struct work_struct *work)
{
	struct garnet_request *req = container_of(work, struct garnet_request, retire_work);
	struct garnet_client *client = req->client;
	unsigned int i;

	kvfree(req->cmds);
	req->cmds = NULL;
	put_deps(req);
	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	put_proc(req);
	garnet_client_uncharge(client, req->charged);
	WRITE_ONCE(req->client, NULL);
	garnet_client_put(client);
	dma_fence_put(&req->fence);
}

/* For a request that was never given a fence (execbuffer failed before submission). */
void garnet_request_free_unsubmitted(struct garnet_request *req)
{
	unsigned int i;

	for (i = 0; i < req->nobj; i++)
		if (req->objs[i].obj)
			drm_gem_object_put(&req->objs[i].obj->shmem.base);
	put_proc(req);
	garnet_client_put(req->client);
	put_deps(req);
	kvfree(req->cmds);
	kfree(req);
}

/*
 * Implicit sync: fences of other timelines in an object's reservation object (all of them
 * when this request writes, the writers' when it reads) must signal before the batch runs:
 * other drivers' and other garnet files'. The file's own requests run in order anyway.
 * Caller holds the reservation lock.
 */
int garnet_request_add_deps(struct garnet_request *req, struct dma_resv *resv, bool write)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;

	dma_resv_for_each_fence(&cursor, resv, write ? DMA_RESV_USAGE_READ : DMA_RESV_USAGE_WRITE,
				fence) {
		struct garnet_dep *deps;

		if (fence->context == req->client->fence_context || dma_fence_is_signaled(fence))
			continue;
		deps = krealloc_array(req->deps, req->ndeps + 1, sizeof(*deps), GFP_KERNEL_ACCOUNT);
		if (!deps)
			return -ENOMEM;
		req->deps = deps;
		req->deps[req->ndeps++].fence = dma_fence_get(fence);
	}
	return 0;
}

/* Runs wherever the fence signals (possibly in an interrupt): only kicks the engine. */
static void dep_signalled(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct garnet_dep *dep = container_of(cb, struct garnet_dep, cb);

	mod_delayed_work(dep->gpu->engine_wq, &dep->gpu->engine_work, 0);
}

/*
 * Each dependency wakes the engine when it signals, so a head runs as soon as it is ready,
 * with no polling. Done once the array stops moving: a callback is linked on its fence.
 */
static void arm_deps(struct garnet_request *req)
{
	unsigned int i;

	for (i = 0; i < req->ndeps; i++) {
		struct garnet_dep *dep = &req->deps[i];

		dep->gpu = req->gpu;
		/* -ENOENT: signalled already; the callback's node is left empty. */
		dma_fence_add_callback(dep->fence, &dep->cb, dep_signalled);
	}
	req->deps_armed = true;
}

/* Other drivers get as long as vgem gives its own fences; then the batch does not run. */
#define GARNET_DEP_TIMEOUT	(10 * HZ)

static bool deps_signalled(struct garnet_request *req)
{
	unsigned int i;

	for (i = 0; i < req->ndeps; i++)
		if (!dma_fence_is_signaled(req->deps[i].fence))
			return false;
	return true;
}

/*
 * Ready to run: every dependency signalled, or given up on. A head still waiting counts in
 * *wake, the earliest time one gives up (0 while none waits). Caller holds sched_lock.
 */
static bool request_ready(struct garnet_request *req, unsigned long *wake)
{
	if (deps_signalled(req))
		return true;
	if (!req->dep_deadline)
		req->dep_deadline = jiffies + GARNET_DEP_TIMEOUT ?: 1;
	if (time_after_eq(jiffies, req->dep_deadline))
		return true;
	if (!*wake || time_before(req->dep_deadline, *wake))
		*wake = req->dep_deadline;
	return false;
}

/* Takes the head of client's queue; the file goes to the back of its process's line. */
static struct garnet_request *take_head(struct garnet_gpu *gpu, struct garnet_proc *proc,
					struct garnet_client *client)
{
	struct garnet_request *req = list_first_entry(&client->queue, struct garnet_request,
						      queue_link);

	list_del_init(&req->queue_link);
	if (list_empty(&client->queue))
		list_del_init(&client->active_link);
	else
		list_move_tail(&client->active_link, &proc->clients);
	if (list_empty(&proc->clients))
		list_del_init(&proc->active_link);
	proc->last_turn = ++gpu->turns;
	return req;
}

/* The first file of proc in turn whose head is ready, or NULL. */
static struct garnet_client *ready_client(struct garnet_proc *proc, unsigned long *wake)
{
	struct garnet_client *client;

	list_for_each_entry(client, &proc->clients, active_link)
		if (request_ready(list_first_entry(&client->queue, struct garnet_request,
						   queue_link), wake))
			return client;
	return NULL;
}

/*
 * The next request to run, taken off its queue: of the processes with a ready head, the one
 * served longest ago (one that just arrived, too, goes before one that keeps submitting), and
 * of its files the next in turn.
 */
static struct garnet_request *pick_request(struct garnet_gpu *gpu, unsigned long *wake)
{
	struct garnet_proc *proc, *best = NULL;
	struct garnet_client *client, *best_client = NULL;
	struct garnet_request *req = NULL;

	spin_lock(&gpu->sched_lock);
	list_for_each_entry(proc, &gpu->active, active_link) {
		if (best && proc->last_turn >= best->last_turn)
			continue;
		client = ready_client(proc, wake);
		if (client) {
			best = proc;
			best_client = client;
		}
	}
	if (best)
		req = take_head(gpu, best, best_client);
	spin_unlock(&gpu->sched_lock);
	return req;
}

static void request_run(struct garnet_request *req)
{
	struct garnet_gpu *gpu = req->gpu;
	unsigned long deadline;
	int ret = 0;

	if (!deps_signalled(req)) {
		/* Not this batch's fault: it does not run, and nobody is blamed. */
		dma_fence_set_error(&req->fence, -ETIMEDOUT);
		goto signal;
	}
	deadline = jiffies + msecs_to_jiffies(READ_ONCE(garnet_watchdog_ms));
	if (!READ_ONCE(req->client->banned) && !READ_ONCE(req->proc->banned))
		ret = garnet_cmd_execute(req, deadline);
	else
		ret = -EIO;

	if (ret == -ETIMEDOUT)
		atomic64_inc(&gpu->counters.hangs);
	else if (ret == -EFAULT)
		atomic64_inc(&gpu->counters.faults);
	if (ret == -ETIMEDOUT || ret == -EFAULT)
		client_error(req, ret);
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

static void engine_work(struct work_struct *work)
{
	struct garnet_gpu *gpu = container_of(to_delayed_work(work), struct garnet_gpu,
					      engine_work);
	struct garnet_request *req;
	unsigned long wake = 0;

	atomic64_inc(&gpu->counters.engine_runs);
	while ((req = pick_request(gpu, &wake))) {
		request_run(req);
		wake = 0;
	}
	/*
	 * Heads wait for fences, whose callbacks kick the engine; look again by itself only when
	 * the first of them gives up. A kick meanwhile has queued the work already, and this
	 * leaves it be.
	 */
	if (wake)
		queue_delayed_work(gpu->engine_wq, &gpu->engine_work,
				   time_after(wake, jiffies) ? wake - jiffies : 0);
}

/*
 * Queues the request on its file's queue. Caller holds gpu->lock (seqnos follow queue order)
 * and has added the fence to every object's reservation object.
 */
void garnet_request_submit(struct garnet_request *req)
{
	struct garnet_gpu *gpu = req->gpu;
	struct garnet_client *client = req->client;

	lockdep_assert_held(&gpu->lock);
	dma_fence_get(&req->fence);	/* the engine's, dropped at retire */
	atomic64_inc(&gpu->counters.submitted);
	arm_deps(req);
	spin_lock(&gpu->sched_lock);
	list_add_tail(&req->queue_link, &client->queue);
	if (list_empty(&client->active_link))
		list_add_tail(&client->active_link, &client->proc->clients);
	if (list_empty(&client->proc->active_link))
		list_add_tail(&client->proc->active_link, &gpu->active);
	spin_unlock(&gpu->sched_lock);
	mod_delayed_work(gpu->engine_wq, &gpu->engine_work, 0);
}

void garnet_engine_init(struct garnet_gpu *gpu)
{
	INIT_DELAYED_WORK(&gpu->engine_work, engine_work);
	spin_lock_init(&gpu->sched_lock);
	INIT_LIST_HEAD(&gpu->active);
}

/* Every file is closed: run what is queued (other drivers' fences may still hold some). */
void garnet_engine_fini(struct garnet_gpu *gpu)
{
	for (;;) {
		bool idle;

		flush_delayed_work(&gpu->engine_work);
		spin_lock(&gpu->sched_lock);
		idle = list_empty(&gpu->active);
		spin_unlock(&gpu->sched_lock);
		if (idle)
			break;
		msleep(20);
	}
	cancel_delayed_work_sync(&gpu->engine_work);
	drain_workqueue(gpu->retire_wq);
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
