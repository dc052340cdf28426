// SPDX-License-Identifier: MIT
// _NET_WM_STATE for managed X windows: an X client's fullscreen and maximize requests go to
// garnet's shell as an xdg toplevel's would (fullscreen under the same policy check), and the
// window's _NET_WM_STATE property says what garnet decided.
#include <stdlib.h>
#include <string.h>

#include "../core/shell-hooks.h"
#include "wm-state.h"
#include "x-reply.h"

enum { NET_WM_STATE_REMOVE, NET_WM_STATE_ADD, NET_WM_STATE_TOGGLE };

bool xwm_state_atoms_init(struct xwm_state_atoms *atoms, xcb_connection_t *conn)
{
	static const char *const names[] = {"_NET_WM_STATE", "_NET_WM_STATE_FULLSCREEN",
					    "_NET_WM_STATE_MAXIMIZED_VERT",
					    "_NET_WM_STATE_MAXIMIZED_HORZ"};
	xcb_atom_t *out[] = {&atoms->state, &atoms->fullscreen, &atoms->maximized_vert,
			     &atoms->maximized_horz};
	xcb_intern_atom_cookie_t cookies[4];

	for (int i = 0; i < 4; i++)
		cookies[i] = xcb_intern_atom(conn, 0, (uint16_t)strlen(names[i]), names[i]);
	if (!xwl_replies_arrived(conn, XWL_SETUP_WAIT_MS))
		return false;
	for (int i = 0; i < 4; i++) {
		xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(conn, cookies[i], NULL);

		if (!reply)
			return false;
		*out[i] = reply->atom;
		free(reply);
	}
	return true;
}

void xwm_state_announce(const struct xwm_state_atoms *atoms, xcb_connection_t *conn,
			xcb_window_t root)
{
	xcb_intern_atom_reply_t *reply = xwl_reply_by(
		conn, xcb_intern_atom(conn, 0, strlen("_NET_SUPPORTED"), "_NET_SUPPORTED").sequence,
		xwl_now_ms() + XWL_SETUP_WAIT_MS);
	xcb_atom_t list[] = {atoms->state, atoms->fullscreen, atoms->maximized_vert,
			     atoms->maximized_horz};

	if (!reply)
		return;
	xcb_change_property(conn, XCB_PROP_MODE_APPEND, root, reply->atom, XCB_ATOM_ATOM, 32, 4,
			    list);
	free(reply);
}

static bool wanted(uint32_t action, bool now)
{
	return action == NET_WM_STATE_ADD || (action == NET_WM_STATE_TOGGLE && !now);
}

void xwm_state_request(const struct xwm_state_atoms *atoms, struct garnet_compositor *c,
		       struct wl_client *server, struct garnet_toplevel *tl,
		       const uint32_t data[5])
{
	uint32_t action = data[0];
	bool fullscreen = false, maximize = false;

	if (action > NET_WM_STATE_TOGGLE)
		return;
	for (int i = 1; i <= 2; i++) {
		fullscreen |= data[i] == atoms->fullscreen;
		maximize |= data[i] == atoms->maximized_vert || data[i] == atoms->maximized_horz;
	}
	if (fullscreen) {
		bool want = wanted(action, tl->fullscreen);

		/* As for xdg's set_fullscreen: the policy decides, for the domain's server. */
		c->shell_hooks->set_fullscreen(c->shell, tl,
					       want && (tl->fullscreen ||
							c->shell_hooks->may_fullscreen(c, server, NULL)),
					       NULL);
	}
	if (maximize)
		c->shell_hooks->set_maximized(c->shell, tl, wanted(action, tl->maximized));
}

unsigned int xwm_state_parse(const struct xwm_state_atoms *atoms,
			     const xcb_get_property_reply_t *reply)
{
	const xcb_atom_t *states;
	unsigned int wanted = 0;
	int n;

	if (!reply || reply->format != 32)
		return 0;
	n = xcb_get_property_value_length(reply) / 4;
	states = xcb_get_property_value(reply);
	for (int i = 0; i < n; i++) {
		if (states[i] == atoms->fullscreen)
			wanted |= XWM_STATE_FULLSCREEN;
		else if (states[i] == atoms->maximized_vert || states[i] == atoms->maximized_horz)
			wanted |= XWM_STATE_MAXIMIZED;
	}
	return wanted;
}

unsigned int xwm_state_update(const struct xwm_state_atoms *atoms, unsigned int wanted,
			      const uint32_t data[5])
{
	unsigned int named = 0;

	for (int i = 1; i <= 2; i++) {
		if (data[i] == atoms->fullscreen)
			named |= XWM_STATE_FULLSCREEN;
		else if (data[i] == atoms->maximized_vert || data[i] == atoms->maximized_horz)
			named |= XWM_STATE_MAXIMIZED;
	}
	switch (data[0]) {
	case NET_WM_STATE_ADD:
		return wanted | named;
	case NET_WM_STATE_TOGGLE:
		return wanted ^ named;
	default:
		return wanted & ~named;
	}
}

void xwm_state_initial(const struct xwm_state_atoms *atoms, struct garnet_compositor *c,
		       struct wl_client *server, struct garnet_toplevel *tl, unsigned int wanted)
{
	if (wanted & XWM_STATE_FULLSCREEN)
		xwm_state_request(atoms, c, server, tl,
				  (uint32_t[5]){NET_WM_STATE_ADD, atoms->fullscreen, 0, 0, 0});
	if (wanted & XWM_STATE_MAXIMIZED)
		xwm_state_request(atoms, c, server, tl,
				  (uint32_t[5]){NET_WM_STATE_ADD, atoms->maximized_vert, 0, 0, 0});
}

void xwm_state_publish(const struct xwm_state_atoms *atoms, xcb_connection_t *conn,
		       xcb_window_t window, const struct garnet_toplevel *tl)
{
	xcb_atom_t state[3];
	uint32_t n = 0;

	if (tl->fullscreen)
		state[n++] = atoms->fullscreen;
	if (tl->maximized) {
		state[n++] = atoms->maximized_vert;
		state[n++] = atoms->maximized_horz;
	}
	xcb_change_property(conn, XCB_PROP_MODE_REPLACE, window, atoms->state, XCB_ATOM_ATOM, 32,
			    n, state);
}
