// SPDX-License-Identifier: MIT
/*
 * EXECBUFFER2 on garnet's software engine: stores and blits produce exactly the expected
 * bytes, every argument is checked, relocations follow the 2008 rules and take the fast
 * path when offsets are unchanged, and waiting for rendering works.
 */
#include "gt_exec.h"

#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define W 64
#define H 64
#define PITCH (W * 4)
#define SURFACE (W * H * 4)
#define SENTINEL 0x11111111u

static uint32_t surface(int fd, uint32_t fill)
{
	uint32_t *px = malloc(SURFACE), h = gt_create(fd, SURFACE);

	for (int i = 0; i < W * H; i++)
		px[i] = fill;
	gt_pwrite(fd, h, 0, px, SURFACE);
	free(px);
	return h;
}

static uint32_t *read_surface(int fd, uint32_t h)
{
	uint32_t *px = malloc(SURFACE);

	gt_assert(px);
	gt_pread(fd, h, 0, px, SURFACE);
	return px;
}

static void empty_batch_runs(void)
{
	int fd = gt_open_render();
	struct gt_batch b;
	long long before = gt_exec_counter(fd, "completed");
	int64_t t = -1;
	struct gt_exec x;

	gtb_init(&b);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, NULL, 0);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	gt_assert_eq(gt_wait(fd, x.batch_handle, &t), 0);
	gt_assert(gt_exec_counter(fd, "completed") > before);
	gt_exec_finish(fd, &x);
	close(fd);
}

static void store_dword_writes_and_offsets_come_back(void)
{
	int fd = gt_open_render();
	uint32_t t = gt_create(fd, 4096), out[1024];
	struct gt_batch b;
	struct gt_exec x;

	gtb_init(&b);
	gtb_store(&b, t, 16, 0xdeadbeef);
	gtb_store(&b, t, 4092, 0x12345678);
	gtb_emit(&b, MI_FLUSH);
	gtb_emit(&b, MI_USER_INTERRUPT);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &t, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	/* The address used was written back into the list and the relocations. */
	gt_assert(b.relocs[0].presumed_offset != ~0ull);
	gt_assert_eq(b.relocs[0].presumed_offset, x.obj[0].offset);
	gt_assert_eq(b.relocs[1].presumed_offset, x.obj[0].offset);
	gt_assert(x.obj[0].offset + 4096 <= (uint64_t)gt_exec_counter(fd, "aperture_size"));

	/* PREAD waits for the engine. */
	gt_pread(fd, t, 0, out, sizeof(out));
	gt_assert_eq(out[4], 0xdeadbeef);
	gt_assert_eq(out[1023], 0x12345678);
	gt_assert_eq(out[0], 0);
	gt_assert_eq(out[5], 0);
	gt_exec_finish(fd, &x);
	close(fd);
}

/* The 2008 EXECBUFFER: the same call with the first version of the list. */
static void legacy_execbuffer(void)
{
	int fd = gt_open_render();
	uint32_t t = gt_create(fd, 4096), batch = gt_create(fd, 4096), out = 0;
	struct drm_i915_gem_exec_object list[2] = { { .handle = t }, { .handle = batch } };
	struct drm_i915_gem_execbuffer eb = {
		.buffers_ptr = (uintptr_t)list, .buffer_count = 2,
	};
	struct gt_batch b;

	gtb_init(&b);
	gtb_store(&b, t, 64, 0xfeedf00d);
	gtb_end(&b);
	gt_pwrite(fd, batch, 0, b.dw, b.n * 4);
	list[1].relocation_count = b.nreloc;
	list[1].relocs_ptr = (uintptr_t)b.relocs;
	eb.batch_len = b.n * 4;
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb));
	gt_assert_eq(b.relocs[0].presumed_offset, list[0].offset);
	gt_pread(fd, t, 64, &out, 4);
	gt_assert_eq(out, 0xfeedf00d);

	/* Its fields are checked as EXECBUFFER2's. */
	eb.batch_len = 12;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), EINVAL);
	eb.batch_len = b.n * 4;
	eb.num_cliprects = 1;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), EINVAL);
	eb.num_cliprects = 0;
	eb.buffer_count = 0;
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb), EINVAL);
	close(fd);
}

