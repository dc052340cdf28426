/* SPDX-License-Identifier: MIT */
/* An output (core layer): a screen a backend drives, its place in the global space, its
 * damage and its repaint loop; and what the backends implement for it. */
#ifndef GARNET_CORE_OUTPUT_H
#define GARNET_CORE_OUTPUT_H

#include "compositor.h"
#include "garnet/output.h"
#include "../render/damage-ring.h"
#include "repaint-clock.h"

/* What an output's backend does for the repaint loop. */
struct garnet_scanout_buffer;
struct garnet_content;

struct garnet_output_impl {
	/* Hands the renderer the image to paint and its age (0: unknown contents). */
	pixman_image_t *(*begin_frame)(struct garnet_output *output, int *age);
	/* The frame is painted: show it. The backend calls garnet_output_finish_frame() when it is
	 * on screen (at once for outputs without vblank). */
	void (*present)(struct garnet_output *output, bool painted);
	/* The image now on screen (for capture). */
	pixman_image_t *(*front_image)(struct garnet_output *output);
	/* Optional: shows image (NULL: nothing) on a cursor plane at x, y of the output's pixels
	 * with the next frame; false when it cannot, and the renderer draws the cursor. */
	bool (*show_cursor)(struct garnet_output *output, pixman_image_t *image, int32_t x,
			    int32_t y);
	/* Optional: darkens the screen or lights it again (DPMS); false when it cannot. Powered
	 * on, the next frame (a whole repaint) is what the screen shows first. */
	bool (*set_power)(struct garnet_output *output, bool on);
	/* Optional: the next frame is buffer, the sole surface's, shown as it is (direct
	 * scanout) instead of a painted image; present() follows with painted true. The backend
	 * keeps hold until a later frame is on screen (garnet_content_drop_hold). false when it
	 * cannot (hold untouched): the frame is painted. */
	bool (*scanout)(struct garnet_output *output, const struct garnet_scanout_buffer *buffer,
			struct garnet_content *hold);
	/* Optional: drives the screen in another mode (its size and refresh; scale and
	 * transform are garnet's own). test: only says whether it could. false when it cannot;
	 * without it, only the current mode's size and refresh are accepted. */
	bool (*set_mode)(struct garnet_output *output, const struct garnet_output_mode *mode,
			 bool test);
	void (*destroy)(struct garnet_output *output);
};

/* ---- outputs ---- */
enum garnet_repaint_state {
	GARNET_REPAINT_IDLE, /* nothing to do until something changes */
	GARNET_REPAINT_SCHEDULED, /* a repaint runs at the end of the repaint window */
	GARNET_REPAINT_PENDING, /* painted, waiting for the frame to be shown */
};

struct garnet_output {
	struct garnet_compositor *compositor;
	const struct garnet_output_impl *impl;
	struct wl_list link;
	uint32_t index; /* its bit in garnet_surface.output_mask */
	char *name, *description;
	struct garnet_output_mode mode;
	int32_t x, y; /* global logical position */
	int32_t width, height; /* logical size (mode turned by transform, divided by scale) */
	/* What layer surfaces' exclusive zones take from each edge (protocols/layer-shell.c);
	 * windows are placed and maximized in the rest (garnet_output_usable_box). */
	struct {
		int32_t top, right, bottom, left;
	} reserved;
	struct wl_global *global;
	struct wl_list resources; /* wl_output resources */

	pixman_region32_t damage; /* global logical coordinates, not yet repainted */
	/* What changed (output buffer pixels) in the frame being shown; screencopy's
	 * copy_with_damage waits for a frame where this touches its rectangle. */
	pixman_region32_t shown_damage;
	struct garnet_damage_ring ring;
	enum garnet_repaint_state repaint_state;
	bool repaint_needed;
	bool cursor_on_plane; /* the backend shows the pointer image; the renderer leaves it out */
	/* The pointer moved while on the plane: the next repaint moves the plane and paints
	 * nothing unless something else changed. cursor_only tells present() it was just that. */
	bool cursor_moved, cursor_only;
	struct wl_event_source *repaint_timer, *repaint_idle;
	/* How early the repaint starts, from what recent frames took (core/repaint-clock.h). */
	struct garnet_repaint_clock repaint_clock;
	int64_t repaint_due_ns; /* when the armed repaint timer was due (0: not armed) */
	/* Test hook (garnet_test.set_repaint): each render takes this much longer. */
	uint32_t test_render_delay_us;
	struct timespec last_present;
	uint64_t msc;

	uint32_t frames, renders, painted_area, painted_surfaces; /* counters for tests */
	uint32_t scanouts; /* frames shown straight from a client's buffer */
	bool scanning_out; /* the last frame was one of those */
	/* Powered off (output-power.c): nothing is painted or shown until it is on again.
	 * off_by_client: a client turned it off, and garnet's lock screen or dialog turns it on. */
	bool power_off, power_off_by_client;
	/* Frame callbacks and presentation feedback of the frame being shown. */
	struct wl_list frame_callbacks, feedbacks;
	struct wl_list pending_captures; /* garnet_capture.link */
	/* The modes the backend offers (set_mode accepts each); none: the current one alone. The
	 * first is the preferred one. Owned by the backend. */
	const struct garnet_output_mode *modes;
	size_t mode_count;

