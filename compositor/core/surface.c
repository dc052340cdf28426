// SPDX-License-Identifier: MIT
// wl_compositor and wl_surface: double-buffered state, damage, frame callbacks, roles. Which
// outputs a surface is on, and the frame events they send, are surface-outputs.c.
#include <math.h>
#include <stdlib.h>

#include "gem-buffer.h"
#include "coords.h"
#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "subsurface.h"
#include "region.h"
#include "transform.h"
#include "view.h"
#include "seat.h"
#include "client-budget.h"
#include "buffer.h"

#define COMPOSITOR_VERSION 5

static void state_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_surface_state *state = wl_container_of(listener, state, buffer_destroy);

	/* A buffer destroyed before the commit that uses it leaves nothing to show. */
	state->buffer = NULL;
	garnet_list_unlink(&listener->link);
}

static void state_set_buffer(struct garnet_surface_state *state, struct wl_resource *buffer)
{
	garnet_list_unlink(&state->buffer_destroy.link);
	state->buffer = buffer;
	if (buffer)
		wl_resource_add_destroy_listener(buffer, &state->buffer_destroy);
}

void garnet_surface_state_init(struct garnet_surface_state *state)
{
	*state = (struct garnet_surface_state){
		.scale = 1,
		.transform = WL_OUTPUT_TRANSFORM_NORMAL,
		.src_width = -1,
	};
	garnet_listener_init(&state->buffer_destroy, state_buffer_destroyed);
	pixman_region32_init(&state->damage_surface);
	pixman_region32_init(&state->damage_buffer);
	pixman_region32_init(&state->opaque);
	pixman_region32_init_with_extents(&state->input, &garnet_region_everywhere);
	wl_list_init(&state->frame_callbacks);
	wl_list_init(&state->feedbacks);
}

static void destroy_callbacks(struct wl_list *callbacks)
{
	struct wl_resource *resource, *tmp;

	wl_resource_for_each_safe(resource, tmp, callbacks)
		wl_resource_destroy(resource);
}

void garnet_surface_discard_feedback(struct wl_list *feedbacks)
{
	struct garnet_presentation_feedback *fb, *tmp;

	wl_list_for_each_safe(fb, tmp, feedbacks, link)
		fb->impl->discarded(fb);
}

void garnet_surface_state_finish(struct garnet_surface_state *state)
{
	wl_list_remove(&state->buffer_destroy.link);
	pixman_region32_fini(&state->damage_surface);
	pixman_region32_fini(&state->damage_buffer);
	pixman_region32_fini(&state->opaque);
	pixman_region32_fini(&state->input);
	destroy_callbacks(&state->frame_callbacks);
	garnet_surface_discard_feedback(&state->feedbacks);
}

/* Clears what a commit consumes; what persists (scale, regions, viewport) stays. */
static void state_reset_transient(struct garnet_surface_state *state)
{
	state->buffer_attached = false;
	state_set_buffer(state, NULL);
	state->dx = state->dy = 0;
	pixman_region32_clear(&state->damage_surface);
	pixman_region32_clear(&state->damage_buffer);
}

/* Moves state from src into dst (subsurface cache), leaving src empty. */
/*
 * Copies how src maps its buffer onto the surface (scale, transform, viewport) and its opaque
 * and input regions into dst. True when the mapping or the opaque region changed: what is
 * drawn may then differ everywhere.
 */
static bool state_copy_geometry(struct garnet_surface_state *dst, struct garnet_surface_state *src)
{
	bool changed = src->scale != dst->scale || src->transform != dst->transform ||
		       src->src_x != dst->src_x || src->src_y != dst->src_y ||
		       src->src_width != dst->src_width || src->src_height != dst->src_height ||
		       src->dst_width != dst->dst_width || src->dst_height != dst->dst_height ||
		       !pixman_region32_equal(&dst->opaque, &src->opaque);

	dst->scale = src->scale;
	dst->transform = src->transform;
	dst->src_x = src->src_x;
	dst->src_y = src->src_y;
	dst->src_width = src->src_width;
	dst->src_height = src->src_height;
	dst->dst_width = src->dst_width;
	dst->dst_height = src->dst_height;
	pixman_region32_copy(&dst->opaque, &src->opaque);
	pixman_region32_copy(&dst->input, &src->input);
	return changed;
}

