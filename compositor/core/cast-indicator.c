// SPDX-License-Identifier: MIT
// The screen-cast indicator (cast-indicator.h): one picture of garnet's, made when casts start
// and dropped when the last ends, painted by the renderer like the consent dialog.
#include "compositor.h"
#include "output.h"
#include "region.h"
#include "cast-indicator.h"

#define INDICATOR_SIZE 20
#define INDICATOR_MARGIN 8

static pixman_image_t *draw_indicator(void)
{
	pixman_image_t *image =
		pixman_image_create_bits(PIXMAN_x8r8g8b8, INDICATOR_SIZE, INDICATOR_SIZE, NULL, 0);
	pixman_color_t white = {0xffff, 0xffff, 0xffff, 0xffff};
	pixman_color_t red = {0xe000, 0x1000, 0x1000, 0xffff};
	pixman_rectangle16_t inner = {3, 3, INDICATOR_SIZE - 6, INDICATOR_SIZE - 6};
	pixman_rectangle16_t all = {0, 0, INDICATOR_SIZE, INDICATOR_SIZE};

	if (!image)
		return NULL;
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &white, 1, &all);
	pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &red, 1, &inner);
	return image;
}

bool garnet_cast_indicator_set(struct garnet_compositor *c, bool casting)
{
	if (casting == (c->cast_indicator != NULL))
		return true;
	if (casting) {
		c->cast_indicator = draw_indicator();
		if (!c->cast_indicator) {
			garnet_log(c, GARNET_LOG_ERROR, "portal",
				   "no memory for the screen-cast indicator");
			return false;
		}
	} else {
		pixman_image_unref(c->cast_indicator);
		c->cast_indicator = NULL;
	}
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
	return true;
}

bool garnet_cast_indicator_box(struct garnet_output *o, pixman_box32_t *box)
{
	if (!o->compositor->cast_indicator)
		return false;
	box->x2 = o->x + o->width - INDICATOR_MARGIN;
	box->x1 = box->x2 - INDICATOR_SIZE;
	box->y1 = o->y + INDICATOR_MARGIN;
	box->y2 = box->y1 + INDICATOR_SIZE;
	return true;
}

pixman_image_t *garnet_cast_indicator_image(struct garnet_compositor *c)
{
	return c->cast_indicator;
}
