// SPDX-License-Identifier: MIT
// wl_region: a client-built set of rectangles, copied into surface state when used.
#include <stdlib.h>

#include "internal.h"

/* Clients send rectangles like (0, 0, INT32_MAX, INT32_MAX); keep them inside pixman's range. */
bool garnet_clamp_rect(int32_t x, int32_t y, int32_t width, int32_t height, pixman_box32_t *box)
{
	int64_t x2 = (int64_t)x + width, y2 = (int64_t)y + height;

	if (width <= 0 || height <= 0)
		return false;
	box->x1 = x < GARNET_REGION_INFINITE_MIN ? GARNET_REGION_INFINITE_MIN : x;
	box->y1 = y < GARNET_REGION_INFINITE_MIN ? GARNET_REGION_INFINITE_MIN : y;
	box->x2 = x2 > GARNET_REGION_INFINITE_MAX ? GARNET_REGION_INFINITE_MAX : (int32_t)x2;
	box->y2 = y2 > GARNET_REGION_INFINITE_MAX ? GARNET_REGION_INFINITE_MAX : (int32_t)y2;
	return box->x2 > box->x1 && box->y2 > box->y1;
}

void garnet_region_add_rect(pixman_region32_t *region, int32_t x, int32_t y, int32_t width,
			    int32_t height)
{
	pixman_box32_t b;

	if (garnet_clamp_rect(x, y, width, height, &b))
		pixman_region32_union_rect(region, region, b.x1, b.y1, (unsigned)(b.x2 - b.x1),
					   (unsigned)(b.y2 - b.y1));
}

static void region_add(struct wl_client *client, struct wl_resource *resource, int32_t x,
		       int32_t y, int32_t width, int32_t height)
{
	garnet_region_add_rect(wl_resource_get_user_data(resource), x, y, width, height);
}

static void region_subtract(struct wl_client *client, struct wl_resource *resource, int32_t x,
			    int32_t y, int32_t width, int32_t height)
{
	pixman_region32_t *region = wl_resource_get_user_data(resource);
	pixman_region32_t rect;

	pixman_region32_init(&rect);
	garnet_region_add_rect(&rect, x, y, width, height);
	pixman_region32_subtract(region, region, &rect);
	pixman_region32_fini(&rect);
}

static const struct wl_region_interface region_impl = {
	.destroy = garnet_resource_destroy_request,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_resource_destroy(struct wl_resource *resource)
{
	pixman_region32_t *region = wl_resource_get_user_data(resource);

	pixman_region32_fini(region);
	free(region);
}

bool garnet_region_create(struct wl_client *client, uint32_t version, uint32_t id)
{
	pixman_region32_t *region = calloc(1, sizeof(*region));
	struct wl_resource *resource;

	if (!region)
		return false;
	resource = wl_resource_create(client, &wl_region_interface, (int)version, id);
	if (!resource) {
		free(region);
		return false;
	}
	pixman_region32_init(region);
	wl_resource_set_implementation(resource, &region_impl, region, region_resource_destroy);
	return true;
}

pixman_region32_t *garnet_region_from_resource(struct wl_resource *resource)
{
	if (!wl_resource_instance_of(resource, &wl_region_interface, &region_impl))
		return NULL;
	return wl_resource_get_user_data(resource);
}
