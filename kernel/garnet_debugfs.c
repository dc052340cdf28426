// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs: every object with its state, the counters that prove which domain rule fired, and
 * the shared names. Read-only; tests read these files to check the driver from the outside.
 */
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_kms.h"

static const char *const domain_names[8] = {
	"cpu", "render", "sampler", "command", "instruction", "vertex", "gtt", "wc",
};

static struct garnet_device *node_device(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_garnet_device(node->minor->dev);
}

static const char *madv_name(int madv)
{
	if (madv < 0)
		return "purged";
	return madv == I915_MADV_DONTNEED ? "dontneed" : "willneed";
}

static int objects_show(struct seq_file *m, void *unused)
{
	struct garnet_device *gdev = node_device(m);
	struct garnet_object *gobj;

	mutex_lock(&gdev->objects_lock);
	seq_printf(m, "objects %d\n", atomic_read(&gdev->object_count));
	seq_puts(m, "size handles name read write madv pinned shares resident_pages\n");
	list_for_each_entry(gobj, &gdev->objects, device_link) {
		struct drm_gem_object *obj = &gobj->shmem.base;

		/* Domains and madv are read without their locks: a snapshot for people. */
		seq_printf(m, "%zu %u %d 0x%02x 0x%02x %s %u %u %lu\n",
			   obj->size, READ_ONCE(obj->handle_count), obj->name,
			   READ_ONCE(gobj->read_domains), READ_ONCE(gobj->write_domain),
			   madv_name(READ_ONCE(gobj->shmem.madv)), READ_ONCE(gobj->pin_count),
			   READ_ONCE(gobj->share_count),
			   obj->filp ? obj->filp->f_mapping->nrpages : 0);
	}
	mutex_unlock(&gdev->objects_lock);
	return 0;
}

static int counters_show(struct seq_file *m, void *unused)
{
	struct garnet_device *gdev = node_device(m);
	struct garnet_counters *c = &gdev->counters;
	int i;

	seq_printf(m, "objects %d\n", atomic_read(&gdev->object_count));
	seq_printf(m, "objects_created %lld\n", atomic64_read(&c->objects_created));
	seq_printf(m, "objects_freed %lld\n", atomic64_read(&c->objects_freed));
	for (i = 0; i < ARRAY_SIZE(domain_names); i++)
		seq_printf(m, "flush_%s %lld\n", domain_names[i], atomic64_read(&c->flush[i]));
	for (i = 0; i < ARRAY_SIZE(domain_names); i++)
		seq_printf(m, "invalidate_%s %lld\n", domain_names[i],
			   atomic64_read(&c->invalidate[i]));
	seq_printf(m, "purged %lld\n", atomic64_read(&c->purged));
	seq_printf(m, "share_created %lld\n", atomic64_read(&c->share_created));
	seq_printf(m, "share_accepted %lld\n", atomic64_read(&c->share_accepted));
	seq_printf(m, "share_revoked %lld\n", atomic64_read(&c->share_revoked));
	seq_printf(m, "accept_failed %lld\n", atomic64_read(&c->accept_failed));
	seq_printf(m, "open_denied %lld\n", atomic64_read(&c->open_denied));
	seq_printf(m, "pool_reused %lld\n", atomic64_read(&c->pool_reused));
	seq_printf(m, "pool_zeroed_alloc %lld\n", atomic64_read(&c->pool_zeroed_alloc));
	seq_printf(m, "pool_zeroed_idle %lld\n", atomic64_read(&c->pool_zeroed_idle));
	seq_printf(m, "pool_bytes %llu\n", READ_ONCE(gdev->pool.bytes));
	return 0;
}

/* Names are secrets: debugfs shows how many there are and for whom, never the names. */
static int names_show(struct seq_file *m, void *unused)
{
	struct garnet_device *gdev = node_device(m);
	struct garnet_file *gfile;
	unsigned long id;

	seq_puts(m, "client shares failed_lookups\n");
	mutex_lock(&gdev->names_lock);
	xa_for_each(&gdev->clients, id, gfile)
		seq_printf(m, "%llu %u %d\n", gfile->client_id, gfile->share_count,
			   atomic_read(&gfile->failed_lookups));
	mutex_unlock(&gdev->names_lock);
	return 0;
}

static const struct drm_info_list garnet_debugfs_list[] = {
	{ "garnet_objects", objects_show, 0 },
	{ "garnet_counters", counters_show, 0 },
	{ "garnet_names", names_show, 0 },
};

void garnet_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(garnet_debugfs_list, ARRAY_SIZE(garnet_debugfs_list),
				 minor->debugfs_root, minor);
	garnet_exec_debugfs_init(minor);
	garnet_kms_debugfs_init(minor);
}
