// SPDX-License-Identifier: MIT
// The pixman renderer: paints only damaged, visible parts; opaque surfaces hide what is below.
#include <math.h>
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/transform.h"
#include "../core/view.h"
#include "../core/coords.h"
#include "../core/seat.h"
#include "../core/consent.h"
#include "../core/cast-indicator.h"
#include "../core/lock-prompt.h"
#include "../core/buffer.h"
#include "../core/background.h"
#include "renderer.h"

struct paint_entry {
	struct garnet_surface *surface;      /* whose content is read in place, or NULL */
	pixman_image_t *image;               /* garnet's own (the arrow), when no surface */
	bool opaque;                         /* the image has no alpha */
	struct pixman_f_transform to_output; /* buffer pixels -> output pixels */
	pixman_region32_t visible;           /* output pixels not hidden by anything above */
};

struct collect {
	struct garnet_output *output;
	struct pixman_f_transform output_matrix;
	struct paint_entry *entries;
	size_t count, capacity;
	pixman_region32_t covered;
};

static struct paint_entry *next_entry(struct collect *col)
{
	if (col->count == col->capacity) {
		size_t cap = col->capacity ? col->capacity * 2 : 16;
		struct paint_entry *grown = realloc(col->entries, cap * sizeof(*grown));

		if (!grown)
			return NULL;
		col->entries = grown;
		col->capacity = cap;
	}
	return &col->entries[col->count];
}

/* An image of garnet's own (the arrow, the lock prompt) at box of the global space, above
 * the scene; it hides nothing, as neither fills its box with surface content. */
static void collect_own_image(struct collect *col, pixman_image_t *image, bool opaque,
			      const pixman_box32_t *box)
{
	struct paint_entry *e = next_entry(col);

	if (!e)
		return;
	e->surface = NULL;
	e->image = image;
	e->opaque = opaque;
	pixman_f_transform_init_translate(&e->to_output, box->x1, box->y1);
	pixman_f_transform_multiply(&e->to_output, &col->output_matrix, &e->to_output);
	pixman_region32_init_rect(&e->visible, box->x1, box->y1, box->x2 - box->x1,
				  box->y2 - box->y1);
	garnet_region_transform(&e->visible, &e->visible, &col->output_matrix);
	col->count++;
}

static void collect_builtin_cursor(struct collect *col, struct garnet_seat *seat)
{
	pixman_box32_t box;

	if (garnet_seat_builtin_cursor_box(seat, &box))
		collect_own_image(col, seat->compositor->builtin_cursor, false, &box);
}

/* garnet's own lock screen prompt, above the (empty) locked scene of every output. */
static void collect_lock_prompt(struct collect *col, struct garnet_compositor *c)
{
	pixman_box32_t box;
	pixman_image_t *image;

	if (garnet_lock_prompt_box(col->output, &box) && (image = garnet_lock_prompt_image(c)))
		collect_own_image(col, image, true, &box);
}

/* The recording indicator, above everything, the dialog and the lock screen included. */
static void collect_portal_indicator(struct collect *col, struct garnet_compositor *c)
{
	pixman_box32_t box;
	pixman_image_t *image;

	if (garnet_cast_indicator_box(col->output, &box) &&
	    (image = garnet_cast_indicator_image(c)))
		collect_own_image(col, image, true, &box);
	if (garnet_cast_indicator_list_box(col->output, &box) &&
	    (image = garnet_cast_indicator_list_image(c)))
		collect_own_image(col, image, true, &box);
}

/* The consent dialog: its panel on top in the middle of every output, each output dimmed
 * under it, so what clients draw stays visible but can neither cover nor pass for it; a
 * region the user is choosing is framed and left undimmed. */