static void state_move(struct garnet_surface_state *dst, struct garnet_surface_state *src)
{
	if (src->buffer_attached) {
		dst->buffer_attached = true;
		state_set_buffer(dst, src->buffer);
	}
	dst->dx = garnet_coord_clamp((int64_t)dst->dx + src->dx);
	dst->dy = garnet_coord_clamp((int64_t)dst->dy + src->dy);
	pixman_region32_union(&dst->damage_surface, &dst->damage_surface, &src->damage_surface);
	pixman_region32_union(&dst->damage_buffer, &dst->damage_buffer, &src->damage_buffer);
	state_copy_geometry(dst, src);
	wl_list_insert_list(dst->frame_callbacks.prev, &src->frame_callbacks);
	wl_list_init(&src->frame_callbacks);
	if (!wl_list_empty(&src->feedbacks)) {
		garnet_surface_discard_feedback(&dst->feedbacks);
		wl_list_insert_list(&dst->feedbacks, &src->feedbacks);
		wl_list_init(&src->feedbacks);
	}
	state_reset_transient(src);
}

bool garnet_surface_is_mapped(struct garnet_surface *surface)
{
	return surface->content != NULL;
}

bool garnet_surface_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	if (!surface->role || !surface->role->position)
		return false;
	return surface->role->position(surface, x, y);
}

static bool damage_one(struct garnet_surface *surface, int32_t x, int32_t y, void *data)
{
	pixman_box32_t box = {x, y, x + surface->width, y + surface->height};

	garnet_compositor_damage_box(surface->compositor, &box);
	return true;
}

void garnet_surface_damage_tree(struct garnet_surface *surface)
{
	int32_t x, y;

	if (garnet_surface_is_mapped(surface) && garnet_surface_position(surface, &x, &y))
		garnet_surface_for_each_in_tree(surface, x, y, damage_one, NULL);
}

bool garnet_surface_accepts_input(struct garnet_surface *surface, double sx, double sy)
{
	if (sx < 0 || sy < 0 || sx >= surface->width || sy >= surface->height)
		return false;
	return pixman_region32_contains_point(&surface->current.input, (int)floor(sx),
					      (int)floor(sy), NULL);
}

static void transformed_buffer_size(struct garnet_surface *surface, int32_t *w, int32_t *h)
{
	*w = surface->buffer_width;
	*h = surface->buffer_height;
	if (garnet_transform_swaps_axes(surface->current.transform)) {
		*w = surface->buffer_height;
		*h = surface->buffer_width;
	}
}

void garnet_surface_buffer_matrix(struct garnet_surface *surface, struct pixman_f_transform *m)
{
	struct garnet_surface_state *s = &surface->current;
	struct pixman_f_transform step, to_buffer;
	int32_t tw, th;
	double vw, vh; /* the viewport source size, surface-local units */

	transformed_buffer_size(surface, &tw, &th);
	vw = (double)tw / s->scale;
	vh = (double)th / s->scale;
	pixman_f_transform_init_identity(&to_buffer);
	if (s->src_width >= 0) {
		pixman_f_transform_init_scale(&to_buffer, s->src_width / surface->width,
					      s->src_height / surface->height);
		pixman_f_transform_init_translate(&step, s->src_x, s->src_y);
		pixman_f_transform_multiply(&to_buffer, &step, &to_buffer);
	} else if (s->dst_width > 0) {
		pixman_f_transform_init_scale(&to_buffer, vw / surface->width,
					      vh / surface->height);
	}
	pixman_f_transform_init_scale(&step, s->scale, s->scale);
	pixman_f_transform_multiply(&to_buffer, &step, &to_buffer);
	garnet_transform_matrix(&step, s->transform, tw, th);
	pixman_f_transform_multiply(&to_buffer, &step, &to_buffer);
	if (!pixman_f_transform_invert(m, &to_buffer))
		pixman_f_transform_init_identity(m);
}

static void update_size(struct garnet_surface *surface)
{
	struct garnet_surface_state *s = &surface->current;
	int32_t tw, th;

	if (!surface->content) {
		surface->width = surface->height = 0;
		return;
	}
	transformed_buffer_size(surface, &tw, &th);
	if (s->dst_width > 0) {
		surface->width = s->dst_width;
		surface->height = s->dst_height;
	} else if (s->src_width >= 0) {
		surface->width = (int32_t)s->src_width;
		surface->height = (int32_t)s->src_height;
	} else {
		surface->width = tw / s->scale;
		surface->height = th / s->scale;
	}
}

