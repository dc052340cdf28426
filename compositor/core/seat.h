/* SPDX-License-Identifier: MIT */
/* The seat (core layer): keyboard, pointer and touch as garnet delivers them to the focused
 * client, pointer grabs, the input serials it handed out, and virtual keys. */
#ifndef GARNET_CORE_SEAT_H
#define GARNET_CORE_SEAT_H

#include <xkbcommon/xkbcommon.h>

#include "compositor.h"
#include "garnet/seat.h"

struct garnet_data_source;

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

/*
 * What other layers read or set of the seat. What only the seat's own files use
 * (its resource lists, focus listeners, grab origin, cursor hotspot, touch points, the VT
 * switch handler) is in core/seat-private.h.
 */
struct garnet_seat {
	struct garnet_compositor *compositor;

	struct xkb_context *xkb;
	struct xkb_keymap *keymap;
	struct xkb_state *xkb_state;
	int keymap_fd;
	size_t keymap_size;
	struct wl_array keys;
	uint32_t mods_depressed, mods_latched, mods_locked, group;
	xkb_mod_mask_t mask_shift, mask_ctrl, mask_alt, mask_super;

	struct garnet_surface *keyboard_focus;

	double x, y;
	struct garnet_surface *pointer_focus;
	double sx, sy;
	uint32_t button_count;
	uint32_t grab_serial;
	struct garnet_pointer_grab default_grab;
	struct garnet_pointer_grab *grab;
	/* The pointer's image, set by the focused client (not drawn by the headless backend, but
	 * given frame callbacks so animated cursors keep going). */
	struct garnet_surface *cursor;

	struct garnet_input_serial input_serials[GARNET_INPUT_SERIALS]; /* a ring */
	unsigned int input_serial_next;
	/* Grows each time a press goes to another client than the press before it. */
	unsigned int input_generation;

	struct wl_list data_devices; /* wl_data_device resources */
	struct wl_list primary_devices; /* zwp_primary_selection_device_v1 resources */
	struct wl_list data_control_devices; /* zwlr_data_control_device_v1 resources */
	struct garnet_data_source *selection, *primary_selection;
	struct wl_listener selection_destroy, primary_selection_destroy;
	struct garnet_data_source *drag_source;
	struct wl_resource *drag_offer;
	/* The icon of the drag in progress, drawn at the pointer plus its offset. */
	struct garnet_surface *drag_icon;
	int32_t drag_icon_x, drag_icon_y;

	/* Pointer constraints (protocols/pointer-constraints.c): may change where a motion goes;
	 * false keeps the pointer where it is (locked). Relative motion is reported first. */
	bool (*constrain_motion)(void *data, double *x, double *y);
	void *constrain_data;
	/* An input method's keyboard grab (protocols/input-method.c): takes hardware keys before
	 * the focused client; true when it took the key. */
	bool (*key_grab)(void *data, uint32_t time_msec, uint32_t key, bool pressed);
	void *key_grab_data;
	/* Keyboard shortcuts inhibitors (protocols/keyboard-shortcuts-inhibit.c): true while the
	 * keyboard focus asked for the keys of garnet's bindings, all but lock and quit. */
	bool (*shortcuts_inhibited)(void *data);
	void *shortcuts_inhibit_data;

	struct {
		struct wl_signal keyboard_focus;
		struct wl_signal activity; /* any input from the user (idle tracking) */
		struct wl_signal motion; /* struct garnet_seat_motion, before the pointer moves */
		struct wl_signal gesture; /* struct garnet_gesture */
	} events;
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
/* A cursor asked for by name (protocols/cursor-shape.c): garnet's own arrow replaces the
 * client's cursor surface, with wl_pointer.set_cursor's rule (client has the pointer focus,
 * serial is the latest enter). false: ignored. */
bool garnet_seat_set_cursor_shape(struct garnet_seat *seat, struct wl_client *client,
				  uint32_t serial);
/* Shows surface (already given the drag icon role) at the pointer until the drag ends (NULL). */
void garnet_seat_set_drag_icon(struct garnet_seat *seat, struct garnet_surface *surface);
/* Pointer focus without a grab's say: enter/leave with the hooks consulted. */
void garnet_seat_set_pointer_focus(struct garnet_seat *seat, struct garnet_surface *surface,
				   double sx, double sy);
void garnet_seat_send_motion(struct garnet_seat *seat, uint32_t time);
/* A button of a virtual pointer (protocols/virtual-pointer.c): through the grab like a
 * mouse's, but outside button_count, so that a client holding it down cannot keep the user's
 * pointer in an implicit grab; the virtual pointer pairs its own presses and releases. */
void garnet_seat_notify_virtual_button(struct garnet_seat *seat, uint32_t time_msec,
				       uint32_t button, bool pressed);
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
void garnet_seat_input_serials_init(struct garnet_seat *seat);
void garnet_seat_input_serials_finish(struct garnet_seat *seat);
/* Garnet takes the input from every client (the consent dialog shows, the session locks): a
 * grab or drag under way is cancelled, keyboard and pointer focus leave, touches end. */
void garnet_seat_take_input(struct garnet_seat *seat);
/* Every gesture under way ends, cancelled, for the client that had it (core/seat-gesture.c). */
void garnet_seat_cancel_gestures(struct garnet_seat *seat);
/* True while garnet draws the pointer alone (over the consent dialog, while locked): no
 * client cursor or drag icon is shown, only garnet's arrow, and no pointer grab starts. */
bool garnet_seat_pointer_is_garnets(struct garnet_seat *seat);
bool garnet_seat_may_deliver(struct garnet_seat *seat, struct garnet_surface *surface,
			     enum garnet_input_kind kind);

#endif
