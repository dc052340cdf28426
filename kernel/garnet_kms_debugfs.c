// SPDX-License-Identifier: GPL-2.0-only
/*
 * debugfs for the display: `garnet_display` (output, mode, counters) and `garnet_scanout`,
 * the scanout memory itself as WIDTH x HEIGHT packed XRGB8888 pixels (the X byte undefined).
 * Tests read the virtual output back through it, and compare it with QEMU's screendump of
 * bochs-display.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_client.h>
#include <drm/drm_debugfs.h>
#include <drm/drm_drv.h>
#include <drm/drm_fb_helper.h>
#include <drm/drm_file.h>
#include <drm/drm_modeset_lock.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

static int display_show(struct seq_file *m, void *unused)
{
	struct drm_info_node *node = m->private;
	struct drm_device *drm = node->minor->dev;
	struct garnet_kms *kms = to_garnet_device(drm)->kms;
	struct garnet_kms_counters *c = &kms->counters;
	struct drm_fb_helper *helper = READ_ONCE(drm->fb_helper);

	mutex_lock(&kms->scanout_lock);
	seq_printf(m, "output %s\n", kms->unplugged ? "none" : kms->bochs ? "bochs" : "virtual");
	seq_printf(m, "mode %ux%u\n", kms->width, kms->height);
	mutex_unlock(&kms->scanout_lock);
	seq_printf(m, "scanout_bytes %zu\n", kms->scanout_size);
	seq_printf(m, "commits %lld\n", atomic64_read(&c->commits));
	seq_printf(m, "full_repaints %lld\n", atomic64_read(&c->full_repaints));
	seq_printf(m, "rects %lld\n", atomic64_read(&c->rects));
	seq_printf(m, "damage_bytes %lld\n", atomic64_read(&c->damage_bytes));
	seq_printf(m, "bytes_copied %lld\n", atomic64_read(&c->bytes_copied));
	seq_printf(m, "in_place_commits %lld\n", atomic64_read(&c->in_place_commits));
	seq_printf(m, "vblanks %lld\n", atomic64_read(&c->vblanks));
	seq_printf(m, "modesets %lld\n", atomic64_read(&c->modesets));
	seq_printf(m, "compose_ns %lld\n", atomic64_read(&c->compose_ns));
	/* GEM objects the in-kernel console holds (its framebuffer), for leak checks. */
	seq_printf(m, "console_objects %d\n", helper && helper->buffer ? 1 : 0);
	return 0;
}

static const struct drm_info_list garnet_kms_debugfs_list[] = {
	{ "garnet_display", display_show, 0 },
};

/*
 * The screen as it is now: the scanout memory, or, where the virtual output shows its primary
 * plane in place, the planes composed as they are read. The modeset locks keep the plane
 * states (and their mappings) while a chunk is read.
 */
static ssize_t scanout_read(struct file *file, char __user *buf, size_t count, loff_t *ppos)
{
	struct garnet_kms *kms = file->private_data;
	struct drm_device *drm = &kms->gdev->drm;
	struct drm_modeset_acquire_ctx ctx;
	size_t size, done = 0;
	void *bounce;
	u32 *line;
	int ret = 0;

	bounce = (void *)__get_free_page(GFP_KERNEL);
	line = kmalloc_array(GARNET_MAX_WIDTH, GARNET_SCANOUT_CPP, GFP_KERNEL);
	if (!bounce || !line) {
		ret = -ENOMEM;
		goto free;
	}

	while (done < count) {
		size_t chunk = 0;

		DRM_MODESET_LOCK_ALL_BEGIN(drm, ctx, DRM_MODESET_ACQUIRE_INTERRUPTIBLE, ret);
		mutex_lock(&kms->scanout_lock);
		size = kms->unplugged ? 0 : (size_t)kms->width * kms->height * GARNET_SCANOUT_CPP;
		if (*ppos < size) {
			chunk = min3(count - done, (size_t)(size - *ppos), (size_t)PAGE_SIZE);
			if (!garnet_compose_read(kms, *ppos, bounce, chunk, line))
				iosys_map_memcpy_from(bounce, &kms->scanout, *ppos, chunk);
		}
		mutex_unlock(&kms->scanout_lock);
		DRM_MODESET_LOCK_ALL_END(drm, ctx, ret);
		if (ret || !chunk)
			break;
		if (copy_to_user(buf + done, bounce, chunk)) {
			ret = -EFAULT;
			break;
		}
		done += chunk;
		*ppos += chunk;
	}
free:
	kfree(line);
	free_page((unsigned long)bounce);
	return done ? done : ret;
}

static const struct file_operations scanout_fops = {
	.owner	= THIS_MODULE,
	.open	= simple_open,
	.read	= scanout_read,
	.llseek	= default_llseek,
};

void garnet_kms_debugfs_init(struct drm_minor *minor)
{
	struct garnet_kms *kms = to_garnet_device(minor->dev)->kms;

	drm_debugfs_create_files(garnet_kms_debugfs_list, ARRAY_SIZE(garnet_kms_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("garnet_scanout", 0400, minor->debugfs_root, kms, &scanout_fops);
}
