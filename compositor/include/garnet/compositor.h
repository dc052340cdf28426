/* SPDX-License-Identifier: MIT */
/* libgarnet: the compositor core as a library. It keeps no global or static mutable state: every
 * compositor lives in its own struct garnet_compositor, and any number may exist at once. */
#ifndef GARNET_COMPOSITOR_H
#define GARNET_COMPOSITOR_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

#ifndef GARNET_EXPORT
#define GARNET_EXPORT __attribute__((visibility("default")))
#endif

struct garnet_compositor;
struct garnet_output;
struct garnet_seat;
struct garnet_surface;

struct garnet_keyboard_options {
	/* xkbcommon RMLVO names; NULL takes xkbcommon's defaults (XKB_DEFAULT_* variables). */
	const char *rules, *model, *layout, *variant, *options;
	int32_t repeat_rate;  /* keys per second; 0 disables repeat */
	int32_t repeat_delay; /* milliseconds */
};

/* What one client may hold at once (core/client-budget.c). A client that asks for more gets a
 * wl_display no_memory error and is disconnected; garnet and other clients go on. */
enum garnet_limit {
	GARNET_LIMIT_TEXTURE_BYTES,   /* garnet's copies of its buffers, in bytes */
	GARNET_LIMIT_SURFACES,        /* wl_surfaces */
	GARNET_LIMIT_SUBSURFACES,     /* wl_subsurfaces */
	GARNET_LIMIT_REGION_RECTS,    /* rectangles in all its wl_regions together */
	GARNET_LIMIT_MIME_TYPES,      /* mime types offered by all its data sources */
	GARNET_LIMIT_ACTIVATION_TOKENS, /* xdg_activation tokens it holds */
	GARNET_LIMIT_COUNT,
};

struct garnet_limits {
	uint64_t max[GARNET_LIMIT_COUNT]; /* 0: no limit */
	/* Rectangles in one wl_region (an add or subtract beyond is an error): keeps every
	 * region operation cheap, since each costs as much as the rectangles it holds. */
	uint32_t region_rects;
	/* Unused: buffers are read in place, never copied per frame (doc/buffers.md). Kept so
	 * that embedders and garnet.ini files that set it (copy-mib-per-frame) still work. */
	uint64_t copy_bytes_per_frame;
};

#define GARNET_REPAINT_WINDOW_AUTO (-1)

struct garnet_options {
	/* Listening socket name in XDG_RUNTIME_DIR; NULL picks the first free wayland-N. A
	 * compositor that only serves clients it creates itself may set no_socket. */
	const char *socket;
	bool no_socket;
	/* Expose the garnet_test global (input injection, capture). Never on by default. */
	bool test_mode;
	struct garnet_keyboard_options keyboard;
	uint32_t background_argb;
	/* How long before the next vblank a repaint starts, in milliseconds (Weston: a fixed 7).
	 * GARNET_REPAINT_WINDOW_AUTO (the default): per output, what its recent frames took to
	 * render (a high percentile) and a margin, so that a heavy scene starts early and a light
	 * one late (doc/performance.md, "Repaint clock"). */
	int32_t repaint_window_ms;
	/* A client that sends more requests than this within one second is disconnected with a
	 * protocol error (a flood); 0 disables the limit. */
	uint32_t requests_per_second;
	struct garnet_limits limits;
	/* Draw garnet's own arrow where no client has set a cursor image (on by default; tests
	 * that compare pixels under the pointer turn it off). */
	bool builtin_cursor;
	/* Compatibility with clients that attach their first buffer after the initial commit
	 * but before acking the configure it brought (wlcs 1.5's helpers do): such a buffer is
	 * taken as if that configure was acked, instead of being xdg_surface.unconfigured_buffer.
	 * Off by default and not in garnet.ini: only the wlcs integration sets it. */
	bool accept_unacked_first_buffer;
	/* How long the consent dialog waits for a pause in the user's input before a key or click
	 * answers it, in milliseconds (default 500, at least 1). Not in garnet.ini: the wire
	 * fuzzer shortens it, so that its keys reach what follows an answer. */
	uint32_t consent_arm_ms;
	/* How long the list of who records the screen shows under the cast indicator after it
	 * changes or the user asks (show-casts), in seconds; 0: as long as any cast runs. */
	uint32_t cast_list_seconds;
};

