/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reuse of freed objects' memory, zeroed before anyone sees it. A freed object's shmem file
 * (with its resident pages) is kept in a pool and handed to the next object of the same size
 * once zeroed: at allocation, or ahead of time by a background worker (module parameter
 * zero_policy). Nothing in the pool is ever visible to a client until zeroed.
 */
#ifndef GARNET_POOL_H
#define GARNET_POOL_H

#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/shrinker.h>
#include <linux/workqueue.h>

struct garnet_device;
struct garnet_object;

struct garnet_pool {
	/* Protects both lists and bytes. The shrinker only trylocks it. */
	struct mutex lock;
	struct list_head dirty;		/* still holding a previous user's data */
	struct list_head clean;		/* zeroed, ready to hand out */
	u64 bytes;
	struct workqueue_struct *zero_wq;
	struct work_struct zero_work;
	struct shrinker shrinker;
	bool shrinker_registered;
};

int garnet_pool_init(struct garnet_device *gdev);
void garnet_pool_fini(struct garnet_device *gdev);

/* Takes the object's shmem file into the pool if it can be reused; true if it did. */
bool garnet_pool_put(struct garnet_object *gobj);
/* A zeroed shmem file of exactly this size, or NULL. */
struct file *garnet_pool_take(struct garnet_device *gdev, size_t size);

#endif /* GARNET_POOL_H */
