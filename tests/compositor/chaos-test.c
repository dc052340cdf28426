// SPDX-License-Identifier: MIT
// Clients doing random (seeded, so reproducible) but well-formed things with surfaces,
// subsurfaces, toplevels, popups and input, destroying objects in any order and dying of protocol
// errors: the compositor must survive every run and keep serving. The ASan build checks memory.
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "harness.h"

#define MAX_OBJECTS 24

struct chaos {
	struct client *c;
	struct client_surface *surfaces[MAX_OBJECTS];
	struct wl_subsurface *subsurfaces[MAX_OBJECTS];
	struct xdg_popup *popups[MAX_OBJECTS];
	uint32_t acked[MAX_OBJECTS]; /* last configure serial acked, per slot */
	struct buffer *buffers[4];
	unsigned seed;
};

static int pick(struct chaos *ch, int n)
{
	return (int)(rand_r(&ch->seed) % (unsigned)n);
}

static struct client_surface *some_surface(struct chaos *ch, int *index)
{
	int start = pick(ch, MAX_OBJECTS);

	for (int i = 0; i < MAX_OBJECTS; i++) {
		int k = (start + i) % MAX_OBJECTS;

		if (ch->surfaces[k]) {
			*index = k;
			return ch->surfaces[k];
		}
	}
	return NULL;
}

static void destroy_at(struct chaos *ch, int k)
{
	if (ch->popups[k])
		xdg_popup_destroy(ch->popups[k]);
	if (ch->subsurfaces[k])
		wl_subsurface_destroy(ch->subsurfaces[k]);
	ch->popups[k] = NULL;
	ch->subsurfaces[k] = NULL;
	ch->acked[k] = 0;
	surface_destroy(ch->surfaces[k]);
	ch->surfaces[k] = NULL;
}

static void new_surface(struct chaos *ch)
{
	for (int k = 0; k < MAX_OBJECTS; k++) {
		if (!ch->surfaces[k]) {
			ch->surfaces[k] = surface_create(ch->c);
			return;
		}
	}
}