/* Damages the output where region (surface-local) is, if the surface is on screen. */
static void damage_surface_region(struct garnet_surface *surface, pixman_region32_t *region)
{
	int32_t x, y;

	if (!pixman_region32_not_empty(region) || !garnet_surface_is_mapped(surface) ||
	    !garnet_surface_position(surface, &x, &y))
		return;
	pixman_region32_translate(region, x, y);
	garnet_compositor_damage_region(surface->compositor, region);
	pixman_region32_translate(region, -x, -y);
}

void garnet_surface_content_resized(struct garnet_surface *surface)
{
	int32_t old_w = surface->width, old_h = surface->height, x, y;
	bool placed = garnet_surface_is_mapped(surface) && garnet_surface_position(surface, &x, &y);

	update_size(surface);
	if (old_w != surface->width || old_h != surface->height) {
		if (placed)
			garnet_compositor_damage_box(surface->compositor,
						     &(pixman_box32_t){x, y, x + old_w, y + old_h});
		garnet_surface_damage_tree(surface);
	} else {
		/* Only what the waited commits damaged changed: a client animating a small
		 * part of a large GPU buffer costs that part, not the whole surface. */
		pixman_region32_intersect_rect(&surface->waiting_damage, &surface->waiting_damage,
					       0, 0, surface->width, surface->height);
		damage_surface_region(surface, &surface->waiting_damage);
	}
	pixman_region32_clear(&surface->waiting_damage);
}

void garnet_surface_wait_ended(struct garnet_surface *surface)
{
	if (wl_list_empty(&surface->waiting_callbacks))
		return;
	wl_list_insert_list(surface->current.frame_callbacks.prev, &surface->waiting_callbacks);
	wl_list_init(&surface->waiting_callbacks);
	/* The callbacks go with the next frame: make sure one comes. */
	if (garnet_surface_is_mapped(surface))
		garnet_compositor_schedule_repaint(surface->compositor);
}

static bool viewport_source_fits(struct garnet_surface *surface)
{
	struct garnet_surface_state *s = &surface->current;
	int32_t tw, th;

	if (s->src_width < 0 || !surface->content)
		return true;
	transformed_buffer_size(surface, &tw, &th);
	return s->src_x + s->src_width <= (double)tw / s->scale &&
	       s->src_y + s->src_height <= (double)th / s->scale;
}

