/* SPDX-License-Identifier: MIT */
/* libgarnet's own view of its objects: shared between core, backend, render, shell and protocol
 * files, never installed. */
#ifndef GARNET_INTERNAL_H
#define GARNET_INTERNAL_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>
#include <xkbcommon/xkbcommon.h>

#include "garnet/compositor.h"
#include "garnet/headless.h"
#include "garnet/log.h"
#include "garnet/output.h"
#include "garnet/seat.h"
#include "garnet/security.h"
#include "coords.h"
#include "lifetime.h"

#define GARNET_ARRAY_LENGTH(a) (sizeof(a) / sizeof((a)[0]))
/* Pixman regions are int32; "everything" is a box far beyond any real output. */
#define GARNET_REGION_INFINITE_MIN (INT32_MIN / 4)
#define GARNET_REGION_INFINITE_MAX (INT32_MAX / 4)

struct garnet_content;
struct garnet_view;
struct garnet_shell;
struct garnet_shell_hooks;
struct garnet_data_source;

enum garnet_layer_id {
	/* bottom to top; layer-shell's four layers around the windows (doc/layer-shell.md) */
	GARNET_LAYER_BACKGROUND,
	GARNET_LAYER_BOTTOM,
	GARNET_LAYER_NORMAL,
	GARNET_LAYER_TOP,
	GARNET_LAYER_FULLSCREEN,
	GARNET_LAYER_OVERLAY,
	GARNET_LAYER_LOCK,
	GARNET_LAYER_COUNT,
};

struct garnet_privileged_global {
	struct wl_global *global;
	/* The protocol's own rule, asked before the policy: true hides the global. */
	bool (*hidden_from)(const struct wl_client *client);
	struct wl_list link;
};

/* What core tells the protocols built on it, set by globals.c for the protocols it offers
 * (NULL: not offered, nobody to tell). Core never calls a protocol by name. */
struct garnet_toplevel;

struct garnet_protocol_hooks {
	/* The clipboard or primary selection of seat changed (data-control.c). */
	void (*selection_changed)(struct garnet_seat *seat, enum garnet_selection_kind kind);
	/* client now gets selections offered: it is told the primary one (primary-selection.c). */
	void (*selection_focus)(struct garnet_seat *seat, struct wl_client *client);
	/* output showed a frame: what waited to capture it is done (garnet-test.c). */
	void (*frame_shown)(struct garnet_output *output);
	/* A token for a program garnet starts, in name; false when none (xdg-activation.c). */
	bool (*mint_activation)(struct garnet_compositor *c, char *name, size_t size);
	/* garnet's own lock screen accepted the password: the lock ends (session-lock.c). */
	void (*unlock)(struct garnet_compositor *c);
	/* A window mapped, unmapped, or changed title, app id, states or outputs: task bars are
	 * told (foreign-toplevel.c). */
	void (*toplevel_changed)(struct garnet_toplevel *toplevel);
};

struct garnet_compositor {
	struct wl_display *display;
	struct wl_event_loop *loop;
	char *socket;
	struct garnet_options options;
	char *keyboard_strings[5]; /* owned copies behind options.keyboard */

	FILE *log_stream;
	enum garnet_log_level log_level;
	garnet_log_handler log_handler; /* instead of log_stream when set */
	void *log_handler_data;

	struct garnet_security_hooks hooks;
	struct garnet_protocol_hooks protocol_hooks;
	struct wl_list privileged_globals; /* garnet_privileged_global.link */

	struct wl_list outputs;                    /* garnet_output.link */
	struct wl_list layers[GARNET_LAYER_COUNT]; /* garnet_view.layer_link, topmost first */
	struct wl_list backends;                   /* garnet_backend.link */
	uint32_t next_output_number;
	uint32_t output_indices; /* bits of garnet_output.index in use */

	struct garnet_seat *seat;
	struct garnet_shell *shell;
	const struct garnet_shell_hooks *shell_hooks; /* core/shell-hooks.h, set by the shell */
	clockid_t clock;
	pixman_image_t *builtin_cursor; /* NULL when options.builtin_cursor is off */
	pixman_image_t *background_image; /* core/background.c; NULL: the colour alone */
	struct text_inputs *text_inputs;  /* protocols/text-input.c */
	/* garnet's own lock screen (lock-prompt.c), for a lock whose locker died. */
	struct garnet_lock_prompt {
		char password[256];
		size_t len;
		bool checking, failed;
		pixman_image_t *image;
	} lock_prompt;
	void (*authenticate)(void *data, const char *password);
	void *authenticate_data;
	struct garnet_consent *consent;   /* consent.c: garnet's own dialog for ASK decisions */
	struct wl_list recording_grants;  /* protocols/screencopy.c: recordings allowed once */
	struct shortcuts *shortcuts;      /* protocols/shortcuts.c */
	struct foreign_toplevels *foreign_toplevels; /* protocols/foreign-toplevel.c */
	bool (*launch)(void *data, const char *entry); /* the `launch` binding action */
	void *launch_data;

