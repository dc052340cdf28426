// SPDX-License-Identifier: MIT
// Which outputs a surface tree is on (wl_surface.enter and leave), and the frame callbacks and
// presentation feedback each output's repaint takes from the surfaces it showed.
#include "output.h"
#include "surface.h"
#include "subsurface.h"
#include "view.h"
#include "seat.h"

struct output_hit {
	struct garnet_output *output;
	bool hit;
};

static bool tree_touches_output(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct output_hit *h = data;
	struct garnet_output *o = h->output;

	if (x < o->x + o->width && x + surface->width > o->x && y < o->y + o->height &&
	    y + surface->height > o->y)
		h->hit = true;
	return !h->hit;
}

void garnet_surface_update_outputs(struct garnet_surface *surface)
{
	struct garnet_output *output;
	struct garnet_subsurface *sub;
	struct wl_resource *resource;
	uint32_t mask = 0, bit;
	bool changed;
	int32_t x, y;
	bool placed = garnet_surface_is_mapped(surface) &&
		      garnet_surface_position(surface, &x, &y);

	wl_list_for_each(output, &surface->compositor->outputs, link) {
		struct output_hit h = {output, false};

		bit = 1u << output->index;
		if (placed)
			tree_touches_output(surface, x, y, &h);
		if (h.hit)
			mask |= bit;
		if ((mask ^ surface->output_mask) & bit) {
			wl_resource_for_each(resource, &output->resources) {
				if (wl_resource_get_client(resource) !=
				    wl_resource_get_client(surface->resource))
					continue;
				if (h.hit)
					wl_surface_send_enter(surface->resource, resource);
				else
					wl_surface_send_leave(surface->resource, resource);
			}
		}
	}
	changed = mask != surface->output_mask;
	surface->output_mask = mask;
	if (changed && surface->compositor->protocol_hooks.surface_outputs_changed)
		surface->compositor->protocol_hooks.surface_outputs_changed(surface);
	/* Subsurfaces move with their parent. */
	wl_list_for_each(sub, &surface->children, parent_link) {
		if (sub->surface != surface)
			garnet_surface_update_outputs(sub->surface);
	}
}

/* At repaint, the callbacks and feedback of what is being painted become the frame's: they are
 * answered when that frame is shown, and later commits wait for the next one. */
static bool take_frame_events(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	struct garnet_output *o = data;

	if (x >= o->x + o->width || x + surface->width <= o->x || y >= o->y + o->height ||
	    y + surface->height <= o->y)
		return true;
	wl_list_insert_list(o->frame_callbacks.prev, &surface->current.frame_callbacks);
	wl_list_init(&surface->current.frame_callbacks);
	wl_list_insert_list(o->feedbacks.prev, &surface->current.feedbacks);
	wl_list_init(&surface->current.feedbacks);
	return true;
}

void garnet_output_take_frame_events(struct garnet_output *output)
{
	struct garnet_surface *images[GARNET_POINTER_IMAGES];
	size_t image_count = garnet_seat_pointer_images(output->compositor->seat, images);

	garnet_scene_for_each_surface(output->compositor, take_frame_events, output);
	/* The cursor's and drag icon's callbacks come with every frame, drawn or not. */
	for (size_t i = 0; i < image_count; i++) {
		wl_list_insert_list(output->frame_callbacks.prev,
				    &images[i]->current.frame_callbacks);
		wl_list_init(&images[i]->current.frame_callbacks);
	}
}

void garnet_output_send_frame_events(struct garnet_output *output, const struct timespec *when)
{
	uint32_t msec = (uint32_t)(when->tv_sec * 1000 + when->tv_nsec / 1000000);
	struct garnet_presentation_feedback *fb, *tmp;
	struct wl_resource *callback, *next;

	wl_resource_for_each_safe(callback, next, &output->frame_callbacks) {
		wl_callback_send_done(callback, msec);
		wl_resource_destroy(callback);
	}
	wl_list_for_each_safe(fb, tmp, &output->feedbacks, link)
		fb->impl->presented(fb, output, when);
}