/* Applies state (pending or cached) to the surface: the heart of wl_surface.commit. */
static void apply_state(struct garnet_surface *surface, struct garnet_surface_state *s)
{
	struct garnet_surface_state *cur = &surface->current;
	int32_t old_w = surface->width, old_h = surface->height, x, y;
	bool was_placed = garnet_surface_is_mapped(surface) &&
			  garnet_surface_position(surface, &x, &y);
	pixman_box32_t old_box = {0};
	bool full = false;
	pixman_region32_t damage, buffer_damage;
	struct pixman_f_transform b2s;
	bool waiting = false;

	if (was_placed)
		old_box = (pixman_box32_t){x, y, x + old_w, y + old_h};
	if (state_copy_geometry(cur, s))
		full = true;
	cur->dx = s->dx;
	cur->dy = s->dy;

	if (s->buffer_attached) {
		garnet_gem_import_surface_attach(surface, s->buffer);
		if (s->buffer) {
			bool whole = false;
			pixman_region32_t upload;
			struct pixman_f_transform s2b;

			/* Damage given in surface coordinates is damage to the buffer too. */
			pixman_region32_init(&upload);
			garnet_surface_buffer_matrix(surface, &b2s);
			if (surface->content && pixman_f_transform_invert(&s2b, &b2s))
				garnet_region_transform(&upload, &s->damage_surface, &s2b);
			pixman_region32_union(&upload, &upload, &s->damage_buffer);
			if (!garnet_buffer_upload(surface, s->buffer, &upload, &whole)) {
				pixman_region32_fini(&upload);
				state_reset_transient(s);
				return;
			}
			pixman_region32_fini(&upload);
			full = full || whole;
			/* Held but not shown: garnet waits for the GPU to finish writing it. */
			waiting = garnet_surface_shown_buffer(surface) != s->buffer &&
				  garnet_buffer_is_held(surface->compositor, s->buffer);
			if (!garnet_buffer_is_held(surface->compositor, s->buffer))
				wl_buffer_send_release(s->buffer);
		} else {
			garnet_surface_drop_content(surface);
		}
	}
	update_size(surface);
	if (surface->viewport && cur->src_width >= 0 && cur->dst_width <= 0 &&
	    (cur->src_width != (int32_t)cur->src_width ||
	     cur->src_height != (int32_t)cur->src_height))
		wl_resource_post_error(surface->viewport, 1 /* wp_viewport.bad_size */,
				       "source size %fx%f is not whole without a destination size",
				       cur->src_width, cur->src_height);
	if (!viewport_source_fits(surface))
		wl_resource_post_error(surface->viewport ? surface->viewport : surface->resource,
				       surface->viewport ? 2 /* wp_viewport.out_of_buffer */
							 : WL_SURFACE_ERROR_INVALID_SIZE,
				       "viewport source rectangle lies outside the buffer");

	wl_list_insert_list(waiting ? surface->waiting_callbacks.prev : cur->frame_callbacks.prev,
			    &s->frame_callbacks);
	wl_list_init(&s->frame_callbacks);
	if (!wl_list_empty(&s->feedbacks)) {
		garnet_surface_discard_feedback(&cur->feedbacks);
		wl_list_insert_list(&cur->feedbacks, &s->feedbacks);
		wl_list_init(&s->feedbacks);
	}

	/* A surface that changed shape is damaged where it was and where it is now, and the
	 * pointer may be over something else now. */
	if (full || old_w != surface->width || old_h != surface->height) {
		full = true;
		garnet_compositor_damage_box(surface->compositor, &old_box);
	}
	pixman_region32_init(&damage);
	if (full) {
		pixman_region32_init_rect(&damage, 0, 0, surface->width, surface->height);
	} else {
		pixman_region32_copy(&damage, &s->damage_surface);
		pixman_region32_init(&buffer_damage);
		garnet_surface_buffer_matrix(surface, &b2s);
		garnet_region_transform(&buffer_damage, &s->damage_buffer, &b2s);
		pixman_region32_union(&damage, &damage, &buffer_damage);
		pixman_region32_fini(&buffer_damage);
		pixman_region32_intersect_rect(&damage, &damage, 0, 0, surface->width,
					       surface->height);
	}
	state_reset_transient(s);

	if (waiting || garnet_gem_import_pending(surface)) {
		/* The screen changes when the buffer is shown (garnet_surface_content_resized),
		 * for this commit's damage and that of commits made while it is awaited; only a
		 * change of shape shows now. */
		pixman_region32_union(&surface->waiting_damage, &surface->waiting_damage, &damage);
		if (!full)
			pixman_region32_clear(&damage);
	} else if (pixman_region32_not_empty(&surface->waiting_damage)) {
		/* A wait given up for what is shown now: the waited commits' changes show too. */
		pixman_region32_union(&damage, &damage, &surface->waiting_damage);
		pixman_region32_intersect_rect(&damage, &damage, 0, 0, surface->width,
					       surface->height);
		pixman_region32_clear(&surface->waiting_damage);
	}
	if (garnet_surface_is_mapped(surface) && garnet_surface_position(surface, &x, &y)) {
		pixman_region32_translate(&damage, x, y);
		garnet_compositor_damage_region(surface->compositor, &damage);
	}
	pixman_region32_fini(&damage);
}

/* Up from surface through the surfaces it is drawn as part of: a subsurface's parent, a
 * popup's. Neither can make a loop (a popup's parent is a shell surface, never one of its
 * subsurfaces), but a bound keeps a mistake there from hanging garnet. */
static void emit_tree_commit(struct garnet_surface *surface)
{
	struct garnet_compositor *c = surface->compositor;
	struct garnet_surface *s = surface;

	for (int depth = 0; s && depth < 4096; depth++) {
		wl_signal_emit_mutable(&s->events.tree_commit, surface);
		if (s->subsurface)
			s = s->subsurface->parent;
		else
			s = c->protocol_hooks.popup_parent ? c->protocol_hooks.popup_parent(s) : NULL;
	}
}

static void surface_commit_now(struct garnet_surface *surface)
{
	int32_t x, y;

	if (surface->role && surface->role->precommit && !surface->role->precommit(surface))
		return;
	apply_state(surface, &surface->pending);
	garnet_subsurface_parent_commit(surface);
	if (surface->role && surface->role->commit)
		surface->role->commit(surface);
	garnet_surface_update_outputs(surface);
	/* A commit can change what is under the pointer: a new size or input region, a
	 * subsurface moved or restacked, a window mapped. */
	garnet_seat_repick(surface->compositor->seat);
	/* Callbacks wait for a repaint; make sure one comes when the surface is shown. */
	if (!wl_list_empty(&surface->current.frame_callbacks) &&
	    garnet_surface_is_mapped(surface) && garnet_surface_position(surface, &x, &y))
		garnet_compositor_schedule_repaint(surface->compositor);
	wl_signal_emit_mutable(&surface->events.commit, surface);
	emit_tree_commit(surface);
}

