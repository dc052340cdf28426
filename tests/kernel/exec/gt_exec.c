// SPDX-License-Identifier: MIT
/* Batch building and submission for the execution tests. */
#include "gt_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>

void gtb_init(struct gt_batch *b)
{
	b->n = 0;
	b->nreloc = 0;
}

void gtb_emit(struct gt_batch *b, uint32_t dw)
{
	gt_assert(b->n < GT_MAX_DW);
	b->dw[b->n++] = dw;
}

void gtb_reloc(struct gt_batch *b, uint32_t target, uint32_t delta, uint32_t read,
	       uint32_t write)
{
	gt_assert(b->nreloc < GT_MAX_RELOCS);
	b->relocs[b->nreloc++] = (struct drm_i915_gem_relocation_entry){
		.target_handle = target,
		.delta = delta,
		.offset = b->n * 4,
		/* An impossible address, so the kernel must write every relocation. */
		.presumed_offset = ~0ull,
		.read_domains = read,
		.write_domain = write,
	};
	gtb_emit(b, delta);
}

void gtb_end(struct gt_batch *b)
{
	gtb_emit(b, MI_BATCH_BUFFER_END);
	if (b->n & 1)
		gtb_emit(b, MI_NOOP);
}

void gtb_store(struct gt_batch *b, uint32_t target, uint32_t offset, uint32_t value)
{
	gtb_emit(b, MI_STORE_DATA_IMM);
	gtb_reloc(b, target, offset, I915_GEM_DOMAIN_INSTRUCTION, I915_GEM_DOMAIN_INSTRUCTION);
	gtb_emit(b, value);
}

void gtb_fill(struct gt_batch *b, uint32_t dst, uint32_t pitch, int x1, int y1, int x2, int y2,
	      uint32_t colour)
{
	gtb_emit(b, XY_COLOR_BLT);
	gtb_emit(b, BR13_32BPP | ROP_PATCOPY | pitch);
	gtb_emit(b, (uint32_t)y1 << 16 | (uint32_t)x1);
	gtb_emit(b, (uint32_t)y2 << 16 | (uint32_t)x2);
	gtb_reloc(b, dst, 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	gtb_emit(b, colour);
}

void gtb_copy(struct gt_batch *b, uint32_t dst, uint32_t dpitch, int dx, int dy, int w, int h,
	      uint32_t src, uint32_t spitch, int sx, int sy)
{
	gtb_emit(b, XY_SRC_COPY_BLT);
	gtb_emit(b, BR13_32BPP | ROP_SRCCOPY | dpitch);
	gtb_emit(b, (uint32_t)dy << 16 | (uint32_t)dx);
	gtb_emit(b, (uint32_t)(dy + h) << 16 | (uint32_t)(dx + w));
	gtb_reloc(b, dst, 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	gtb_emit(b, (uint32_t)sy << 16 | (uint32_t)sx);
	gtb_emit(b, spitch);
	gtb_reloc(b, src, 0, I915_GEM_DOMAIN_RENDER, 0);
}

void gt_exec_prepare(struct gt_exec *x, int fd, struct gt_batch *b, const uint32_t *handles,
		     unsigned int n)
{
	uint64_t size = ((uint64_t)b->n * 4 + 4095) & ~4095ull;

	gt_assert(n <= GT_MAX_OBJECTS);
	memset(x, 0, sizeof(*x));
	x->batch_handle = gt_create(fd, size ? size : 4096);
	if (b->n)
		gt_pwrite(fd, x->batch_handle, 0, b->dw, b->n * 4);
	for (unsigned int i = 0; i < n; i++)
		x->obj[i].handle = handles[i];
	x->obj[n].handle = x->batch_handle;
	x->obj[n].relocation_count = b->nreloc;
	x->obj[n].relocs_ptr = (uintptr_t)b->relocs;
	x->eb.buffers_ptr = (uintptr_t)x->obj;
	x->eb.buffer_count = n + 1;
	x->eb.batch_len = b->n * 4;
	x->eb.flags = I915_EXEC_RENDER;
}

int gt_exec_submit(int fd, struct gt_exec *x)
{
	if (gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &x->eb))
		return -errno;
	return 0;
}

void gt_exec_finish(int fd, struct gt_exec *x)
{
	gt_close(fd, x->batch_handle);
}

int gt_try_run(int fd, struct gt_batch *b, const uint32_t *handles, unsigned int n)
{
	static struct gt_exec x;	/* large; tests are single-threaded per process */
	int ret;

	gt_exec_prepare(&x, fd, b, handles, n);
	ret = gt_exec_submit(fd, &x);
	gt_exec_finish(fd, &x);
	return ret;
}

void gt_run(int fd, struct gt_batch *b, const uint32_t *handles, unsigned int n)
{
	int ret = gt_try_run(fd, b, handles, n);

	if (ret)
		gt_fail(__FILE__, __LINE__, "EXECBUFFER2: %s", strerror(-ret));
}

int gt_wait(int fd, uint32_t handle, int64_t *timeout_ns)
{
	struct drm_i915_gem_wait w = { .bo_handle = handle, .timeout_ns = *timeout_ns };
	int ret = ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w);

	*timeout_ns = w.timeout_ns;
	return ret ? -errno : 0;
}

uint32_t gt_busy(int fd, uint32_t handle)
{
	struct drm_i915_gem_busy busy = { .handle = handle };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy));
	return busy.busy;
}

long long gt_exec_counter(int fd, const char *name)
{
	return gt_debugfs_value(fd, "garnet_exec", name);
}

long gt_param(const char *name)
{
	char path[128];
	long value = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/garnet/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		gt_fail(__FILE__, __LINE__, "open %s: %s", path, strerror(errno));
	if (fscanf(f, "%ld", &value) != 1) {
		/* Booleans read back as Y or N. */
		rewind(f);
		value = fgetc(f) == 'Y';
	}
	fclose(f);
	return value;
}

void gt_require_param(const char *name, long value)
{
	long actual = gt_param(name);

	if (actual != value)
		gt_fail(__FILE__, __LINE__,
			"needs garnet loaded with %s=%ld (it has %ld): run it in its boot "
			"(GT_SUBTEST_BOOT)", name, value, actual);
}
