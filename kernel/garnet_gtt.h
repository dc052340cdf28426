/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The GTT: the virtual GPU's aperture, an address range managed with drm_mm. Objects get a
 * range when pinned (PIN, as in the 2008 design); GEM_INIT sets the managed range.
 */
#ifndef GARNET_GTT_H
#define GARNET_GTT_H

#include <linux/mutex.h>
#include <linux/types.h>

#include <drm/drm_mm.h>

struct drm_device;
struct drm_file;
struct garnet_device;
struct garnet_object;

struct garnet_gtt {
	/* Protects mm, range, pinned_bytes and every object's gtt_node, pin_count, pin_file. */
	struct mutex lock;
	struct drm_mm mm;
	u64 start;
	u64 end;
	u64 pinned_bytes;
};

int garnet_gtt_init(struct garnet_device *gdev);
void garnet_gtt_fini(struct garnet_device *gdev);

/* A file closed a handle: pins that file made on the object go with it. */
void garnet_gtt_handle_closed(struct garnet_object *gobj, struct drm_file *file);
/* The object is being freed; it can hold no range any more. */
void garnet_gtt_object_free(struct garnet_object *gobj);

int garnet_gem_init_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_pin_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_unpin_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_gem_get_aperture_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

#endif /* GARNET_GTT_H */
