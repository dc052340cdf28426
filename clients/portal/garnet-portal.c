// SPDX-License-Identifier: MIT
// garnet-portal: xdg-desktop-portal's ScreenCast and Screenshot backend for garnet. garnet
// starts it (garnet.ini [launcher] portal=garnet-portal) over a connection that makes it the
// portal entry, the only client garnet_portal_v1 is offered to. It decides nothing: garnet
// asks the policy and the user for each application and sends the frames; this program
// carries them to PipeWire and the answers to the portal frontend.
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>

#include "portal.h"
#include "garnet-portal-v1-client-protocol.h"

/* Requests and replies made by any handler leave before the loop sleeps. */
static void before_sleep(void *data)
{
	struct portal *p = data;

	wl_display_flush(p->display);
	portal_dbus_dispatch(p);
}

static const struct spa_loop_control_hooks loop_hooks = {
	SPA_VERSION_LOOP_CONTROL_HOOKS,
	.before = before_sleep,
};

static void on_signal(void *data, int signal_number)
{
	pw_main_loop_quit(((struct portal *)data)->main_loop);
}

int main(int argc, char **argv)
{
	struct portal p = {.drm_fd = -1};
	struct spa_hook hook;
	int status = 1;

	pw_init(&argc, &argv);
	wl_list_init(&p.sessions);
	p.main_loop = pw_main_loop_new(NULL);
	if (!p.main_loop)
		return 1;
	p.loop = pw_main_loop_get_loop(p.main_loop);
	pw_loop_add_signal(p.loop, SIGTERM, on_signal, &p);
	pw_loop_add_signal(p.loop, SIGINT, on_signal, &p);
	p.pw_context = pw_context_new(p.loop, NULL, 0);
	p.pw_core = p.pw_context ? pw_context_connect(p.pw_context, NULL, 0) : NULL;
	if (!p.pw_core) {
		fprintf(stderr, "garnet-portal: cannot connect to PipeWire\n");
		goto out;
	}
	if (!portal_wayland_init(&p) || !portal_dbus_init(&p))
		goto out;
	pw_loop_add_hook(p.loop, &hook, &loop_hooks, &p);
	pw_main_loop_run(p.main_loop);
	status = 0;
out:
	portal_dbus_fini(&p);
	if (p.bus)
		sd_bus_flush_close_unref(p.bus);
	if (p.drm_fd >= 0)
		close(p.drm_fd);
	if (p.display)
		wl_display_disconnect(p.display);
	if (p.pw_core)
		pw_core_disconnect(p.pw_core);
	if (p.pw_context)
		pw_context_destroy(p.pw_context);
	pw_main_loop_destroy(p.main_loop);
	pw_deinit();
	/* Said last: a run that crashed on the way out never says it (the portal test looks). */
	fprintf(stderr, "garnet-portal: exits\n");
	return status;
}
