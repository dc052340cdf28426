// SPDX-License-Identifier: MIT
// garnet-rogue lifetime ATTACK: role objects used after their surface is gone, a toplevel
// committed after its destruction, an unmapped toplevel activated then destroyed, and every
// coordinate request sent with INT32_MIN and INT32_MAX. Each attack ends by checking that
// garnet still answers; a protocol error is garnet refusing the attack, a lost connection
// without one is garnet gone.
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "pointer-constraints-unstable-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"
#include "single-pixel-buffer-v1-client-protocol.h"
#include "viewporter-client-protocol.h"
#include "xdg-activation-v1-client-protocol.h"
#include "xdg-shell-client-protocol.h"

struct rogue {
	struct wl_display *display;
	struct wl_compositor *compositor;
	struct wl_compositor *compositor4; /* wl_surface v4: attach still takes dx, dy */
	struct wl_subcompositor *subcompositor;
	struct wp_single_pixel_buffer_manager_v1 *pixels;
	struct wp_viewporter *viewporter;
	struct xdg_wm_base *wm_base;
	struct xdg_activation_v1 *activation;
	struct zwp_pointer_constraints_v1 *constraints;
	struct wl_seat *seat;
	struct wl_keyboard *keyboard;
	struct wl_pointer *pointer;
	uint32_t enter_serial;
	char token[256];
};

