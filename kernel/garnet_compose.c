// SPDX-License-Identifier: GPL-2.0-only
/*
 * Composition: the primary plane with the cursor blended over it, written into the scanout
 * memory as XRGB8888 one rectangle at a time. Only what a commit changed is written: the
 * primary plane's damage clips, the cursor's old and new rectangles, or the whole screen after
 * a modeset. bochs-display has no hardware cursor, so a cursor move costs two 64x64 rectangles,
 * never a full-screen copy; debugfs counts the bytes so tests can see it.
 *
 * The virtual output is not memory a display must be fed: like a display engine, it reads a
 * framebuffer where it is. A primary plane it can show as it is (XRGB8888 or ARGB8888; the
 * primary always covers the CRTC) is shown in place: a commit copies nothing, and a reader of
 * the screen composes it, cursor included, from the planes' current framebuffers
 * (garnet_compose_read). bochs-display scans out of its own VRAM, so there every commit copies.
 */
#include <linux/dma-direction.h>
#include <linux/iosys-map.h>
#include <linux/slab.h>

#include <drm/drm_print.h>
#include <drm/drm_atomic.h>
#include <drm/drm_damage_helper.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>

#include "garnet_drv.h"
#include "garnet_kms.h"

/* A plane as composition sees it: where it lands on screen and where that comes from. */
struct garnet_layer {
	bool visible;
	struct drm_framebuffer *fb;
	const u8 *vaddr;		/* fb plane 0, kernel-mapped by the shadow-plane state */
	struct drm_rect dst;		/* on screen, clipped to the CRTC */
	int src_x, src_y;		/* fb pixel that lands at dst.x1, dst.y1 */
};

static void layer_from_state(struct garnet_layer *layer, struct drm_plane_state *state)
{
	memset(layer, 0, sizeof(*layer));
	if (!state || !state->visible || !state->fb)
		return;
	layer->visible = true;
	layer->fb = state->fb;
	layer->vaddr = to_drm_shadow_plane_state(state)->data[0].vaddr;
	layer->dst = state->dst;
	layer->src_x = state->src.x1 >> 16;
	layer->src_y = state->src.y1 >> 16;
}

static const u8 *layer_row(const struct garnet_layer *layer, int x, int y)
{
	const struct drm_framebuffer *fb = layer->fb;

	return layer->vaddr + (size_t)(y - layer->dst.y1 + layer->src_y) * fb->pitches[0] +
	       (size_t)(x - layer->dst.x1 + layer->src_x) * fb->format->cpp[0];
}

static u32 rgb565_to_xrgb8888(u16 p)
{
	u32 r = (p >> 11) & 0x1f, g = (p >> 5) & 0x3f, b = p & 0x1f;

	return ((r << 3 | r >> 2) << 16) | ((g << 2 | g >> 4) << 8) | (b << 3 | b >> 2);
}

/* Premultiplied alpha, the DRM default for planes without a blend-mode property. */
static u32 blend_premultiplied(u32 src, u32 dst)
{
	u32 inv = 255 - (src >> 24), out = 0;
	int shift;

	for (shift = 0; shift < 24; shift += 8) {
		u32 c = ((src >> shift) & 0xff) +
			DIV_ROUND_CLOSEST(((dst >> shift) & 0xff) * inv, 255);

		out |= min_t(u32, c, 255) << shift;
	}
	return out;
}

static void primary_row(const struct garnet_layer *p, int x, int y, int width, u32 *line)
{
	const u8 *src;
	int i;

	if (!p->visible) {
		memset(line, 0, width * GARNET_SCANOUT_CPP);
		return;
	}
	src = layer_row(p, x, y);
	if (p->fb->format->format == DRM_FORMAT_RGB565) {
		const u16 *px = (const u16 *)src;

		for (i = 0; i < width; i++)
			line[i] = rgb565_to_xrgb8888(px[i]);
	} else {
		/* XRGB8888 and ARGB8888: the primary is the bottom layer, alpha has no effect. */
		memcpy(line, src, width * GARNET_SCANOUT_CPP);
	}
}

static void cursor_row(const struct garnet_layer *c, int x, int y, int width, u32 *line)
{
	int x1 = max(x, c->dst.x1), x2 = min(x + width, c->dst.x2);
	const u32 *src;
	int i;

	if (!c->visible || y < c->dst.y1 || y >= c->dst.y2 || x1 >= x2)
		return;
	src = (const u32 *)layer_row(c, x1, y);
	for (i = 0; i < x2 - x1; i++)
		line[x1 - x + i] = blend_premultiplied(src[i], line[x1 - x + i]);
}