/* Draws the PNG at path, stretched over each output, above the background colour (NULL: the
 * colour alone). A file that cannot be read is logged with its name and leaves the colour;
 * returns false then. */
GARNET_EXPORT bool garnet_compositor_set_background_image(struct garnet_compositor *c,
							  const char *path);

/* Fills options with the defaults. */
GARNET_EXPORT void garnet_options_init(struct garnet_options *options);

/* Creates a compositor (display, core globals, seat, shell) with no outputs and no backend. */
GARNET_EXPORT struct garnet_compositor *garnet_compositor_create(const struct garnet_options *o);
/* Disconnects every client, destroys backends, outputs and globals. NULL is a no-op. */
GARNET_EXPORT void garnet_compositor_destroy(struct garnet_compositor *c);

/* The Wayland display the compositor serves (owned by it). */
GARNET_EXPORT struct wl_display *garnet_compositor_get_display(struct garnet_compositor *c);
/* The display's event loop, for an embedder's own fds and timers. */
GARNET_EXPORT struct wl_event_loop *garnet_compositor_get_loop(struct garnet_compositor *c);
/* The socket name (for WAYLAND_DISPLAY), or NULL without a socket. */
GARNET_EXPORT const char *garnet_compositor_get_socket(struct garnet_compositor *c);
/* The one seat, for backends to feed input into (include/garnet/seat.h). */
GARNET_EXPORT struct garnet_seat *garnet_compositor_get_seat(struct garnet_compositor *c);

/* Runs the event loop until garnet_compositor_terminate(). */
GARNET_EXPORT void garnet_compositor_run(struct garnet_compositor *c);
/* Makes garnet_compositor_run() return once the current dispatch is done. */
GARNET_EXPORT void garnet_compositor_terminate(struct garnet_compositor *c);

/* Starts `/bin/sh -c command` with WAYLAND_DISPLAY set to this compositor's socket, a clean
 * signal mask and nothing inherited but stdio (the child is not ours to reap). Returns 0,
 * or -1 (logged). */
GARNET_EXPORT int garnet_compositor_spawn(struct garnet_compositor *c, const char *command);

/* Executes path (not looked up in PATH) with the NULL-terminated argv, no shell in between, connected through a socketpair of its own (WAYLAND_SOCKET) instead of the public
 * socket: the returned wl_client is that program and nothing else can be it, so a security
 * policy may trust it (a locker, a panel) by the executable it names.
 * NULL on failure (logged). Works without a public socket too. Whoever keeps the pointer
 * must forget it when the client goes (wl_client_add_destroy_listener): a later client may be
 * given the same address. */
GARNET_EXPORT struct wl_client *garnet_compositor_spawn_client(struct garnet_compositor *c,
							       const char *path,
							       char *const argv[]);

/* The first output, or NULL. */
GARNET_EXPORT struct garnet_output *garnet_compositor_first_output(struct garnet_compositor *c);
/* The output of that name (HEADLESS-1 ...), or NULL. */
GARNET_EXPORT struct garnet_output *garnet_compositor_find_output(struct garnet_compositor *c,
								   const char *name);

/* Places the surface of a wl_surface resource at x, y of the global space: a toplevel's window
 * (the top-left of its xdg window geometry) is moved there; a surface without a role gets a plain one and is shown there once it has a buffer.
 * false when the surface has a role that cannot be placed (subsurface, popup, cursor). For test
 * harnesses and wlcs. */
GARNET_EXPORT bool garnet_compositor_place_surface(struct garnet_compositor *c,
						   struct wl_resource *surface, int32_t x,
						   int32_t y);
/* Gives keyboard focus to the surface (activating its toplevel), or to nobody with NULL. */
GARNET_EXPORT void garnet_compositor_focus_surface(struct garnet_compositor *c,
						   struct wl_resource *surface);

/* How many windows (toplevels) are shown now. */
GARNET_EXPORT int garnet_compositor_window_count(struct garnet_compositor *c);

