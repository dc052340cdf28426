/* SPDX-License-Identifier: MIT */
/* garnet-gem-demo's picture for frame n as a list of blits, so that the client draws it with
 * garnet's engine and the tests compute the very same pixels with the CPU. */
#ifndef GARNET_GEM_DEMO_SCENE_H
#define GARNET_GEM_DEMO_SCENE_H

#include <stdint.h>

#define GEM_DEMO_SPRITE 48 /* the sprite is SPRITE x SPRITE, four coloured quarters */
#define GEM_DEMO_MAX_OPS 8

enum gem_demo_op_kind {
	GEM_DEMO_FILL,        /* XY_COLOR_BLT of colour */
	GEM_DEMO_COPY_SPRITE, /* XY_SRC_COPY_BLT of the whole sprite to x, y */
};

struct gem_demo_op {
	enum gem_demo_op_kind kind;
	int32_t x, y, width, height;
	uint32_t color;
};

static inline uint32_t gem_demo_sprite_pixel(int32_t x, int32_t y)
{
	static const uint32_t quarter[4] = {0xffe0c040, 0xff40a0e0, 0xff60c060, 0xfff0f0f0};
	int32_t half = GEM_DEMO_SPRITE / 2;

	return quarter[(y >= half) * 2 + (x >= half)];
}

/* Fills ops (GEM_DEMO_MAX_OPS entries) for frame n of a width x height window (at least
 * 128 x 128); returns how many. */
static inline int gem_demo_scene(uint32_t n, int32_t width, int32_t height,
				 struct gem_demo_op *ops)
{
	int32_t span_x = width - GEM_DEMO_SPRITE - 16, span_y = height - GEM_DEMO_SPRITE - 40;
	int32_t x = 8 + (int32_t)((n * 6) % (uint32_t)span_x);
	int32_t y = 32 + (int32_t)((n * 4) % (uint32_t)span_y);
	int count = 0;

	/* Background with a band whose shade follows the frame, title bar, a garnet square
	 * bouncing along, and the sprite in the opposite corner. */
	ops[count++] = (struct gem_demo_op){GEM_DEMO_FILL, 0, 0, width, height, 0xff281418};
	ops[count++] = (struct gem_demo_op){GEM_DEMO_FILL, 0, height / 2 - 8, width, 16,
					    0xff400000 | (n * 8 % 256) << 8};
	ops[count++] = (struct gem_demo_op){GEM_DEMO_FILL, 0, 0, width, 24, 0xff303030};
	ops[count++] = (struct gem_demo_op){GEM_DEMO_FILL, x, y, 40, 40, 0xffa01030};
	ops[count++] = (struct gem_demo_op){GEM_DEMO_COPY_SPRITE, width - GEM_DEMO_SPRITE - 8,
					    height - GEM_DEMO_SPRITE - 8, GEM_DEMO_SPRITE,
					    GEM_DEMO_SPRITE, 0};
	return count;
}

/* The pixel the scene of frame n puts at x, y (what the tests expect on screen). */
static inline uint32_t gem_demo_expected_pixel(uint32_t n, int32_t width, int32_t height,
					       int32_t x, int32_t y)
{
	struct gem_demo_op ops[GEM_DEMO_MAX_OPS];
	int count = gem_demo_scene(n, width, height, ops);
	uint32_t pixel = 0;

	for (int i = 0; i < count; i++) {
		const struct gem_demo_op *op = &ops[i];

		if (x < op->x || y < op->y || x >= op->x + op->width || y >= op->y + op->height)
			continue;
		pixel = op->kind == GEM_DEMO_FILL ? op->color
						  : gem_demo_sprite_pixel(x - op->x, y - op->y);
	}
	return pixel;
}

#endif