struct garnet_composition {
	struct garnet_kms *kms;
	struct garnet_layer primary, cursor;
	u32 *line;
	struct drm_rect screen;
	/* The screen reads the planes where they are: rectangles are counted, not copied. */
	bool in_place;
};

static void compose_rect(struct garnet_composition *comp, struct drm_rect rect)
{
	struct garnet_kms *kms = comp->kms;
	const struct garnet_layer *p = &comp->primary, *c = &comp->cursor;
	size_t pitch = (size_t)kms->width * GARNET_SCANOUT_CPP;
	int width, y;

	if (!drm_rect_intersect(&rect, &comp->screen))
		return;
	width = drm_rect_width(&rect);
	atomic64_add((u64)width * drm_rect_height(&rect) * GARNET_SCANOUT_CPP,
		     &kms->counters.damage_bytes);
	atomic64_inc(&kms->counters.rects);
	if (comp->in_place)
		return;

	for (y = rect.y1; y < rect.y2; y++) {
		size_t offset = y * pitch + (size_t)rect.x1 * GARNET_SCANOUT_CPP;
		bool cursor_here = c->visible && y >= c->dst.y1 && y < c->dst.y2 &&
				   rect.x1 < c->dst.x2 && rect.x2 > c->dst.x1;

		if (p->visible && !cursor_here && p->fb->format->format != DRM_FORMAT_RGB565) {
			/* The common case, straight from the framebuffer into VRAM. */
			iosys_map_memcpy_to(&kms->scanout, offset, layer_row(p, rect.x1, y),
					    width * GARNET_SCANOUT_CPP);
			continue;
		}
		primary_row(p, rect.x1, y, width, comp->line);
		cursor_row(c, rect.x1, y, width, comp->line);
		iosys_map_memcpy_to(&kms->scanout, offset, comp->line, width * GARNET_SCANOUT_CPP);
	}
	atomic64_add((u64)width * drm_rect_height(&rect) * GARNET_SCANOUT_CPP,
		     &kms->counters.bytes_copied);
}

/* Damage clips are in framebuffer coordinates; the screen wants CRTC coordinates. */
static void compose_primary_damage(struct garnet_composition *comp,
				   struct drm_plane_state *old_state,
				   struct drm_plane_state *new_state)
{
	const struct garnet_layer *p = &comp->primary;
	struct drm_atomic_helper_damage_iter iter;
	struct drm_rect clip;

	if (!p->visible)
		return;
	drm_atomic_helper_damage_iter_init(&iter, old_state, new_state);
	drm_atomic_for_each_plane_damage(&iter, &clip) {
		drm_rect_translate(&clip, p->dst.x1 - p->src_x, p->dst.y1 - p->src_y);
		if (drm_rect_intersect(&clip, &p->dst))
			compose_rect(comp, clip);
	}
}

static int layer_begin_access(struct garnet_layer *layer)
{
	int ret;

	if (!layer->visible)
		return 0;
	ret = drm_gem_fb_begin_cpu_access(layer->fb, DMA_FROM_DEVICE);
	if (ret)
		layer->visible = false;
	return ret;
}

static void layer_end_access(struct garnet_layer *layer)
{
	if (layer->visible)
		drm_gem_fb_end_cpu_access(layer->fb, DMA_FROM_DEVICE);
}

/* The virtual output shows this primary plane state where it is (see the top of the file). */
static bool shown_in_place(const struct garnet_kms *kms, const struct drm_plane_state *primary)
{
	return !kms->bochs && !kms->unplugged && primary && primary->visible && primary->fb &&
	       primary->fb->format->format != DRM_FORMAT_RGB565;
}