/* Key bindings of the desktop shell. modifiers is a '+'-separated list (super, alt, ctrl,
 * shift) and key an xkb keysym name, e.g. "super+shift", "Return". action is one of: exec
 * (argument: shell command), launch (argument: the name of a trusted program, handed to the
 * launch handler), shortcut (argument: a garnet_shortcuts_v1 action), lock (as
 * garnet_compositor_lock_session), close, cycle, maximize, fullscreen, minimize, quit. Returns false with a
 * message in error (of error_size) on unknown names. */
/* After seconds without any input (0: never) the session locks (garnet_compositor_lock_session),
 * unless it is locked already. false: out of memory. */
GARNET_EXPORT bool garnet_compositor_lock_after_idle(struct garnet_compositor *c, int seconds);

/* garnet's own lock screen, shown when the locker dies and the session stays locked, hands
 * the typed password to authenticate (which must not block: check it elsewhere and answer
 * with garnet_compositor_unlock_result). Without an authenticator there is no such screen. */
GARNET_EXPORT void garnet_compositor_set_authenticator(
	struct garnet_compositor *c, void (*authenticate)(void *data, const char *password),
	void *data);
/* The authenticator's answer to the password it was handed: true unlocks the session, false
 * shows the prompt failed and keeps it locked. */
GARNET_EXPORT void garnet_compositor_unlock_result(struct garnet_compositor *c,
						   bool authenticated);

/* Locks the session now (idle time, logind's Lock): the launch handler starts the trusted
 * "lock-screen", or, when it cannot, garnet locks with its own lock screen (which needs an
 * authenticator). reason is logged. false when nothing could lock the session. */
GARNET_EXPORT bool garnet_compositor_lock_session(struct garnet_compositor *c,
						  const char *reason);

/* Locks the session at once with garnet's own lock screen and starts the trusted
 * "lock-screen", which takes the lock over: for the system going to sleep, which cannot wait
 * for a locker to start. Without an authenticator, as garnet_compositor_lock_session. */
GARNET_EXPORT bool garnet_compositor_lock_session_now(struct garnet_compositor *c,
						      const char *reason);
GARNET_EXPORT bool garnet_compositor_is_locked(struct garnet_compositor *c);
/* Emitted when the session locks or unlocks (data: the compositor). */
GARNET_EXPORT struct wl_signal *garnet_compositor_get_lock_signal(struct garnet_compositor *c);
/* True once the session is locked and every powered output has shown a frame painted since:
 * nothing of the clients is on any screen. The signal is emitted when it becomes true. */
GARNET_EXPORT bool garnet_compositor_lock_shown(struct garnet_compositor *c);
GARNET_EXPORT struct wl_signal *garnet_compositor_get_lock_shown_signal(
	struct garnet_compositor *c);

/* Every input event the user makes (data: the seat), for idle timers. */
GARNET_EXPORT struct wl_signal *garnet_compositor_get_activity_signal(
	struct garnet_compositor *c);
/* After seconds without any input (0: never) every output is powered off; the next input
 * powers them on again. false: out of memory. */
GARNET_EXPORT bool garnet_compositor_power_off_after_idle(struct garnet_compositor *c,
							  int seconds);

/* What a `launch` binding calls: the embedder starts its trusted program of that name. */
GARNET_EXPORT void garnet_compositor_set_launch_handler(struct garnet_compositor *c,
							bool (*launch)(void *data,
								       const char *entry),
							void *data);

/* A launcher button of the panel (garnet_panel_v1): the panel sees name and asks for it by
 * name; garnet runs command (a shell command, as an ordinary client) when it does. false on
 * an empty or repeated name, an empty command, or no memory. */
GARNET_EXPORT bool garnet_compositor_add_panel_launcher(struct garnet_compositor *c,
							const char *name, const char *command);

/* The checks of garnet_compositor_add_binding that need no compositor (names of the key,
 * modifiers and action; the argument an action needs), for a config file's parser to report
 * at the line. false with a message in error. */
GARNET_EXPORT bool garnet_binding_check(const char *modifiers, const char *key,
					const char *action, const char *argument, char *error,
					size_t error_size);
/* Adds a key binding (garnet.ini's [bindings]): modifiers+key fires action with argument.
 * false with a message in error when a name or the argument is wrong. */
GARNET_EXPORT bool garnet_compositor_add_binding(struct garnet_compositor *c, const char *modifiers,
						 const char *key, const char *action,
						 const char *argument, char *error,
						 size_t error_size);

#endif
