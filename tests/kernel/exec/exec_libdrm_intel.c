// SPDX-License-Identifier: MIT
/*
 * libdrm_intel, unmodified, on garnet: its GEM buffer manager opens the device, builds
 * batches with drm_intel_bo_emit_reloc and submits them with drm_intel_bo_exec, exactly as
 * the 2008 Intel drivers did. A colour fill and a copy must give the expected pixels, and
 * drm_intel_bo_busy / drm_intel_bo_wait_rendering must tell the truth.
 */
#include "gt_exec.h"

#include <intel_bufmgr.h>
#include <stdlib.h>
#include <unistd.h>

#define W 256
#define H 128
#define PITCH (W * 4)
#define SIZE (PITCH * H)

struct batch {
	drm_intel_bo *bo;
	uint32_t dw[1024];
	unsigned int n;
};

static void batch_start(struct batch *b, drm_intel_bufmgr *mgr)
{
	b->bo = drm_intel_bo_alloc(mgr, "batch", 4096, 4096);
	gt_assert(b->bo);
	b->n = 0;
}

static void emit(struct batch *b, uint32_t dw)
{
	b->dw[b->n++] = dw;
}

/* The address dword: what libdrm_intel presumes, and a relocation to correct it. */
static void emit_reloc(struct batch *b, drm_intel_bo *target, uint32_t read, uint32_t write)
{
	gt_assert_ok(drm_intel_bo_emit_reloc(b->bo, b->n * 4, target, 0, read, write));
	emit(b, (uint32_t)target->offset64);
}

static void fill(struct batch *b, drm_intel_bo *dst, int x1, int y1, int x2, int y2, uint32_t c)
{
	emit(b, XY_COLOR_BLT);
	emit(b, BR13_32BPP | ROP_PATCOPY | PITCH);
	emit(b, (uint32_t)y1 << 16 | (uint32_t)x1);
	emit(b, (uint32_t)y2 << 16 | (uint32_t)x2);
	emit_reloc(b, dst, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	emit(b, c);
}

static void copy(struct batch *b, drm_intel_bo *dst, int dx, int dy, int w, int h,
		 drm_intel_bo *src, int sx, int sy)
{
	emit(b, XY_SRC_COPY_BLT);
	emit(b, BR13_32BPP | ROP_SRCCOPY | PITCH);
	emit(b, (uint32_t)dy << 16 | (uint32_t)dx);
	emit(b, (uint32_t)(dy + h) << 16 | (uint32_t)(dx + w));
	emit_reloc(b, dst, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	emit(b, (uint32_t)sy << 16 | (uint32_t)sx);
	emit(b, PITCH);
	emit_reloc(b, src, I915_GEM_DOMAIN_RENDER, 0);
}

static void batch_exec(struct batch *b)
{
	emit(b, MI_BATCH_BUFFER_END);
	if (b->n & 1)
		emit(b, MI_NOOP);
	gt_assert_ok(drm_intel_bo_subdata(b->bo, 0, b->n * 4, b->dw));
	gt_assert_ok(drm_intel_bo_exec(b->bo, (int)(b->n * 4), NULL, 0, 0));
	drm_intel_bo_unreference(b->bo);
}

static uint32_t px_at(const uint32_t *px, int x, int y)
{
	return px[y * W + x];
}

static void fill_and_copy(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *mgr = drm_intel_bufmgr_gem_init(fd, 4096);
	drm_intel_bo *a, *b2;
	static uint32_t px[W * H];
	static struct batch b;

	gt_assert(mgr);
	a = drm_intel_bo_alloc(mgr, "a", SIZE, 4096);
	b2 = drm_intel_bo_alloc(mgr, "b", SIZE, 4096);
	gt_assert(a && b2);

	batch_start(&b, mgr);
	fill(&b, a, 0, 0, W, H, 0xff0000ff);
	fill(&b, a, 10, 20, 30, 40, 0xff00ff00);
	fill(&b, b2, 0, 0, W, H, 0xffffffff);
	batch_exec(&b);

	batch_start(&b, mgr);
	copy(&b, b2, 100, 50, 40, 30, a, 0, 10);
	batch_exec(&b);

	drm_intel_bo_wait_rendering(b2);
	gt_assert_eq(drm_intel_bo_busy(b2), 0);
	gt_assert_ok(drm_intel_bo_get_subdata(a, 0, SIZE, px));
	gt_assert_eq(px_at(px, 0, 0), 0xff0000ff);
	gt_assert_eq(px_at(px, 10, 20), 0xff00ff00);
	gt_assert_eq(px_at(px, 29, 39), 0xff00ff00);
	gt_assert_eq(px_at(px, 30, 39), 0xff0000ff);

	gt_assert_ok(drm_intel_bo_map(b2, 0));
	memcpy(px, b2->virtual, SIZE);
	drm_intel_bo_unmap(b2);
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			uint32_t want = 0xffffffff;

			if (x >= 100 && x < 140 && y >= 50 && y < 80) {
				int sx = x - 100, sy = y - 50 + 10;

				want = sx >= 10 && sx < 30 && sy >= 20 && sy < 40 ? 0xff00ff00 :
										     0xff0000ff;
			}
			if (px_at(px, x, y) != want)
				gt_fail(__FILE__, __LINE__, "pixel %d,%d: 0x%08x, want 0x%08x", x, y,
					px_at(px, x, y), want);
		}

	drm_intel_bo_unreference(a);
	drm_intel_bo_unreference(b2);
	drm_intel_bufmgr_destroy(mgr);
	close(fd);
}

static void busy_and_wait_rendering(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *mgr = drm_intel_bufmgr_gem_init(fd, 4096);
	gt_require_param("watchdog_ms", 60000);
	drm_intel_bo *big;
	static struct batch b;
	uint32_t last = 0;

	gt_assert(mgr);
	big = drm_intel_bo_alloc(mgr, "big", 4u << 20, 4096);
	gt_assert(big);
	batch_start(&b, mgr);
	for (int i = 0; i < 150; i++) {
		emit(&b, XY_COLOR_BLT);
		emit(&b, BR13_32BPP | ROP_PATCOPY | 4096);
		emit(&b, 0);
		emit(&b, 1024u << 16 | 1024);
		emit_reloc(&b, big, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
		emit(&b, 0x1000u + (uint32_t)i);
	}
	batch_exec(&b);
	gt_assert(drm_intel_bo_busy(big));
	drm_intel_bo_wait_rendering(big);
	gt_assert_eq(drm_intel_bo_busy(big), 0);
	gt_assert_ok(drm_intel_bo_get_subdata(big, (4u << 20) - 4, 4, &last));
	gt_assert_eq(last, 0x1000u + 149);
	drm_intel_bo_unreference(big);
	drm_intel_bufmgr_destroy(mgr);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(fill_and_copy, "emit-reloc-exec-fill-and-copy"),
	GT_SUBTEST_BOOT(busy_and_wait_rendering, "bo-busy-and-wait-rendering",
			"watchdog_ms=60000")
)
