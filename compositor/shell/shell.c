// SPDX-License-Identifier: MIT
// The desktop shell: placing new windows, focus (click to focus, raise on focus), interactive
// move and resize, maximize, fullscreen, minimize, and the key bindings from garnet.ini.
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
#include "shell.h"
#include "focus.h"
#include "shell-private.h"

enum binding_action {
	ACTION_EXEC,
	ACTION_CLOSE,
	ACTION_CYCLE,
	ACTION_MAXIMIZE,
	ACTION_FULLSCREEN,
	ACTION_MINIMIZE,
	ACTION_QUIT,
	ACTION_LAUNCH,
	ACTION_SHORTCUT,
	ACTION_LOCK,
};

struct binding {
	uint32_t modifiers; /* xkb modifier mask */
	xkb_keysym_t keysym;
	enum binding_action action;
	char *argument;
	struct wl_list link;
};

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
	struct binding *b, *tmp;

	if (!shell)
		return;
	shell->compositor->shell_hooks = NULL;
	wl_list_for_each_safe(b, tmp, &shell->bindings, link) {
		wl_list_remove(&b->link);
		free(b->argument);
		free(b);
	}
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
	return garnet_xdg_toplevel_from_surface(garnet_xdg_root_surface(surface));
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

/* ---- bindings ---- */

/* The modifier mask of "super+shift"; with no seat, only the names are checked. */
static bool parse_modifiers(struct garnet_seat *seat, const char *text, uint32_t *mask,
			    char *error, size_t size)
{
	char copy[128], *name, *save;

	*mask = 0;
	snprintf(copy, sizeof(copy), "%s", text ? text : "");
	for (name = strtok_r(copy, "+", &save); name; name = strtok_r(NULL, "+", &save)) {
		if (strcasecmp(name, "super") == 0 || strcasecmp(name, "logo") == 0)
			*mask |= seat ? seat->mask_super : 0;
		else if (strcasecmp(name, "alt") == 0)
			*mask |= seat ? seat->mask_alt : 0;
		else if (strcasecmp(name, "ctrl") == 0 || strcasecmp(name, "control") == 0)
			*mask |= seat ? seat->mask_ctrl : 0;
		else if (strcasecmp(name, "shift") == 0)
			*mask |= seat ? seat->mask_shift : 0;
		else {
			snprintf(error, size, "unknown modifier '%s' (super, alt, ctrl, shift)",
				 name);
			return false;
		}
	}
	return true;
}

/* Everything about a binding but what only a seat knows; its keysym and action on success. */
static bool check_binding(struct garnet_seat *seat, const char *modifiers, const char *key,
			  const char *action, const char *argument, uint32_t *mask,
			  xkb_keysym_t *sym, enum binding_action *act, char *error,
			  size_t error_size)
{
	static const char *const actions[] = {
		[ACTION_EXEC] = "exec",		[ACTION_CLOSE] = "close",
		[ACTION_CYCLE] = "cycle",	[ACTION_MAXIMIZE] = "maximize",
		[ACTION_FULLSCREEN] = "fullscreen", [ACTION_MINIMIZE] = "minimize",
		[ACTION_QUIT] = "quit",		[ACTION_LAUNCH] = "launch",
		[ACTION_SHORTCUT] = "shortcut",	[ACTION_LOCK] = "lock",
	};
	int found = -1;

	*sym = xkb_keysym_from_name(key, XKB_KEYSYM_NO_FLAGS);
	if (*sym == XKB_KEY_NoSymbol)
		*sym = xkb_keysym_from_name(key, XKB_KEYSYM_CASE_INSENSITIVE);
	if (*sym == XKB_KEY_NoSymbol) {
		snprintf(error, error_size, "unknown key '%s' (an xkb keysym name)", key);
		return false;
	}
	if (!parse_modifiers(seat, modifiers, mask, error, error_size))
		return false;
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(actions); i++) {
		if (strcmp(action, actions[i]) == 0)
			found = (int)i;
	}
	if (found < 0) {
		snprintf(error, error_size,
			 "unknown action '%s' (exec, launch, shortcut, lock, close, cycle, "
			 "maximize, fullscreen, minimize, quit)", action);
		return false;
	}
	*act = (enum binding_action)found;
	if (*act == ACTION_EXEC && (!argument || !*argument)) {
		snprintf(error, error_size, "exec needs a command");
		return false;
	}
	if ((*act == ACTION_LAUNCH || *act == ACTION_SHORTCUT) &&
	    (!argument || !*argument || strchr(argument, ' '))) {
		snprintf(error, error_size, "%s needs one name", action);
		return false;
	}
	return true;
}

bool garnet_binding_check(const char *modifiers, const char *key, const char *action,
			  const char *argument, char *error, size_t error_size)
{
	uint32_t mask;
	xkb_keysym_t sym;
	enum binding_action act;

	return check_binding(NULL, modifiers, key, action, argument, &mask, &sym, &act, error,
			     error_size);
}