static void collect_consent(struct collect *col, struct garnet_compositor *c)
{
	struct garnet_output *o = col->output;
	pixman_box32_t box, boxes[4];
	pixman_image_t *image;
	int n;

	if (!garnet_consent_active(c))
		return;
	if (garnet_consent_panel_box(o, &box) && (image = garnet_consent_panel_image(c)))
		collect_own_image(col, image, true, &box);
	if (garnet_consent_region_frame(o, boxes)) {
		for (int i = 0; i < 4; i++)
			collect_own_image(col, garnet_consent_frame_image(c), true, &boxes[i]);
	}
	n = garnet_consent_dim_boxes(o, boxes);
	for (int i = 0; i < n; i++)
		collect_own_image(col, garnet_consent_dim_image(c), false, &boxes[i]);
}

static bool collect_surface(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct collect *col = data;
	struct paint_entry *e;
	struct pixman_f_transform to_global, buffer_to_surface;
	pixman_region32_t box, opaque;

	if (!surface->content)
		return true;
	e = next_entry(col);
	if (!e)
		return false;
	e->surface = surface;
	e->image = NULL;
	e->opaque = surface->opaque_content;
	garnet_surface_buffer_matrix(surface, &buffer_to_surface);
	pixman_f_transform_init_translate(&to_global, x, y);
	pixman_f_transform_multiply(&to_global, &to_global, &buffer_to_surface);
	pixman_f_transform_multiply(&e->to_output, &col->output_matrix, &to_global);

	pixman_region32_init_rect(&box, x, y, surface->width, surface->height);
	garnet_region_transform(&box, &box, &col->output_matrix);
	pixman_region32_init(&e->visible);
	pixman_region32_subtract(&e->visible, &box, &col->covered);
	if (!pixman_region32_not_empty(&e->visible)) {
		pixman_region32_fini(&e->visible);
		pixman_region32_fini(&box);
		return true;
	}
	col->count++;

	pixman_region32_init(&opaque);
	if (surface->opaque_content) {
		pixman_region32_copy(&opaque, &box);
	} else {
		pixman_region32_intersect_rect(&opaque, &surface->current.opaque, 0, 0,
					       surface->width, surface->height);
		pixman_region32_translate(&opaque, x, y);
		garnet_region_transform(&opaque, &opaque, &col->output_matrix);
		/* Rounding outward must not let an opaque edge hide a half-covered pixel. */
		pixman_region32_intersect(&opaque, &opaque, &box);
	}
	pixman_region32_union(&col->covered, &col->covered, &opaque);
	pixman_region32_fini(&opaque);
	pixman_region32_fini(&box);
	return true;
}

static bool is_whole(double v)
{
	return fabs(v - round(v)) < 1e-9;
}

/* Whole-number scale (a 90-degree turn included) and whole-pixel offsets: every output pixel
 * takes one buffer pixel, so nearest sampling is exact and sharp. Anything else is filtered. */
static bool is_integer_mapping(const struct pixman_f_transform *m)
{
	return is_whole(m->m[0][0]) && is_whole(m->m[0][1]) && is_whole(m->m[1][0]) &&
	       is_whole(m->m[1][1]) && is_whole(m->m[0][2]) && is_whole(m->m[1][2]);
}

/* Buffer pixels land on output pixels one to one, only moved: no transform is needed. */
static bool is_translation(const struct pixman_f_transform *m)
{
	return m->m[0][0] == 1 && m->m[1][1] == 1 && m->m[0][1] == 0 && m->m[1][0] == 0 &&
	       is_whole(m->m[0][2]) && is_whole(m->m[1][2]);
}

/*
 * The common case, an unscaled window: composited as a plain copy or blend from an offset.
 * With a transform set, even a translation, pixman leaves its fast paths for its general
 * fetchers, which cost garnet half its compositing time with ten small windows.
 */