static void surface_attach(struct wl_client *client, struct wl_resource *resource,
			   struct wl_resource *buffer, int32_t x, int32_t y)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	if (wl_resource_get_version(resource) >= WL_SURFACE_OFFSET_SINCE_VERSION &&
	    (x != 0 || y != 0)) {
		wl_resource_post_error(resource, WL_SURFACE_ERROR_INVALID_OFFSET,
				       "attach with a non-zero offset on wl_surface v5; use offset");
		return;
	}
	surface->pending.buffer_attached = true;
	state_set_buffer(&surface->pending, buffer);
	/* From v5 the offset has a request of its own, which an attach must not undo. */
	if (wl_resource_get_version(resource) < WL_SURFACE_OFFSET_SINCE_VERSION) {
		surface->pending.dx = garnet_coord_clamp(x);
		surface->pending.dy = garnet_coord_clamp(y);
	}
}

/* Damage is a hint that may be too large, never too small: a region of many rectangles (each
 * union costs as much as the rectangles it holds, so a client could make a commit cost
 * quadratic time) becomes its bounding box. */
#define DAMAGE_MAX_RECTS 256

static void add_damage(pixman_region32_t *damage, int32_t x, int32_t y, int32_t width,
		       int32_t height)
{
	pixman_box32_t extents;

	garnet_region_add_rect(damage, x, y, width, height);
	if (pixman_region32_n_rects(damage) > DAMAGE_MAX_RECTS) {
		extents = *pixman_region32_extents(damage);
		pixman_region32_reset(damage, &extents);
	}
}

static void surface_damage(struct wl_client *client, struct wl_resource *resource, int32_t x,
			   int32_t y, int32_t width, int32_t height)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	add_damage(&surface->pending.damage_surface, x, y, width, height);
}

static void surface_frame(struct wl_client *client, struct wl_resource *resource, uint32_t id)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);
	struct wl_resource *callback = wl_resource_create(client, &wl_callback_interface, 1, id);

	if (!callback) {
		wl_resource_post_no_memory(resource);
		return;
	}
	wl_resource_set_implementation(callback, NULL, NULL, garnet_resource_unlink);
	wl_list_insert(surface->pending.frame_callbacks.prev, wl_resource_get_link(callback));
}

static void surface_set_opaque_region(struct wl_client *client, struct wl_resource *resource,
				      struct wl_resource *region_resource)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	garnet_region_set_from_resource(&surface->pending.opaque, region_resource, NULL);
}

static void surface_set_input_region(struct wl_client *client, struct wl_resource *resource,
				     struct wl_resource *region_resource)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	garnet_region_set_from_resource(&surface->pending.input, region_resource,
					&garnet_region_everywhere);
}

static void surface_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);
	struct garnet_subsurface *sub = surface->subsurface;

	if (sub && garnet_subsurface_is_synchronized(sub)) {
		/* Held until the parent commits. */
		state_move(&sub->cached, &surface->pending);
		sub->has_cache = true;
		return;
	}
	if (sub && sub->has_cache) {
		state_move(&sub->cached, &surface->pending);
		state_move(&surface->pending, &sub->cached);
		sub->has_cache = false;
	}
	surface_commit_now(surface);
}

void garnet_surface_commit_cached(struct garnet_surface *surface)
{
	struct garnet_subsurface *sub = surface->subsurface;

	if (sub && sub->has_cache) {
		sub->has_cache = false;
		state_move(&surface->pending, &sub->cached);
		surface_commit_now(surface);
	}
}

static void surface_set_buffer_transform(struct wl_client *client, struct wl_resource *resource,
					 int32_t transform)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	if (transform < WL_OUTPUT_TRANSFORM_NORMAL ||
	    transform > WL_OUTPUT_TRANSFORM_FLIPPED_270) {
		wl_resource_post_error(resource, WL_SURFACE_ERROR_INVALID_TRANSFORM,
				       "buffer transform %d is not a wl_output.transform",
				       transform);
		return;
	}
	surface->pending.transform = transform;
}

static void surface_set_buffer_scale(struct wl_client *client, struct wl_resource *resource,
				     int32_t scale)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	if (scale < 1) {
		wl_resource_post_error(resource, WL_SURFACE_ERROR_INVALID_SCALE,
				       "buffer scale %d is not positive", scale);
		return;
	}
	surface->pending.scale = scale;
}