	/* ext-session-lock: while locked only lock surfaces are drawn and get input. lock is the
	 * locker's live lock object, NULL when none or when its client died (abandoned). */
	bool locked;
	struct {
		struct wl_resource *lock;
		struct wl_list surfaces; /* lock_surface.link */
		/* Outputs yet to show a frame painted since the lock; `locked` waits for them. */
		struct wl_list waits; /* lock_wait.link */
		bool locked_sent;
	} session_lock;
	struct rlimit nofile; /* RLIMIT_NOFILE as found at creation, restored in children */

	struct wl_protocol_logger *budget_logger; /* counts each client's requests */
	const struct garnet_buffer_impl *buffer_impl; /* set by protocols/shm.c */
	struct wl_list security_contexts;          /* sandbox_listener.link */
	struct wl_global *security_context_global;

	struct wl_global *compositor_global, *subcompositor_global, *test_global,
		*presentation_global, *viewporter_global, *xdg_wm_base_global,
		*decoration_global, *xdg_output_global, *data_device_global,
		*primary_selection_global, *single_pixel_global;

	struct {
		struct wl_signal destroy;
		struct wl_signal new_surface;
	} events;
};

/* The compositor without any global (core/compositor.c); globals.c makes the rest. */
struct garnet_compositor *garnet_compositor_alloc(const struct garnet_options *o);
/* Ends every client, the seat's grab and the outputs, and signals events.destroy. */
void garnet_compositor_disconnect(struct garnet_compositor *c);
/* Frees core's part (seat, backends, display) once the layers above are gone. */
void garnet_compositor_free(struct garnet_compositor *c);

/* ---- backends ---- */
struct garnet_backend {
	void (*destroy)(struct garnet_backend *backend);
	struct wl_list link;
};

/* What an output's backend does for the repaint loop. */
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
	void (*destroy)(struct garnet_output *output);
};

/* ---- damage ring (buffer age) ---- */
#define GARNET_DAMAGE_RING_SIZE 4
struct garnet_damage_ring {
	pixman_region32_t previous[GARNET_DAMAGE_RING_SIZE]; /* [0]: the last frame painted */
};

void garnet_damage_ring_init(struct garnet_damage_ring *ring);
void garnet_damage_ring_finish(struct garnet_damage_ring *ring);
/* What a buffer of this age lacks: damage of this frame plus of the age-1 frames before. */
void garnet_damage_ring_get_buffer_damage(struct garnet_damage_ring *ring, int age,
					  const pixman_region32_t *frame_damage,
					  const pixman_box32_t *whole, pixman_region32_t *out);
void garnet_damage_ring_rotate(struct garnet_damage_ring *ring, const pixman_region32_t *damage);

/* ---- outputs ---- */
enum garnet_repaint_state {
	GARNET_REPAINT_IDLE,      /* nothing to do until something changes */
	GARNET_REPAINT_SCHEDULED, /* a repaint runs at the end of the repaint window */
	GARNET_REPAINT_PENDING,   /* painted, waiting for the frame to be shown */
};

struct garnet_output {
	struct garnet_compositor *compositor;
	const struct garnet_output_impl *impl;
	struct wl_list link;
	uint32_t index; /* its bit in garnet_surface.output_mask */
	char *name, *description;
	struct garnet_output_mode mode;
	int32_t x, y;          /* global logical position */
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
	struct timespec last_present;
	uint64_t msc;

	uint32_t frames, renders, painted_area, painted_surfaces; /* counters for tests */
	/* Frame callbacks and presentation feedback of the frame being shown. */
	struct wl_list frame_callbacks, feedbacks;
	struct wl_list pending_captures;        /* garnet_capture.link */

	struct {
		struct wl_signal destroy;
		struct wl_signal frame;
	} events;
};

/* Called by backends. */
/* false when the compositor has no room for another output (32). */
bool garnet_output_init(struct garnet_output *output, struct garnet_compositor *c,
			const struct garnet_output_impl *impl, const struct garnet_output_mode *mode,
			const char *name, const char *description);
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

/* Capture requests of the test protocol, answered after the next repaint. */
struct garnet_capture {
	struct wl_list link;
	struct wl_resource *callback, *buffer;
	struct wl_listener buffer_destroy;
};
void garnet_capture_complete(struct garnet_output *output);

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
	struct wl_list feedbacks;       /* garnet_presentation_feedback.link */
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
/* Applies state (pending or cached) to the surface: the heart of wl_surface.commit. */
void garnet_surface_apply_state(struct garnet_surface *surface, struct garnet_surface_state *s);
/* Applies a synchronized subsurface's cached state, if it has any. */
void garnet_surface_commit_cached(struct garnet_surface *surface);
/* Moves state from src into dst (subsurface cache), leaving src empty. */
void garnet_surface_state_move(struct garnet_surface_state *dst, struct garnet_surface_state *src);

