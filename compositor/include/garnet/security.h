/* SPDX-License-Identifier: MIT */
/* The hooks through which the security layer decides. Every call site in libgarnet goes through
 * these; with no hooks installed everything is allowed. */
#ifndef GARNET_SECURITY_H
#define GARNET_SECURITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "garnet/compositor.h"

struct wl_client;
struct wl_global;
struct wl_interface;
struct garnet_compositor;
struct garnet_surface;

enum garnet_input_kind {
	GARNET_INPUT_KEYBOARD,
	GARNET_INPUT_POINTER,
	GARNET_INPUT_TOUCH,
};

enum garnet_selection_kind {
	GARNET_SELECTION_CLIPBOARD,
	GARNET_SELECTION_PRIMARY,
	GARNET_SELECTION_DRAG,
};

/* A hook's decision where the user may be asked. */
enum garnet_decision {
	GARNET_DENY = 0,
	GARNET_ALLOW = 1,
	/* Ask the user in garnet's own consent dialog (core/consent.c); until the user answered,
	 * the act waits, and the answer goes back through user_answered. */
	GARNET_ASK = 2,
};

/* The acts garnet can ask the user about. */
enum garnet_ask_act {
	GARNET_ASK_CAPTURE_OUTPUT, /* a picture; object: the output's name */
	GARNET_ASK_RECORD_OUTPUT,  /* a stream of pictures (a recording); the same object */
};

/* How long the user's answer holds. */
enum garnet_answer_scope {
	GARNET_ANSWER_ONCE,    /* this request only */
	GARNET_ANSWER_SESSION, /* until garnet exits */
};

/* Pixels of other clients that the compositor may hand to a client. */
enum garnet_pixels_kind {
	GARNET_PIXELS_OUTPUT, /* a screenshot of an output; object: the output's name */
};

/* The shortest idle timeout a client without the idle_notify permission gets, in ms: longer
 * than the pauses of someone typing or reading, so idled and resumed say nothing about keys. */
#define GARNET_IDLE_FLOOR_MS 10000

