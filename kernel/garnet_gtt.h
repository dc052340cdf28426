/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GTT: the virtual GPU's aperture, the global address space of garnet_vm.c. GEM_INIT sets
 * the range placement may use; PIN (as in the 2008 design) keeps an object bound in it.
 */
#ifndef GARNET_GTT_H
#define GARNET_GTT_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct garnet_device;
struct garnet_object;

struct garnet_gtt {
	u64 pinned_bytes;	/* under the GPU lock */
};

/* Size of the aperture at load (module parameter aperture_mb), in bytes. */
u64 garnet_gtt_aperture_size(void);
int garnet_gtt_init(struct garnet_device *gdev);
void garnet_gtt_fini(struct garnet_device *gdev);

/* A file closed a handle: pins that file made on the object go with it. */
void garnet_gtt_handle_closed(struct garnet_object *gobj, struct drm_file *file);
/* The object is being freed: it loses every binding. */
void garnet_gtt_object_free(struct garnet_object *gobj);

int garnet_gem_init_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_pin_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_unpin_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_get_aperture_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* GARNET_GTT_H */
