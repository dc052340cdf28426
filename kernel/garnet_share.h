/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-client sharing: a file shares an object with one other file (named by its client id)
 * under a random 64-bit name that only that recipient can accept.
 */
#ifndef GARNET_SHARE_H
#define GARNET_SHARE_H

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct garnet_file;
struct garnet_object;

int garnet_get_client_id_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_share_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_accept_ioctl(struct drm_device *drm, void *data, struct drm_file *file);
int garnet_revoke_ioctl(struct drm_device *drm, void *data, struct drm_file *file);

/*
 * The names of an object die with its last handle (or with it); those a file created die with
 * the file, which also leaves the device's client table.
 */
void garnet_share_object_free(struct garnet_object *gobj);
void garnet_share_file_close(struct garnet_file *gfile);

/*
 * GEM_OPEN by global name: a handle for the DRM master (master true) or for a file the object
 * was shared with (-EPERM for others), only while the object still has a handle (-ENOENT).
 */
int garnet_share_open_by_name(struct drm_file *file, struct garnet_object *gobj, bool master,
			      u32 *handle);

/* Handle bookkeeping (garnet_gem.c): the last handle's close takes the object's names along. */
void garnet_share_handle_opened(struct garnet_object *gobj);
void garnet_share_handle_closed(struct garnet_object *gobj);

/* Counts and logs (ratelimited) a lookup of a name the caller may not open. */
void garnet_share_lookup_failed(struct garnet_file *gfile, const char *what);

/* Names one file may hold at once, so that no client can exhaust kernel memory with them. */
#define GARNET_MAX_SHARES_PER_FILE	4096

#endif /* GARNET_SHARE_H */