/* Called from the CRTC's atomic_flush, after the states are swapped in. */
void garnet_compose_commit(struct garnet_kms *kms, struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state = drm_atomic_get_new_crtc_state(state, &kms->crtc);
	struct drm_plane_state *old_p = drm_atomic_get_old_plane_state(state, &kms->primary);
	struct drm_plane_state *new_p = drm_atomic_get_new_plane_state(state, &kms->primary);
	struct drm_plane_state *old_c = drm_atomic_get_old_plane_state(state, &kms->cursor);
	struct drm_plane_state *new_c = drm_atomic_get_new_plane_state(state, &kms->cursor);
	struct garnet_composition comp = { .kms = kms };
	bool full = crtc_state && drm_atomic_crtc_needs_modeset(crtc_state);
	u64 rects_before;
	ktime_t start = ktime_get();

	/* Planes outside this commit keep their current (still mapped) state. */
	layer_from_state(&comp.primary, kms->primary.state);
	layer_from_state(&comp.cursor, kms->cursor.state);
	if (new_p && old_p->visible != new_p->visible)
		full = true;

	if (layer_begin_access(&comp.primary) | layer_begin_access(&comp.cursor))
		drm_warn_once(&kms->gdev->drm, "framebuffer not readable by the CPU; skipped\n");

	mutex_lock(&kms->scanout_lock);
	if (kms->unplugged)
		goto out;
	comp.in_place = shown_in_place(kms, kms->primary.state);
	/* The scanout memory was left alone while the planes were shown in place. */
	if (kms->in_place && !comp.in_place)
		full = true;
	kms->in_place = comp.in_place;
	comp.line = kms->line;
	drm_rect_init(&comp.screen, 0, 0, kms->width, kms->height);
	rects_before = atomic64_read(&kms->counters.rects);
	if (full) {
		compose_rect(&comp, comp.screen);
		atomic64_inc(&kms->counters.full_repaints);
	} else {
		if (new_p)
			compose_primary_damage(&comp, old_p, new_p);
		if (new_c) {
			if (old_c->visible)
				compose_rect(&comp, old_c->dst);
			if (new_c->visible)
				compose_rect(&comp, new_c->dst);
		}
	}
	if (atomic64_read(&kms->counters.rects) != rects_before) {
		atomic64_inc(&kms->counters.commits);
		if (comp.in_place)
			atomic64_inc(&kms->counters.in_place_commits);
		atomic64_add(ktime_to_ns(ktime_sub(ktime_get(), start)), &kms->counters.compose_ns);
	}
out:
	mutex_unlock(&kms->scanout_lock);

	layer_end_access(&comp.cursor);
	layer_end_access(&comp.primary);
}

/*
 * Reads len bytes of the screen from offset into dst, composed from the planes' current
 * states, when the virtual output shows its primary plane in place; false when the screen is
 * the scanout memory. The caller holds the modeset locks (the states stay) and scanout_lock.
 * line holds one row.
 */
bool garnet_compose_read(struct garnet_kms *kms, size_t offset, u8 *dst, size_t len, u32 *line)
{
	struct garnet_composition comp = { .kms = kms };
	size_t pitch = (size_t)kms->width * GARNET_SCANOUT_CPP;

	if (!kms->in_place || !shown_in_place(kms, kms->primary.state) || !pitch)
		return false;
	layer_from_state(&comp.primary, kms->primary.state);
	layer_from_state(&comp.cursor, kms->cursor.state);
	if (layer_begin_access(&comp.primary) | layer_begin_access(&comp.cursor))
		drm_warn_once(&kms->gdev->drm, "framebuffer not readable by the CPU; skipped\n");
	while (len) {
		int y = offset / pitch;
		size_t from = offset % pitch, n = min(len, pitch - from);

		primary_row(&comp.primary, 0, y, kms->width, line);
		cursor_row(&comp.cursor, 0, y, kms->width, line);
		memcpy(dst, (u8 *)line + from, n);
		dst += n;
		offset += n;
		len -= n;
	}
	layer_end_access(&comp.cursor);
	layer_end_access(&comp.primary);
	return true;
}

/* bochs-display is being removed: after this, neither its registers nor VRAM are touched. */
void garnet_scanout_unplug(struct garnet_kms *kms)
{
	mutex_lock(&kms->scanout_lock);
	kms->bochs = NULL;
	kms->unplugged = true;
	iosys_map_clear(&kms->scanout);
	mutex_unlock(&kms->scanout_lock);
}

/* Programs the scanout for a mode, or turns it off for 0 x 0. */
void garnet_scanout_set_mode(struct garnet_kms *kms, unsigned int width, unsigned int height)
{
	mutex_lock(&kms->scanout_lock);
	if (kms->bochs) {
		if (width)
			garnet_bochs_set_mode(kms->bochs, width, height);
		else
			garnet_bochs_disable(kms->bochs);
	}
	kms->width = width;
	kms->height = height;
	if (width)
		atomic64_inc(&kms->counters.modesets);
	mutex_unlock(&kms->scanout_lock);
}