static void color_fill_exact_pixels(void)
{
	int fd = gt_open_render();
	uint32_t dst = surface(fd, SENTINEL), *px, *map;
	struct gt_batch b;

	gtb_init(&b);
	gtb_fill(&b, dst, PITCH, 8, 4, 40, 20, 0xff00ff00);
	/* Empty rectangles draw nothing. */
	gtb_fill(&b, dst, PITCH, 50, 50, 50, 60, 0xffffffff);
	gtb_end(&b);
	gt_run(fd, &b, &dst, 1);

	px = read_surface(fd, dst);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t want = x >= 8 && x < 40 && y >= 4 && y < 20 ? 0xff00ff00 : SENTINEL;

			if (px[y * W + x] != want)
				gt_fail(__FILE__, __LINE__, "pixel %d,%d: 0x%08x, want 0x%08x", x, y,
					px[y * W + x], want);
		}

	/* The same through a CPU mapping, after SET_DOMAIN to the CPU. */
	gt_assert_ok(gt_set_domain(fd, dst, I915_GEM_DOMAIN_CPU, 0));
	map = gt_mmap_cpu(fd, dst, 0, SURFACE);
	gt_assert(memcmp(map, px, SURFACE) == 0);
	munmap(map, SURFACE);
	free(px);
	close(fd);
}

static uint32_t pattern(int x, int y)
{
	return 0xab000000u | (uint32_t)y << 8 | (uint32_t)x;
}

static void copy_blit_exact_pixels(void)
{
	int fd = gt_open_render();
	uint32_t src = gt_create(fd, SURFACE), dst = surface(fd, SENTINEL), handles[2];
	uint32_t *px = malloc(SURFACE);
	struct gt_batch b;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			px[y * W + x] = pattern(x, y);
	gt_pwrite(fd, src, 0, px, SURFACE);
	free(px);

	gtb_init(&b);
	gtb_copy(&b, dst, PITCH, 30, 40, 20, 10, src, PITCH, 5, 7);
	gtb_end(&b);
	handles[0] = src;
	handles[1] = dst;
	gt_run(fd, &b, handles, 2);

	px = read_surface(fd, dst);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			bool in = x >= 30 && x < 50 && y >= 40 && y < 50;
			uint32_t want = in ? pattern(x - 30 + 5, y - 40 + 7) : SENTINEL;

			if (px[y * W + x] != want)
				gt_fail(__FILE__, __LINE__, "pixel %d,%d: 0x%08x, want 0x%08x", x, y,
					px[y * W + x], want);
		}
	free(px);
	close(fd);
}

static void overlapping_copy_is_a_move(void)
{
	int fd = gt_open_render();
	uint32_t obj = gt_create(fd, SURFACE), *px = malloc(SURFACE), *want = malloc(SURFACE);
	struct gt_batch b;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			px[y * W + x] = pattern(x, y);
	gt_pwrite(fd, obj, 0, px, SURFACE);
	memcpy(want, px, SURFACE);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++)
			want[(y + 8) * W + x + 8] = pattern(x, y);

	gtb_init(&b);
	gtb_copy(&b, obj, PITCH, 8, 8, 32, 32, obj, PITCH, 0, 0);
	gtb_end(&b);
	gt_run(fd, &b, &obj, 1);
	gt_pread(fd, obj, 0, px, SURFACE);
	gt_assert(memcmp(px, want, SURFACE) == 0);
	free(px);
	free(want);
	close(fd);
}

/* A valid one-store execbuffer that tests then break one field of. */
struct valid {
	struct gt_batch b;
	struct gt_exec x;
	uint32_t t;
};

static void valid_init(struct valid *v, int fd)
{
	v->t = gt_create(fd, 4096);
	gtb_init(&v->b);
	gtb_store(&v->b, v->t, 0, 1);
	gtb_end(&v->b);
	gt_exec_prepare(&v->x, fd, &v->b, &v->t, 1);
	gt_assert_eq(gt_exec_submit(fd, &v->x), 0);
}

