// SPDX-License-Identifier: MIT
// The desktop shell: placing new windows, focus (click to focus, raise on focus), interactive
// move and resize, maximize, fullscreen and minimize. The key bindings are in bindings.c.
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/compositor.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "../core/seat.h"
#include "../protocols/toplevel.h"
#include "../protocols/xdg-shell.h"
#include "../protocols/shortcuts.h"
#include "../xwayland/xwayland-core.h"
#include "shell.h"
#include "focus.h"
#include "shell-private.h"

struct garnet_shell *garnet_shell_create(struct garnet_compositor *c)
{
	struct garnet_shell *shell = calloc(1, sizeof(*shell));

	if (!shell)
		return NULL;
	shell->compositor = c;
	wl_list_init(&shell->toplevels);
	wl_list_init(&shell->bindings);
	c->shell_hooks = &garnet_shell_hooks_impl;
	return shell;
}

void garnet_shell_destroy(struct garnet_shell *shell)
{
	if (!shell)
		return;
	shell->compositor->shell_hooks = NULL;
	garnet_shell_bindings_finish(shell);
	free(shell);
}

/* The output under the window's centre, or NULL. */
static struct garnet_output *output_at_centre(struct garnet_shell *shell,
					      struct garnet_toplevel *tl)
{
	struct garnet_output *output;
	int32_t cx = tl->view.x + tl->geometry_x + tl->geometry_width / 2;
	int32_t cy = tl->view.y + tl->geometry_y + tl->geometry_height / 2;

	wl_list_for_each(output, &shell->compositor->outputs, link) {
		if (cx >= output->x && cx < output->x + output->width && cy >= output->y &&
		    cy < output->y + output->height)
			return output;
	}
	return NULL;
}

static struct garnet_output *output_for(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_output *output = output_at_centre(shell, tl);

	return output ? output : garnet_compositor_first_output(shell->compositor);
}

void garnet_shell_configure(struct garnet_toplevel *tl)
{
	/* Before the initial commit the state is only recorded: the initial configure, sent in
	 * answer to that commit, carries it. */
	if (tl->configured_once)
		tl->impl->configure(tl);
}

/* A maximized window takes what the panels' exclusive zones leave of the output. */
static void set_maximized_size(struct garnet_toplevel *tl, struct garnet_output *output)
{
	pixman_box32_t usable;

	garnet_output_usable_box(output, &usable);
	tl->pending_width = usable.x2 - usable.x1;
	tl->pending_height = usable.y2 - usable.y1;
}

static void place(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_output *output = garnet_compositor_first_output(shell->compositor);
	int32_t step = 32, n, x, y, w = tl->geometry_width, h = tl->geometry_height;
	pixman_box32_t u;

	if (!output) {
		tl->view.x = tl->view.y = 0;
		return;
	}
	/* The first window centred, the next ones cascading down and right from there, in what
	 * the panels leave free. */
	garnet_output_usable_box(output, &u);
	n = shell->placed_count++ % 4;
	x = u.x1 + (u.x2 - u.x1 - w) / 2 + n * step;
	y = u.y1 + (u.y2 - u.y1 - h) / 2 + n * step;
	if (x + w > u.x2)
		x = u.x2 - w;
	if (y + h > u.y2)
		y = u.y2 - h;
	if (x < u.x1)
		x = u.x1;
	if (y < u.y1)
		y = u.y1;
	tl->view.x = x - tl->geometry_x;
	tl->view.y = y - tl->geometry_y;
}

void garnet_shell_output_removed(struct garnet_shell *shell)
{
	struct garnet_output *first = garnet_compositor_first_output(shell->compositor);
	struct garnet_toplevel *tl;

	if (!first)
		return;
	wl_list_for_each(tl, &shell->toplevels, link) {
		if (!tl->mapped || output_at_centre(shell, tl))
			continue;
		if (tl->fullscreen) {
			tl->pending_width = first->width;
			tl->pending_height = first->height;
			garnet_shell_configure(tl);
		} else if (tl->maximized) {
			set_maximized_size(tl, first);
			garnet_shell_configure(tl);
		}
		garnet_view_move(&tl->view, first->x - tl->geometry_x, first->y - tl->geometry_y);
	}
}

void garnet_shell_usable_area_changed(struct garnet_shell *shell, struct garnet_output *output)
{
	struct garnet_toplevel *tl;
	pixman_box32_t u;

	garnet_output_usable_box(output, &u);
	wl_list_for_each(tl, &shell->toplevels, link) {
		if (!tl->mapped || !tl->maximized || tl->fullscreen || output_for(shell, tl) != output)
			continue;
		set_maximized_size(tl, output);
		garnet_shell_configure(tl);
		garnet_view_move(&tl->view, u.x1 - tl->geometry_x, u.y1 - tl->geometry_y);
	}
}

void garnet_shell_toplevel_map(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_surface *surface = tl->surface;

	tl->geometry_width = tl->geometry_width ? tl->geometry_width : surface->width;
	tl->geometry_height = tl->geometry_height ? tl->geometry_height : surface->height;
	if (!tl->placed) {
		place(shell, tl);
		tl->placed = true;
	}
	wl_list_remove(&tl->link);
	wl_list_insert(&shell->toplevels, &tl->link);
	garnet_focus_toplevel_mapped(shell, tl);
}