struct garnet_subsurface {
	struct wl_resource *resource; /* NULL for a surface's own node */
	struct garnet_surface *surface, *parent;
	struct wl_list parent_link, parent_link_pending;
	struct wl_listener parent_destroy, surface_destroy;
	int32_t x, y;
	bool position_pending;
	int32_t pending_x, pending_y;
	bool synchronized;
	bool has_cache;
	struct garnet_surface_state cached;
};
bool garnet_subsurface_is_synchronized(struct garnet_subsurface *sub);
/* The parent committed: apply cached state of synchronized children, restack. */
void garnet_subsurface_parent_commit(struct garnet_surface *parent);
void garnet_subsurface_destroy_node(struct garnet_subsurface *sub);

/* Regions */
bool garnet_clamp_rect(int32_t x, int32_t y, int32_t width, int32_t height, pixman_box32_t *box);
void garnet_region_add_rect(pixman_region32_t *region, int32_t x, int32_t y, int32_t width,
			    int32_t height);
bool garnet_region_create(struct garnet_compositor *c, struct wl_client *client, uint32_t version,
			  uint32_t id);
pixman_region32_t *garnet_region_from_resource(struct wl_resource *resource);
/* Maps the untransformed space (width x height) into a buffer turned by transform. */
void garnet_transform_matrix(struct pixman_f_transform *m, int32_t transform, double width,
			     double height);
bool garnet_transform_swaps_axes(int32_t transform);
void garnet_region_transform(pixman_region32_t *dst, const pixman_region32_t *src,
			     const struct pixman_f_transform *m);

/* ---- views: a root surface placed in a layer ---- */
struct garnet_view {
	struct garnet_compositor *compositor;
	struct garnet_surface *surface;
	struct wl_list layer_link;
	enum garnet_layer_id layer;
	int32_t x, y;
	bool in_layer;
};
void garnet_view_init(struct garnet_view *view, struct garnet_surface *surface);
void garnet_view_finish(struct garnet_view *view);
/* Puts the view on top of layer (or moves it there) and damages what changed. */
void garnet_view_raise(struct garnet_view *view, enum garnet_layer_id layer);
void garnet_view_remove(struct garnet_view *view);
void garnet_view_move(struct garnet_view *view, int32_t x, int32_t y);

/* Visits the scene top to bottom: every mapped surface with its global position. Return false
 * from the callback to stop. */
typedef bool (*garnet_scene_iter_fn)(struct garnet_surface *surface, int32_t x, int32_t y,
				     void *data);
void garnet_scene_for_each_surface(struct garnet_compositor *c, garnet_scene_iter_fn fn,
				   void *data);
void garnet_surface_for_each_in_tree(struct garnet_surface *surface, int32_t x, int32_t y,
				     garnet_scene_iter_fn fn, void *data);
/* Topmost surface accepting input at a global point, and the surface-local point. */
struct garnet_surface *garnet_scene_surface_at(struct garnet_compositor *c, double x, double y,
					       double *sx, double *sy);

/* ---- renderer ---- */
/* Paints region (global) of the scene into image for output; returns pixels painted. */
uint32_t garnet_render_output(struct garnet_output *output, pixman_image_t *image,
			      const pixman_region32_t *buffer_damage);

/* ---- seat ---- */
struct garnet_pointer_grab;
struct garnet_pointer_grab_impl {
	void (*motion)(struct garnet_pointer_grab *grab, uint32_t time);
	void (*button)(struct garnet_pointer_grab *grab, uint32_t time, uint32_t button,
		       bool pressed);
	void (*axis)(struct garnet_pointer_grab *grab, uint32_t time, uint32_t axis, double value);
	void (*cancel)(struct garnet_pointer_grab *grab);
};
struct garnet_pointer_grab {
	const struct garnet_pointer_grab_impl *impl;
	struct garnet_seat *seat;
};

struct garnet_touch_point {
	int32_t id;
	struct garnet_surface *surface;
	struct wl_listener surface_destroy;
	bool active;
	/* The client sent an event of this point since the last frame: it gets the frame, even
	 * when the point is up by then. Compared, never used. */
	struct wl_client *frame_client;
};

#define GARNET_TOUCH_POINTS 10
/* How many of the latest button, key and touch down/up events the seat remembers. */
#define GARNET_INPUT_SERIALS 16

/* The serial of a button, key or touch event garnet delivered (a press or its release), and to
 * whom: a request that needs user action (a popup grab, an activation token) must show one of
 * these, sent to its own client. */
struct garnet_input_serial {
	uint32_t serial;
	struct wl_client *client; /* NULL: unused */
	struct wl_listener client_destroy;
};

struct garnet_seat {
	struct garnet_compositor *compositor;
	struct wl_global *global;
	struct wl_list resources, pointers, keyboards, touches;

	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;
	int keymap_fd;
	size_t keymap_size;
	/* A virtual keyboard's keymap was sent to this client (by that owner) in place of the
	 * seat's; the seat's goes back before the client's next physical key or focus change.
	 * Compared, never used. */
	struct wl_client *foreign_keymap_client;
	const void *foreign_keymap_owner;
	struct wl_array keys;
	uint32_t mods_depressed, mods_latched, mods_locked, group;
	xkb_mod_mask_t mask_shift, mask_ctrl, mask_alt, mask_super;

	struct garnet_surface *keyboard_focus;
	struct wl_listener keyboard_focus_destroy;

