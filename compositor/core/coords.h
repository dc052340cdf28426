/* SPDX-License-Identifier: MIT */
/* Coordinates (core layer): the range garnet keeps client coordinates in, so that sums of a few
 * of them never overflow int32 (doc/compositor.md, "Lifetimes" and "Coordinates"). */
#ifndef GARNET_CORE_COORDS_H
#define GARNET_CORE_COORDS_H

#include <stdint.h>

/* Far beyond any output (a million pixels), far below int32's end: a position or size from a
 * client is clamped to it when it arrives, and every sum of a handful of clamped values (a
 * subsurface inside its parent inside a window, plus a size) stays exact. */
#define GARNET_COORD_MAX (1 << 20)

/* v clamped to [-GARNET_COORD_MAX, GARNET_COORD_MAX]; takes int64_t so a sum can be clamped
 * before it is narrowed. */
static inline int32_t garnet_coord_clamp(int64_t v)
{
	if (v > GARNET_COORD_MAX)
		return GARNET_COORD_MAX;
	if (v < -GARNET_COORD_MAX)
		return -GARNET_COORD_MAX;
	return (int32_t)v;
}

#endif
