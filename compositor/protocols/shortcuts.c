// SPDX-License-Identifier: MIT
// garnet_shortcuts_v1: global shortcuts by meaning. A client asks for an action (play-pause);
// garnet.ini's [shortcuts] section says which key triggers it; the client hears only that it
// was triggered. It never names a key and never receives one, so the protocol cannot log keys.
// Each action is a libwmac global-shortcut decision and has one holder at a time.
#include <stdlib.h>
#include <string.h>

#include "../core/compositor.h"
#include "shortcuts.h"
#include "../core/shell-hooks.h"
#include "client-protocols.h"
#include "garnet-shortcuts-v1-server-protocol.h"

#define MAX_ACTION 64

static const char *const known_actions[] = {
	"play-pause",	  "play",	  "pause",	 "stop",	  "next-track",
	"previous-track", "volume-up",	  "volume-down", "mute",	  "mic-mute",
	"brightness-up",  "brightness-down",
};

struct shortcuts {
	struct garnet_compositor *compositor;
	struct wl_list held; /* shortcut.link: bound ones */
	struct wl_listener compositor_destroy;
};

struct shortcut {
	struct wl_resource *resource;
	char action[MAX_ACTION + 1];
	struct wl_list link; /* in shortcuts.held once bound, else its own */
};

/* [a-z][a-z0-9-]*, at most MAX_ACTION bytes: an action, never a key or a combination. */
static bool is_action_name(const char *name)
{
	size_t len = strlen(name);

	if (len == 0 || len > MAX_ACTION || name[0] < 'a' || name[0] > 'z')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'))
			return false;
	}
	return true;
}

static bool is_known(const char *action)
{
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(known_actions); i++) {
		if (strcmp(known_actions[i], action) == 0)
			return true;
	}
	return false;
}

static struct shortcut *holder(struct shortcuts *m, const char *action)
{
	struct shortcut *s;

	wl_list_for_each(s, &m->held, link) {
		if (strcmp(s->action, action) == 0)
			return s;
	}
	return NULL;
}

bool garnet_shortcut_fire(struct garnet_compositor *c, const char *action, uint32_t time_msec)
{
	struct shortcut *s = c->shortcuts ? holder(c->shortcuts, action) : NULL;

	if (!s)
		return false;
	garnet_shortcut_v1_send_activated(s->resource, time_msec);
	return true;
}

static const struct garnet_shortcut_v1_interface shortcut_impl = {
	.destroy = garnet_resource_destroy_request,
};

static void shortcut_resource_destroy(struct wl_resource *resource)
{
	struct shortcut *s = wl_resource_get_user_data(resource);

	wl_list_remove(&s->link);
	free(s);
}

static void manager_register(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			     const char *action)
{
	struct shortcuts *m = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = m->compositor;
	struct shortcut *s;
	char trigger[64];
	int refusal = -1;

	if (!is_action_name(action)) {
		wl_resource_post_error(resource, GARNET_SHORTCUTS_MANAGER_V1_ERROR_INVALID_ACTION,
				       "'%.80s' is not an action name", action);
		return;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		wl_client_post_no_memory(client);
		return;
	}
	s->resource = wl_resource_create(client, &garnet_shortcut_v1_interface,
					 wl_resource_get_version(resource), id);
	if (!s->resource) {
		free(s);
		wl_client_post_no_memory(client);
		return;
	}
	snprintf(s->action, sizeof(s->action), "%s", action);
	wl_list_init(&s->link);
	wl_resource_set_implementation(s->resource, &shortcut_impl, s, shortcut_resource_destroy);
	if (!is_known(action))
		refusal = GARNET_SHORTCUT_V1_REFUSAL_UNKNOWN_ACTION;
	else if (!c->shell_hooks->shortcut_trigger(c->shell, action, trigger, sizeof(trigger)))
		refusal = GARNET_SHORTCUT_V1_REFUSAL_NOT_CONFIGURED;
	else if (c->hooks.global_shortcut &&
		 !c->hooks.global_shortcut(c->hooks.data, client, action))
		refusal = GARNET_SHORTCUT_V1_REFUSAL_DENIED;
	else if (holder(m, action))
		refusal = GARNET_SHORTCUT_V1_REFUSAL_TAKEN;
	if (refusal >= 0) {
		garnet_shortcut_v1_send_refused(s->resource, (uint32_t)refusal);
		return;
	}
	wl_list_insert(&m->held, &s->link);
	garnet_shortcut_v1_send_bound(s->resource, trigger);
}

static const struct garnet_shortcuts_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.register_action = manager_register,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource = wl_resource_create(
		client, &garnet_shortcuts_manager_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

/* Clients, and with them every shortcut, are gone by now. */
static void manager_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct shortcuts *m = wl_container_of(listener, m, compositor_destroy);

	m->compositor->shortcuts = NULL;
	wl_list_remove(&m->compositor_destroy.link);
	free(m);
}

bool garnet_shortcuts_init(struct garnet_compositor *c)
{
	struct shortcuts *m = calloc(1, sizeof(*m));

	if (!m)
		return false;
	m->compositor = c;
	wl_list_init(&m->held);
	if (!garnet_global_create(c, &garnet_shortcuts_manager_v1_interface, 1, m, manager_bind,
				  false)) {
		free(m);
		return false;
	}
	c->shortcuts = m;
	m->compositor_destroy.notify = manager_compositor_destroy;
	wl_signal_add(&c->events.destroy, &m->compositor_destroy);
	return true;
}