	double x, y;
	struct garnet_surface *pointer_focus;
	struct wl_listener pointer_focus_destroy;
	double sx, sy;
	uint32_t button_count;
	uint32_t grab_button, grab_serial, grab_time;
	double grab_x, grab_y;
	struct garnet_pointer_grab default_grab;
	struct garnet_pointer_grab *grab;
	uint32_t pointer_enter_serial;
	/* The pointer's image, set by the focused client (not drawn by the headless backend, but
	 * given frame callbacks so animated cursors keep going). */
	struct garnet_surface *cursor;
	struct wl_listener cursor_destroy;
	int32_t hotspot_x, hotspot_y;
	/* The client under the pointer asked for no cursor at all (set_cursor with NULL). */
	bool cursor_hidden;

	struct garnet_touch_point touch[GARNET_TOUCH_POINTS];

	struct garnet_input_serial input_serials[GARNET_INPUT_SERIALS]; /* a ring */
	unsigned int input_serial_next;
	/* Grows each time a press goes to another client than the press before it. */
	unsigned int input_generation;

	struct wl_list data_devices;      /* wl_data_device resources */
	struct wl_list primary_devices;   /* zwp_primary_selection_device_v1 resources */
	struct wl_list data_control_devices; /* zwlr_data_control_device_v1 resources */
	struct garnet_data_source *selection, *primary_selection;
	struct wl_listener selection_destroy, primary_selection_destroy;
	struct garnet_data_source *drag_source;
	struct wl_resource *drag_offer;
	/* The icon of the drag in progress, drawn at the pointer plus its offset. */
	struct garnet_surface *drag_icon;
	struct wl_listener drag_icon_destroy;
	int32_t drag_icon_x, drag_icon_y;

	/* Pointer constraints (protocols/pointer-constraints.c): may change where a motion goes;
	 * false keeps the pointer where it is (locked). Relative motion is reported first. */
	bool (*constrain_motion)(void *data, double *x, double *y);
	void *constrain_data;
	/* An input method's keyboard grab (protocols/input-method.c): takes hardware keys before
	 * the focused client; true when it took the key. */
	bool (*key_grab)(void *data, uint32_t time_msec, uint32_t key, bool pressed);
	void *key_grab_data;

	struct {
		struct wl_signal keyboard_focus;
		struct wl_signal activity; /* any input from the user (idle tracking) */
		struct wl_signal motion;   /* struct garnet_seat_motion, before the pointer moves */
	} events;

	/* Ctrl+Alt+Fn: set by backends that run on a VT. */
	bool (*vt_switch)(void *data, int vt);
	void *vt_switch_data;
};

/* A pointer move as a delta (relative pointer), in global logical coordinates. */
/* A relative device's motion (garnet_seat_notify_motion), for relative pointers. */
struct garnet_seat_motion {
	uint32_t time_msec;
	double dx, dy, dx_unaccel, dy_unaccel;
};

struct garnet_seat *garnet_seat_create(struct garnet_compositor *c,
				       const struct garnet_keyboard_options *kb);
void garnet_seat_destroy(struct garnet_seat *seat);
/* Who handles the XF86Switch_VT_n keys (NULL: they go to clients like any other key). */
void garnet_seat_set_vt_switch_handler(struct garnet_seat *seat,
				       bool (*handler)(void *data, int vt), void *data);
void garnet_seat_set_keyboard_focus(struct garnet_seat *seat, struct garnet_surface *surface);
/* Re-picks the pointer focus after the scene changed under a still pointer. */
void garnet_seat_repick(struct garnet_seat *seat);
void garnet_seat_start_grab(struct garnet_seat *seat, struct garnet_pointer_grab *grab);
void garnet_seat_end_grab(struct garnet_seat *seat);
/* The surfaces drawn at the pointer above the whole scene, topmost first (the cursor, then a
 * drag icon); returns how many there are (at most GARNET_POINTER_IMAGES). */
#define GARNET_POINTER_IMAGES 2
size_t garnet_seat_pointer_images(struct garnet_seat *seat,
				  struct garnet_surface *images[GARNET_POINTER_IMAGES]);
/* Where garnet's own arrow is drawn now (global logical coordinates), false when it is not. */
bool garnet_seat_builtin_cursor_box(struct garnet_seat *seat, pixman_box32_t *box);
pixman_image_t *garnet_builtin_cursor_create(void);
/* A keyboard a client drives (virtual-keyboard): owner identifies it, fd/size its keymap.
 * The key or modifiers go to the keyboard focus only, after the delivery hook, preceded by
 * owner's keymap when the focused client does not have it. false: nobody has the focus. */
struct garnet_virtual_keys {
	const void *owner;
	int keymap_fd;
	uint32_t keymap_size;
};
bool garnet_seat_virtual_key(struct garnet_seat *seat, const struct garnet_virtual_keys *vk,
			     uint32_t time_msec, uint32_t key, bool pressed);
bool garnet_seat_virtual_modifiers(struct garnet_seat *seat, const struct garnet_virtual_keys *vk,
				   uint32_t depressed, uint32_t latched, uint32_t locked,
				   uint32_t group);