#define EXPECT(field_change, err) \
	do { struct valid w_ = v; w_.x.eb.buffers_ptr = (uintptr_t)w_.x.obj; \
		w_.x.obj[1].relocs_ptr = (uintptr_t)w_.b.relocs; \
		{ struct valid *p = &w_; field_change; } \
		int r_ = gt_exec_submit(fd, &w_.x); \
		if (r_ != -(err)) gt_fail(__FILE__, __LINE__, "%s: got %s, want %s", \
			#field_change, strerror(-r_), strerror(err)); \
	} while (0)

static void every_argument_is_checked(void)
{
	int fd = gt_open_render();
	static struct valid v;
	uint32_t other = gt_create(fd, 4096);

	valid_init(&v, fd);
	EXPECT(p->x.eb.flags |= 1u << 9, EINVAL);		/* SECURE */
	EXPECT(p->x.eb.flags |= I915_EXEC_FENCE_OUT, EINVAL);
	EXPECT(p->x.eb.flags = I915_EXEC_BSD, EINVAL);
	EXPECT(p->x.eb.flags = I915_EXEC_BLT, EINVAL);
	EXPECT(p->x.eb.flags = 1ull << 40, EINVAL);
	EXPECT(p->x.eb.buffer_count = 0, EINVAL);
	EXPECT(p->x.eb.buffer_count = 1u << 30, EINVAL);
	EXPECT(p->x.eb.batch_start_offset = 4, EINVAL);
	EXPECT(p->x.eb.batch_len = 12, EINVAL);
	EXPECT(p->x.eb.batch_len = 8192, EINVAL);		/* past the batch object */
	EXPECT(p->x.eb.batch_start_offset = 4096, EINVAL);
	EXPECT(p->x.eb.DR1 = 1, EINVAL);
	EXPECT(p->x.eb.DR4 = 1, EINVAL);
	EXPECT(p->x.eb.num_cliprects = 1, EINVAL);
	EXPECT(p->x.eb.cliprects_ptr = 8, EINVAL);
	EXPECT(p->x.eb.rsvd1 = 5, ENOENT);			/* no such context */
	EXPECT(p->x.eb.rsvd2 = 1, EINVAL);
	EXPECT(p->x.eb.buffers_ptr = 8, EFAULT);
	EXPECT(p->x.obj[0].flags = EXEC_OBJECT_PINNED, EINVAL);
	EXPECT(p->x.obj[0].flags = EXEC_OBJECT_ASYNC, EINVAL);
	EXPECT(p->x.obj[0].flags = 1ull << 20, EINVAL);
	EXPECT(p->x.obj[0].rsvd1 = 1, EINVAL);
	EXPECT(p->x.obj[0].rsvd2 = 1, EINVAL);
	EXPECT(p->x.obj[0].alignment = 3 * 4096, EINVAL);
	EXPECT(p->x.obj[0].handle = 0x7fffffff, ENOENT);
	EXPECT(p->x.obj[0].handle = p->x.batch_handle, EINVAL);	/* listed twice */
	EXPECT(p->x.obj[1].relocs_ptr = 8, EFAULT);
	EXPECT(p->x.obj[1].flags = EXEC_OBJECT_WRITE, EINVAL);	/* the batch is read only */
	/* The batch must end: a batch of one MI_NOOP qword runs off its end. */
	EXPECT((p->x.eb.batch_start_offset = 16, p->x.eb.batch_len = 8), EINVAL);
	/* A valid alignment works and is honoured. */
	v.x.obj[0].alignment = 1u << 20;
	v.x.obj[0].handle = other;
	v.b.relocs[0].target_handle = other;
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	gt_assert_eq(v.x.obj[0].offset % (1u << 20), 0);
	close(fd);
}

static void relocation_rules(void)
{
	int fd = gt_open_render();
	static struct valid v;
	uint32_t outsider = gt_create(fd, 4096);

	valid_init(&v, fd);
	/* The target must be in the same list: an object of the file is not enough. */
	EXPECT(p->b.relocs[0].target_handle = outsider, ENOENT);
	EXPECT(p->b.relocs[0].target_handle = 0x7fffffff, ENOENT);
	EXPECT(p->b.relocs[0].write_domain = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER,
	       EINVAL);
	EXPECT(p->b.relocs[0].read_domains = I915_GEM_DOMAIN_CPU, EINVAL);
	EXPECT(p->b.relocs[0].write_domain = I915_GEM_DOMAIN_GTT, EINVAL);
	EXPECT(p->b.relocs[0].offset = 2, EINVAL);
	EXPECT(p->b.relocs[0].offset = 4096, EINVAL);
	EXPECT(p->b.relocs[0].offset = ~0ull, EINVAL);
	/* A relocation that says the batch is written. */
	EXPECT(p->b.relocs[0].target_handle = p->x.batch_handle, EINVAL);
	/* Two write domains for one object across relocations. */
	gtb_init(&v.b);
	gtb_store(&v.b, v.t, 0, 1);
	gtb_store(&v.b, v.t, 4, 2);
	v.b.relocs[1].read_domains = v.b.relocs[1].write_domain = I915_GEM_DOMAIN_RENDER;
	gtb_end(&v.b);
	gt_pwrite(fd, v.x.batch_handle, 0, v.b.dw, v.b.n * 4);
	v.x.obj[1].relocation_count = 2;
	v.x.eb.batch_len = v.b.n * 4;
	EXPECT((void)p, EINVAL);
	/* The same write domain twice is fine. */
	v.b.relocs[1].read_domains = v.b.relocs[1].write_domain = I915_GEM_DOMAIN_INSTRUCTION;
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	close(fd);
}

/* HANDLE_LUT: relocation targets are indices into the list; BATCH_FIRST: the batch leads. */
static void handle_lut(void)
{
	int fd = gt_open_render();
	static struct valid v;
	uint32_t out = 0;

	static const int params[] = {
		I915_PARAM_HAS_EXEC_HANDLE_LUT, I915_PARAM_HAS_EXEC_NO_RELOC,
		I915_PARAM_HAS_EXEC_BATCH_FIRST,
	};

	/* GETPARAM says so. */
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		int value = 0;
		struct drm_i915_getparam gp = { .param = params[i], .value = &value };

		gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp));
		gt_assert_eq(value, 1);
	}
	valid_init(&v, fd);
	v.x.eb.flags |= I915_EXEC_HANDLE_LUT;
	v.b.relocs[0].target_handle = 0;
	v.b.relocs[0].presumed_offset = ~0ull;
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	gt_pread(fd, v.x.batch_handle, 4, &out, 4);
	gt_assert_eq(out, (uint32_t)v.x.obj[0].offset);
	EXPECT(p->b.relocs[0].target_handle = 2, ENOENT);

	/* The same list with the batch first. */
	{
		struct drm_i915_gem_exec_object2 swapped[2] = { v.x.obj[1], v.x.obj[0] };

		v.x.eb.buffers_ptr = (uintptr_t)swapped;
		v.x.eb.flags = I915_EXEC_RENDER | I915_EXEC_BATCH_FIRST;
		v.b.relocs[0].target_handle = v.t;
		v.b.relocs[0].presumed_offset = ~0ull;
		gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
		gt_assert_eq(v.b.relocs[0].presumed_offset, swapped[1].offset);
		/* Without the flag the last object, a plain target, would be the batch. */
		v.x.eb.flags = I915_EXEC_RENDER;
		gt_assert_eq(gt_exec_submit(fd, &v.x), -EINVAL);
	}
	close(fd);
}