static void paint_translated(struct paint_entry *e, pixman_image_t *image,
			     pixman_image_t *target, pixman_region32_t *clip)
{
	int32_t tx = (int32_t)round(e->to_output.m[0][2]), ty = (int32_t)round(e->to_output.m[1][2]);
	pixman_box32_t *ext = pixman_region32_extents(clip);

	pixman_image_set_filter(image, PIXMAN_FILTER_NEAREST, NULL, 0);
	pixman_image_set_repeat(image, PIXMAN_REPEAT_NONE);
	pixman_image_set_clip_region32(target, clip);
	pixman_image_composite32(e->opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, image, NULL, target,
				 ext->x1 - tx, ext->y1 - ty, 0, 0, ext->x1, ext->y1,
				 ext->x2 - ext->x1, ext->y2 - ext->y1);
	pixman_image_set_clip_region32(target, NULL);
}

static bool paint_image(struct paint_entry *e, pixman_image_t *image, pixman_image_t *target,
			const pixman_region32_t *damage)
{
	struct pixman_f_transform inverse;
	struct pixman_transform fixed;
	pixman_region32_t clip;
	bool integer = is_integer_mapping(&e->to_output);
	int32_t w = pixman_image_get_width(target), h = pixman_image_get_height(target);

	pixman_region32_init(&clip);
	pixman_region32_intersect(&clip, &e->visible, (pixman_region32_t *)damage);
	if (!pixman_region32_not_empty(&clip)) {
		pixman_region32_fini(&clip);
		return false;
	}
	if (is_translation(&e->to_output)) {
		paint_translated(e, image, target, &clip);
		pixman_region32_fini(&clip);
		return true;
	}
	if (!pixman_f_transform_invert(&inverse, &e->to_output)) {
		pixman_region32_fini(&clip);
		return false;
	}
	pixman_transform_from_pixman_f_transform(&fixed, &inverse);
	pixman_image_set_transform(image, &fixed);
	pixman_image_set_filter(image, integer ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR,
				NULL, 0);
	/* PAD keeps a scaled edge from blending with transparency outside the buffer; the clip
	 * keeps the painting inside the surface. */
	pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD);
	pixman_image_set_clip_region32(target, &clip);
	pixman_image_composite32(e->opaque ? PIXMAN_OP_SRC : PIXMAN_OP_OVER, image, NULL, target,
				 0, 0, 0, 0, 0, 0, w, h);
	pixman_image_set_clip_region32(target, NULL);
	pixman_image_set_transform(image, NULL);
	pixman_region32_fini(&clip);
	return true;
}

/* A surface's pixels are the client's memory: read only between begin and end. */
static bool paint_entry(struct paint_entry *e, pixman_image_t *target,
			const pixman_region32_t *damage)
{
	pixman_image_t *image;
	bool painted;

	if (!e->surface)
		return paint_image(e, e->image, target, damage);
	image = garnet_surface_begin_read(e->surface);
	painted = image && paint_image(e, image, target, damage);
	garnet_surface_end_read(e->surface);
	return painted;
}

static void paint_background(struct garnet_output *output, pixman_image_t *target,
			     const pixman_region32_t *region)
{
	uint32_t argb = output->compositor->options.background_argb;
	pixman_color_t color = {
		.red = ((argb >> 16) & 0xff) * 0x101,
		.green = ((argb >> 8) & 0xff) * 0x101,
		.blue = (argb & 0xff) * 0x101,
		.alpha = 0xffff,
	};
	pixman_image_t *fill = pixman_image_create_solid_fill(&color);

	pixman_image_set_clip_region32(target, (pixman_region32_t *)region);
	pixman_image_composite32(PIXMAN_OP_SRC, fill, NULL, target, 0, 0, 0, 0, 0, 0,
				 pixman_image_get_width(target), pixman_image_get_height(target));
	garnet_background_paint(output->compositor, target);
	pixman_image_set_clip_region32(target, NULL);
	pixman_image_unref(fill);
}

static uint32_t region_area(const pixman_region32_t *r)
{
	int n;
	const pixman_box32_t *b = pixman_region32_rectangles((pixman_region32_t *)r, &n);
	uint32_t area = 0;

	for (int i = 0; i < n; i++)
		area += (uint32_t)(b[i].x2 - b[i].x1) * (uint32_t)(b[i].y2 - b[i].y1);
	return area;
}