/* The virtual keyboard owner is going: the focused client gets the seat's keymap back. */
void garnet_seat_virtual_keyboard_gone(struct garnet_seat *seat, const void *owner);
/* Shows surface (already given the drag icon role) at the pointer until the drag ends (NULL). */
void garnet_seat_set_drag_icon(struct garnet_seat *seat, struct garnet_surface *surface);
/* Pointer focus without a grab's say: enter/leave with the hooks consulted. */
void garnet_seat_set_pointer_focus(struct garnet_seat *seat, struct garnet_surface *surface,
				   double sx, double sy);
void garnet_seat_send_motion(struct garnet_seat *seat, uint32_t time);
void garnet_seat_send_button(struct garnet_seat *seat, uint32_t time, uint32_t button,
			     bool pressed);
/* Touch points on clients' surfaces end with wl_touch.cancel (garnet takes the touch screen:
 * the consent dialog, the lock); the fingers' later moves and lifts go nowhere. */
void garnet_seat_cancel_touch(struct garnet_seat *seat);
/* core/input-serial.c: client was sent serial with a button, key or touch down/up event. */
void garnet_seat_record_input_serial(struct garnet_seat *seat, struct wl_client *client,
				     uint32_t serial);
/* Is serial one of the latest such events garnet sent to client? */
bool garnet_seat_input_serial_valid(struct garnet_seat *seat, struct wl_client *client,
				    uint32_t serial);
/* The client the latest press went to, or NULL. */
struct wl_client *garnet_seat_input_last_client(struct garnet_seat *seat);
/* protocols/xdg-activation.c: a token garnet gives a program it starts (XDG_ACTIVATION_TOKEN),
 * in name; false when none can be made. */
bool garnet_activation_mint(struct garnet_compositor *c, char *name, size_t size);
void garnet_seat_input_serials_init(struct garnet_seat *seat);
void garnet_seat_input_serials_finish(struct garnet_seat *seat);
/* Garnet takes the input from every client (the consent dialog shows, the session locks): a
 * grab or drag under way is cancelled, keyboard and pointer focus leave, touches end. */
void garnet_seat_take_input(struct garnet_seat *seat);
/* True while garnet draws the pointer alone (over the consent dialog, while locked): no
 * client cursor or drag icon is shown, only garnet's arrow, and no pointer grab starts. */
bool garnet_seat_pointer_is_garnets(struct garnet_seat *seat);
bool garnet_seat_may_deliver(struct garnet_seat *seat, struct garnet_surface *surface,
			     enum garnet_input_kind kind);
void garnet_seat_data_device_focus(struct garnet_seat *seat, struct wl_client *client);
void garnet_seat_set_selection(struct garnet_seat *seat, struct garnet_data_source *source);
void garnet_seat_set_primary_selection(struct garnet_seat *seat,
				       struct garnet_data_source *source);
uint32_t garnet_now_msec(struct garnet_compositor *c);
/* The wallpaper, if any, stretched over target (an output's buffer; its clip is kept). */
void garnet_background_paint(struct garnet_compositor *c, pixman_image_t *target);

/* ---- data sources (clipboard, primary, drag) ---- */
struct garnet_data_source;
struct garnet_data_source_impl {
	void (*send)(struct garnet_data_source *source, const char *mime, int32_t fd);
	void (*cancel)(struct garnet_data_source *source);
};
struct garnet_data_source {
	const struct garnet_data_source_impl *impl;
	struct wl_resource *resource;
	struct wl_array mime_types; /* char * */
	bool used;               /* set as a selection or dragged: once only */
	uint32_t dnd_actions;    /* what the source offers (wl_data_device_manager.dnd_action) */
	uint32_t current_action;
	bool accepted;
	struct {
		struct wl_signal destroy;
	} events;
};
void garnet_data_source_init(struct garnet_data_source *source,
			     const struct garnet_data_source_impl *impl,
			     struct wl_resource *resource);
/* Emits destroy and frees the mime types (the struct belongs to the caller). */
void garnet_data_source_finish(struct garnet_data_source *source);
bool garnet_data_source_add_mime(struct garnet_data_source *source, const char *mime);
/* Hands fd to the source's client for writing mime, if the security hook lets client read it;
 * closes fd either way. */
void garnet_data_source_read(struct garnet_seat *seat, struct garnet_data_source *source,
			     struct wl_client *reader, enum garnet_selection_kind kind,
			     const char *mime, int32_t fd);
/* The client that now gets selections offered: the one with keyboard focus. */
struct wl_client *garnet_seat_selection_client(struct garnet_seat *seat);
void garnet_primary_selection_focus(struct garnet_seat *seat, struct wl_client *client);

/* ---- shell ---- */
struct garnet_shell *garnet_shell_create(struct garnet_compositor *c);
void garnet_shell_destroy(struct garnet_shell *shell);
bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed);
/* The key that triggers a shortcut action (its keysym name in out), or NULL when none does. */
const char *garnet_shell_shortcut_trigger(struct garnet_shell *shell, const char *action,
					  char *out, size_t size);