static void relocation_fast_path(void)
{
	int fd = gt_open_render();
	static struct valid v;
	long long fast, written;
	uint32_t out;

	valid_init(&v, fd);
	/* Unchanged offsets: nothing is written. */
	fast = gt_exec_counter(fd, "reloc_fast");
	written = gt_exec_counter(fd, "reloc_written");
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	gt_assert_eq(gt_exec_counter(fd, "reloc_fast"), fast + 1);
	gt_assert_eq(gt_exec_counter(fd, "reloc_written"), written);

	/* A wrong presumed_offset is corrected, in the batch and in the user's entry. */
	v.b.relocs[0].presumed_offset ^= 0x1000;
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	gt_assert_eq(gt_exec_counter(fd, "reloc_written"), written + 1);
	gt_assert_eq(v.b.relocs[0].presumed_offset, v.x.obj[0].offset);
	gt_pread(fd, v.x.batch_handle, 4, &out, 4);
	gt_assert_eq(out, (uint32_t)v.x.obj[0].offset);
	close(fd);
}

static void gem_init(int fd, uint64_t start, uint64_t end)
{
	struct drm_i915_gem_init init = { .gtt_start = start, .gtt_end = end };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init));
}

static int open_master(void)
{
	int fd = gt_open_card();

	if (drmIsMaster(fd) != 1)
		gt_skip("the garnet primary node has another master");
	return fd;
}

