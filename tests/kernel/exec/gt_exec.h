/* SPDX-License-Identifier: MIT */
/*
 * Helpers for the execution tests: batches with Intel's gen3 command encodings, relocations,
 * EXECBUFFER2 calls and the garnet_exec debugfs counters.
 */
#ifndef GT_EXEC_H
#define GT_EXEC_H

#include "garnet_test.h"

#define MI_NOOP			0x00000000u
#define MI_USER_INTERRUPT	0x01000000u
#define MI_FLUSH		0x02000000u
#define MI_BATCH_BUFFER_END	0x05000000u
#define MI_STORE_DATA_IMM	(0x10000001u | 1u << 22)	/* gen3: cmd, address, value */
#define MI_BATCH_BUFFER_START	(0x18800000u | 2u << 6)		/* cmd, address */
#define XY_COLOR_BLT		0x54300004u			/* 6 dwords, alpha + rgb */
#define XY_SRC_COPY_BLT		0x54f00006u			/* 8 dwords, alpha + rgb */
#define BR13_32BPP		(3u << 24)
#define ROP_PATCOPY		(0xf0u << 16)
#define ROP_SRCCOPY		(0xccu << 16)

#define GT_MAX_DW	4096
#define GT_MAX_RELOCS	1024
#define GT_MAX_OBJECTS	64

/* A batch being written, with its relocations (all of them patch the batch itself). */
struct gt_batch {
	uint32_t dw[GT_MAX_DW];
	unsigned int n;
	struct drm_i915_gem_relocation_entry relocs[GT_MAX_RELOCS];
	unsigned int nreloc;
};

void gtb_init(struct gt_batch *b);
void gtb_emit(struct gt_batch *b, uint32_t dw);
/* Emits a dword holding target's address + delta, with a relocation that patches it. */
void gtb_reloc(struct gt_batch *b, uint32_t target, uint32_t delta, uint32_t read,
	       uint32_t write);
/* MI_BATCH_BUFFER_END, then padding to a whole qword. */
void gtb_end(struct gt_batch *b);
void gtb_store(struct gt_batch *b, uint32_t target, uint32_t offset, uint32_t value);
void gtb_fill(struct gt_batch *b, uint32_t dst, uint32_t pitch, int x1, int y1, int x2, int y2,
	      uint32_t colour);
void gtb_copy(struct gt_batch *b, uint32_t dst, uint32_t dpitch, int dx, int dy, int w, int h,
	      uint32_t src, uint32_t spitch, int sx, int sy);

/* One execbuffer: the objects, then the batch object last. */
struct gt_exec {
	struct drm_i915_gem_exec_object2 obj[GT_MAX_OBJECTS + 1];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t batch_handle;
};

/* Writes b into a new object and prepares an execbuffer of handles + that batch. */
void gt_exec_prepare(struct gt_exec *x, int fd, struct gt_batch *b, const uint32_t *handles,
		     unsigned int n);
/* EXECBUFFER2: 0, or -errno. */
int gt_exec_submit(int fd, struct gt_exec *x);
void gt_exec_finish(int fd, struct gt_exec *x);	/* closes the batch object */
/* Builds, submits (must succeed) and closes a batch over handles. */
void gt_run(int fd, struct gt_batch *b, const uint32_t *handles, unsigned int n);
/* As gt_run, returning 0 or -errno. */
int gt_try_run(int fd, struct gt_batch *b, const uint32_t *handles, unsigned int n);

int gt_wait(int fd, uint32_t handle, int64_t *timeout_ns);	/* 0 or -errno */
uint32_t gt_busy(int fd, uint32_t handle);

long long gt_exec_counter(int fd, const char *name);

/* garnet's module parameters are read-only after load: a test reads them, or needs a value. */
long gt_param(const char *name);
/* Fails unless garnet was loaded with name=value (a subtest declared with GT_SUBTEST_BOOT). */
void gt_require_param(const char *name, long value);

#endif /* GT_EXEC_H */
