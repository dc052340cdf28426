/* SPDX-License-Identifier: MIT */
/* A surface (core layer): wl_surface, its pending and current state, its role, and the
 * presentation feedback its commits carry. wl_compositor's global is made in surface.c. */
#ifndef GARNET_CORE_SURFACE_H
#define GARNET_CORE_SURFACE_H

#include "compositor.h"

/* ---- surfaces ---- */
struct garnet_surface_state {
	bool buffer_attached; /* attach was called: buffer replaces the content (NULL unmaps) */
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	int32_t dx, dy;
	pixman_region32_t damage_surface, damage_buffer;
	pixman_region32_t opaque, input;
	int32_t scale;
	int32_t transform;
	struct wl_list frame_callbacks; /* wl_resource links */
	struct wl_list feedbacks; /* garnet_presentation_feedback.link */
	/* wp_viewport: source rectangle in surface-local (after scale and transform) coordinates,
	 * negative width means unset; destination size, 0 means unset. */
	double src_x, src_y, src_width, src_height;
	int32_t dst_width, dst_height;
};

void garnet_surface_state_init(struct garnet_surface_state *state);
void garnet_surface_state_finish(struct garnet_surface_state *state);

/* A role: what a surface is for. commit runs after the new state is current. */
struct garnet_surface_role {
	const char *name;
	/* Before the pending state is applied: false refuses the commit (error posted). */
	bool (*precommit)(struct garnet_surface *surface);
	void (*commit)(struct garnet_surface *surface);
	/* Where in the global space the surface's origin is, when the role places it. */
	bool (*position)(struct garnet_surface *surface, int32_t *x, int32_t *y);
	/* Part of the lock screen now: while locked only such surfaces get input. */
	bool (*lock_owns)(struct garnet_surface *surface);
	/* Optional: the test harness (wlcs) puts the surface at x, y of the global space from
	 * outside the protocol; false when the role cannot be placed. */
	bool (*place)(struct garnet_surface *surface, int32_t x, int32_t y);
};

/* One entry of a stacking list of a surface's subsurfaces; each surface owns one for itself. */
struct garnet_subsurface;

struct garnet_surface {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	struct garnet_surface_state pending, current;

	struct garnet_content *content; /* what it shows (core/texture.c); NULL when unmapped */
	/* Frame callbacks of a commit whose buffer the GPU still writes (core/gem-import.c):
	 * they belong to the frame that shows it, and the client may reuse its other buffer
	 * only once this one replaced it. */
	struct wl_list waiting_callbacks;
	/* Surface-local: what those commits change, painted once their buffer is shown. */
	pixman_region32_t waiting_damage;
	int32_t buffer_width, buffer_height;
	bool opaque_content; /* the buffer format has no alpha */
	int32_t width, height; /* surface-local size */

	const struct garnet_surface_role *role;
	void *role_data;

	/* Stacking of subsurfaces, bottom first; includes the surface's own node once it has
	 * children. */
	struct wl_list children, children_pending;
	struct garnet_subsurface *self_node;
	struct garnet_subsurface *subsurface; /* when this surface is one */

	struct wl_resource *viewport;
	uint32_t output_mask; /* bit per output number the surface has entered */

	struct {
		struct wl_signal destroy;
		struct wl_signal commit;
		/* This surface or one drawn as part of it, at any depth (its subsurfaces, its
		 * popups and theirs), applied new state (a desynchronised subsurface or a menu
		 * commits alone); data is the surface that did. */
		struct wl_signal tree_commit;
	} events;
};

struct garnet_surface *garnet_surface_from_resource(struct wl_resource *resource);
/* Gives the surface a role; posts error_code on error_resource when it has another one. */
bool garnet_surface_set_role(struct garnet_surface *surface, const struct garnet_surface_role *role,
			     void *role_data, struct wl_resource *error_resource,
			     uint32_t error_code);
/* Global position of the surface's origin, false when it is not in the scene. */
bool garnet_surface_position(struct garnet_surface *surface, int32_t *x, int32_t *y);
bool garnet_surface_is_mapped(struct garnet_surface *surface);
/* Damages everything the surface and its subsurfaces cover now. */
void garnet_surface_damage_tree(struct garnet_surface *surface);
/* Is the surface-local point inside the input region (and the surface)? */
bool garnet_surface_accepts_input(struct garnet_surface *surface, double sx, double sy);
/* Matrix from buffer pixels to surface-local coordinates. */
void garnet_surface_buffer_matrix(struct garnet_surface *surface, struct pixman_f_transform *m);
void garnet_surface_update_outputs(struct garnet_surface *surface);
/* Every feedback on the list is discarded (garnet_presentation_feedback). */
void garnet_surface_discard_feedback(struct wl_list *feedbacks);
/* Applies a synchronized subsurface's cached state, if it has any. */
void garnet_surface_commit_cached(struct garnet_surface *surface);

bool garnet_compositor_protocol_init(struct garnet_compositor *c);

/* A commit's wp_presentation_feedback, on its surface's state until a frame shows it, then on
 * the output's list; core tells it what became of it through impl (protocols/presentation.c),
 * and each call ends it. */
struct garnet_presentation_feedback {
	struct wl_resource *resource;
	struct wl_list link;
	const struct garnet_presentation_feedback_impl *impl;
};
struct garnet_presentation_feedback_impl {
	void (*presented)(struct garnet_presentation_feedback *fb, struct garnet_output *output,
			  const struct timespec *when);
	void (*discarded)(struct garnet_presentation_feedback *fb);
};

#endif