/* After an eviction moved the target, the fast path is not taken and the batch is right. */
static void relocation_after_eviction(void)
{
	int fd = open_master();
	uint64_t gtt = gt_exec_counter(fd, "aperture_size"), old;
	static struct valid v;
	long long written, evictions;
	uint32_t out;

	valid_init(&v, fd);
	old = v.x.obj[0].offset;
	evictions = gt_exec_counter(fd, "evictions");
	/* Narrow the GTT to exclude the target's place: it must move. */
	if (old >= gtt / 2)
		gem_init(fd, 0, old & ~4095ull);
	else
		gem_init(fd, (old + 4096 + 4095) & ~4095ull, gtt);
	gt_assert(gt_exec_counter(fd, "evictions") > evictions);

	written = gt_exec_counter(fd, "reloc_written");
	gt_assert_eq(gt_exec_submit(fd, &v.x), 0);
	gem_init(fd, 0, gtt);
	gt_assert(v.x.obj[0].offset != old);
	gt_assert_eq(gt_exec_counter(fd, "reloc_written"), written + 1);
	gt_assert_eq(v.b.relocs[0].presumed_offset, v.x.obj[0].offset);
	gt_pread(fd, v.x.batch_handle, 4, &out, 4);
	gt_assert_eq(out, (uint32_t)v.x.obj[0].offset);
	close(fd);
}

/* A batch that keeps the engine busy for a while: many full-surface fills. */
static void long_fills(struct gt_batch *b, uint32_t dst, int n, uint32_t last)
{
	gtb_init(b);
	for (int i = 0; i < n; i++)
		gtb_fill(b, dst, 1024 * 4, 0, 0, 1024, 1024, i == n - 1 ? last : (uint32_t)i);
	gtb_end(b);
}

static void busy_wait_and_implicit_waits(void)
{
	int fd = gt_open_render();
	uint32_t big = gt_create(fd, 4u << 20), px = 0;
	gt_require_param("watchdog_ms", 60000);
	static struct gt_batch b;
	int64_t t;

	long_fills(&b, big, 150, 0xcafe0001);
	gt_run(fd, &b, &big, 1);
	/* Busy, written by the render engine (uabi class 0 + 1 in the low half). */
	gt_assert_eq(gt_busy(fd, big), 1u | 1u << 16);
	t = 0;
	gt_assert_eq(gt_wait(fd, big, &t), -ETIME);
	t = 1000000;
	gt_assert_eq(gt_wait(fd, big, &t), -ETIME);
	gt_assert_eq(t, 0);
	/* PREAD waits and sees the last fill. */
	gt_pread(fd, big, (4u << 20) - 4, &px, 4);
	gt_assert_eq(px, 0xcafe0001);
	gt_assert_eq(gt_busy(fd, big), 0);
	t = 0;
	gt_assert_eq(gt_wait(fd, big, &t), 0);

	/* dma-buf importers see the same fence: the exported buffer polls busy, then ready. */
	{
		int dmabuf;
		struct pollfd pfd;

		long_fills(&b, big, 150, 0xcafe0004);
		gt_run(fd, &b, &big, 1);
		gt_assert_ok(drmPrimeHandleToFD(fd, big, DRM_CLOEXEC, &dmabuf));
		pfd = (struct pollfd){ .fd = dmabuf, .events = POLLIN };
		gt_assert_eq(poll(&pfd, 1, 0), 0);
		gt_assert_eq(poll(&pfd, 1, 60000), 1);
		gt_assert_eq(gt_busy(fd, big), 0);
		close(dmabuf);
	}

	/* SET_DOMAIN to the CPU waits too; WAIT with a negative timeout waits for good. */
	long_fills(&b, big, 150, 0xcafe0002);
	gt_run(fd, &b, &big, 1);
	gt_assert_ok(gt_set_domain(fd, big, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU));
	gt_assert_eq(gt_busy(fd, big), 0);
	long_fills(&b, big, 150, 0xcafe0003);
	gt_run(fd, &b, &big, 1);
	t = -1;
	gt_assert_eq(gt_wait(fd, big, &t), 0);
	gt_assert_eq(gt_busy(fd, big), 0);
	gt_pread(fd, big, 0, &px, 4);
	gt_assert_eq(px, 0xcafe0003);

	/* WAIT's own checks. */
	{
		struct drm_i915_gem_wait w = { .bo_handle = big, .flags = 1 };

		gt_assert_errno(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), EINVAL);
		w.flags = 0;
		w.bo_handle = 0x7fffffff;
		gt_assert_errno(ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), ENOENT);
	}
	close(fd);
}