static void one_step(struct chaos *ch)
{
	struct client *c = ch->c;
	struct client_surface *s, *other;
	struct xdg_positioner *p;
	int k, j;

	switch (pick(ch, 12)) {
	case 0:
		new_surface(ch);
		break;
	case 1:
		if (some_surface(ch, &k))
			destroy_at(ch, k);
		break;
	case 2:
		/* xdg surfaces get buffers only once configured, as the protocol asks. */
		if ((s = some_surface(ch, &k)) && (!s->xdg_surface || ch->acked[k])) {
			struct buffer *b = ch->buffers[pick(ch, 4)];

			wl_surface_attach(s->wl_surface, pick(ch, 5) ? b->wl_buffer : NULL, 0, 0);
			wl_surface_damage(s->wl_surface, 0, 0, INT32_MAX, INT32_MAX);
			wl_surface_commit(s->wl_surface);
		}
		break;
	case 3:
		if ((s = some_surface(ch, &k)) && (other = some_surface(ch, &j)) && k != j &&
		    !ch->subsurfaces[k] && !s->xdg_surface)
			ch->subsurfaces[k] = wl_subcompositor_get_subsurface(
				c->subcompositor, s->wl_surface, other->wl_surface);
		break;
	case 4:
		if (some_surface(ch, &k) && ch->subsurfaces[k]) {
			wl_subsurface_set_position(ch->subsurfaces[k], pick(ch, 300) - 50,
						   pick(ch, 200) - 50);
			if (pick(ch, 2))
				wl_subsurface_set_desync(ch->subsurfaces[k]);
			else
				wl_subsurface_set_sync(ch->subsurfaces[k]);
		}
		break;
	case 5:
		if (some_surface(ch, &k) && ch->subsurfaces[k] && (other = some_surface(ch, &j)) &&
		    k != j) {
			if (pick(ch, 2))
				wl_subsurface_place_above(ch->subsurfaces[k], other->wl_surface);
			else
				wl_subsurface_place_below(ch->subsurfaces[k], other->wl_surface);
		}
		break;
	case 6:
		if ((s = some_surface(ch, &k)) && !s->xdg_surface && !ch->subsurfaces[k]) {
			struct client_surface *t = toplevel_create_uncommitted(c);

			/* A fresh toplevel replaces the slot's surface. */
			destroy_at(ch, k);
			ch->surfaces[k] = t;
			wl_surface_commit(t->wl_surface);
		}
		break;
	case 7:
		if ((s = some_surface(ch, &k)) && s->xdg_surface && s->configure_serial &&
		    s->configure_serial != ch->acked[k]) {
			xdg_surface_ack_configure(s->xdg_surface, s->configure_serial);
			ch->acked[k] = s->configure_serial;
		}
		break;
	case 8:
		if ((s = some_surface(ch, &k)) && !s->xdg_surface && !ch->subsurfaces[k] &&
		    (other = some_surface(ch, &j)) && other->xdg_surface && k != j) {
			p = xdg_wm_base_create_positioner(c->wm_base);
			xdg_positioner_set_size(p, 1 + pick(ch, 80), 1 + pick(ch, 80));
			xdg_positioner_set_anchor_rect(p, pick(ch, 50), pick(ch, 50), 1, 1);
			xdg_positioner_set_anchor(p, (uint32_t)pick(ch, 9));
			xdg_positioner_set_gravity(p, (uint32_t)pick(ch, 9));
			xdg_positioner_set_constraint_adjustment(p, (uint32_t)pick(ch, 64));
			s->xdg_surface = xdg_wm_base_get_xdg_surface(c->wm_base, s->wl_surface);
			surface_track_configure(s);
			ch->popups[k] = xdg_surface_get_popup(s->xdg_surface, other->xdg_surface, p);
			xdg_positioner_destroy(p);
			wl_surface_commit(s->wl_surface);
		}
		break;
	case 9:
		garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(pick(ch, 320)),
					   wl_fixed_from_int(pick(ch, 240)));
		garnet_test_pointer_button(c->garnet_test, 0x110 + (uint32_t)pick(ch, 2),
					   (uint32_t)pick(ch, 2));
		break;
	case 10:
		garnet_test_key(c->garnet_test, 30 + (uint32_t)pick(ch, 10), (uint32_t)pick(ch, 2));
		break;
	case 11:
		if ((s = some_surface(ch, &k)) && s->xdg_toplevel) {
			switch (pick(ch, 4)) {
			case 0:
				xdg_toplevel_set_maximized(s->xdg_toplevel);
				break;
			case 1:
				xdg_toplevel_unset_maximized(s->xdg_toplevel);
				break;
			case 2:
				xdg_toplevel_set_fullscreen(s->xdg_toplevel, NULL);
				break;
			default:
				xdg_toplevel_set_minimized(s->xdg_toplevel);
				break;
			}
		}
		break;
	}
}

static void chaos_finish(struct chaos *ch)
{
	/* Popups first: destroying a popup under another one is an error of its own. */
	for (int k = MAX_OBJECTS - 1; k >= 0; k--) {
		if (ch->popups[k]) {
			xdg_popup_destroy(ch->popups[k]);
			ch->popups[k] = NULL;
		}
	}
	for (int k = 0; k < MAX_OBJECTS; k++) {
		if (ch->surfaces[k])
			destroy_at(ch, k);
	}
	for (int i = 0; i < 4; i++)
		buffer_destroy(ch->buffers[i]);
	client_destroy(ch->c);
}

TEST(random_clients_never_break_the_compositor)
{
	for (unsigned run = 0; run < 100; run++) {
		struct chaos ch = {.seed = 1000 + run};

		ch.c = client_create(t);
		for (int i = 0; i < 4; i++) {
			ch.buffers[i] = buffer_create(ch.c, 8 + 16 * i, 6 + 12 * i,
						      i % 2 ? WL_SHM_FORMAT_XRGB8888
							    : WL_SHM_FORMAT_ARGB8888);
			buffer_fill(ch.buffers[i], 0xff000000u | (uint32_t)(0x3f * i));
		}
		for (int step = 0; step < 300; step++) {
			one_step(&ch);
			if (step % 10 == 0 && wl_display_roundtrip(ch.c->display) < 0)
				break; /* a protocol error ended this client: fine */
		}
		wl_display_roundtrip(ch.c->display);
		/* A third of the clients just vanish, leaving everything to the compositor. */
		if (pick(&ch, 3) == 0)
			shutdown(wl_display_get_fd(ch.c->display), SHUT_RDWR);
		chaos_finish(&ch);
	}
	check_compositor_serves(t);
}
