/* SPDX-License-Identifier: GPL-2.0-only */
/* One EXECBUFFER2 call being assembled: shared by garnet_exec.c and garnet_reloc.c. */
#ifndef GARNET_EB_H
#define GARNET_EB_H

#include <uapi/drm/i915_drm.h>

#include "garnet_exec.h"

struct eb_obj {
	struct garnet_object *obj;	/* reference, handed to the request at submission */
	struct garnet_vma *vma;		/* pinned while the call runs */
	u32 handle;
	u32 read_domains;		/* union of what the relocations say */
	u32 write_domain;
	struct drm_i915_gem_relocation_entry *relocs;	/* kernel copy */
	u32 nreloc;
	bool relocs_changed;
};

struct eb {
	struct drm_file *file;
	struct garnet_gpu *gpu;
	struct garnet_client *client;
	struct drm_i915_gem_execbuffer2 *args;
	struct drm_i915_gem_exec_object2 *exec;		/* kernel copy of the list */
	struct eb_obj *objs;
	u32 count;
	bool legacy;			/* EXECBUFFER: the list is drm_i915_gem_exec_object */
	u32 batch;			/* index of the batch object */
	u64 *by_handle;			/* handle << 32 | index, sorted */
	struct drm_i915_gem_relocation_entry *relocs;	/* every relocation, list order */
	u64 nrelocs;
	struct dma_fence *busy;		/* what to wait for, without locks, before trying again */
};

/* garnet_reloc.c */
int eb_copy_relocs(struct eb *eb);
int eb_apply_relocs(struct eb *eb);
int eb_write_back(struct eb *eb);

#endif /* GARNET_EB_H */