static void domain_counters(void)
{
	int fd = gt_open_render();
	uint32_t a = surface(fd, 0x01020304), b2 = surface(fd, 0), c = surface(fd, 0), h[2];
	long long flushes, waits;
	struct gt_batch b;
	uint32_t *px;

	/* Bring b2 and c to the GPU first: only a is left written by the CPU. */
	gtb_init(&b);
	gtb_fill(&b, b2, PITCH, 0, 0, W, H, 5);
	gtb_fill(&b, c, PITCH, 0, 0, W, H, 6);
	gtb_end(&b);
	h[0] = b2;
	h[1] = c;
	gt_run(fd, &b, h, 2);

	/*
	 * CPU write, then a GPU read: exactly one CPU write-domain flush per object the CPU
	 * wrote, that is a and the batch (written with PWRITE too). The engine is the CPU, so
	 * the flush is bookkeeping and no page is clflushed.
	 */
	flushes = gt_counter(fd, "flush_cpu");
	gtb_init(&b);
	gtb_copy(&b, b2, PITCH, 0, 0, W, H, a, PITCH, 0, 0);
	gtb_end(&b);
	h[0] = a;
	h[1] = b2;
	gt_run(fd, &b, h, 2);
	gt_assert_eq(gt_counter(fd, "flush_cpu"), flushes + 2);
	/* Reading a again needs none: only the new batch is flushed. */
	gtb_init(&b);
	gtb_copy(&b, c, PITCH, 0, 0, W, H, a, PITCH, 0, 0);
	gtb_end(&b);
	h[1] = c;
	gt_run(fd, &b, h, 2);
	gt_assert_eq(gt_counter(fd, "flush_cpu"), flushes + 3);

	/* GPU to GPU in one queue: b2 written, then read by the next batch; no CPU wait. */
	waits = gt_exec_counter(fd, "cpu_waits");
	gtb_init(&b);
	gtb_fill(&b, b2, PITCH, 0, 0, W, H, 0x77777777);
	gtb_end(&b);
	gt_run(fd, &b, &b2, 1);
	gtb_init(&b);
	gtb_copy(&b, c, PITCH, 0, 0, W, H, b2, PITCH, 0, 0);
	gtb_end(&b);
	h[0] = b2;
	h[1] = c;
	gt_run(fd, &b, h, 2);
	gt_assert_eq(gt_exec_counter(fd, "cpu_waits"), waits);
	px = read_surface(fd, c);
	for (int i = 0; i < W * H; i++)
		gt_assert_eq(px[i], 0x77777777);
	free(px);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(empty_batch_runs, "empty-batch-runs"),
	GT_SUBTEST(store_dword_writes_and_offsets_come_back, "store-dword-and-offsets-written-back"),
	GT_SUBTEST(legacy_execbuffer, "legacy-execbuffer"),
	GT_SUBTEST(color_fill_exact_pixels, "xy-color-blt-exact-pixels"),
	GT_SUBTEST(copy_blit_exact_pixels, "xy-src-copy-blt-exact-pixels"),
	GT_SUBTEST(overlapping_copy_is_a_move, "xy-src-copy-blt-overlapping"),
	GT_SUBTEST(every_argument_is_checked, "every-argument-is-checked"),
	GT_SUBTEST(relocation_rules, "relocation-rules"),
	GT_SUBTEST(handle_lut, "handle-lut"),
	GT_SUBTEST(relocation_fast_path, "relocation-fast-path"),
	GT_SUBTEST(relocation_after_eviction, "relocation-after-eviction"),
	GT_SUBTEST_BOOT(busy_wait_and_implicit_waits, "busy-wait-and-implicit-waits",
			"watchdog_ms=60000"),
	GT_SUBTEST(domain_counters, "domain-counters")
)
