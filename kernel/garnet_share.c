// SPDX-License-Identifier: GPL-2.0-only
/*
 * Per-client sharing. Global flink names are small sequential integers that anyone can guess;
 * a garnet name is a random 64-bit number bound to one recipient file, so guessing one is
 * hopeless and finding one meant for someone else gets the same answer as finding nothing.
 *
 * Locking: names_lock protects the device's name table, every object's shares list and every
 * file's shares list. A name holds no reference on its object.
 *
 * A name dies with the object's last handle, as a flink name does. The DRM core drops an
 * object's link to its exported dma-buf at that moment while the dma-buf keeps the object
 * alive; a name that then created a handle would let the object be exported a second time
 * and break the core's one-dma-buf-per-object bookkeeping. So handles found by a name are
 * created under names_lock while the object's own handle count (garnet_gem.h) is above zero:
 * the close that would bring it to zero waits for names_lock, so the core's count cannot
 * reach zero before the new handle is counted.
 */
#include <linux/hashtable.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <linux/device.h>

#include "garnet_drm.h"
#include "garnet_drv.h"
#include "garnet_gem.h"
#include "garnet_share.h"

struct garnet_share {
	u64 name;
	u64 recipient;			/* client id of the only file that may accept */
	u32 flags;			/* GARNET_SHARE_* */
	struct garnet_object *gobj;	/* no reference, see above */
	struct garnet_file *owner;
	struct hlist_node hash_link;	/* garnet_device.names */
	struct list_head obj_link;	/* garnet_object.shares */
	struct list_head owner_link;	/* garnet_file.shares */
};

static struct garnet_share *find_share(struct garnet_device *gdev, u64 name)
{
	struct garnet_share *share;

	lockdep_assert_held(&gdev->names_lock);
	hash_for_each_possible(gdev->names, share, hash_link, name)
		if (share->name == name)
			return share;
	return NULL;
}

static void remove_share(struct garnet_share *share)
{
	hash_del(&share->hash_link);
	list_del(&share->obj_link);
	list_del(&share->owner_link);
	share->owner->share_count--;
	WRITE_ONCE(share->gobj->share_count, share->gobj->share_count - 1);
	kfree(share);
}

void garnet_share_lookup_failed(struct garnet_file *gfile, const char *what)
{
	struct garnet_device *gdev = gfile->gdev;
	unsigned int failures = atomic_inc_return(&gfile->failed_lookups);

	if (__ratelimit(&gfile->lookup_log_rs) && __ratelimit(&gdev->lookup_log_rs))
		dev_warn(gdev->drm.dev,
			 "client %llu (pid %d, %s): %s of a name it may not open, %u failures so far: possible brute-force attempt\n",
			 gfile->client_id, task_pid_nr(current), current->comm, what, failures);
}

/* Caller holds names_lock. A handle may be created only while the object has one elsewhere. */
static int handle_create_alive(struct drm_file *file, struct garnet_object *gobj, u32 *handle)
{
	lockdep_assert_held(&to_garnet_device(gobj->shmem.base.dev)->names_lock);
	if (atomic_read(&gobj->handles) <= 0)
		return -ENOENT;
	return drm_gem_handle_create(file, &gobj->shmem.base, handle);
}

void garnet_share_handle_opened(struct garnet_object *gobj)
{
	atomic_inc(&gobj->handles);
}

void garnet_share_handle_closed(struct garnet_object *gobj)
{
	struct garnet_device *gdev = to_garnet_device(gobj->shmem.base.dev);
	struct garnet_share *share, *tmp;

	mutex_lock(&gdev->names_lock);
	if (atomic_dec_and_test(&gobj->handles))
		list_for_each_entry_safe(share, tmp, &gobj->shares, obj_link)
			remove_share(share);
	mutex_unlock(&gdev->names_lock);
}

int garnet_get_client_id_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_garnet_get_client_id *args = data;

	args->client_id = to_garnet_file(file)->client_id;
	return 0;
}

