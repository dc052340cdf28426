// SPDX-License-Identifier: GPL-2.0-only
/*
 * garnet module and device: creates the DRM device on a platform device, owns the ioctl
 * table and the per-file state.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include <drm/drm_drv.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drm.h"
#include "garnet_drv.h"
#include "garnet_exec.h"
#include "garnet_gem.h"
#include "garnet_gtt.h"
#include "garnet_kms.h"
#include "garnet_mem.h"
#include "garnet_proc.h"
#include "garnet_share.h"

#define DRIVER_DESC	"garnet virtual GPU"
#define DRIVER_DATE	"20260101"
#define DRIVER_MAJOR	1
#define DRIVER_MINOR	0

static struct garnet_device *garnet_device;

static int garnet_open(struct drm_device *drm, struct drm_file *file)
{
	struct garnet_device *gdev = to_garnet_device(drm);
	struct garnet_file *gfile;
	int ret;

	gfile = kzalloc(sizeof(*gfile), GFP_KERNEL_ACCOUNT);
	if (!gfile)
		return -ENOMEM;
	gfile->proc = garnet_proc_get_current();
	if (!gfile->proc) {
		kfree(gfile);
		return -ENOMEM;
	}
	gfile->gdev = gdev;
	gfile->file = file;
	INIT_LIST_HEAD(&gfile->shares);
	atomic_set(&gfile->failed_lookups, 0);
	ratelimit_state_init(&gfile->lookup_log_rs, 5 * HZ, 10);
	/* Ids only grow, so an id handed out once never names a different file later. */
	gfile->client_id = atomic64_inc_return(&gdev->next_client_id);
	ret = xa_insert(&gdev->clients, gfile->client_id, gfile, GFP_KERNEL);
	if (ret) {
		garnet_proc_put(gfile->proc);
		kfree(gfile);
		return ret;
	}
	ret = garnet_client_open(gfile);
	if (ret) {
		/* debugfs walks the clients under names_lock (garnet_share_file_close()). */
		mutex_lock(&gdev->names_lock);
		xa_erase(&gdev->clients, gfile->client_id);
		mutex_unlock(&gdev->names_lock);
		garnet_proc_put(gfile->proc);
		kfree(gfile);
		return ret;
	}
	file->driver_priv = gfile;
	return 0;
}

static void garnet_postclose(struct drm_device *drm, struct drm_file *file)
{
	struct garnet_file *gfile = to_garnet_file(file);

	/* Also removes the file from gdev->clients, under names_lock (see garnet_debugfs.c). */
	garnet_share_file_close(gfile);
	garnet_client_close(gfile);
	/* Objects this file created and others still hold keep the budget until they go. */
	garnet_proc_put(gfile->proc);
	kfree(gfile);
}

/*
 * i915 numbers first (DRM_COMMAND_BASE + 0x00..0x3f), garnet's own from 0x50. Ioctls that
 * only touch the caller's own objects are allowed on render nodes.
 */
