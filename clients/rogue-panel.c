// SPDX-License-Identifier: MIT
// garnet-rogue panel-launch: garnet_panel_v1 from the client side. A client wants garnet to
// run a command of its choosing by passing it where a launcher's name goes; started as the
// panel it is the trusted one, which still can only name what garnet.ini configured.
#include <stdio.h>
#include <string.h>

#include "garnet-panel-v1-client-protocol.h"
#include "rogue-ignore.h"
#include "rogue.h"

static void on_launcher(void *data, struct garnet_panel_manager_v1 *m, const char *name)
{
	fprintf(data, "launcher %s\n", name);
}

static void on_done(void *data, struct garnet_panel_manager_v1 *m)
{
	fprintf(data, "done\n");
}

static const struct garnet_panel_manager_v1_listener panel_listener = {on_launcher, on_done};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct garnet_panel_manager_v1 **manager = data;

	if (strcmp(interface, garnet_panel_manager_v1_interface.name) == 0)
		*manager = wl_registry_bind(r, name, &garnet_panel_manager_v1_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

/* panel-launch FILE NAME [COUNT]: asks garnet to launch NAME (a command, where a launcher's
 * name belongs; or a launcher's own name), COUNT times in a row (a flood; 1 unless told);
 * writes "no-global", or the launchers garnet named and how the connection stands after the
 * requests, to FILE. Stays until killed while connected (a launched client that exits is
 * restarted). 1 when the requests were taken without an error. */
int rogue_panel_launch(const char *path, const char *name, int count)
{
	struct wl_display *display = rogue_connect();
	struct garnet_panel_manager_v1 *manager = NULL;
	FILE *out = fopen(path, "w");
	int err;

	if (!out)
		return 2;
	setvbuf(out, NULL, _IOLBF, 0);
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &manager);
	wl_display_roundtrip(display);
	if (!manager) {
		fprintf(out, "no-global\n");
		fclose(out);
		return 0;
	}
	garnet_panel_manager_v1_add_listener(manager, &panel_listener, out);
	wl_display_roundtrip(display);
	/* Round trips now and then, so the requests never outgrow the socket's buffer. */
	for (int i = 0; i < count; i++) {
		garnet_panel_manager_v1_launch(manager, name);
		if (i % 64 == 63)
			wl_display_roundtrip(display);
	}
	wl_display_roundtrip(display);
	err = wl_display_get_error(display);
	fprintf(out, "asked\n%s\n", err ? "protocol-error" : "connected");
	fclose(out);
	if (!err)
		while (wl_display_dispatch(display) >= 0)
			;
	return err ? 0 : 1;
}
