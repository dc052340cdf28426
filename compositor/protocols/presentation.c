// SPDX-License-Identifier: MIT
// wp_presentation: when a commit reached the screen, with the backend's timestamps.
#include <stdlib.h>

#include "presentation-time-server-protocol.h"
#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "client-protocols.h"

static void feedback_resource_destroy(struct wl_resource *resource)
{
	struct garnet_presentation_feedback *fb = wl_resource_get_user_data(resource);

	wl_list_remove(&fb->link);
	free(fb);
}

static void feedback_presented(struct garnet_presentation_feedback *fb,
			       struct garnet_output *output, const struct timespec *when)
{
	struct wl_resource *out = garnet_output_resource_for_client(
		output, wl_resource_get_client(fb->resource));
	uint64_t sec = (uint64_t)when->tv_sec;
	uint32_t refresh_ns = output->mode.refresh_mhz > 0
				      ? (uint32_t)(1000000000000LL / output->mode.refresh_mhz)
				      : 0;
	uint32_t flags = output->mode.refresh_mhz > 0 ? WP_PRESENTATION_FEEDBACK_KIND_VSYNC : 0;

	if (out)
		wp_presentation_feedback_send_sync_output(fb->resource, out);
	wp_presentation_feedback_send_presented(fb->resource, (uint32_t)(sec >> 32),
						(uint32_t)sec, (uint32_t)when->tv_nsec, refresh_ns,
						(uint32_t)(output->msc >> 32),
						(uint32_t)output->msc, flags);
	wl_resource_destroy(fb->resource);
}

static void feedback_discarded(struct garnet_presentation_feedback *fb)
{
	wp_presentation_feedback_send_discarded(fb->resource);
	wl_resource_destroy(fb->resource);
}

static const struct garnet_presentation_feedback_impl feedback_impl = {
	.presented = feedback_presented,
	.discarded = feedback_discarded,
};

static void presentation_feedback(struct wl_client *client, struct wl_resource *resource,
				  struct wl_resource *surface_resource, uint32_t id)
{
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_presentation_feedback *fb = calloc(1, sizeof(*fb));

	if (!fb) {
		wl_resource_post_no_memory(resource);
		return;
	}
	fb->resource = wl_resource_create(client, &wp_presentation_feedback_interface, 1, id);
	if (!fb->resource) {
		free(fb);
		wl_resource_post_no_memory(resource);
		return;
	}
	fb->impl = &feedback_impl;
	wl_resource_set_implementation(fb->resource, NULL, fb, feedback_resource_destroy);
	wl_list_insert(surface->pending.feedbacks.prev, &fb->link);
}

static const struct wp_presentation_interface presentation_impl = {
	.destroy = garnet_resource_destroy_request,
	.feedback = presentation_feedback,
};

static void presentation_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;
	struct wl_resource *resource =
		wl_resource_create(client, &wp_presentation_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &presentation_impl, c, NULL);
	wp_presentation_send_clock_id(resource, (uint32_t)c->clock);
}

bool garnet_presentation_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wp_presentation_interface, 1, c, presentation_bind,
				    false) != NULL;
}
