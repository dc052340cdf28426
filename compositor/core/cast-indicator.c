// SPDX-License-Identifier: MIT
// The screen-cast indicator (cast-indicator.h): garnet's own pictures, made when the casts
// change and dropped when the last ends, painted by the renderer like the consent dialog.
#include <stdlib.h>

#include "compositor.h"
#include "output.h"
#include "region.h"
#include "cast-indicator.h"
#include "../render/cast-list.h"

#define INDICATOR_SIZE 20
#define INDICATOR_MARGIN 8
#define LIST_GAP 4

struct garnet_cast_indicator {
	pixman_image_t *square, *list;
	bool list_shown;
	struct wl_event_source *hide_timer; /* ends list_shown */
};

static pixman_image_t *draw_square(void)
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

static void destroy(struct garnet_compositor *c)
{
	struct garnet_cast_indicator *ind = c->cast_indicator;

	if (!ind)
		return;
	if (ind->square)
		pixman_image_unref(ind->square);
	if (ind->list)
		pixman_image_unref(ind->list);
	if (ind->hide_timer)
		wl_event_source_remove(ind->hide_timer);
	free(ind);
	c->cast_indicator = NULL;
}

static int hide_list(void *data)
{
	struct garnet_compositor *c = data;

	if (c->cast_indicator && c->cast_indicator->list_shown) {
		c->cast_indicator->list_shown = false;
		garnet_compositor_damage_box(c, &garnet_region_everywhere);
	}
	return 0;
}

/* The list shows now, for cast_list_seconds (0: as long as casts run). */
static void show_list(struct garnet_compositor *c)
{
	struct garnet_cast_indicator *ind = c->cast_indicator;
	uint32_t seconds = c->options.cast_list_seconds;

	ind->list_shown = true;
	if (seconds)
		wl_event_source_timer_update(ind->hide_timer,
					     (int)(seconds > 86400 ? 86400 : seconds) * 1000);
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
}

bool garnet_cast_indicator_set(struct garnet_compositor *c, const char *const *lines,
			       size_t count)
{
	struct garnet_cast_indicator *ind = c->cast_indicator;
	bool was_up = ind != NULL;
	pixman_image_t *list;

	if (!count) {
		if (ind)
			garnet_compositor_damage_box(c, &garnet_region_everywhere);
		destroy(c);
		return true;
	}
	if (!ind) {
		ind = c->cast_indicator = calloc(1, sizeof(*ind));
		if (!ind || !(ind->square = draw_square()) ||
		    !(ind->hide_timer = wl_event_loop_add_timer(c->loop, hide_list, c)))
			goto fail;
	}
	list = garnet_cast_list_draw(lines, count);
	if (!list)
		goto fail;
	if (ind->list)
		pixman_image_unref(ind->list);
	ind->list = list;
	show_list(c);
	return true;
fail:
	garnet_log(c, GARNET_LOG_ERROR, "portal", "no memory for the screen-cast indicator");
	if (!was_up) {
		destroy(c);
		return false;
	}
	/* Never a list that is no longer true; the square still says that casts run. */
	if (ind->list)
		pixman_image_unref(ind->list);
	ind->list = NULL;
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
	return false;
}

void garnet_cast_indicator_show_list(struct garnet_compositor *c)
{
	if (c->cast_indicator)
		show_list(c);
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
	return c->cast_indicator ? c->cast_indicator->square : NULL;
}

bool garnet_cast_indicator_list_box(struct garnet_output *o, pixman_box32_t *box)
{
	struct garnet_cast_indicator *ind = o->compositor->cast_indicator;

	if (!ind || !ind->list_shown || !ind->list)
		return false;
	box->x2 = o->x + o->width - INDICATOR_MARGIN;
	box->x1 = box->x2 - pixman_image_get_width(ind->list);
	box->y1 = o->y + INDICATOR_MARGIN + INDICATOR_SIZE + LIST_GAP;
	box->y2 = box->y1 + pixman_image_get_height(ind->list);
	return true;
}

pixman_image_t *garnet_cast_indicator_list_image(struct garnet_compositor *c)
{
	return c->cast_indicator ? c->cast_indicator->list : NULL;
}