void garnet_shell_toplevel_unmap(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	if (shell->grabbing && shell->grab.toplevel == tl) {
		shell->grabbing = false;
		garnet_seat_end_grab(shell->compositor->seat);
	}
	garnet_view_remove(&tl->view);
	garnet_list_unlink(&tl->link);
	tl->placed = false;
	garnet_focus_toplevel_hidden(shell, tl);
}

void garnet_shell_toplevel_commit(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	struct garnet_output *output;
	struct garnet_surface_state *cur = &tl->surface->current;

	/* wl_surface.offset (or attach x, y before v5) moves the window's origin. */
	if (cur->dx || cur->dy)
		garnet_view_move(&tl->view, tl->view.x + cur->dx, tl->view.y + cur->dy);

	/* Keep the edge opposite to the one being dragged where it was. */
	if (shell->grabbing && shell->grab.toplevel == tl && shell->grab.edges) {
		int32_t x = tl->view.x, y = tl->view.y;

		if (shell->grab.edges & 4 /* left */)
			x = shell->grab.view_x + shell->grab.width - tl->geometry_width;
		if (shell->grab.edges & 1 /* top */)
			y = shell->grab.view_y + shell->grab.height - tl->geometry_height;
		garnet_view_move(&tl->view, x, y);
	}
	if (tl->maximized || tl->fullscreen) {
		pixman_box32_t u;

		output = output_for(shell, tl);
		if (output && tl->fullscreen)
			garnet_view_move(&tl->view, output->x - tl->geometry_x,
					 output->y - tl->geometry_y);
		else if (output) {
			garnet_output_usable_box(output, &u);
			garnet_view_move(&tl->view, u.x1 - tl->geometry_x, u.y1 - tl->geometry_y);
		}
	}
}

struct garnet_toplevel *garnet_shell_toplevel_for_surface(struct garnet_shell *shell,
							 struct garnet_surface *surface)
{
	struct garnet_surface *root = garnet_xdg_root_surface(surface);
	struct garnet_toplevel *tl = garnet_xdg_toplevel_from_surface(root);

	return tl ? tl : garnet_xwayland_toplevel_from_surface(root);
}

void garnet_shell_move_toplevel(struct garnet_shell *shell, struct garnet_surface *surface,
				int32_t x, int32_t y)
{
	struct garnet_toplevel *tl = garnet_shell_toplevel_for_surface(shell, surface);

	/* x, y is where the window is: its geometry, which may start inside the surface. */
	if (tl) {
		tl->placed = true;
		garnet_view_move(&tl->view, x - tl->geometry_x, y - tl->geometry_y);
	}
}

int garnet_compositor_window_count(struct garnet_compositor *c)
{
	struct garnet_toplevel *tl;
	int n = 0;

	wl_list_for_each(tl, &c->shell->toplevels, link)
		n += tl->mapped && !tl->minimized;
	return n;
}

/* ---- interactive move and resize ---- */

static void grab_motion(struct garnet_pointer_grab *base, uint32_t time)
{
	struct move_grab *grab = wl_container_of(base, grab, base);
	struct garnet_seat *seat = base->seat;
	struct garnet_toplevel *tl = grab->toplevel;
	int32_t dx = (int32_t)(seat->x - grab->start_x), dy = (int32_t)(seat->y - grab->start_y);
	int32_t w = grab->width, h = grab->height;

	if (!grab->edges) {
		garnet_view_move(&tl->view, grab->view_x + dx, grab->view_y + dy);
		return;
	}
	if (grab->edges & 4)
		w -= dx;
	if (grab->edges & 8)
		w += dx;
	if (grab->edges & 1)
		h -= dy;
	if (grab->edges & 2)
		h += dy;
	if (w < (tl->min_width > 0 ? tl->min_width : 1))
		w = tl->min_width > 0 ? tl->min_width : 1;
	if (h < (tl->min_height > 0 ? tl->min_height : 1))
		h = tl->min_height > 0 ? tl->min_height : 1;
	if (tl->max_width > 0 && w > tl->max_width)
		w = tl->max_width;
	if (tl->max_height > 0 && h > tl->max_height)
		h = tl->max_height;
	tl->pending_width = w;
	tl->pending_height = h;
	garnet_shell_configure(tl);
}

static void grab_end(struct garnet_shell *shell)
{
	struct garnet_toplevel *tl = shell->grab.toplevel;

	shell->grabbing = false;
	if (tl->resizing) {
		tl->resizing = false;
		garnet_shell_configure(tl);
	}
	garnet_seat_end_grab(shell->compositor->seat);
}

static void grab_button(struct garnet_pointer_grab *base, uint32_t time, uint32_t button,
			bool pressed)
{
	struct move_grab *grab = wl_container_of(base, grab, base);

	if (!pressed && base->seat->button_count == 0)
		grab_end(grab->shell);
}

