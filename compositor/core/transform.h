/* SPDX-License-Identifier: MIT */
/* Buffer transforms (core layer): the matrices between a buffer turned by wl_output.transform
 * and the untransformed space, and regions carried through them. */
#ifndef GARNET_CORE_TRANSFORM_H
#define GARNET_CORE_TRANSFORM_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>

/* Maps the untransformed space (width x height) into a buffer turned by transform. */
void garnet_transform_matrix(struct pixman_f_transform *m, int32_t transform, double width,
			     double height);
bool garnet_transform_swaps_axes(int32_t transform);
void garnet_region_transform(pixman_region32_t *dst, const pixman_region32_t *src,
			     const struct pixman_f_transform *m);

#endif