	/* Disabled by an output configuration (core/output-enable.c): out of the layout (no
	 * global, no place, nothing painted), kept for being enabled again. */
	bool disabled;

	struct {
		/* the output leaves the layout: unplugged, or disabled */
		struct wl_signal destroy;
		/* the output object goes (after destroy, or while disabled) */
		struct wl_signal gone;
		struct wl_signal frame;
		struct wl_signal power; /* powered off or on */
		/* mode, scale, transform or position changed (output-configure.c) */
		struct wl_signal change;
	} events;
};

/* Called by backends. */
/* false when the compositor has no room for another output (32). */
bool garnet_output_init(struct garnet_output *output, struct garnet_compositor *c,
			const struct garnet_output_impl *impl,
			const struct garnet_output_mode *mode, const char *name,
			const char *description);
void garnet_output_finish(struct garnet_output *output);
void garnet_output_finish_frame(struct garnet_output *output, const struct timespec *when);

void garnet_output_schedule_repaint(struct garnet_output *output);
/* Damages a rectangle of the global space on every output it touches. */
void garnet_compositor_damage_box(struct garnet_compositor *c, const pixman_box32_t *box);
/* Every output shows the pointer on a cursor plane: a move needs no frame painted. */
bool garnet_compositor_cursor_on_planes(struct garnet_compositor *c);
/* The pointer moved with its image on the planes: each output moves its plane at the next
 * repaint (and paints after all if the image can no longer be on the plane). */
void garnet_compositor_cursor_moved(struct garnet_compositor *c);
void garnet_compositor_damage_region(struct garnet_compositor *c, const pixman_region32_t *r);
void garnet_compositor_schedule_repaint(struct garnet_compositor *c);
/* Output buffer pixels from global logical coordinates (and back with the inverse). */
void garnet_output_matrix(struct garnet_output *output, struct pixman_f_transform *m);
struct garnet_output *garnet_output_from_resource(struct wl_resource *resource);
struct wl_resource *garnet_output_resource_for_client(struct garnet_output *output,
						      struct wl_client *client);
void garnet_output_take_frame_events(struct garnet_output *output);
/* The part of the output (global space) that windows are placed and maximized in. */
void garnet_output_usable_box(struct garnet_output *output, pixman_box32_t *box);
void garnet_output_send_frame_events(struct garnet_output *output, const struct timespec *when);

/* Powers output off or on; by_client: at a client's request (zwlr_output_power_v1), which
 * garnet undoes when it asks the user something. false when the backend cannot. */
bool garnet_output_power(struct garnet_output *output, bool on, bool by_client);
/* Lights the outputs a client darkened: garnet is about to ask the user something. */
void garnet_compositor_power_on_for_prompt(struct garnet_compositor *c);

/* What an output configuration (zwlr_output_manager_v1) sets: the mode (its size and
 * refresh, scale and transform) and the position in the global space. */
struct garnet_output_config {
	struct garnet_output_mode mode;
	int32_t x, y;
};

/* Positions beyond this (either way, either axis) are refused: the global space stays far
 * inside int32 with any output's size added (pixman boxes, surface positions). */
#define GARNET_OUTPUT_POSITION_MAX 1000000

/* Tells a wl_output resource the output's geometry, mode, scale, name (and done). */
void garnet_output_send_info(struct garnet_output *output, struct wl_resource *resource);
/* width and height again from the mode, transform and scale. */
void garnet_output_update_logical_size(struct garnet_output *output);
/* The output's present configuration. */
void garnet_output_get_config(struct garnet_output *output, struct garnet_output_config *config);
/* Checks config for output (size, scale 1 to 8, transform, position, a mode the backend can
 * drive), and applies it unless test. false, with the reason in why, when it cannot; the
 * output is then as it was. */
bool garnet_output_configure(struct garnet_output *output,
			     const struct garnet_output_config *config, bool test,
			     const char **why);

/* Everything of the output in the layout goes (the destroy signal, its global, its place,
 * its surfaces' enter, the frames waited for); the object stays. */
void garnet_output_leave_layout(struct garnet_output *output);
/* The output (back) in the layout: in the outputs list, with its global, repainted whole. */
void garnet_output_join_layout(struct garnet_output *output);
/* Takes output out of the layout (its windows go to the other outputs, its layer surfaces are
 * closed, its captures end), or brings it back where config says. false, with why, when it
 * cannot (the last output enabled stays). */
bool garnet_output_disable(struct garnet_output *output, const char **why);
bool garnet_output_enable(struct garnet_output *output, const struct garnet_output_config *config,
			  const char **why);

/* Capture requests of the test protocol, answered after the next repaint. */
struct garnet_capture {
	struct wl_list link;
	struct wl_resource *callback, *buffer;
	struct wl_listener buffer_destroy;
};
/* A width x height box in the middle of output o (global space), for garnet's own panels. */
void garnet_output_center_box(struct garnet_output *o, int32_t width, int32_t height,
			      pixman_box32_t *box);

#endif