static void grab_axis(struct garnet_pointer_grab *base, uint32_t time, uint32_t axis,
		      double value)
{
}

static void grab_cancel(struct garnet_pointer_grab *base)
{
	struct move_grab *grab = wl_container_of(base, grab, base);

	grab->shell->grabbing = false;
	grab->toplevel->resizing = false;
}

static const struct garnet_pointer_grab_impl move_grab_impl = {
	.motion = grab_motion,
	.button = grab_button,
	.axis = grab_axis,
	.cancel = grab_cancel,
};

static bool start_grab(struct garnet_shell *shell, struct garnet_toplevel *tl, uint32_t serial,
		       uint32_t edges)
{
	struct garnet_seat *seat = shell->compositor->seat;

	/* Only while the button whose press carried this serial is held on this window. */
	if (seat->button_count == 0 || serial != seat->grab_serial || shell->grabbing ||
	    !seat->pointer_focus || garnet_shell_toplevel_for_surface(shell, seat->pointer_focus) != tl)
		return false;
	shell->grab = (struct move_grab){
		.base = {.impl = &move_grab_impl},
		.shell = shell,
		.toplevel = tl,
		.start_x = seat->x,
		.start_y = seat->y,
		.view_x = tl->view.x,
		.view_y = tl->view.y,
		.width = tl->geometry_width,
		.height = tl->geometry_height,
		.edges = edges,
	};
	shell->grabbing = true;
	garnet_seat_set_pointer_focus(seat, NULL, 0, 0);
	garnet_seat_start_grab(seat, &shell->grab.base);
	return true;
}

void garnet_shell_request_move(struct garnet_shell *shell, struct garnet_toplevel *tl,
			       uint32_t serial)
{
	if (!tl->maximized && !tl->fullscreen)
		start_grab(shell, tl, serial, 0);
}

void garnet_shell_request_resize(struct garnet_shell *shell, struct garnet_toplevel *tl,
				 uint32_t serial, uint32_t edges)
{
	if (tl->maximized || tl->fullscreen || !edges)
		return;
	if (start_grab(shell, tl, serial, edges)) {
		tl->resizing = true;
		tl->pending_width = tl->geometry_width;
		tl->pending_height = tl->geometry_height;
		garnet_shell_configure(tl);
	}
}

/* ---- window states ---- */

static void save_geometry(struct garnet_toplevel *tl)
{
	if (tl->maximized || tl->fullscreen)
		return;
	tl->saved_x = tl->view.x;
	tl->saved_y = tl->view.y;
	tl->saved_width = tl->geometry_width;
	tl->saved_height = tl->geometry_height;
}

static void restore_geometry(struct garnet_toplevel *tl)
{
	tl->pending_width = tl->saved_width;
	tl->pending_height = tl->saved_height;
	if (tl->view.in_layer)
		garnet_view_move(&tl->view, tl->saved_x, tl->saved_y);
	else {
		tl->view.x = tl->saved_x;
		tl->view.y = tl->saved_y;
	}
}

void garnet_shell_set_maximized(struct garnet_shell *shell, struct garnet_toplevel *tl,
				bool maximized)
{
	struct garnet_output *output = output_for(shell, tl);

	if (tl->fullscreen || !output) {
		garnet_shell_configure(tl);
		return;
	}
	if (maximized && !tl->maximized) {
		save_geometry(tl);
		tl->maximized = true;
		set_maximized_size(tl, output);
	} else if (!maximized && tl->maximized) {
		tl->maximized = false;
		restore_geometry(tl);
	}
	/* Every request gets an answer, even one that changes nothing. */
	garnet_shell_configure(tl);
}

void garnet_shell_set_fullscreen(struct garnet_shell *shell, struct garnet_toplevel *tl,
				 bool fullscreen, struct garnet_output *output)
{
	if (!output)
		output = output_for(shell, tl);
	if (!output) {
		garnet_shell_configure(tl);
		return;
	}
	if (fullscreen && !tl->fullscreen) {
		save_geometry(tl);
		tl->fullscreen = true;
		tl->pending_width = output->width;
		tl->pending_height = output->height;
		if (tl->view.in_layer)
			garnet_view_raise(&tl->view, GARNET_LAYER_FULLSCREEN);
	} else if (!fullscreen && tl->fullscreen) {
		tl->fullscreen = false;
		if (tl->maximized) {
			set_maximized_size(tl, output);
		} else {
			restore_geometry(tl);
		}
		if (tl->view.in_layer)
			garnet_view_raise(&tl->view, GARNET_LAYER_NORMAL);
	}
	garnet_shell_configure(tl);
}

void garnet_shell_set_minimized(struct garnet_shell *shell, struct garnet_toplevel *tl)
{
	if (tl->minimized)
		return;
	tl->minimized = true;
	garnet_view_remove(&tl->view);
	/* A minimized window goes to the back of the focus order. */
	wl_list_remove(&tl->link);
	wl_list_insert(shell->toplevels.prev, &tl->link);
	garnet_focus_toplevel_hidden(shell, tl);
}
