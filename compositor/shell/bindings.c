// SPDX-License-Identifier: MIT
// The key bindings from garnet.ini (shell layer): checked when the file is read, matched
// against each key press before any client sees it, and the actions they run.
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "../protocols/toplevel.h"
#include "../protocols/shortcuts.h"
#include "../protocols/portal.h"
#include "../core/cast-indicator.h"
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
	ACTION_STOP_CASTS,
	ACTION_SHOW_CASTS,
};

struct binding {
	uint32_t modifiers; /* xkb modifier mask */
	xkb_keysym_t keysym;
	enum binding_action action;
	char *argument;
	struct wl_list link;
};

void garnet_shell_bindings_finish(struct garnet_shell *shell)
{
	struct binding *b, *tmp;

	wl_list_for_each_safe(b, tmp, &shell->bindings, link) {
		wl_list_remove(&b->link);
		free(b->argument);
		free(b);
	}
}

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
		[ACTION_STOP_CASTS] = "stop-casts", [ACTION_SHOW_CASTS] = "show-casts",
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
			 "maximize, fullscreen, minimize, quit, stop-casts, show-casts)",
			 action);
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
	/* A word after an action that takes none is a mistake the user should hear of. */
	if (*act != ACTION_EXEC && *act != ACTION_LAUNCH && *act != ACTION_SHORTCUT &&
	    argument && *argument) {
		snprintf(error, error_size, "%s takes no argument", action);
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
	case ACTION_STOP_CASTS:
		garnet_portal_stop_all(c);
		break;
	case ACTION_SHOW_CASTS:
		garnet_cast_indicator_show_list(c);
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

/* The user can always lock, quit, see and stop every screen cast, whatever the focused client
 * asked: garnet's own lock, the launch of the trusted locker (a lock too), quit and
 * stop-casts are never a shortcuts inhibitor's. */
static bool beyond_inhibitors(const struct binding *b)
{
	return b->action == ACTION_LOCK || b->action == ACTION_QUIT ||
	       b->action == ACTION_STOP_CASTS || b->action == ACTION_SHOW_CASTS ||
	       (b->action == ACTION_LAUNCH && strcmp(b->argument, "lock-screen") == 0);
}

bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed)
{
	struct garnet_seat *seat = shell->compositor->seat;
	const xkb_keysym_t *syms;
	uint32_t mods = (seat->mods_depressed | seat->mods_latched) &
			(seat->mask_super | seat->mask_alt | seat->mask_ctrl | seat->mask_shift);
	bool inhibited = seat->shortcuts_inhibited &&
			 seat->shortcuts_inhibited(seat->shortcuts_inhibit_data);
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
		if (inhibited && !beyond_inhibitors(b))
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
