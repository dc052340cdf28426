// SPDX-License-Identifier: MIT
// wl_output.transform as a matrix, and regions carried through such matrices.
#include <math.h>

#include "compositor.h"
#include "transform.h"

void garnet_transform_matrix(struct pixman_f_transform *m, int32_t transform, double width,
			     double height)
{
	/* Rows of the 2x3 affine map from the untransformed space (width x height) into the
	 * transformed buffer, for each wl_output.transform value. */
	static const double rot[8][4] = {
		[WL_OUTPUT_TRANSFORM_NORMAL] = {1, 0, 0, 1},
		[WL_OUTPUT_TRANSFORM_90] = {0, 1, -1, 0},
		[WL_OUTPUT_TRANSFORM_180] = {-1, 0, 0, -1},
		[WL_OUTPUT_TRANSFORM_270] = {0, -1, 1, 0},
		[WL_OUTPUT_TRANSFORM_FLIPPED] = {-1, 0, 0, 1},
		[WL_OUTPUT_TRANSFORM_FLIPPED_90] = {0, 1, 1, 0},
		[WL_OUTPUT_TRANSFORM_FLIPPED_180] = {1, 0, 0, -1},
		[WL_OUTPUT_TRANSFORM_FLIPPED_270] = {0, -1, -1, 0},
	};
	const double *r = rot[transform & 7];

	pixman_f_transform_init_identity(m);
	m->m[0][0] = r[0];
	m->m[0][1] = r[1];
	m->m[1][0] = r[2];
	m->m[1][1] = r[3];
	/* Translate so the rotated rectangle starts at the origin again. */
	m->m[0][2] = (r[0] < 0 ? width : 0) + (r[1] < 0 ? height : 0);
	m->m[1][2] = (r[2] < 0 ? width : 0) + (r[3] < 0 ? height : 0);
}

bool garnet_transform_swaps_axes(int32_t transform)
{
	return transform & 1;
}

static double clamp(double v)
{
	return fmax(GARNET_REGION_INFINITE_MIN, fmin(GARNET_REGION_INFINITE_MAX, v));
}

void garnet_region_transform(pixman_region32_t *dst, const pixman_region32_t *src,
			     const struct pixman_f_transform *m)
{
	int n;
	const pixman_box32_t *boxes = pixman_region32_rectangles((pixman_region32_t *)src, &n);
	pixman_region32_t out;

	pixman_region32_init(&out);
	for (int i = 0; i < n; i++) {
		double p[2][3] = {{boxes[i].x1, boxes[i].y1, 1}, {boxes[i].x2, boxes[i].y2, 1}};
		double x1, y1, x2, y2;

		pixman_f_transform_point(m, (struct pixman_f_vector *)p[0]);
		pixman_f_transform_point(m, (struct pixman_f_vector *)p[1]);
		/* Only axis-aligned maps reach here: corners stay corners. Round outward so
		 * a fractional scale never loses a pixel of damage. */
		x1 = clamp(floor(fmin(p[0][0], p[1][0])));
		x2 = clamp(ceil(fmax(p[0][0], p[1][0])));
		y1 = clamp(floor(fmin(p[0][1], p[1][1])));
		y2 = clamp(ceil(fmax(p[0][1], p[1][1])));
		if (x2 <= x1 || y2 <= y1)
			continue;
		pixman_region32_union_rect(&out, &out, (int)x1, (int)y1, (unsigned)(x2 - x1),
					   (unsigned)(y2 - y1));
	}
	pixman_region32_fini(dst);
	*dst = out;
}