int garnet_share_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_garnet_share *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_file *gfile = to_garnet_file(file);
	struct garnet_share *share;
	struct garnet_object *gobj;
	int ret = 0;
	u64 name;

	if (args->flags & ~GARNET_SHARE_FLAGS)
		return -EINVAL;
	/* A recipient must be an open file: ids of closed files are never reused. */
	if (!xa_load(&gdev->clients, args->recipient))
		return -ENOENT;

	/* garnet's own ioctls follow the seed: a handle that names nothing is -EINVAL. */
	gobj = garnet_gem_lookup(file, args->handle);
	if (!gobj)
		return -EINVAL;

	/* The client's memory cgroup pays for its names (at most GARNET_MAX_SHARES_PER_FILE). */
	share = kzalloc(sizeof(*share), GFP_KERNEL_ACCOUNT);
	if (!share) {
		ret = -ENOMEM;
		goto out;
	}

	mutex_lock(&gdev->names_lock);
	/* The caller's handle is being closed by another of its threads: it names nothing. */
	if (atomic_read(&gobj->handles) <= 0) {
		mutex_unlock(&gdev->names_lock);
		kfree(share);
		ret = -EINVAL;
		goto out;
	}
	if (gfile->share_count >= GARNET_MAX_SHARES_PER_FILE) {
		mutex_unlock(&gdev->names_lock);
		kfree(share);
		ret = -ENOSPC;
		goto out;
	}
	do {
		name = get_random_u64();
	} while (!name || find_share(gdev, name));

	share->name = name;
	share->recipient = args->recipient;
	share->flags = args->flags;
	share->gobj = gobj;
	share->owner = gfile;
	hash_add(gdev->names, &share->hash_link, name);
	list_add_tail(&share->obj_link, &gobj->shares);
	list_add_tail(&share->owner_link, &gfile->shares);
	gfile->share_count++;
	WRITE_ONCE(gobj->share_count, gobj->share_count + 1);
	mutex_unlock(&gdev->names_lock);

	atomic64_inc(&gdev->counters.share_created);
	args->name = name;
out:
	drm_gem_object_put(&gobj->shmem.base);
	return ret;
}

int garnet_accept_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_garnet_accept *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_file *gfile = to_garnet_file(file);
	struct drm_gem_object *obj = NULL;
	struct garnet_share *share;
	u32 handle;
	int ret;

	if (args->pad)
		return -EINVAL;

	mutex_lock(&gdev->names_lock);
	share = find_share(gdev, args->name);
	/* Unknown, meant for another file, or its object dying: all look the same. */
	if (share && share->recipient == gfile->client_id &&
	    kref_get_unless_zero(&share->gobj->shmem.base.refcount))
		obj = &share->gobj->shmem.base;
	if (!obj) {
		mutex_unlock(&gdev->names_lock);
		atomic64_inc(&gdev->counters.accept_failed);
		garnet_share_lookup_failed(gfile, "ACCEPT");
		return -ENOENT;
	}

	/*
	 * Under names_lock, so a single-use name is accepted exactly once, and so the object
	 * keeps a handle until this one exists (a name of an object with none is already gone).
	 */
	ret = handle_create_alive(file, share->gobj, &handle);
	if (!ret && (share->flags & GARNET_SHARE_SINGLE_USE))
		remove_share(share);
	mutex_unlock(&gdev->names_lock);

	if (!ret) {
		atomic64_inc(&gdev->counters.share_accepted);
		args->handle = handle;
		args->size = obj->size;
	}
	drm_gem_object_put(obj);
	return ret;
}

int garnet_revoke_ioctl(struct drm_device *drm, void *data, struct drm_file *file)
{
	struct drm_garnet_revoke *args = data;
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_file *gfile = to_garnet_file(file);
	struct garnet_share *share;

	mutex_lock(&gdev->names_lock);
	share = find_share(gdev, args->name);
	if (!share || share->owner != gfile) {
		mutex_unlock(&gdev->names_lock);
		return -ENOENT;
	}
	remove_share(share);
	mutex_unlock(&gdev->names_lock);
	atomic64_inc(&gdev->counters.share_revoked);
	return 0;
}

void garnet_share_object_free(struct garnet_object *gobj)
{
	struct garnet_device *gdev = to_garnet_device(gobj->shmem.base.dev);
	struct garnet_share *share, *tmp;

	mutex_lock(&gdev->names_lock);
	list_for_each_entry_safe(share, tmp, &gobj->shares, obj_link)
		remove_share(share);
	mutex_unlock(&gdev->names_lock);
}

void garnet_share_file_close(struct garnet_file *gfile)
{
	struct garnet_device *gdev = gfile->gdev;
	struct garnet_share *share, *tmp;

	mutex_lock(&gdev->names_lock);
	list_for_each_entry_safe(share, tmp, &gfile->shares, owner_link)
		remove_share(share);
	/* debugfs walks the clients under names_lock: it must never see a file being freed. */
	xa_erase(&gdev->clients, gfile->client_id);
	mutex_unlock(&gdev->names_lock);
}

static bool is_recipient(struct garnet_object *gobj, struct garnet_file *gfile)
{
	struct garnet_share *share;

	list_for_each_entry(share, &gobj->shares, obj_link)
		if (share->recipient == gfile->client_id)
			return true;
	return false;
}

int garnet_share_open_by_name(struct drm_file *file, struct garnet_object *gobj, bool master,
			      u32 *handle)
{
	struct garnet_file *gfile = to_garnet_file(file);
	struct garnet_device *gdev = gfile->gdev;
	int ret;

	mutex_lock(&gdev->names_lock);
	if (master || is_recipient(gobj, gfile))
		ret = handle_create_alive(file, gobj, handle);
	else
		ret = -EPERM;
	mutex_unlock(&gdev->names_lock);
	return ret;
}