struct garnet_security_hooks {
	/* May client see this global in its registry? privileged is true for globals that were
	 * added as privileged (test protocol, and later screenshots, lock, virtual keyboard). */
	bool (*global_visible)(void *data, const struct wl_client *client,
			       const struct wl_interface *interface, bool privileged);
	/* May client bind this privileged global? Asked at bind time, after global_visible. A
	 * denial is answered with a protocol error on the display. */
	bool (*bind_privileged)(void *data, struct wl_client *client,
				const struct wl_interface *interface);
	/* May this input event go to client (owner of surface)? Asked before every delivery,
	 * enter and leave included; a denial drops the event. */
	bool (*deliver_input)(void *data, struct wl_client *client, struct garnet_surface *surface,
			      enum garnet_input_kind kind);
	/* May client read the current selection (receive on an offer)? A denial closes the fd
	 * without data reaching it. */
	bool (*read_selection)(void *data, struct wl_client *client, struct wl_client *owner,
			       enum garnet_selection_kind kind);
	/* May client replace the clipboard or primary selection without keyboard focus (a
	 * clipboard manager through data-control)? A denial cancels the source. */
	bool (*write_selection)(void *data, struct wl_client *client,
				enum garnet_selection_kind kind);
	/* May client receive other clients' pixels (a share name for its DRM file)? Unlike the
	 * hooks above, a NULL hook denies: nothing is shared without a decision. */
	bool (*share_pixels)(void *data, struct wl_client *client, enum garnet_pixels_kind kind,
			     const char *object);
	/* May client use a buffer owner offered it (garnet_buffer_broker_v1)? Asked at each
	 * offer, which cannot wait for a dialog; a NULL hook denies, as for share_pixels. A
	 * denial fails the offer and no name is made. */
	bool (*import_buffer)(void *data, struct wl_client *client, struct wl_client *owner);
	/* May client copy the pixels of this output now? Asked at every capture, after the
	 * global's checks; stream is true for the captures of a recording (screencopy's
	 * copy_with_damage). A denial fails the capture without a pixel reaching the client;
	 * GARNET_ASK holds the capture until the user answered garnet's consent dialog. A
	 * recording the user allowed once goes on, for that client and output, until the client
	 * disconnects. */
	enum garnet_decision (*capture_output)(void *data, struct wl_client *client,
					       const char *output_name, bool stream);
	/* May the application with process pid capture the output named output_name (stream:
	 * a screencast)? client is the desktop portal's backend asking on its behalf
	 * (garnet_portal_v1) and app_id the portal's claim for it; the application is the
	 * subject. who gets the application's identity as the consent dialog shows it. GARNET_ASK
	 * asks the user, whose answer holds for this capture only (an application named by pid
	 * has no identity an answer could be remembered for). */
	enum garnet_decision (*capture_for_app)(void *data, struct wl_client *client,
						const char *app_id, uint32_t pid,
						const char *output_name, bool stream, char *who,
						size_t who_size);
	/* The client's verified identity as the consent dialog shows it (e.g. "pid 42 uid
	 * 1000 exe /usr/bin/grim"); without the hook the dialog shows the pid from the socket. */
	void (*describe_client)(void *data, struct wl_client *client, char *buf, size_t size);
	/* The user answered the consent dialog about act on object for client (which is still
	 * connected). Called before the act proceeds or fails. */
	void (*user_answered)(void *data, struct wl_client *client, enum garnet_ask_act act,
			      const char *object, bool allowed, enum garnet_answer_scope scope);
	/* May client lock the session (ext-session-lock), or take over a lock whose locker died?
	 * A denial answers the lock request with finished. */
	bool (*lock_session)(void *data, struct wl_client *client);
	/* May client make a virtual keyboard and type into the focused client? A denial is the
	 * manager's unauthorized error. */
	bool (*inject_keys)(void *data, struct wl_client *client);
	/* May client make a virtual pointer and move, click and scroll for the user
	 * (zwlr_virtual_pointer_v1)? A denial is a protocol error. */
	bool (*inject_pointer)(void *data, struct wl_client *client);
	/* May client be the seat's input method (read what the focused text field holds, write
	 * into it, grab the keyboard while it is active)? A denial answers unavailable. */
	bool (*input_method)(void *data, struct wl_client *client);
	/* May client hold this global shortcut action (garnet-shortcuts-v1)? A denial answers
	 * refused(denied). */
	bool (*global_shortcut)(void *data, struct wl_client *client, const char *action);
	/* May client learn when the user is idle with any timeout, and while the session is
	 * locked (an idle daemon that dims and locks)? Asked once per idle notification. A
	 * denial, or no hook, raises the timeout to at least GARNET_IDLE_FLOOR_MS and sends
	 * that notification nothing while the session is locked: a short timeout would time
	 * every keystroke typed into another client. */
	bool (*idle_notify)(void *data, struct wl_client *client);
	/* client was accepted on a sandbox engine's socket (security-context-v1) with this
	 * identity (app_id and instance_id may be NULL). Called before the client can send
	 * anything; false drops the client, which must never run with an ordinary identity. */
	bool (*client_sandboxed)(void *data, struct wl_client *client, const char *engine,
				 const char *app_id, const char *instance_id);
	/* May client take the keyboard without the user pointing at its window (its new window
	 * while nothing else has focus or its own window has it, an activation token)? A
	 * denial leaves the window unfocused, demanding attention. */
	bool (*raise_focus)(void *data, struct wl_client *client);
	/* May client make its window cover the output named output (NULL: the one garnet
	 * picks)? A denial leaves the window as it was. */
	bool (*fullscreen)(void *data, struct wl_client *client, const char *output);
	/* May client show a layer-shell surface in this layer ("background", "bottom", "top",
	 * "overlay")? A denial closes the layer surface (zwlr_layer_surface_v1.closed) before it
	 * is ever shown. */
	bool (*layer)(void *data, struct wl_client *client, const char *layer);
	/* May client's layer surfaces in the top and overlay layers hold the keyboard while they
	 * are shown (keyboard_interactivity exclusive)? A denial makes them on_demand: the
	 * keyboard only when the user clicks them. */
	bool (*exclusive_keyboard)(void *data, struct wl_client *client);
	/* May client list every client's windows with their titles and app ids, and ask for them
	 * to be activated, closed, minimized, maximized or made fullscreen (a task bar, through
	 * zwlr_foreign_toplevel_manager_v1)? Asked at each bind of the manager; a denial is its
	 * finished event, before any window. */
	bool (*foreign_toplevel)(void *data, struct wl_client *client);
	/* May client power the output named output off and on (an idle daemon, through
	 * zwlr_output_power_v1)? Asked for each control; a denial is the control's failed event. */
	bool (*output_power)(void *data, struct wl_client *client, const char *output);
	/* client is the Xwayland (executable, an absolute path) garnet started for the X11
	 * security domain named domain (xwayland/server.c). Called before it can send anything;
	 * false drops it and the server does not run. Such a client never sees or binds a
	 * privileged global. */
	bool (*client_xwayland)(void *data, struct wl_client *client, const char *executable,
				const char *domain);
	/* May client get the display of the shared X11 domain named domain (garnet_xwayland_v1),
	 * and so see and drive every X window in it? A denial is the request's refused event. */
	bool (*join_xwayland_domain)(void *data, struct wl_client *client, const char *domain);
	/* May client change the mode, scale, transform or position of the output named output
	 * (kanshi, wlr-randr, through zwlr_output_manager_v1)? Asked for each output of a
	 * configuration it applies or tests; a denial is the configuration's failed event. */
	bool (*configure_output)(void *data, struct wl_client *client, const char *output);
	void *data;
	/* true: every decision hook left NULL denies (global_visible hides privileged globals
	 * only), so a hook forgotten by a security layer fails closed. A security layer sets
	 * this; test harnesses that install one hook leave it false. */
	bool deny_unset;
};

/* The client whose surface has the keyboard (and so is offered the selections), or NULL. */
GARNET_EXPORT struct wl_client *garnet_compositor_get_focused_client(struct garnet_compositor *c);

/* Replaces the hooks (copied). NULL members allow everything, except share_pixels,
 * import_buffer and idle_notify, unless hooks->deny_unset; NULL hooks: no security layer. */
GARNET_EXPORT void garnet_compositor_set_security_hooks(struct garnet_compositor *c,
					  const struct garnet_security_hooks *hooks);

#endif
