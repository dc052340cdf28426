// SPDX-License-Identifier: MIT
// The wire fuzzer's oracle beyond the sanitizers: garnet's lists are whole, and input focus is
// only ever on a live, mapped surface of the client that holds the keyboard.
#include <stdio.h>
#include <stdlib.h>

#include "../../compositor/core/compositor.h"
#include "../../compositor/core/surface.h"
#include "../../compositor/core/view.h"
#include "../../compositor/core/seat.h"
#include "../../compositor/core/seat-private.h"
#include "../../compositor/protocols/session-lock.h"
#include "invariants.h"

static void broken(const char *rule)
{
	fprintf(stderr, "garnet-wire-fuzz: invariant broken: %s\n", rule);
	abort();
}

/* Walks a list both ways; a node freed or unlinked twice shows as a broken link (and to ASan
 * as a use after free). Returns the length. */
static int check_list(const struct wl_list *head, const char *what)
{
	const struct wl_list *n;
	int count = 0;

	for (n = head->next; n != head; n = n->next) {
		if (n->next->prev != n || n->prev->next != n)
			broken(what);
		if (++count > 1000000)
			broken(what); /* a cycle that skips the head */
	}
	return count;
}

void check_invariants(struct garnet_compositor *c)
{
	struct garnet_seat *seat = c->seat;
	struct garnet_view *view;
	struct wl_client *focused;

	for (int l = 0; l < GARNET_LAYER_COUNT; l++) {
		check_list(&c->layers[l], "a layer's view list is broken");
		wl_list_for_each(view, &c->layers[l], layer_link) {
			if (!view->surface || !view->surface->resource)
				broken("a view in a layer has no live surface");
			if (!view->in_layer || view->layer != (enum garnet_layer_id)l)
				broken("a view is in a layer it does not know it is in");
		}
	}
	check_list(&c->outputs, "the output list is broken");
	check_list(&seat_priv(seat)->resources, "the seat's resource list is broken");
	check_list(&seat_priv(seat)->keyboards, "the seat's keyboard list is broken");
	check_list(&seat_priv(seat)->pointers, "the seat's pointer list is broken");
	check_list(&seat_priv(seat)->touches, "the seat's touch list is broken");
	check_list(&seat->data_devices, "the data device list is broken");

	if (seat->keyboard_focus) {
		if (!seat->keyboard_focus->resource)
			broken("keyboard focus on a destroyed surface");
		if (!garnet_surface_is_mapped(seat->keyboard_focus))
			broken("keyboard focus on an unmapped surface");
		focused = garnet_compositor_get_focused_client(c);
		if (focused != wl_resource_get_client(seat->keyboard_focus->resource))
			broken("keyboard focus outside the focused client");
	}
	if (seat->pointer_focus) {
		if (!seat->pointer_focus->resource)
			broken("pointer focus on a destroyed surface");
		if (!garnet_surface_is_mapped(seat->pointer_focus))
			broken("pointer focus on an unmapped surface");
	}
	if (c->locked && seat->keyboard_focus && !garnet_session_lock_owns(seat->keyboard_focus))
		broken("keyboard focus outside the lock while locked");
}

void check_nothing_left(struct garnet_compositor *c)
{
	struct garnet_seat *seat = c->seat;

	check_invariants(c);
	for (int l = 0; l < GARNET_LAYER_COUNT; l++)
		if (!wl_list_empty(&c->layers[l]))
			broken("a view outlived its client");
	if (seat->keyboard_focus || seat->pointer_focus)
		broken("focus outlived its client");
	if (seat->selection || seat->primary_selection || seat->drag_source)
		broken("a selection outlived its client");
	if (seat->cursor || seat->drag_icon)
		broken("a cursor or drag icon outlived its client");
	if (seat->grab != &seat->default_grab)
		broken("a pointer grab outlived its client");
}