void garnet_compositor_set_launch_handler(struct garnet_compositor *c,
					  bool (*launch)(void *data, const char *entry), void *data)
{
	c->launch = launch;
	c->launch_data = data;
}

bool garnet_compositor_add_binding(struct garnet_compositor *c, const char *modifiers,
				   const char *key, const char *action, const char *argument,
				   char *error, size_t error_size)
{
	struct binding *b;
	xkb_keysym_t sym;
	uint32_t mask;
	enum binding_action act;

	if (!check_binding(c->seat, modifiers, key, action, argument, &mask, &sym, &act, error,
			   error_size))
		return false;
	b = calloc(1, sizeof(*b));
	if (!b) {
		snprintf(error, error_size, "out of memory");
		return false;
	}
	b->modifiers = mask;
	b->keysym = xkb_keysym_to_lower(sym);
	b->action = act;
	b->argument = argument ? strdup(argument) : NULL;
	wl_list_insert(c->shell->bindings.prev, &b->link);
	return true;
}

static void run_action(struct garnet_shell *shell, struct binding *b)
{
	struct garnet_compositor *c = shell->compositor;
	struct garnet_toplevel *tl = shell->focused, *last;

	switch (b->action) {
	case ACTION_EXEC:
		garnet_compositor_spawn(c, b->argument);
		break;
	case ACTION_CLOSE:
		if (tl)
			tl->impl->close(tl);
		break;
	case ACTION_CYCLE:
		if (!wl_list_empty(&shell->toplevels)) {
			last = wl_container_of(shell->toplevels.prev, last, link);
			if (last != tl && last->mapped)
				garnet_shell_focus(shell, last);
		}
		break;
	case ACTION_MAXIMIZE:
		if (tl)
			garnet_shell_set_maximized(shell, tl, !tl->maximized);
		break;
	case ACTION_FULLSCREEN:
		if (tl)
			garnet_shell_set_fullscreen(shell, tl, !tl->fullscreen, NULL);
		break;
	case ACTION_MINIMIZE:
		if (tl)
			garnet_shell_set_minimized(shell, tl);
		break;
	case ACTION_QUIT:
		garnet_log(c, GARNET_LOG_INFO, "shell", "quit binding: shutting down");
		garnet_compositor_terminate(c);
		break;
	case ACTION_SHORTCUT:
		break; /* fired in garnet_shell_handle_key, which must know if anyone took it */
	case ACTION_LOCK:
		garnet_compositor_lock_session(c, "the lock binding");
		break;
	case ACTION_LAUNCH:
		if (c->launch)
			c->launch(c->launch_data, b->argument);
		else
			garnet_log(c, GARNET_LOG_WARNING, "shell",
				   "launch %s: nothing starts trusted programs here", b->argument);
		break;
	}
}

static bool swallowed(struct garnet_shell *shell, uint32_t key, bool remove)
{
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(shell->swallowed_keys); i++) {
		if (shell->swallowed_keys[i] == key + 1) {
			if (remove)
				shell->swallowed_keys[i] = 0;
			return true;
		}
	}
	return false;
}

const char *garnet_shell_shortcut_trigger(struct garnet_shell *shell, const char *action,
					  char *out, size_t size)
{
	struct binding *b;

	wl_list_for_each(b, &shell->bindings, link) {
		if (b->action == ACTION_SHORTCUT && strcmp(b->argument, action) == 0) {
			xkb_keysym_get_name(b->keysym, out, size);
			return out;
		}
	}
	return NULL;
}

bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed)
{
	struct garnet_seat *seat = shell->compositor->seat;
	const xkb_keysym_t *syms;
	uint32_t mods = (seat->mods_depressed | seat->mods_latched) &
			(seat->mask_super | seat->mask_alt | seat->mask_ctrl | seat->mask_shift);
	struct binding *b;
	int n;

	if (!pressed)
		return swallowed(shell, key, true);
	/* The unshifted symbol of the key, so shift+q matches a binding on q. */
	n = xkb_keymap_key_get_syms_by_level(seat->keymap, key + 8, 0, 0, &syms);
	if (n < 1)
		return false;
	wl_list_for_each(b, &shell->bindings, link) {
		if (b->modifiers != mods || b->keysym != xkb_keysym_to_lower(syms[0]))
			continue;
		/* A shortcut nobody holds leaves the key to the focused client. */
		if (b->action == ACTION_SHORTCUT &&
		    !garnet_shortcut_fire(shell->compositor, b->argument,
					  garnet_now_msec(shell->compositor)))
			continue;
		for (size_t i = 0; i < GARNET_ARRAY_LENGTH(shell->swallowed_keys); i++) {
			if (!shell->swallowed_keys[i]) {
				shell->swallowed_keys[i] = key + 1;
				break;
			}
		}
		run_action(shell, b);
		return true;
	}
	return false;
}