struct window {
	struct wl_surface *surface;
	struct xdg_surface *xdg;
	struct xdg_toplevel *toplevel;
	uint32_t configure_serial;
	bool configured;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *iface,
		      uint32_t version)
{
	struct rogue *g = data;

	if (strcmp(iface, wl_compositor_interface.name) == 0) {
		g->compositor = wl_registry_bind(r, name, &wl_compositor_interface, 5);
		g->compositor4 = wl_registry_bind(r, name, &wl_compositor_interface, 4);
	} else if (strcmp(iface, wl_subcompositor_interface.name) == 0)
		g->subcompositor = wl_registry_bind(r, name, &wl_subcompositor_interface, 1);
	else if (strcmp(iface, wp_single_pixel_buffer_manager_v1_interface.name) == 0)
		g->pixels =
			wl_registry_bind(r, name, &wp_single_pixel_buffer_manager_v1_interface, 1);
	else if (strcmp(iface, wp_viewporter_interface.name) == 0)
		g->viewporter = wl_registry_bind(r, name, &wp_viewporter_interface, 1);
	else if (strcmp(iface, xdg_wm_base_interface.name) == 0)
		g->wm_base = wl_registry_bind(r, name, &xdg_wm_base_interface, 1);
	else if (strcmp(iface, xdg_activation_v1_interface.name) == 0)
		g->activation = wl_registry_bind(r, name, &xdg_activation_v1_interface, 1);
	else if (strcmp(iface, zwp_pointer_constraints_v1_interface.name) == 0)
		g->constraints =
			wl_registry_bind(r, name, &zwp_pointer_constraints_v1_interface, 1);
	else if (strcmp(iface, wl_seat_interface.name) == 0 && !g->seat)
		g->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
	(void)version;
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void kb_keymap(void *d, struct wl_keyboard *k, uint32_t f, int32_t fd, uint32_t size)
{
	close(fd);
}

static void kb_enter(void *d, struct wl_keyboard *k, uint32_t serial, struct wl_surface *s,
		     struct wl_array *keys)
{
	((struct rogue *)d)->enter_serial = serial;
}

static const struct wl_keyboard_listener keyboard_listener = {
	kb_keymap, kb_enter, rogue_ignore_keyboard_leave, rogue_ignore_keyboard_key,
	rogue_ignore_keyboard_modifiers};

static void wm_ping(void *data, struct xdg_wm_base *base, uint32_t serial)
{
	xdg_wm_base_pong(base, serial);
}

static const struct xdg_wm_base_listener wm_listener = {wm_ping};

static void xs_configure(void *data, struct xdg_surface *xs, uint32_t serial)
{
	struct window *w = data;

	w->configure_serial = serial;
	w->configured = true;
}

static const struct xdg_surface_listener xdg_surface_listener = {xs_configure};

static const struct xdg_toplevel_listener toplevel_listener = {rogue_ignore_toplevel_configure,
							       rogue_ignore_toplevel_close};

static void token_done(void *data, struct xdg_activation_token_v1 *token, const char *name)
{
	struct rogue *g = data;

	snprintf(g->token, sizeof(g->token), "%s", name);
}

static const struct xdg_activation_token_v1_listener token_listener = {token_done};

/* 0: garnet answered (maybe with a protocol error for us), 1: garnet is gone. */
static int still_served(struct rogue *g, const char *what)
{
	const struct wl_interface *iface;
	uint32_t id;
	int code;

	if (wl_display_roundtrip(g->display) >= 0) {
		printf("%s: garnet answered\n", what);
		return 0;
	}
	code = wl_display_get_protocol_error(g->display, &iface, &id);
	if (iface || wl_display_get_error(g->display) == EPROTO) {
		printf("%s: protocol error %s@%u code %d\n", what, iface ? iface->name : "?", id,
		       code);
		return 0;
	}
	printf("%s: connection lost without a protocol error (%s)\n", what,
	       strerror(wl_display_get_error(g->display)));
	return 1;
}

static int setup(struct rogue *g)
{
	struct wl_registry *registry;

	memset(g, 0, sizeof(*g));
	g->display = rogue_connect();
	registry = wl_display_get_registry(g->display);
	wl_registry_add_listener(registry, &registry_listener, g);
	if (wl_display_roundtrip(g->display) < 0 || !g->compositor || !g->subcompositor ||
	    !g->pixels || !g->wm_base) {
		fprintf(stderr, "garnet-rogue: missing globals\n");
		return -1;
	}
	xdg_wm_base_add_listener(g->wm_base, &wm_listener, g);
	if (g->seat) {
		g->keyboard = wl_seat_get_keyboard(g->seat);
		wl_keyboard_add_listener(g->keyboard, &keyboard_listener, g);
		g->pointer = wl_seat_get_pointer(g->seat);
	}
	return 0;
}

static void attach_pixel(struct rogue *g, struct wl_surface *surface, int32_t dx, int32_t dy)
{
	struct wl_buffer *buffer = wp_single_pixel_buffer_manager_v1_create_u32_rgba_buffer(
		g->pixels, 0xffffffffu, 0, 0, 0xffffffffu);

	wl_surface_attach(surface, buffer, dx, dy);
	wl_surface_damage_buffer(surface, 0, 0, 1, 1);
}

/* A toplevel with its initial configure acked; mapped when map is true. */
static void open_toplevel_on(struct rogue *g, struct wl_compositor *compositor, struct window *w,
			     bool map)
{
	memset(w, 0, sizeof(*w));
	w->surface = wl_compositor_create_surface(compositor);
	w->xdg = xdg_wm_base_get_xdg_surface(g->wm_base, w->surface);
	xdg_surface_add_listener(w->xdg, &xdg_surface_listener, w);
	w->toplevel = xdg_surface_get_toplevel(w->xdg);
	xdg_toplevel_add_listener(w->toplevel, &toplevel_listener, w);
	wl_surface_commit(w->surface);
	while (!w->configured && wl_display_dispatch(g->display) >= 0)
		;
	xdg_surface_ack_configure(w->xdg, w->configure_serial);
	if (map) {
		attach_pixel(g, w->surface, 0, 0);
		wl_surface_commit(w->surface);
	}
	wl_display_roundtrip(g->display);
}

static void open_toplevel(struct rogue *g, struct window *w, bool map)
{
	open_toplevel_on(g, g->compositor, w, map);
}

/* Two surfaces, B a subsurface of A, B's wl_surface destroyed, then every wl_subsurface
 * request; with keep, B stays (the legitimate path). */
static int subsurface_orphan(bool keep)
{
	struct rogue g;
	struct wl_surface *a, *b;
	struct wl_subsurface *sub;

	if (setup(&g) < 0)
		return 2;
	a = wl_compositor_create_surface(g.compositor);
	b = wl_compositor_create_surface(g.compositor);
	sub = wl_subcompositor_get_subsurface(g.subcompositor, b, a);
	if (!keep)
		wl_surface_destroy(b);
	wl_subsurface_set_desync(sub);
	wl_subsurface_set_position(sub, 10, 10);
	wl_subsurface_set_sync(sub);
	wl_subsurface_set_desync(sub);
	if (keep) {
		attach_pixel(&g, b, 0, 0);
		wl_surface_commit(b);
	}
	wl_surface_commit(a);
	wl_subsurface_destroy(sub);
	return still_served(&g, keep ? "subsurface-kept" : "subsurface-orphan");
}

/* Role objects whose wl_surface is gone: every request of each, one connection per role. */
static int roles_orphaned(void)
{
	int status = 0;

	for (int role = 0; role < 4; role++) {
		struct rogue g;
		struct window w;
		struct wl_surface *s;
		struct xdg_positioner *p;
		struct wl_region *region;
		char what[32];

		if (setup(&g) < 0)
			return 2;
		switch (role) {
		case 0: /* xdg_toplevel and xdg_surface */
			open_toplevel(&g, &w, true);
			wl_surface_destroy(w.surface);
			xdg_toplevel_set_title(w.toplevel, "orphan");
			xdg_toplevel_set_min_size(w.toplevel, 10, 10);
			xdg_toplevel_set_maximized(w.toplevel);
			xdg_toplevel_set_fullscreen(w.toplevel, NULL);
			xdg_toplevel_set_minimized(w.toplevel);
			xdg_surface_set_window_geometry(w.xdg, 0, 0, 10, 10);
			xdg_surface_ack_configure(w.xdg, w.configure_serial);
			xdg_toplevel_destroy(w.toplevel);
			xdg_surface_destroy(w.xdg);
			break;
		case 1: /* xdg_popup */
			open_toplevel(&g, &w, true);
			s = wl_compositor_create_surface(g.compositor);
			p = xdg_wm_base_create_positioner(g.wm_base);
			xdg_positioner_set_size(p, 10, 10);
			xdg_positioner_set_anchor_rect(p, 0, 0, 1, 1);
			{
				struct xdg_surface *pxs = xdg_wm_base_get_xdg_surface(g.wm_base, s);
				struct xdg_popup *popup = xdg_surface_get_popup(pxs, w.xdg, p);

				wl_surface_commit(s);
				wl_display_roundtrip(g.display);
				wl_surface_destroy(s);
				xdg_surface_set_window_geometry(pxs, 0, 0, 5, 5);
				xdg_popup_destroy(popup);
				xdg_surface_destroy(pxs);
			}
			break;
		case 2: /* wp_viewport */
			s = wl_compositor_create_surface(g.compositor);
			if (g.viewporter) {
				struct wp_viewport *vp =
					wp_viewporter_get_viewport(g.viewporter, s);

				wl_surface_destroy(s);
				wp_viewport_set_destination(vp, 10, 10);
				wp_viewport_destroy(vp);
			}
			break;
		case 3: /* zwp_confined_pointer_v1 */
			s = wl_compositor_create_surface(g.compositor);
			if (g.constraints && g.pointer) {
				struct zwp_confined_pointer_v1 *cp;

				cp = zwp_pointer_constraints_v1_confine_pointer(
					g.constraints, s, g.pointer, NULL,
					ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_PERSISTENT);
				wl_surface_destroy(s);
				region = wl_compositor_create_region(g.compositor);
				wl_region_add(region, 0, 0, 5, 5);
				zwp_confined_pointer_v1_set_region(cp, region);
				zwp_confined_pointer_v1_destroy(cp);
			}
			break;
		}
		snprintf(what, sizeof(what), "role-orphan-%d", role);
		status |= still_served(&g, what);
		wl_display_disconnect(g.display);
	}
	return status;
}

/* Map a toplevel, attach a buffer, destroy the xdg_toplevel, commit, disconnect. */
static int toplevel_destroy_commit(void)
{
	struct rogue g;
	struct window w;

	if (setup(&g) < 0)
		return 2;
	open_toplevel(&g, &w, true);
	attach_pixel(&g, w.surface, 0, 0);
	xdg_toplevel_destroy(w.toplevel);
	wl_surface_commit(w.surface);
	attach_pixel(&g, w.surface, 0, 0);
	wl_surface_commit(w.surface);
	return still_served(&g, "toplevel-destroy-commit");
	/* exit disconnects without tidying up */
}

/* A mapped window takes the focus and asks for a token with its enter serial; an unmapped
 * toplevel is activated with it and then destroyed; with mapped, the legitimate path. */
static int activate_unmapped(bool mapped)
{
	struct rogue g;
	struct window a, b;
	struct xdg_activation_token_v1 *token;

	if (setup(&g) < 0)
		return 2;
	if (!g.activation) {
		fprintf(stderr, "garnet-rogue: no xdg_activation_v1\n");
		return 2;
	}
	open_toplevel(&g, &a, true);
	wl_display_roundtrip(g.display);
	open_toplevel(&g, &b, mapped);
	token = xdg_activation_v1_get_activation_token(g.activation);
	xdg_activation_token_v1_add_listener(token, &token_listener, &g);
	if (g.seat && g.enter_serial)
		xdg_activation_token_v1_set_serial(token, g.enter_serial, g.seat);
	xdg_activation_token_v1_set_surface(token, a.surface);
	xdg_activation_token_v1_commit(token);
	while (!g.token[0] && wl_display_dispatch(g.display) >= 0)
		;
	xdg_activation_v1_activate(g.activation, g.token, b.surface);
	if (still_served(&g, "activated"))
		return 1;
	if (mapped)
		return 0;
	xdg_toplevel_destroy(b.toplevel);
	xdg_surface_destroy(b.xdg);
	wl_surface_destroy(b.surface);
	xdg_toplevel_destroy(a.toplevel);
	if (still_served(&g, "activate-unmapped"))
		return 1;
	/* A new window moves the focus, past whatever the shell still remembers. */
	open_toplevel(&g, &b, true);
	return still_served(&g, "activate-unmapped then a new window");
}

/* The coordinate requests, one connection each, with positions v and m and sizes s. */
static int extreme(int32_t v, int32_t m, int32_t s)
{
	int status = 0;

	for (int kind = 0; kind < 13; kind++) {
		struct rogue g;
		struct window w;
		struct wl_surface *child;
		struct wl_subsurface *sub;
		struct wl_region *region;
		struct xdg_positioner *p;
		char what[48];

		if (setup(&g) < 0)
			return 2;
		open_toplevel_on(&g, kind == 10 ? g.compositor4 : g.compositor, &w, true);
		switch (kind) {
		case 0:
			child = wl_compositor_create_surface(g.compositor);
			sub = wl_subcompositor_get_subsurface(g.subcompositor, child, w.surface);
			wl_subsurface_set_desync(sub);
			attach_pixel(&g, child, 0, 0);
			wl_surface_commit(child);
			wl_subsurface_set_position(sub, v, m);
			break;
		case 1:
			xdg_surface_set_window_geometry(w.xdg, v, m, s, s);
			break;
		case 2:
			xdg_surface_set_window_geometry(w.xdg, m, v, 1, 1);
			break;
		case 3:
			wl_surface_offset(w.surface, v, m);
			break;
		case 4:
			attach_pixel(&g, w.surface, 0, 0);
			wl_surface_commit(w.surface);
			wl_surface_offset(w.surface, v, v);
			wl_surface_commit(w.surface);
			wl_surface_offset(w.surface, v, v);
			break;
		case 5:
			if (g.viewporter) {
				struct wp_viewport *vp =
					wp_viewporter_get_viewport(g.viewporter, w.surface);

				wp_viewport_set_destination(vp, s, s);
			}
			break;
		case 6:
			region = wl_compositor_create_region(g.compositor);
			wl_region_add(region, v, m, s, s);
			wl_region_add(region, m, v, s, s);
			wl_region_subtract(region, v, v, s, s);
			wl_surface_set_input_region(w.surface, region);
			wl_surface_set_opaque_region(w.surface, region);
			wl_surface_damage(w.surface, v, m, s, s);
			wl_surface_damage_buffer(w.surface, v, m, s, s);
			break;
		case 7:
			p = xdg_wm_base_create_positioner(g.wm_base);
			xdg_positioner_set_size(p, s, s);
			xdg_positioner_set_anchor_rect(p, v, m, s, s);
			xdg_positioner_set_offset(p, v, m);
			xdg_positioner_set_anchor(p, XDG_POSITIONER_ANCHOR_BOTTOM_RIGHT);
			xdg_positioner_set_gravity(p, XDG_POSITIONER_GRAVITY_BOTTOM_RIGHT);
			xdg_positioner_set_constraint_adjustment(p, 0x3f);
			{
				struct wl_surface *ps = wl_compositor_create_surface(g.compositor);
				struct xdg_surface *pxs =
					xdg_wm_base_get_xdg_surface(g.wm_base, ps);
				struct window pw = {.surface = ps, .xdg = pxs};

				xdg_surface_add_listener(pxs, &xdg_surface_listener, &pw);
				xdg_surface_get_popup(pxs, w.xdg, p);
				wl_surface_commit(ps);
				wl_display_roundtrip(g.display);
				if (pw.configured) {
					xdg_surface_ack_configure(pxs, pw.configure_serial);
					attach_pixel(&g, ps, 0, 0);
					wl_surface_commit(ps);
				}
			}
			break;
		case 8:
			if (g.constraints && g.pointer) {
				region = wl_compositor_create_region(g.compositor);
				wl_region_add(region, v, m, s, s);
				zwp_confined_pointer_v1_set_region(
					zwp_pointer_constraints_v1_confine_pointer(
						g.constraints, w.surface, g.pointer, region,
						ZWP_POINTER_CONSTRAINTS_V1_LIFETIME_ONESHOT),
					region);
			}
			break;
		case 9:
			child = wl_compositor_create_surface(g.compositor);
			sub = wl_subcompositor_get_subsurface(g.subcompositor, child, w.surface);
			wl_subsurface_set_position(sub, v, v);
			attach_pixel(&g, child, 0, 0);
			wl_surface_commit(child);
			xdg_surface_set_window_geometry(w.xdg, v, v, 1, 1);
			break;
		case 11:
			xdg_toplevel_set_min_size(w.toplevel, s, s);
			xdg_toplevel_set_max_size(w.toplevel, s, s);
			xdg_toplevel_set_maximized(w.toplevel);
			break;
		case 12: { /* subsurfaces nested three deep, each at v */
			struct wl_surface *parent = w.surface;

			for (int depth = 0; depth < 3; depth++) {
				child = wl_compositor_create_surface(g.compositor);
				sub = wl_subcompositor_get_subsurface(g.subcompositor, child,
								      parent);
				wl_subsurface_set_position(sub, v, v);
				attach_pixel(&g, child, 0, 0);
				wl_surface_commit(child);
				parent = child;
			}
			break;
		}
		case 10: /* attach's dx, dy move the window like offset does */
			attach_pixel(&g, w.surface, v, m);
			wl_surface_commit(w.surface);
			attach_pixel(&g, w.surface, v, m);
			break;
		}
		wl_surface_commit(w.surface);
		snprintf(what, sizeof(what), "extreme-%d (%d, %d)", kind, v, m);
		status |= still_served(&g, what);
		wl_display_disconnect(g.display);
	}
	return status;
}

int rogue_lifetime(const char *attack)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (strcmp(attack, "subsurface-orphan") == 0)
		return subsurface_orphan(false);
	if (strcmp(attack, "subsurface-kept") == 0)
		return subsurface_orphan(true);
	if (strcmp(attack, "roles-orphaned") == 0)
		return roles_orphaned();
	if (strcmp(attack, "toplevel-destroy-commit") == 0)
		return toplevel_destroy_commit();
	if (strcmp(attack, "activate-unmapped") == 0)
		return activate_unmapped(false);
	if (strcmp(attack, "activate-mapped") == 0)
		return activate_unmapped(true);
	if (strcmp(attack, "extreme-coordinates") == 0)
		return extreme(INT32_MIN, INT32_MAX, INT32_MAX) |
		       extreme(INT32_MAX, INT32_MIN, INT32_MAX);
	if (strcmp(attack, "moderate-coordinates") == 0)
		return extreme(-3000, 3000, 100);
	fprintf(stderr, "garnet-rogue: unknown lifetime attack %s\n", attack);
	return 2;
}
