// SPDX-License-Identifier: GPL-2.0-only
/*
 * A request's dependencies: the fences in its objects' reservation objects that must signal
 * before its batch runs (other processes' requests, other drivers' work), waited for by the
 * scheduler through the backend's dependency() hook instead of its own list, for two reasons:
 *
 * - Each wait is bounded. A process sharing a buffer can put any length of queue in front of
 *   its last write to it (long batches, its own waits on other fences), and a fence of another
 *   driver may take as long as that driver lets it. A request waits at most dep_timeout_ms in
 *   all, counted from when it reaches the head of its process's queue; then it runs without
 *   what it still waited for, as i915 does with foreign fences, and the file's log says so.
 *   What it reads may then be half written by its sharer, which could write it anyway.
 * - Collecting them costs no more than it must, under gpu->lock: signalled fences and those
 *   of the process's own queue (which runs in order anyway) are skipped, and the rest are kept
 *   one per fence context (the latest) in an xarray keyed by context, where the scheduler's
 *   own list compares each new fence with every one kept so far.
 *
 * A fence of another process's request on this scheduler is waited for only until that
 * request is on the engine (its "scheduled" fence): the engine runs one request at a time, in
 * the order they got there.
 *
 * Each dependency gets its wait, a fence of ours, made at submission (the scheduler's thread
 * must not allocate) and armed when the scheduler asks for it: it signals when the dependency
 * does or when the request's time is up, whichever comes first. Its timer and its callback on
 * the dependency each hold a reference, and each takes the other's away when it wins.
 */
#include <linux/dma-fence.h>
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/xarray.h>

#include <drm/drm_gem.h>
#include <drm/drm_print.h>
#include <drm/gpu_scheduler.h>

#include "garnet_drv.h"
#include "garnet_exec.h"

unsigned int garnet_dep_timeout_ms = 10000;
module_param_named(dep_timeout_ms, garnet_dep_timeout_ms, uint, 0444);
MODULE_PARM_DESC(dep_timeout_ms,
		 "Longest a batch waits for other processes' and drivers' fences on its objects before it runs without them");

struct garnet_dep_wait {
	struct dma_fence base;
	spinlock_t lock;
	struct dma_fence *dep;		/* reference */
	struct dma_fence_cb cb;
	struct timer_list timer;
};

static const char *wait_driver_name(struct dma_fence *fence)
{
	return GARNET_DRIVER_NAME;
}

static const char *wait_timeline_name(struct dma_fence *fence)
{
	return "dependency";
}

static void wait_release(struct dma_fence *fence)
{
	struct garnet_dep_wait *w = container_of(fence, struct garnet_dep_wait, base);

	dma_fence_put(w->dep);
	dma_fence_free(fence);
	module_put(THIS_MODULE);
}

static const struct dma_fence_ops wait_ops = {
	.get_driver_name = wait_driver_name,
	.get_timeline_name = wait_timeline_name,
	.release = wait_release,
};

/* A wait never armed: the request retired without needing it. */
static void wait_free_unarmed(struct garnet_dep_wait *w)
{
	dma_fence_put(w->dep);
	kfree(w);
}

static void wait_dep_signalled(struct dma_fence *dep, struct dma_fence_cb *cb)
{
	struct garnet_dep_wait *w = container_of(cb, struct garnet_dep_wait, cb);

	dma_fence_signal(&w->base);
	if (del_timer(&w->timer))
		dma_fence_put(&w->base);	/* the timer's */
	dma_fence_put(&w->base);
}

static void wait_timed_out(struct timer_list *t)
{
	struct garnet_dep_wait *w = from_timer(w, t, timer);

	dma_fence_signal(&w->base);
	if (dma_fence_remove_callback(w->dep, &w->cb))
		dma_fence_put(&w->base);	/* the callback's */
	dma_fence_put(&w->base);
}

/*
 * Arms w to signal with its dependency or at deadline (jiffies). The returned reference is
 * the scheduler's.
 */
static struct dma_fence *wait_arm(struct garnet_dep_wait *w, unsigned long deadline)
{
	__module_get(THIS_MODULE);	/* dropped at release: the ops are ours */
	spin_lock_init(&w->lock);
	dma_fence_init(&w->base, &wait_ops, &w->lock, dma_fence_context_alloc(1), 1);

	/* The timer first, so that a callback that comes at once finds it to take away. */
	timer_setup(&w->timer, wait_timed_out, 0);
	w->timer.expires = deadline;
	dma_fence_get(&w->base);
	add_timer(&w->timer);