/* What the renderer would paint on output, top first, as paint entries; the pointer too when
 * pointer says so. */
static void collect_scene(struct collect *col, struct garnet_output *output, bool pointer)
{
	struct garnet_surface *images[GARNET_POINTER_IMAGES];
	size_t image_count;
	int32_t cx, cy;

	col->output = output;
	garnet_output_matrix(output, &col->output_matrix);
	pixman_region32_init(&col->covered);
	if (!pointer) {
		image_count = 0;
	} else {
		collect_builtin_cursor(col, output->compositor->seat);
		image_count = garnet_seat_pointer_images(output->compositor->seat, images);
	}
	collect_portal_indicator(col, output->compositor);
	collect_consent(col, output->compositor);
	collect_lock_prompt(col, output->compositor);
	for (size_t i = 0; i < image_count; i++) {
		if (garnet_surface_position(images[i], &cx, &cy))
			garnet_surface_for_each_in_tree(images[i], cx, cy, collect_surface, col);
	}
	garnet_scene_for_each_surface(output->compositor, collect_surface, col);
}

static void collect_finish(struct collect *col)
{
	for (size_t i = 0; i < col->count; i++)
		pixman_region32_fini(&col->entries[i].visible);
	free(col->entries);
	pixman_region32_fini(&col->covered);
}

/* The damaged part of output's scene (the pointer in it or not) into image; the number of
 * surfaces painted. */
static uint32_t paint_scene(struct garnet_output *output, pixman_image_t *image,
			    const pixman_region32_t *damage, bool pointer)
{
	struct collect col = {0};
	pixman_region32_t background;
	uint32_t painted = 0;

	collect_scene(&col, output, pointer);
	pixman_region32_init(&background);
	pixman_region32_subtract(&background, (pixman_region32_t *)damage, &col.covered);
	if (pixman_region32_not_empty(&background))
		paint_background(output, image, &background);
	pixman_region32_fini(&background);
	for (size_t i = col.count; i-- > 0;)
		painted += paint_entry(&col.entries[i], image, damage);
	collect_finish(&col);
	return painted;
}

uint32_t garnet_render_output(struct garnet_output *output, pixman_image_t *image,
			      const pixman_region32_t *buffer_damage)
{
	output->painted_surfaces =
		paint_scene(output, image, buffer_damage, !output->cursor_on_plane);
	return region_area(buffer_damage);
}

void garnet_render_output_picture(struct garnet_output *output, pixman_image_t *image,
				  bool pointer)
{
	pixman_region32_t all;

	pixman_region32_init_rect(&all, 0, 0, (unsigned)pixman_image_get_width(image),
				  (unsigned)pixman_image_get_height(image));
	paint_scene(output, image, &all, pointer);
	pixman_region32_fini(&all);
}

/* The one surface the frame would be made of, pixel for pixel: nothing of garnet's (the
 * arrow, the lock prompt, the consent dialog) and no other surface is drawn on the output,
 * and the surface's buffer, without alpha, maps one to one onto every output pixel. */
struct garnet_surface *garnet_render_sole_surface(struct garnet_output *output)
{
	struct collect col = {0};
	struct garnet_surface *sole = NULL;
	const struct paint_entry *e;
	const struct pixman_f_transform *m;
	pixman_region32_t whole;

	collect_scene(&col, output, !output->cursor_on_plane);
	e = col.count == 1 ? &col.entries[0] : NULL;
	m = e ? &e->to_output : NULL;
	pixman_region32_init_rect(&whole, 0, 0, output->mode.width, output->mode.height);
	if (e && e->surface && e->opaque && m->m[0][0] == 1 && m->m[1][1] == 1 &&
	    m->m[0][1] == 0 && m->m[1][0] == 0 && m->m[0][2] == 0 && m->m[1][2] == 0 &&
	    e->surface->buffer_width == output->mode.width &&
	    e->surface->buffer_height == output->mode.height &&
	    pixman_region32_equal(&e->visible, &whole))
		sole = e->surface;
	pixman_region32_fini(&whole);
	collect_finish(&col);
	return sole;
}