static void surface_damage_buffer(struct wl_client *client, struct wl_resource *resource,
				  int32_t x, int32_t y, int32_t width, int32_t height)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	add_damage(&surface->pending.damage_buffer, x, y, width, height);
}

static void surface_offset(struct wl_client *client, struct wl_resource *resource, int32_t x,
			   int32_t y)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	surface->pending.dx = garnet_coord_clamp(x);
	surface->pending.dy = garnet_coord_clamp(y);
}

static const struct wl_surface_interface surface_impl = {
	.destroy = garnet_resource_destroy_request,
	.attach = surface_attach,
	.damage = surface_damage,
	.frame = surface_frame,
	.set_opaque_region = surface_set_opaque_region,
	.set_input_region = surface_set_input_region,
	.commit = surface_commit,
	.set_buffer_transform = surface_set_buffer_transform,
	.set_buffer_scale = surface_set_buffer_scale,
	.damage_buffer = surface_damage_buffer,
	.offset = surface_offset,
};

struct garnet_surface *garnet_surface_from_resource(struct wl_resource *resource)
{
	if (!resource || !wl_resource_instance_of(resource, &wl_surface_interface, &surface_impl))
		return NULL;
	return wl_resource_get_user_data(resource);
}

bool garnet_surface_set_role(struct garnet_surface *surface, const struct garnet_surface_role *role,
			     void *role_data, struct wl_resource *error_resource,
			     uint32_t error_code)
{
	if (surface->role && surface->role != role) {
		wl_resource_post_error(error_resource, error_code,
				       "wl_surface@%u already has the role %s, cannot become %s",
				       wl_resource_get_id(surface->resource), surface->role->name,
				       role->name);
		return false;
	}
	surface->role = role;
	surface->role_data = role_data;
	return true;
}

static void surface_resource_destroy(struct wl_resource *resource)
{
	struct garnet_surface *surface = wl_resource_get_user_data(resource);

	garnet_surface_damage_tree(surface);
	wl_signal_emit_mutable(&surface->events.destroy, surface);
	garnet_subsurface_destroy_node(surface->self_node);
	garnet_surface_state_finish(&surface->pending);
	garnet_surface_state_finish(&surface->current);
	destroy_callbacks(&surface->waiting_callbacks);
	pixman_region32_fini(&surface->waiting_damage);
	garnet_surface_drop_content(surface);
	garnet_client_uncharge(wl_resource_get_client(resource), GARNET_LIMIT_SURFACES, 1);
	free(surface);
}

static void compositor_create_surface(struct wl_client *client, struct wl_resource *resource,
				      uint32_t id)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_surface *surface;

	if (!garnet_client_charge(client, GARNET_LIMIT_SURFACES, 1))
		return;
	surface = calloc(1, sizeof(*surface));
	if (surface)
		surface->resource = wl_resource_create(client, &wl_surface_interface,
						       wl_resource_get_version(resource), id);
	if (!surface || !surface->resource) {
		free(surface);
		garnet_client_uncharge(client, GARNET_LIMIT_SURFACES, 1);
		wl_resource_post_no_memory(resource);
		return;
	}
	surface->compositor = c;
	garnet_surface_state_init(&surface->pending);
	garnet_surface_state_init(&surface->current);
	wl_list_init(&surface->children);
	wl_list_init(&surface->children_pending);
	wl_list_init(&surface->waiting_callbacks);
	pixman_region32_init(&surface->waiting_damage);
	wl_signal_init(&surface->events.destroy);
	wl_signal_init(&surface->events.commit);
	wl_signal_init(&surface->events.tree_commit);
	wl_resource_set_implementation(surface->resource, &surface_impl, surface,
				       surface_resource_destroy);
	wl_signal_emit_mutable(&c->events.new_surface, surface);
}

static void compositor_create_region(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id)
{
	if (!garnet_region_create(wl_resource_get_user_data(resource), client, 1, id))
		wl_resource_post_no_memory(resource);
}

static const struct wl_compositor_interface compositor_impl = {
	.create_surface = compositor_create_surface,
	.create_region = compositor_create_region,
};

static void compositor_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &wl_compositor_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &compositor_impl, data, NULL);
}

bool garnet_compositor_protocol_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &wl_compositor_interface, COMPOSITOR_VERSION, c,
				    compositor_bind, false) != NULL;
}