	dma_fence_get(&w->base);
	if (dma_fence_add_callback(w->dep, &w->cb, wait_dep_signalled)) {
		/* Signalled meanwhile: no callback will come. */
		dma_fence_put(&w->base);
		dma_fence_signal(&w->base);
		if (del_timer(&w->timer))
			dma_fence_put(&w->base);
	}
	return &w->base;
}

void garnet_deps_init(struct garnet_request *req)
{
	xa_init(&req->deps);
}

/* Whether fence is one of the request's own process's jobs (its entity's timeline). */
static bool own_fence(struct garnet_request *req, struct dma_fence *fence)
{
	u64 context = req->client->entity->base.fence_context;

	return fence->context == context || fence->context == context + 1;
}

static int deps_add(struct garnet_request *req, struct dma_fence *fence)
{
	struct drm_sched_fence *s_fence = to_drm_sched_fence(fence);
	struct garnet_dep_wait *w, *old;

	if (dma_fence_is_signaled(fence) || own_fence(req, fence))
		return 0;
	/* Another process's job on this engine: it is enough that it got there first. */
	if (s_fence && s_fence->sched == &req->gpu->sched)
		fence = &s_fence->scheduled;

	old = xa_load(&req->deps, fence->context);
	if (old) {
		if (dma_fence_is_later(fence, old->dep)) {
			dma_fence_put(old->dep);
			old->dep = dma_fence_get(fence);
		}
		return 0;
	}
	w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);
	if (!w)
		return -ENOMEM;
	w->dep = dma_fence_get(fence);
	old = xa_store(&req->deps, fence->context, w, GFP_KERNEL_ACCOUNT);
	if (xa_is_err(old)) {
		wait_free_unarmed(w);
		return xa_err(old);
	}
	return 0;
}

/*
 * Implicit sync: every fence of obj when the request writes it, its writers' when it only
 * reads it. Caller holds obj's reservation lock.
 */
int garnet_deps_collect(struct garnet_request *req, struct drm_gem_object *obj, bool write)
{
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	int ret;

	dma_resv_for_each_fence(&cursor, obj->resv, dma_resv_usage_rw(write), fence) {
		ret = deps_add(req, fence);
		if (ret)
			return ret;
	}
	return 0;
}

static void give_up(struct garnet_request *req, struct dma_fence *dep)
{
	atomic64_inc(&req->gpu->counters.dep_timeouts);
	if (!req->deps_gave_up && __ratelimit(&req->client->log_rs))
		drm_notice(&req->gpu->gdev->drm,
			   "client %llu: a request waited %u ms for a fence of %s (%s) and runs without it\n",
			   req->client->id, READ_ONCE(garnet_dep_timeout_ms),
			   dep->ops->get_driver_name(dep), dep->ops->get_timeline_name(dep));
	req->deps_gave_up = true;
}

/*
 * The scheduler's dependency() hook, on its thread: the next wait, armed, or NULL when there
 * is none left or the request's time for them is up.
 */
struct dma_fence *garnet_deps_next(struct garnet_request *req)
{
	struct garnet_dep_wait *w = req->dep_waiting;
	unsigned long index = 0;

	if (!req->deps_started) {
		req->deps_started = true;
		req->deps_deadline = jiffies + msecs_to_jiffies(READ_ONCE(garnet_dep_timeout_ms));
	}
	/* The last wait ended: by its dependency, or by the timer. */
	if (w) {
		req->dep_waiting = NULL;
		if (!dma_fence_is_signaled(w->dep))
			give_up(req, w->dep);
		dma_fence_put(&w->base);
	}
	while ((w = xa_find(&req->deps, &index, ULONG_MAX, XA_PRESENT))) {
		xa_erase(&req->deps, index);
		if (dma_fence_is_signaled(w->dep)) {
			wait_free_unarmed(w);
			continue;
		}
		if (time_before(jiffies, req->deps_deadline)) {
			req->dep_waiting = w;
			/* One reference for the scheduler, one to look at it when it is done. */
			return dma_fence_get(wait_arm(w, req->deps_deadline));
		}
		give_up(req, w->dep);
		wait_free_unarmed(w);
	}
	return NULL;
}

/* Drops the waits the scheduler never asked for. */
void garnet_deps_fini(struct garnet_request *req)
{
	struct garnet_dep_wait *w;
	unsigned long index;

	if (req->dep_waiting)
		dma_fence_put(&req->dep_waiting->base);
	xa_for_each(&req->deps, index, w)
		wait_free_unarmed(w);
	xa_destroy(&req->deps);
}