/* Scene surfaces that belong to a window (its popups), placed relative to the window. */
struct family {
	struct collect *col;
	int32_t rx, ry;
	bool (*belongs)(struct garnet_surface *surface, void *data);
	void *data;
};

static bool collect_family(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct family *f = data;

	if (!f->belongs(surface, f->data))
		return true;
	return collect_surface(surface, garnet_coord_clamp((int64_t)x - f->rx),
			       garnet_coord_clamp((int64_t)y - f->ry), f->col);
}

/* What col holds (top first) over all of image, bottom first; col is finished then. */
static void paint_collected(struct collect *col, pixman_image_t *image)
{
	pixman_region32_t whole;

	pixman_region32_init_rect(&whole, 0, 0, (unsigned)pixman_image_get_width(image),
				  (unsigned)pixman_image_get_height(image));
	for (size_t i = col->count; i-- > 0;)
		paint_entry(&col->entries[i], image, &whole);
	pixman_region32_fini(&whole);
	collect_finish(col);
}

bool garnet_render_surface_tree(struct garnet_surface *root, pixman_image_t *image,
				bool (*belongs)(struct garnet_surface *surface, void *data),
				void *data)
{
	struct collect col = {0};
	struct family family = {&col, 0, 0, belongs, data};
	pixman_color_t black = {0, 0, 0, 0xffff};
	int32_t w = pixman_image_get_width(image), h = pixman_image_get_height(image);
	pixman_rectangle16_t all = {0, 0, (uint16_t)w, (uint16_t)h};

	/* The window's own space is the target's: nothing above it hides any of it. */
	pixman_f_transform_init_identity(&col.output_matrix);
	pixman_region32_init(&col.covered);
	/* Its popups first: they are above it. Not while it is off the screen (minimized). */
	if (belongs && garnet_surface_position(root, &family.rx, &family.ry))
		garnet_scene_for_each_surface(root->compositor, collect_family, &family);
	garnet_surface_for_each_in_tree(root, 0, 0, collect_surface, &col);
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &black, 1, &all);
	paint_collected(&col, image);
	return true;
}

/*
 * The pointer's image on its own, over transparency, for a cast that carries the pointer
 * apart from its picture: a client's cursor surface tree at its surface size, or garnet's
 * arrow (over garnet's own dialog and lock). At most max either way, cut there. NULL: no
 * pointer is shown (hidden by its client, or no seat).
 */
pixman_image_t *garnet_render_pointer_image(struct garnet_seat *seat, int32_t max,
					    int32_t *hot_x, int32_t *hot_y)
{
	struct garnet_surface *cursor;
	struct collect col = {0};
	pixman_image_t *image;
	pixman_box32_t box;
	int32_t x, y, w, h;

	if (!seat)
		return NULL;
	cursor = garnet_seat_pointer_is_garnets(seat) ? NULL : seat->cursor;
	if (!cursor) {
		if (!garnet_seat_builtin_cursor_box(seat, &box))
			return NULL;
		*hot_x = (int32_t)floor(seat->x) - box.x1;
		*hot_y = (int32_t)floor(seat->y) - box.y1;
		return pixman_image_ref(seat->compositor->builtin_cursor);
	}
	if (!cursor->content || !garnet_surface_position(cursor, &x, &y))
		return NULL;
	w = cursor->width < max ? cursor->width : max;
	h = cursor->height < max ? cursor->height : max;
	if (w <= 0 || h <= 0)
		return NULL;
	image = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, NULL, 0);
	if (!image)
		return NULL;
	pixman_f_transform_init_identity(&col.output_matrix);
	pixman_region32_init(&col.covered);
	garnet_surface_for_each_in_tree(cursor, 0, 0, collect_surface, &col);
	paint_collected(&col, image);
	*hot_x = (int32_t)floor(seat->x) - x;
	*hot_y = (int32_t)floor(seat->y) - y;
	return image;
}
