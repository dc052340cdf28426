/* SPDX-License-Identifier: MIT */
/* The compositor (core layer): the display, its layers of views, the outputs and the seat it
 * holds, the hooks the layers above install, and the globals it makes with their privilege. */
#ifndef GARNET_CORE_COMPOSITOR_H
#define GARNET_CORE_COMPOSITOR_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <wayland-server-core.h>
#include <wayland-server-protocol.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "garnet/security.h"
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
struct garnet_output;
struct garnet_seat;
struct garnet_surface;
struct garnet_buffer_impl;
struct garnet_consent;

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
	/* surface is a window's (an xdg or X11 toplevel; no popup, menu or panel), and its
	 * title as its client chose it (NULL: none); false for any other surface. */
	bool (*window_of)(struct garnet_surface *surface, const char **title);
	/* The surface a popup (a menu) was opened from; NULL for any other (xdg-surface.c). */
	struct garnet_surface *(*popup_parent)(struct garnet_surface *surface);
	/* The outputs surface is on changed (foreign-toplevel.c: a window's task bar entry). */
	void (*surface_outputs_changed)(struct garnet_surface *surface);
	/* A client bound output: it is told what is on it (foreign-toplevel.c). */
	void (*output_bound)(struct garnet_output *output, struct wl_resource *resource);
	/* output appeared, or its mode, scale, transform or position changed: what is laid out
	 * on it is laid out again (layer-shell.c), configuration clients are told
	 * (output-management.c). */
	void (*output_changed)(struct garnet_output *output);
	/* "DISPLAY=..." and "XAUTHORITY=..." for garnet's own launch of command: those of the
	 * X11 domain garnet.ini puts its program in; false, with nothing set, when there is none
	 * (xwayland/server.c). */
	bool (*x11_launch_env)(struct garnet_compositor *c, const char *command,
			       char *display_var, size_t display_size, char *auth_var,
			       size_t auth_size);
};

struct garnet_compositor {
	struct wl_display *display;
	struct wl_event_loop *loop;
	char *socket;
	struct garnet_options options;

	FILE *log_stream;
	enum garnet_log_level log_level;
	garnet_log_handler log_handler; /* instead of log_stream when set */
	void *log_handler_data;

	struct garnet_security_hooks hooks;
	struct garnet_protocol_hooks protocol_hooks;

	struct wl_list outputs; /* garnet_output.link */
	/* Buffers no surface shows any more, whose wl_buffer.release goes with the next frame's
	 * events (core/buffer-release.c). */
	struct wl_list pending_releases;
	struct wl_event_source *release_idle;
	struct wl_list layers[GARNET_LAYER_COUNT]; /* garnet_view.layer_link, topmost first */
	struct wl_list backends; /* garnet_backend.link */
	uint32_t next_output_number;
	uint32_t output_indices; /* bits of garnet_output.index in use */

	struct garnet_seat *seat;
	struct garnet_shell *shell;
	const struct garnet_shell_hooks *shell_hooks; /* core/shell-hooks.h, set by the shell */
	clockid_t clock;
	pixman_image_t *builtin_cursor; /* NULL when options.builtin_cursor is off */
	pixman_image_t *background_image; /* core/background.c; NULL: the colour alone */
	struct text_inputs *text_inputs; /* protocols/text-input.c */
	/* garnet's own lock screen, for a lock whose locker died (core/lock-prompt.c). */
	struct garnet_lock_prompt *lock_prompt;
	struct garnet_consent *consent; /* consent.c: garnet's own dialog for ASK decisions */
	struct screencopy *screencopy; /* protocols/screencopy.c */
	struct portal *portal; /* protocols/portal.c */
	struct shortcuts *shortcuts; /* protocols/shortcuts.c */
	struct foreign_toplevels *foreign_toplevels; /* protocols/foreign-toplevel.c */
	struct output_management *output_management; /* protocols/output-management.c */
	bool (*launch)(void *data, const char *entry); /* the `launch` binding action */
	void *launch_data;

	/* While locked only lock surfaces are drawn and get input. lock_held: a live locker holds
	 * the lock (false when its client died: abandoned). */
	bool locked, lock_held;
	struct session_lock *session_lock; /* protocols/session-lock.c */
	struct rlimit nofile; /* RLIMIT_NOFILE as found at creation, restored in children */

	struct wl_protocol_logger *budget_logger; /* counts each client's requests */
	const struct garnet_buffer_impl *buffer_impl; /* set by protocols/shm.c */
	struct security_contexts *security_contexts; /* protocols/security-context.c */

	struct wl_global *test_global; /* protocols/garnet-test.c */
	struct garnet_xwayland *xwayland; /* xwayland/server.c; NULL: no X11 support */
	struct garnet_cast_indicator *cast_indicator; /* core/cast-indicator.c: while casts run */

	struct {
		struct wl_signal destroy;
		struct wl_signal new_surface;
		/* a frame was shown on any output (data: the output), after its own frame */
		struct wl_signal output_frame;
	} events;
};

/* The compositor without any global (core/compositor.c); globals.c makes the rest. */
struct garnet_compositor *garnet_compositor_alloc(const struct garnet_options *o);
/* Ends every client, the seat's grab and the outputs, and signals events.destroy. */
void garnet_compositor_disconnect(struct garnet_compositor *c);
/* Frees core's part (seat, backends, display) once the layers above are gone. */
void garnet_compositor_free(struct garnet_compositor *c);

struct garnet_backend {
	void (*destroy)(struct garnet_backend *backend);
	struct wl_list link;
};

uint32_t garnet_now_msec(struct garnet_compositor *c);

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

#endif