static const struct drm_ioctl_desc garnet_ioctls[] = {
	DRM_IOCTL_DEF_DRV(I915_GETPARAM, garnet_getparam_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CREATE, garnet_gem_create_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_PREAD, garnet_gem_pread_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_PWRITE, garnet_gem_pwrite_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MMAP, garnet_gem_mmap_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MMAP_OFFSET, garnet_gem_mmap_offset_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SET_DOMAIN, garnet_gem_set_domain_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SW_FINISH, garnet_gem_sw_finish_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_BUSY, garnet_gem_busy_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_INIT, garnet_gem_init_ioctl,
			  DRM_AUTH | DRM_MASTER | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_PIN, garnet_gem_pin_ioctl, DRM_AUTH | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_UNPIN, garnet_gem_unpin_ioctl, DRM_AUTH | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_GET_APERTURE, garnet_gem_get_aperture_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MADVISE, garnet_gem_madvise_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SET_TILING, garnet_gem_set_tiling_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_GET_TILING, garnet_gem_get_tiling_ioctl, DRM_RENDER_ALLOW),

	/* Execution (garnet_exec.c, garnet_engine.c). */
	DRM_IOCTL_DEF_DRV(I915_GEM_EXECBUFFER, garnet_execbuffer_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_EXECBUFFER2_WR, garnet_execbuffer2_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_WAIT, garnet_gem_wait_ioctl, DRM_RENDER_ALLOW),

	DRM_IOCTL_DEF_DRV(GARNET_GET_CLIENT_ID, garnet_get_client_id_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(GARNET_SHARE, garnet_share_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(GARNET_ACCEPT, garnet_accept_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(GARNET_REVOKE, garnet_revoke_ioctl, DRM_RENDER_ALLOW),
};

static const struct drm_driver garnet_driver = {
	.driver_features	= DRIVER_GEM | DRIVER_RENDER | DRIVER_MODESET | DRIVER_ATOMIC,
	.open			= garnet_open,
	.postclose		= garnet_postclose,
	.gem_create_object	= garnet_gem_create_object,
	/* DRM_GEM_SHMEM_DRIVER_OPS, but mmap and dumb buffers go through garnet_gem.c. */
	.prime_handle_to_fd	= drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle	= drm_gem_prime_fd_to_handle,
	.gem_prime_import_sg_table = garnet_gem_prime_import_sg_table,
	.gem_prime_mmap		= garnet_gem_prime_mmap,
	.dumb_create		= garnet_gem_dumb_create,
	.debugfs_init		= garnet_debugfs_init,
	.ioctls			= garnet_ioctls,
	.num_ioctls		= ARRAY_SIZE(garnet_ioctls),
	.fops			= &garnet_fops,
	.name			= GARNET_DRIVER_NAME,
	.desc			= DRIVER_DESC,
	.date			= DRIVER_DATE,
	.major			= DRIVER_MAJOR,
	.minor			= DRIVER_MINOR,
};

static int garnet_device_init(struct garnet_device *gdev)
{
	int ret;

	ret = drmm_mutex_init(&gdev->drm, &gdev->objects_lock);
	if (ret)
		return ret;
	ret = drmm_mutex_init(&gdev->drm, &gdev->names_lock);
	if (ret)
		return ret;
	INIT_LIST_HEAD(&gdev->objects);
	hash_init(gdev->names);
	ratelimit_state_init(&gdev->lookup_log_rs, 5 * HZ, 100);
	xa_init(&gdev->clients);
	ret = garnet_gtt_init(gdev);
	if (ret)
		return ret;
	ret = garnet_pool_init(gdev);
	if (ret)
		goto err_gtt;
	ret = garnet_gpu_init(gdev);
	if (ret)
		goto err_pool;
	ret = garnet_shrinker_init(gdev);
	if (ret)
		goto err_gpu;
	return 0;

err_gpu:
	garnet_gpu_fini(gdev);
err_pool:
	garnet_pool_fini(gdev);
err_gtt:
	garnet_gtt_fini(gdev);
	return ret;
}

static int __init garnet_init(void)
{
	struct platform_device *pdev;
	struct garnet_device *gdev;
	int ret;

	garnet_mem_init();
	/* Binds bochs-display if QEMU has one; the display code uses it when it is bound. */
	ret = garnet_bochs_register();
	if (ret)
		return ret;

	pdev = platform_device_register_simple(GARNET_DRIVER_NAME, -1, NULL, 0);
	if (IS_ERR(pdev)) {
		garnet_bochs_unregister();
		return PTR_ERR(pdev);
	}

	if (!devres_open_group(&pdev->dev, NULL, GFP_KERNEL)) {
		ret = -ENOMEM;
		goto err_unregister_pdev;
	}

	ret = dma_coerce_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		goto err_release_group;

	gdev = devm_drm_dev_alloc(&pdev->dev, &garnet_driver, struct garnet_device, drm);
	if (IS_ERR(gdev)) {
		ret = PTR_ERR(gdev);
		goto err_release_group;
	}
	gdev->pdev = pdev;

	ret = garnet_device_init(gdev);
	if (ret)
		goto err_release_group;

	ret = garnet_kms_init(gdev);
	if (ret)
		goto err_shrinker;

	ret = drm_dev_register(&gdev->drm, 0);
	if (ret)
		goto err_shrinker;
	garnet_kms_register(gdev);

	garnet_device = gdev;
	return 0;

err_shrinker:
	garnet_shrinker_fini(gdev);
	garnet_gpu_fini(gdev);
	garnet_pool_fini(gdev);
	garnet_gtt_fini(gdev);
	garnet_proc_fini();
err_release_group:
	devres_release_group(&pdev->dev, NULL);
err_unregister_pdev:
	platform_device_unregister(pdev);
	garnet_bochs_unregister();
	return ret;
}

static void __exit garnet_exit(void)
{
	struct garnet_device *gdev = garnet_device;
	struct platform_device *pdev = gdev->pdev;

	drm_dev_unregister(&gdev->drm);
	garnet_kms_fini(gdev);
	garnet_shrinker_fini(gdev);
	garnet_gpu_fini(gdev);
	/* Every file is closed (the module was unloadable), so every object must be gone. */
	WARN_ON(atomic_read(&gdev->object_count) != 0);
	garnet_pool_fini(gdev);
	garnet_gtt_fini(gdev);
	garnet_proc_fini();
	xa_destroy(&gdev->clients);
	devres_release_group(&pdev->dev, NULL);
	platform_device_unregister(pdev);
	garnet_bochs_unregister();
}

module_init(garnet_init);
module_exit(garnet_exit);

MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
