// SPDX-License-Identifier: MIT
// garnet_panel_v1: the panel's launcher buttons and lock button. The launchers' commands are
// the embedder's (garnet.ini's [panel] section) and never leave garnet: the panel hears the
// names and asks by name, so a client cannot make garnet run a command of its choosing. The
// global is privileged: the policy says who is the panel.
#include <stdlib.h>
#include <string.h>

#include "../core/compositor.h"
#include "../core/lifetime.h"
#include "client-protocols.h"
#include "garnet-panel-v1-server-protocol.h"

struct panel_launcher {
	char *name, *command;
	struct wl_list link; /* panel_state.launchers */
};

/* A launch at most this often: each is a new process, and a panel gone wrong (or taken over)
 * sending launch in a loop must not fork garnet's user into the ground. A person's clicks are
 * slower than this. */
#define LAUNCH_INTERVAL_MSEC 500

struct panel_state {
	struct garnet_compositor *compositor;
	struct wl_list launchers; /* panel_launcher.link, in the configuration's order */
	struct wl_listener compositor_destroy;
	uint32_t last_launch_msec;
	bool launched, dropping; /* dropping: a drop was logged since the last launch */
};

static void state_compositor_destroy(struct wl_listener *listener, void *data);

/* The state hangs off the compositor's destroy signal; finding it there keeps the core's
 * struct free of one more protocol's field. */
static struct panel_state *state_of(struct garnet_compositor *c)
{
	struct wl_listener *l = wl_signal_get(&c->events.destroy, state_compositor_destroy);
	struct panel_state *p;

	return l ? wl_container_of(l, p, compositor_destroy) : NULL;
}

static struct panel_launcher *find_launcher(struct panel_state *p, const char *name)
{
	struct panel_launcher *l;

	wl_list_for_each (l, &p->launchers, link) {
		if (strcmp(l->name, name) == 0)
			return l;
	}
	return NULL;
}

static void manager_launch(struct wl_client *client, struct wl_resource *resource, const char *name)
{
	struct panel_state *p = wl_resource_get_user_data(resource);
	struct panel_launcher *l = find_launcher(p, name);
	uint32_t now;
	pid_t pid = 0;

	if (!l) {
		wl_resource_post_error(resource, GARNET_PANEL_MANAGER_V1_ERROR_UNKNOWN_LAUNCHER,
				       "no launcher named '%.80s'", name);
		return;
	}
	wl_client_get_credentials(client, &pid, NULL, NULL);
	if (p->compositor->locked) {
		garnet_log(p->compositor, GARNET_LOG_WARNING, "panel",
			   "denied: panel pid %d asked to launch %s while the session is locked",
			   (int)pid, l->name);
		return;
	}
	now = garnet_now_msec(p->compositor);
	if (p->launched && now - p->last_launch_msec < LAUNCH_INTERVAL_MSEC) {
		if (!p->dropping)
			garnet_log(p->compositor, GARNET_LOG_WARNING, "panel",
				   "panel pid %d launches faster than one every %d ms: %s and "
				   "what follows it within that time are not started",
				   (int)pid, LAUNCH_INTERVAL_MSEC, l->name);
		p->dropping = true;
		return;
	}
	p->launched = true;
	p->dropping = false;
	p->last_launch_msec = now;
	garnet_log(p->compositor, GARNET_LOG_INFO, "panel", "panel pid %d launches %s", (int)pid,
		   l->name);
	garnet_compositor_spawn(p->compositor, l->command);
}

static void manager_lock(struct wl_client *client, struct wl_resource *resource)
{
	struct panel_state *p = wl_resource_get_user_data(resource);

	if (!p->compositor->locked)
		garnet_compositor_lock_session(p->compositor, "the panel's lock button");
}

static const struct garnet_panel_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.launch = manager_launch,
	.lock = manager_lock,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct panel_state *p = data;
	struct panel_launcher *l;
	struct wl_resource *resource;

	if (!garnet_global_check_bind(p->compositor, client, &garnet_panel_manager_v1_interface))
		return;
	resource = garnet_resource_create(client, &garnet_panel_manager_v1_interface, (int)version,
					  id, &manager_impl, p, NULL);
	if (!resource)
		return;
	wl_list_for_each (l, &p->launchers, link)
		garnet_panel_manager_v1_send_launcher(resource, l->name);
	garnet_panel_manager_v1_send_done(resource);
}

static void launcher_free(struct panel_launcher *l)
{
	wl_list_remove(&l->link);
	free(l->name);
	free(l->command);
	free(l);
}

/* Clients, and with them every manager resource, are gone by now. */
static void state_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct panel_state *p = wl_container_of(listener, p, compositor_destroy);
	struct panel_launcher *l, *tmp;

	wl_list_for_each_safe (l, tmp, &p->launchers, link)
		launcher_free(l);
	wl_list_remove(&p->compositor_destroy.link);
	free(p);
}

bool garnet_panel_init(struct garnet_compositor *c)
{
	struct panel_state *p = calloc(1, sizeof(*p));

	if (!p)
		return false;
	p->compositor = c;
	wl_list_init(&p->launchers);
	if (!garnet_global_create(c, &garnet_panel_manager_v1_interface, 1, p, manager_bind,
				  true)) {
		free(p);
		return false;
	}
	p->compositor_destroy.notify = state_compositor_destroy;
	wl_signal_add(&c->events.destroy, &p->compositor_destroy);
	return true;
}

bool garnet_compositor_add_panel_launcher(struct garnet_compositor *c, const char *name,
					  const char *command)
{
	struct panel_state *p = state_of(c);
	struct panel_launcher *l;

	if (!p || !*name || !*command || find_launcher(p, name))
		return false;
	l = calloc(1, sizeof(*l));
	if (!l)
		return false;
	l->name = strdup(name);
	l->command = strdup(command);
	if (!l->name || !l->command) {
		free(l->name);
		free(l->command);
		free(l);
		return false;
	}
	wl_list_insert(p->launchers.prev, &l->link);
	return true;
}
