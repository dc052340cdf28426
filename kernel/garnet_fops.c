// SPDX-License-Identifier: GPL-2.0-only
/*
 * garnet's file operations. They are DRM's own, except that GEM_OPEN by global (flink) name
 * is screened here, before drm_ioctl(): the core would open any name for any authenticated
 * file, and root on the primary node is always authenticated. garnet opens a global name only
 * for the DRM master that is displaying or for a file the object was shared with
 * (garnet_share.c).
 */
#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/uaccess.h>

#include <drm/drm_auth.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <uapi/drm/i915_drm.h>

#include "garnet_drv.h"
#include "garnet_gem.h"
#include "garnet_share.h"

/*
 * The master that is actually displaying. The core counts a lessee as a current master, and
 * makes any first opener of the primary node master while no master exists (after the display
 * server dropped mastership at a VT switch). So: the device's master itself, not a lessee,
 * whose file was opened with CAP_SYS_ADMIN (logind opens it for the display server) or whose
 * caller has it.
 */
static bool is_display_master(struct drm_file *file)
{
	struct drm_master *master;
	bool owner;

	if (!drm_is_current_master(file))
		return false;
	master = drm_file_get_master(file);
	owner = master && !master->lessor;
	if (master)
		drm_master_put(&master);
	return owner && (file_ns_capable(file->filp, &init_user_ns, CAP_SYS_ADMIN) ||
			 capable(CAP_SYS_ADMIN));
}

static long garnet_gem_open_by_name(struct drm_file *file, void __user *uarg)
{
	struct garnet_device *gdev = to_garnet_device(file->minor->dev);
	struct drm_device *drm = &gdev->drm;
	struct drm_gem_object *obj;
	struct drm_gem_open args;
	u32 handle;
	int ret;

	/* The core's own rules first: never on a render node, only for authenticated files. */
	if (drm_is_render_client(file) || !file->authenticated)
		return -EACCES;
	if (copy_from_user(&args, uarg, sizeof(args)))
		return -EFAULT;

	mutex_lock(&drm->object_name_lock);
	obj = idr_find(&drm->object_name_idr, args.name);
	if (obj)
		drm_gem_object_get(obj);
	mutex_unlock(&drm->object_name_lock);

	if (!obj)
		ret = -EPERM;
	else
		ret = garnet_share_open_by_name(file, to_garnet_object(obj),
						is_display_master(file), &handle);
	if (ret == -EPERM) {
		atomic64_inc(&gdev->counters.open_denied);
		garnet_share_lookup_failed(to_garnet_file(file), "GEM_OPEN");
		ret = -ENOENT;
	}
	if (obj) {
		args.size = obj->size;
		drm_gem_object_put(obj);
	}
	if (ret)
		return ret;
	args.handle = handle;
	if (copy_to_user(uarg, &args, sizeof(args))) {
		drm_gem_handle_delete(file, handle);
		return -EFAULT;
	}
	return 0;
}

/*
 * drm_ioctl() dispatches on the ioctl number alone and adapts any argument size, so every
 * encoding of the GEM_OPEN number is caught here; only the exact one is served.
 */
static bool is_gem_open(unsigned int cmd)
{
	return _IOC_TYPE(cmd) == DRM_IOCTL_BASE &&
	       _IOC_NR(cmd) == _IOC_NR(DRM_IOCTL_GEM_OPEN);
}

static long garnet_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (is_gem_open(cmd)) {
		if (cmd != DRM_IOCTL_GEM_OPEN)
			return -EINVAL;
		return garnet_gem_open_by_name(filp->private_data, (void __user *)arg);
	}
	return drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
/*
 * i915's GETPARAM is the one ioctl garnet serves whose struct holds a pointer: a 32-bit
 * process passes it in 8 bytes, which drm_ioctl() would read as a NULL 64-bit pointer.
 * Every other struct has the same layout in both (pointers are __u64).
 */
struct garnet_getparam32 {
	s32 param;
	u32 value;	/* int __user * of the 32-bit process */
};

#define GARNET_IOCTL_I915_GETPARAM32 \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_I915_GETPARAM, struct garnet_getparam32)

static long garnet_compat_getparam(struct file *filp, unsigned long arg)
{
	struct garnet_getparam32 args32;
	struct drm_i915_getparam args;

	if (copy_from_user(&args32, compat_ptr(arg), sizeof(args32)))
		return -EFAULT;
	args.param = args32.param;
	args.value = compat_ptr(args32.value);
	return drm_ioctl_kernel(filp, garnet_getparam_ioctl, &args, DRM_RENDER_ALLOW);
}

static long garnet_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (is_gem_open(cmd)) {
		if (cmd != DRM_IOCTL_GEM_OPEN)
			return -EINVAL;
		return garnet_gem_open_by_name(filp->private_data, compat_ptr(arg));
	}
	if (cmd == GARNET_IOCTL_I915_GETPARAM32)
		return garnet_compat_getparam(filp, arg);
	return drm_compat_ioctl(filp, cmd, arg);
}
#endif

const struct file_operations garnet_fops = {
	.owner		= THIS_MODULE,
	.open		= drm_open,
	.release	= drm_release,
	.unlocked_ioctl	= garnet_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= garnet_compat_ioctl,
#endif
	.poll		= drm_poll,
	.read		= drm_read,
	.llseek		= noop_llseek,
	.mmap		= drm_gem_mmap,
};
