// SPDX-License-Identifier: MIT
// xdg_positioner: its requests and the constraint solving (flip, slide, resize) of one axis.
#include <stdlib.h>

#include "xdg-shell-server-protocol.h"
#include "../core/coords.h"
#include "xdg-shell-private.h"

/* ---- positioner ---- */

struct positioner *xdg_positioner_from(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

static void positioner_set_size(struct wl_client *client, struct wl_resource *resource,
				int32_t width, int32_t height)
{
	struct positioner *p = xdg_positioner_from(resource);

	if (width <= 0 || height <= 0) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "positioner size %dx%d is not positive", width, height);
		return;
	}
	p->width = garnet_coord_clamp(width);
	p->height = garnet_coord_clamp(height);
	p->has_size = true;
}

static void positioner_set_anchor_rect(struct wl_client *client, struct wl_resource *resource,
				       int32_t x, int32_t y, int32_t width, int32_t height)
{
	struct positioner *p = xdg_positioner_from(resource);

	if (width < 0 || height < 0) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor rectangle %dx%d is negative", width, height);
		return;
	}
	p->anchor_x = garnet_coord_clamp(x);
	p->anchor_y = garnet_coord_clamp(y);
	p->anchor_width = garnet_coord_clamp(width);
	p->anchor_height = garnet_coord_clamp(height);
	p->has_anchor_rect = true;
}

static void positioner_set_anchor(struct wl_client *client, struct wl_resource *resource,
				  uint32_t anchor)
{
	if (anchor > XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "anchor %u is not an xdg_positioner.anchor", anchor);
		return;
	}
	xdg_positioner_from(resource)->anchor = anchor;
}

static void positioner_set_gravity(struct wl_client *client, struct wl_resource *resource,
				   uint32_t gravity)
{
	if (gravity > XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT) {
		wl_resource_post_error(resource, XDG_POSITIONER_ERROR_INVALID_INPUT,
				       "gravity %u is not an xdg_positioner.gravity", gravity);
		return;
	}
	xdg_positioner_from(resource)->gravity = gravity;
}

static void positioner_set_constraint_adjustment(struct wl_client *client,
						 struct wl_resource *resource, uint32_t c)
{
	xdg_positioner_from(resource)->constraints = c;
}

static void positioner_set_offset(struct wl_client *client, struct wl_resource *resource,
				  int32_t x, int32_t y)
{
	struct positioner *p = xdg_positioner_from(resource);

	p->offset_x = garnet_coord_clamp(x);
	p->offset_y = garnet_coord_clamp(y);
}

static void positioner_set_reactive(struct wl_client *client, struct wl_resource *resource)
{
	xdg_positioner_from(resource)->reactive = true;
}

static void positioner_set_parent_size(struct wl_client *client, struct wl_resource *resource,
				       int32_t width, int32_t height)
{
}

static void positioner_set_parent_configure(struct wl_client *client,
					    struct wl_resource *resource, uint32_t serial)
{
}

static const struct xdg_positioner_interface positioner_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_size = positioner_set_size,
	.set_anchor_rect = positioner_set_anchor_rect,
	.set_anchor = positioner_set_anchor,
	.set_gravity = positioner_set_gravity,
	.set_constraint_adjustment = positioner_set_constraint_adjustment,
	.set_offset = positioner_set_offset,
	.set_reactive = positioner_set_reactive,
	.set_parent_size = positioner_set_parent_size,
	.set_parent_configure = positioner_set_parent_configure,
};

static void positioner_resource_destroy(struct wl_resource *resource)
{
	free(wl_resource_get_user_data(resource));
}

/* Horizontal and vertical parts of an anchor or gravity: -1 left/top, 0 centre, 1 right/bottom. */
static void edge_parts(uint32_t value, int *h, int *v)
{
	static const int hs[] = {0, 0, 0, -1, 1, -1, -1, 1, 1};
	static const int vs[] = {0, -1, 1, 0, 0, -1, 1, -1, 1};

	*h = hs[value];
	*v = vs[value];
}

/* Position along one axis for an anchor part and gravity part. */
static int32_t axis_position(int32_t anchor_start, int32_t anchor_size, int anchor_part,
			     int gravity_part, int32_t size, int32_t offset)
{
	int32_t point = anchor_part < 0   ? anchor_start
			: anchor_part > 0 ? anchor_start + anchor_size
					  : anchor_start + anchor_size / 2;

	if (gravity_part < 0)
		point -= size;
	else if (gravity_part == 0)
		point -= size / 2;
	return point + offset;
}

static bool fits(int32_t pos, int32_t size, int32_t min, int32_t max)
{
	return pos >= min && pos + size <= max;
}

/* One axis of the constraint solving: flip, then slide, then resize, as the client allows. */
void xdg_positioner_constrain_axis(const struct positioner *p, bool horizontal, int32_t min,
				   int32_t max, int32_t *pos, int32_t *size)
{
	int ah, av, gh, gv;
	int32_t anchor_start = horizontal ? p->anchor_x : p->anchor_y;
	int32_t anchor_size = horizontal ? p->anchor_width : p->anchor_height;
	int32_t offset = horizontal ? p->offset_x : p->offset_y;
	uint32_t flip = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_X
				   : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_FLIP_Y;
	uint32_t slide = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_X
				    : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_SLIDE_Y;
	uint32_t resize = horizontal ? XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_X
				     : XDG_POSITIONER_CONSTRAINT_ADJUSTMENT_RESIZE_Y;
	int a, g;

	edge_parts(p->anchor, &ah, &av);
	edge_parts(p->gravity, &gh, &gv);
	a = horizontal ? ah : av;
	g = horizontal ? gh : gv;
	*pos = axis_position(anchor_start, anchor_size, a, g, *size, offset);
	if (fits(*pos, *size, min, max))
		return;
	if ((p->constraints & flip) && (a != 0 || g != 0)) {
		int32_t flipped = axis_position(anchor_start, anchor_size, -a, -g, *size, -offset);

		if (fits(flipped, *size, min, max)) {
			*pos = flipped;
			return;
		}
	}
	if (p->constraints & slide) {
		if (*pos + *size > max)
			*pos = max - *size;
		if (*pos < min)
			*pos = min;
		if (fits(*pos, *size, min, max))
			return;
	}
	if (p->constraints & resize) {
		int32_t start = *pos < min ? min : *pos;
		int32_t end = *pos + *size > max ? max : *pos + *size;

		if (end > start) {
			*pos = start;
			*size = end - start;
		}
	}
}

void xdg_positioner_new(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct positioner *p = calloc(1, sizeof(*p));
	struct wl_resource *pr;

	if (!p) {
		wl_resource_post_no_memory(resource);
		return;
	}
	pr = wl_resource_create(client, &xdg_positioner_interface,
				wl_resource_get_version(resource), id);
	if (!pr) {
		free(p);
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(pr, &positioner_impl, p, positioner_resource_destroy);
}
