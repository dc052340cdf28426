// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs of the execution side: garnet_exec holds "name value" counters (which paths ran),
 * garnet_gtt the bindings of every address space, garnet_exec_clients each file's faults,
 * hangs and ban. Tests read them from the outside.
 */
#include <linux/seq_file.h>

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>

#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"

static struct garnet_gpu *node_gpu(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_garnet_device(node->minor->dev)->gpu;
}

#define SHOW(name) seq_printf(m, #name " %lld\n", atomic64_read(&c->name))

static int exec_show(struct seq_file *m, void *unused)
{
	struct garnet_gpu *gpu = node_gpu(m);
	struct garnet_exec_counters *c = &gpu->counters;

	SHOW(submitted);
	SHOW(completed);
	SHOW(reloc_fast);
	SHOW(reloc_written);
	SHOW(binds);
	SHOW(evictions);
	SHOW(eviction_waits);
	SHOW(cpu_waits);
	SHOW(gpu_flushes);
	SHOW(rejected);
	SHOW(faults);
	SHOW(hangs);
	SHOW(bans);
	SHOW(user_interrupts);
	SHOW(shrinker_unbinds);
	SHOW(engine_runs);
	SHOW(dep_timeouts);
	seq_printf(m, "completed_seqno %lld\n", atomic64_read(&gpu->completed_seqno));
	seq_printf(m, "aperture_size %llu\n", garnet_gtt_aperture_size());
	seq_printf(m, "gtt_start %llu\n", gpu->ggtt.start);
	seq_printf(m, "gtt_end %llu\n", gpu->ggtt.end);
	seq_printf(m, "pinned_bytes %llu\n", READ_ONCE(gpu->gdev->gtt.pinned_bytes));
	return 0;
}

static int gtt_show(struct seq_file *m, void *unused)
{
	struct garnet_gpu *gpu = node_gpu(m);
	struct garnet_vm *vm;
	struct garnet_vma *vma;

	mutex_lock(&gpu->lock);
	list_for_each_entry(vm, &gpu->vms, gpu_link) {
		u64 bound = 0, n = 0;

		list_for_each_entry(vma, &vm->lru, lru_link) {
			bound += vma->node.size;
			n++;
		}
		seq_printf(m, "vm %s range 0x%llx-0x%llx bindings %llu bytes %llu\n",
			   vm == &gpu->ggtt ? "ggtt" : "file", vm->start, vm->end, n, bound);
		if (vm != &gpu->ggtt)
			continue;
		/* Addresses of the global GTT only: a file's own placement stays private. */
		list_for_each_entry(vma, &vm->lru, lru_link)
			seq_printf(m, "  0x%08llx %8llu pin %u %s\n", vma->node.start,
				   vma->node.size, vma->pin_count,
				   garnet_vma_idle(vma) ? "idle" : "busy");
	}
	mutex_unlock(&gpu->lock);
	return 0;
}

/*
 * How each open file's batches behaved. Files leave gdev->clients under names_lock before
 * their client goes, so every client seen here is alive.
 */
static int clients_show(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;
	struct garnet_device *gdev = to_garnet_device(node->minor->dev);
	struct garnet_file *gfile;
	unsigned long id;

	seq_puts(m, "client isolated errors unreported banned inflight inflight_bytes\n");
	mutex_lock(&gdev->names_lock);
	xa_for_each(&gdev->clients, id, gfile) {
		struct garnet_client *client = gfile->client;

		if (!client)
			continue;
		/* What the file holds against its limits in flight (a snapshot, unlocked). */
		seq_printf(m, "%llu %d %d %d %d %u %llu\n", client->id, !!client->own_vm,
			   atomic_read(&client->errors), atomic_read(&client->unreported),
			   READ_ONCE(client->banned), READ_ONCE(client->inflight),
			   READ_ONCE(client->inflight_bytes));
	}
	mutex_unlock(&gdev->names_lock);
	return 0;
}

static const struct drm_info_list exec_debugfs_list[] = {
	{ "garnet_exec", exec_show, 0 },
	{ "garnet_exec_clients", clients_show, 0 },
	{ "garnet_gtt", gtt_show, 0 },
};

void garnet_exec_debugfs_init(struct drm_minor *minor)
{
	drm_debugfs_create_files(exec_debugfs_list, ARRAY_SIZE(exec_debugfs_list),
				 minor->debugfs_root, minor);
}
