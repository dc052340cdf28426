// SPDX-License-Identifier: MIT
// wl_region: a client-built set of rectangles, copied into surface state when used.
#include <stdlib.h>

#include "compositor.h"
#include "region.h"
#include "client-budget.h"

const pixman_box32_t garnet_region_everywhere = {
	GARNET_REGION_INFINITE_MIN, GARNET_REGION_INFINITE_MIN,
	GARNET_REGION_INFINITE_MAX, GARNET_REGION_INFINITE_MAX,
};

/* Clients send rectangles like (0, 0, INT32_MAX, INT32_MAX); keep them inside pixman's range. */
static bool clamp_rect(int32_t x, int32_t y, int32_t width, int32_t height, pixman_box32_t *box)
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

	if (clamp_rect(x, y, width, height, &b))
		pixman_region32_union_rect(region, region, b.x1, b.y1, (unsigned)(b.x2 - b.x1),
					   (unsigned)(b.y2 - b.y1));
}

/* A wl_region, its rectangles charged to its client's budget. */
struct region {
	pixman_region32_t pixels; /* first: garnet_region_from_resource hands out its address */
	struct garnet_compositor *compositor;
	uint32_t charged; /* rectangles taken from the client's budget */
};

/* Every operation costs as much as the rectangles the region holds: with their number capped,
 * a client adding rectangle after rectangle costs linear time, not quadratic. */
static void region_account(struct wl_resource *resource, struct region *r)
{
	struct wl_client *client = wl_resource_get_client(resource);
	uint32_t rects = (uint32_t)pixman_region32_n_rects(&r->pixels);
	uint32_t cap = r->compositor->options.limits.region_rects;

	if (cap != 0 && rects > cap) {
		pid_t pid = 0;

		wl_client_get_credentials(client, &pid, NULL, NULL);
		garnet_log(r->compositor, GARNET_LOG_WARNING, "security",
			   "pid %d put more than %u rectangles in a region: disconnected", (int)pid,
			   cap);
		pixman_region32_clear(&r->pixels);
		rects = 0;
		wl_resource_post_error(wl_client_get_object(client, 1), WL_DISPLAY_ERROR_NO_MEMORY,
				       "wl_region@%u: more than %u rectangles in one region",
				       wl_resource_get_id(resource), cap);
	} else if (rects > r->charged &&
		   !garnet_client_charge(client, GARNET_LIMIT_REGION_RECTS, rects - r->charged)) {
		pixman_region32_clear(&r->pixels);
		rects = 0;
	}
	if (rects < r->charged)
		garnet_client_uncharge(client, GARNET_LIMIT_REGION_RECTS, r->charged - rects);
	r->charged = rects;
}

static void region_add(struct wl_client *client, struct wl_resource *resource, int32_t x,
		       int32_t y, int32_t width, int32_t height)
{
	struct region *r = wl_resource_get_user_data(resource);

	garnet_region_add_rect(&r->pixels, x, y, width, height);
	region_account(resource, r);
}

static void region_subtract(struct wl_client *client, struct wl_resource *resource, int32_t x,
			    int32_t y, int32_t width, int32_t height)
{
	struct region *r = wl_resource_get_user_data(resource);
	pixman_region32_t rect;

	pixman_region32_init(&rect);
	garnet_region_add_rect(&rect, x, y, width, height);
	pixman_region32_subtract(&r->pixels, &r->pixels, &rect);
	pixman_region32_fini(&rect);
	region_account(resource, r);
}

static const struct wl_region_interface region_impl = {
	.destroy = garnet_resource_destroy_request,
	.add = region_add,
	.subtract = region_subtract,
};

static void region_resource_destroy(struct wl_resource *resource)
{
	struct region *r = wl_resource_get_user_data(resource);

	garnet_client_uncharge(wl_resource_get_client(resource), GARNET_LIMIT_REGION_RECTS,
			       r->charged);
	pixman_region32_fini(&r->pixels);
	free(r);
}

bool garnet_region_create(struct garnet_compositor *c, struct wl_client *client, uint32_t version,
			  uint32_t id)
{
	struct region *r = calloc(1, sizeof(*r));
	struct wl_resource *resource;

	if (!r)
		return false;
	resource = wl_resource_create(client, &wl_region_interface, (int)version, id);
	if (!resource) {
		free(r);
		return false;
	}
	r->compositor = c;
	pixman_region32_init(&r->pixels);
	wl_resource_set_implementation(resource, &region_impl, r, region_resource_destroy);
	return true;
}

pixman_region32_t *garnet_region_from_resource(struct wl_resource *resource)
{
	struct region *r;

	if (!wl_resource_instance_of(resource, &wl_region_interface, &region_impl))
		return NULL;
	r = wl_resource_get_user_data(resource);
	return &r->pixels;
}

void garnet_region_set_from_resource(pixman_region32_t *dst, struct wl_resource *region_resource,
				     const pixman_box32_t *unset)
{
	if (region_resource)
		pixman_region32_copy(dst, garnet_region_from_resource(region_resource));
	else if (unset)
		pixman_region32_reset(dst, unset);
	else
		pixman_region32_clear(dst);
}