/* The action's holder (protocols/shortcuts.c) is told; false when nobody holds it. */
bool garnet_shortcut_fire(struct garnet_compositor *c, const char *action, uint32_t time_msec);
void garnet_shell_handle_click(struct garnet_shell *shell, struct garnet_surface *surface);

/* Toplevel window as the shell manages it; xdg-shell fills it in. */
struct garnet_toplevel;
struct garnet_toplevel_impl {
	/* Ask the client for a new size and states (0 size: client decides). */
	void (*configure)(struct garnet_toplevel *toplevel);
	void (*close)(struct garnet_toplevel *toplevel);
};
struct garnet_toplevel {
	const struct garnet_toplevel_impl *impl;
	struct garnet_surface *surface;
	struct garnet_view view;
	struct wl_list link; /* shell toplevels, most recently focused first */
	bool mapped, placed;
	bool maximized, fullscreen, minimized, activated, resizing;
	bool configured_once; /* the initial configure has been sent */
	int32_t pending_width, pending_height; /* what the next configure asks for */
	int32_t geometry_x, geometry_y, geometry_width, geometry_height;
	int32_t saved_x, saved_y, saved_width, saved_height;
	int32_t min_width, min_height, max_width, max_height;
	struct garnet_toplevel *parent;
	struct wl_listener parent_destroy;
	struct wl_resource *decoration; /* zxdg_toplevel_decoration_v1, if any */
	/* shell/focus.c: mapped without the keyboard, it waits for the user; activated (with a
	 * valid token) before it mapped, it takes the keyboard if it maps before the deadline. */
	bool demands_attention, activate_on_map;
	uint32_t activate_deadline_msec;
	struct {
		struct wl_signal destroy;
	} events;
};
/* An output went away: windows left outside every output come back onto one. */
void garnet_shell_output_removed(struct garnet_shell *shell);
void garnet_shell_toplevel_map(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_toplevel_unmap(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_toplevel_commit(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_request_move(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
			       uint32_t serial);
void garnet_shell_request_resize(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				 uint32_t serial, uint32_t edges);
void garnet_shell_set_maximized(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				bool maximized);
void garnet_shell_set_fullscreen(struct garnet_shell *shell, struct garnet_toplevel *toplevel,
				 bool fullscreen, struct garnet_output *output);
void garnet_shell_set_minimized(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
void garnet_shell_focus(struct garnet_shell *shell, struct garnet_toplevel *toplevel);
/* Gives the keyboard back to the focused window (after the session was unlocked). */
void garnet_shell_refocus(struct garnet_shell *shell);
struct garnet_toplevel *garnet_shell_toplevel_for_surface(struct garnet_shell *shell,
							 struct garnet_surface *surface);
void garnet_shell_move_toplevel(struct garnet_shell *shell, struct garnet_surface *surface,
				int32_t x, int32_t y);

/* What an input method composed, for the text input being typed into. NULL strings and zero
 * lengths leave that part out. */
struct garnet_text_edit {
	const char *preedit;
	int32_t preedit_begin, preedit_end;
	const char *commit;
	uint32_t delete_before, delete_after;
};
/* What the input method is told of the text input enabled on the focused surface. */
struct garnet_text_input_info {
	const void *id; /* the same while it is the same text input */
	struct garnet_surface *surface;
	const char *surrounding; /* NULL when the client sent none */
	int32_t cursor, anchor;
	uint32_t change_cause, hint, purpose;
	int32_t rect[4]; /* cursor rectangle, surface-local */
};
/* false when no text input is enabled on the focused surface. */
bool garnet_text_input_current(struct garnet_compositor *c, struct garnet_text_input_info *out);
/* Emitted (data: the compositor) when the enabled text input or its state changes. */
struct wl_signal *garnet_text_input_changed(struct garnet_compositor *c);
/* Sends the edit, then done, to the text input enabled on the surface with the keyboard
 * focus; false when there is none (nothing is sent). */
bool garnet_text_input_deliver(struct garnet_compositor *c, const struct garnet_text_edit *edit);

/* ---- globals: created in protocols/, each with its privilege class ---- */
struct wl_global *garnet_global_create(struct garnet_compositor *c,
				       const struct wl_interface *interface, int version,
				       void *data, wl_global_bind_func_t bind, bool privileged);
/* A privileged global that clients for which hidden_from() is true never see, whatever the
 * policy says. */
void garnet_global_hide_from(struct garnet_compositor *c, struct wl_global *global,
			     bool (*hidden_from)(const struct wl_client *client));
/* In a privileged global's bind: false (and a protocol error sent) when the hook refuses. */
bool garnet_global_check_bind(struct garnet_compositor *c, struct wl_client *client,
			      const struct wl_interface *interface);

bool garnet_compositor_protocol_init(struct garnet_compositor *c);
bool garnet_subcompositor_init(struct garnet_compositor *c);
bool garnet_shm_init(struct garnet_compositor *c);
bool garnet_test_protocol_init(struct garnet_compositor *c);
bool garnet_presentation_init(struct garnet_compositor *c);
bool garnet_viewporter_init(struct garnet_compositor *c);
bool garnet_xdg_shell_init(struct garnet_compositor *c);
void garnet_xdg_ping(struct garnet_surface *surface);
/* The surface a subsurface or popup ultimately belongs to. */
struct garnet_surface *garnet_xdg_root_surface(struct garnet_surface *surface);
/* Raises the shown popups of surface (and theirs) into layer, above it, after the window itself
 * was raised. */
void garnet_xdg_raise_popups(struct garnet_surface *surface, enum garnet_layer_id layer);
struct garnet_toplevel *garnet_xdg_toplevel_from_surface(struct garnet_surface *surface);
struct garnet_toplevel *garnet_xdg_toplevel_from_resource(struct wl_resource *toplevel);
bool garnet_xdg_decoration_init(struct garnet_compositor *c);
bool garnet_xdg_output_init(struct garnet_compositor *c);
bool garnet_data_device_init(struct garnet_compositor *c);
bool garnet_primary_selection_init(struct garnet_compositor *c);
bool garnet_single_pixel_buffer_init(struct garnet_compositor *c);
bool garnet_screencopy_init(struct garnet_compositor *c);
bool garnet_session_lock_init(struct garnet_compositor *c);
/* Ends the lock (garnet's own lock screen accepted the password): the session shows again. */
void garnet_session_lock_release(struct garnet_compositor *c);
/* A width x height box in the middle of output o (global space), for garnet's own panels. */
void garnet_output_center_box(struct garnet_output *o, int32_t width, int32_t height,
			      pixman_box32_t *box);
/* garnet's own lock screen: shown while the lock is abandoned and an authenticator is set. */
bool garnet_lock_prompt_active(struct garnet_compositor *c);
/* The prompt in the middle of output o (every output shows it). */
bool garnet_lock_prompt_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_lock_prompt_image(struct garnet_compositor *c);
/* A hardware key while the prompt is up: true when it took it (no client gets it). */
bool garnet_lock_prompt_key(struct garnet_compositor *c, uint32_t key, bool pressed);
void garnet_lock_prompt_finish(struct garnet_compositor *c);
/* garnet's consent dialog (consent.c): a hook answered GARNET_ASK, so the user decides.
 * garnet_consent_ask queues the question; done runs once with the answer (never when the
 * request is withdrawn first). NULL (and done never runs) when it is refused without asking:
 * the session is locked, this client already waits for an answer or was refused before, or
 * too many questions wait. */
struct garnet_consent_request;
struct garnet_consent_request *garnet_consent_ask(struct garnet_compositor *c,
						  struct wl_client *client,
						  enum garnet_ask_act act, const char *object,
						  void (*done)(void *data, bool allowed), void *data);
/* The act is gone (its object destroyed): the question is dropped unanswered. */
void garnet_consent_withdraw(struct garnet_consent_request *request);
/* An allowed act still has to happen on a frame without any dialog (a capture): the next
 * question is not shown until every hold is released. */
void garnet_consent_hold(struct garnet_compositor *c);
void garnet_consent_release(struct garnet_compositor *c);
/* True while the dialog is up: no client gets input, the dialog takes keys and clicks. */
bool garnet_consent_active(struct garnet_compositor *c);
/* A hardware key or a press (pointer button, touch) at x, y of the global space: true when
 * the dialog took it. */
bool garnet_consent_key(struct garnet_compositor *c, uint32_t key, bool pressed);
bool garnet_consent_press(struct garnet_compositor *c, double x, double y);
/* The session locks: every waiting question is answered no (unasked). */
void garnet_consent_refuse_all(struct garnet_compositor *c);
/* Where the dialog's panel is on output o (global space; one in the middle of every output)
 * and how it looks now; false when not shown. */
bool garnet_consent_panel_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_consent_panel_image(struct garnet_compositor *c);
/* What dims every output while the dialog is up (a translucent black). */
pixman_image_t *garnet_consent_dim_image(struct garnet_compositor *c);
bool garnet_consent_init(struct garnet_compositor *c);
void garnet_consent_finish(struct garnet_compositor *c);

/* The dialog's picture (render/consent-dialog.c), width x height: the question, the asking
 * client's identity, and the answers, greyed while not armed. NULL: out of memory. */
struct garnet_consent_text {
	const char *title, *who, *what;
	bool armed;
};
#define GARNET_CONSENT_WIDTH 560
#define GARNET_CONSENT_HEIGHT 200
/* Buttons, left to right, in panel coordinates (shared by drawing and hit testing). */
enum garnet_consent_button {
	GARNET_CONSENT_DENY,
	GARNET_CONSENT_ALLOW_ONCE,
	GARNET_CONSENT_ALLOW_SESSION,
	GARNET_CONSENT_BUTTONS,
};
pixman_box32_t garnet_consent_button_box(enum garnet_consent_button button);
pixman_image_t *garnet_consent_draw(const struct garnet_consent_text *text);

bool garnet_virtual_keyboard_init(struct garnet_compositor *c);
bool garnet_data_control_init(struct garnet_compositor *c);
bool garnet_client_budget_init(struct garnet_compositor *c);
bool garnet_security_context_init(struct garnet_compositor *c);
/* Closes every sandbox listener (before the loop goes). */
void garnet_security_context_finish(struct garnet_compositor *c);
/* True for clients accepted on a sandbox engine's socket (security-context-v1). */
bool garnet_client_is_sandboxed(const struct wl_client *client);
void garnet_client_budget_finish(struct garnet_compositor *c);
/* Takes amount of limit from the client's budget: false, with the client's no_memory error
 * posted and logged, when it would go over (the caller then makes nothing). */
bool garnet_client_charge(struct wl_client *client, enum garnet_limit limit, uint64_t amount);
/* True once libwayland takes the client apart (its objects go next, in any order). */
bool garnet_client_is_going(struct wl_client *client);
/* Gives back what a charge took, when the object goes. */
void garnet_client_uncharge(struct wl_client *client, enum garnet_limit limit, uint64_t amount);
/* The clipboard (or primary selection) changed: clipboard managers hear of it. */
void garnet_data_control_selection_changed(struct garnet_seat *seat,
					   enum garnet_selection_kind kind);
/* True for the surfaces of ext-session-lock: the only ones shown while locked. */
bool garnet_session_lock_owns(struct garnet_surface *surface);

/* Buffers: shm, single-pixel or garnet's GEM, read through the interface their protocols set
 * (protocols/shm.c). A committed buffer is shown in place (core/texture.c): the renderer reads
 * the client's memory at each repaint, and the buffer is released once no surface shows it. */
struct garnet_buffer_impl {
	/* Makes the surface show buffer (garnet_surface_show_buffer, or garnet_surface_show_own
	 * for what is copied); *full_damage when its size or format changed. false: it cannot be
	 * shown (error already posted). */
	bool (*upload)(struct garnet_surface *surface, struct wl_resource *buffer,
		       const pixman_region32_t *damage, bool *full_damage);
	/* Is garnet still to read this committed buffer (a GPU wait), so it is released later? */
	bool (*is_held)(struct wl_resource *buffer);
	/* Every read of a buffer shown in place is between these (an shm pool can be truncated
	 * under garnet); begin gives the buffer's first pixel as it is mapped now (a pool that
	 * grew may have moved), NULL when it cannot be read. Never nested for two buffers. */
	void *(*begin_read)(struct wl_resource *buffer);
	void (*end_read)(struct wl_resource *buffer);
};
void garnet_compositor_set_buffer_impl(struct garnet_compositor *c,
				       const struct garnet_buffer_impl *impl);
/* The interface's operations as core calls them (core/texture.c). */
bool garnet_buffer_upload(struct garnet_surface *surface, struct wl_resource *buffer,
			  const pixman_region32_t *damage, bool *full_damage);
/* Shown by a surface, or still to be read: not the client's to write yet. */
bool garnet_buffer_is_held(struct garnet_compositor *c, struct wl_resource *buffer);
/* Sends wl_buffer.release unless the buffer is held. */
void garnet_buffer_release_if_unused(struct garnet_compositor *c, struct wl_resource *buffer);
/* The surface shows buffer (width x height pixels of format, rows stride bytes apart) in
 * place from now on; the buffer it showed before is released when no other surface shows it.
 * false: out of memory (nothing changed). */
bool garnet_surface_show_buffer(struct garnet_surface *surface, struct wl_resource *buffer,
				pixman_format_code_t format, int32_t width, int32_t height,
				int32_t stride, bool *full_damage);
/* The surface shows a new image of garnet's, charged to its client, for the caller to fill;
 * NULL with the client's error posted when over budget or out of memory. */
pixman_image_t *garnet_surface_show_own(struct garnet_surface *surface,
					pixman_format_code_t format, int32_t width,
					int32_t height, bool *full_damage);
/* The content changed outside a commit (a GPU wait ended): size and damage follow it. */
void garnet_surface_content_resized(struct garnet_surface *surface);
/* A wait for a committed buffer ended (shown, abandoned or its buffer gone): the commit's
 * frame callbacks go with the next frame. */
void garnet_surface_wait_ended(struct garnet_surface *surface);
/* The wl_buffer the surface shows in place, NULL for none or garnet's own pixels. */
struct wl_resource *garnet_surface_shown_buffer(struct garnet_surface *surface);
/* Unmaps: the surface shows nothing (its buffer released when no other surface shows it). */
void garnet_surface_drop_content(struct garnet_surface *surface);
/* The surface's pixels, readable until garnet_surface_end_read (called even after NULL):
 * NULL when it shows nothing or its buffer cannot be read. No two surfaces at once. */
pixman_image_t *garnet_surface_begin_read(struct garnet_surface *surface);
void garnet_surface_end_read(struct garnet_surface *surface);
pixman_image_t *garnet_content_begin_read(struct garnet_content *content);
void garnet_content_end_read(struct garnet_content *content);
bool garnet_single_pixel_buffer_get(struct wl_resource *buffer, uint32_t rgba[4]);

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
