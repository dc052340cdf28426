/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * garnet's own ioctls. Object management uses the i915 numbers and structs from
 * <drm/i915_drm.h>; this header adds what i915 lacks: sharing a buffer with one
 * named recipient under an unguessable name. doc/uapi.md describes every field and error.
 *
 * Every struct uses only __u32/__u64, is a multiple of 8 bytes, and has explicit padding that
 * must be zero. Fields are only ever appended.
 */
#ifndef _GARNET_DRM_H_
#define _GARNET_DRM_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * Driver-private ioctl numbers start at 0x50, well above the last i915 number that garnet
 * reuses, so the two sets can never collide.
 */
#define DRM_GARNET_GET_CLIENT_ID	0x50
#define DRM_GARNET_SHARE		0x51
#define DRM_GARNET_ACCEPT		0x52
#define DRM_GARNET_REVOKE		0x53

/* The id of the calling open file; ids are never reused while the module is loaded. */
struct drm_garnet_get_client_id {
	__u64 client_id;	/* out */
};

/* The name may be accepted once; after that it is gone. */
#define GARNET_SHARE_SINGLE_USE		(1u << 0)
#define GARNET_SHARE_FLAGS		(GARNET_SHARE_SINGLE_USE)

struct drm_garnet_share {
	__u32 handle;		/* in: the object to share */
	__u32 flags;		/* in: GARNET_SHARE_* */
	__u64 recipient;	/* in: client id of the only file that may accept */
	__u64 name;		/* out: random, nonzero, unguessable */
};

struct drm_garnet_accept {
	__u64 name;		/* in */
	__u32 handle;		/* out */
	__u32 pad;		/* must be zero */
	__u64 size;		/* out: object size in bytes */
};

struct drm_garnet_revoke {
	__u64 name;		/* in: a name this file created */
};

#define DRM_IOCTL_GARNET_GET_CLIENT_ID \
	DRM_IOR(DRM_COMMAND_BASE + DRM_GARNET_GET_CLIENT_ID, struct drm_garnet_get_client_id)
#define DRM_IOCTL_GARNET_SHARE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GARNET_SHARE, struct drm_garnet_share)
#define DRM_IOCTL_GARNET_ACCEPT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_GARNET_ACCEPT, struct drm_garnet_accept)
#define DRM_IOCTL_GARNET_REVOKE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_GARNET_REVOKE, struct drm_garnet_revoke)

#if defined(__cplusplus)
}
#endif

#endif /* _GARNET_DRM_H_ */
