/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * garnet: a DRM driver for a virtual GPU with GEM objects as the 2008 design describes them.
 * This header holds the device and per-file state shared by every subsystem file.
 */
#ifndef GARNET_DRV_H
#define GARNET_DRV_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/shrinker.h>
#include <linux/xarray.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>

#include "garnet_gtt.h"
#include "garnet_pool.h"

#define GARNET_DRIVER_NAME	"garnet"

/*
 * An allocation whose size a client chose: its memory cgroup pays, and running out is that
 * client's -ENOMEM, never a warning in the kernel log (which fault injection and fuzzing would
 * fill, and which a client could flood).
 */
#define GARNET_GFP_CLIENT	(GFP_KERNEL_ACCOUNT | __GFP_NOWARN)

/* Counters shown in debugfs so that tests can prove which rule fired. */
struct garnet_counters {
	atomic64_t objects_created;
	atomic64_t objects_freed;
	atomic64_t flush[8];		/* per domain bit: write domain flushed */
	atomic64_t invalidate[8];	/* per domain bit: read domain invalidated */
	atomic64_t purged;		/* objects purged by the shrinker */
	atomic64_t share_created;
	atomic64_t share_accepted;
	atomic64_t share_revoked;
	atomic64_t accept_failed;	/* ACCEPT of a name the caller may not have */
	atomic64_t open_denied;		/* GEM_OPEN by global name refused */
	atomic64_t pool_reused;		/* objects created on reused, zeroed memory */
	atomic64_t pool_zeroed_alloc;	/* reused memory zeroed by the creating ioctl */
	atomic64_t pool_zeroed_idle;	/* reused memory zeroed ahead of time */
};

struct garnet_device {
	struct drm_device drm;
	struct platform_device *pdev;

	/* GTT, engine and requests (garnet_exec.h). */
	struct garnet_gpu *gpu;

	/*
	 * Every live object, for debugfs, the shrinker and the leak check at unload.
	 * objects_lock nests inside nothing; the shrinker only trylocks it because it runs
	 * in reclaim, which any allocation may enter.
	 */
	struct mutex objects_lock;
	struct list_head objects;
	atomic_t object_count;

	/* Open files by client id (struct garnet_file), for SHARE's recipient check. */
	struct xarray clients;
	atomic64_t next_client_id;

	/* Shared names (struct garnet_share) hashed by name; protected by names_lock. */
	struct mutex names_lock;
	DECLARE_HASHTABLE(names, 8);

	struct garnet_gtt gtt;
	struct garnet_pool pool;

	/* Brute-force reports, device-wide: bounds the log whatever the number of files. */
	struct ratelimit_state lookup_log_rs;

	struct shrinker shrinker;
	bool shrinker_registered;

	struct garnet_counters counters;

	/* The display (garnet_kms.h): bochs-display or the virtual output. */
	struct garnet_kms *kms;
};

struct garnet_file {
	struct garnet_device *gdev;
	struct drm_file *file;
	u64 client_id;
	/* Names this file created (struct garnet_share.owner_link); protected by names_lock. */
	struct list_head shares;
	unsigned int share_count;	/* under names_lock */
	/* ACCEPT and GEM_OPEN attempts that found nothing this file may open. */
	atomic_t failed_lookups;
	/* Per file, so one noisy client cannot hide another's attempts from the log. */
	struct ratelimit_state lookup_log_rs;
	/* The process that opened it: its memory budget and bans (garnet_proc.h). */
	struct garnet_proc *proc;
	/* Address space, pins, faults and bans of this file (garnet_exec.h). */
	struct garnet_client *client;
};

static inline struct garnet_device *to_garnet_device(struct drm_device *drm)
{
	return container_of(drm, struct garnet_device, drm);
}

static inline struct garnet_file *to_garnet_file(struct drm_file *file)
{
	return file->driver_priv;
}

/* garnet_fops.c */
extern const struct file_operations garnet_fops;

/* garnet_debugfs.c */
void garnet_debugfs_init(struct drm_minor *minor);

#endif /* GARNET_DRV_H */
