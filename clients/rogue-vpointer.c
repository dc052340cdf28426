// SPDX-License-Identifier: MIT
// garnet-rogue vpointer: zwlr_virtual_pointer_v1 from the client side. An ordinary client wants
// to move the user's pointer and click wherever it likes (a button of another window, a
// dialog); started as the on-screen keyboard it is the trusted one.
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/input-event-codes.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

struct vpointer {
	struct wl_seat *seat;
	struct zwlr_virtual_pointer_manager_v1 *manager;
};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct vpointer *v = data;

	if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
		v->manager =
			wl_registry_bind(r, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
	else if (strcmp(interface, wl_seat_interface.name) == 0 && !v->seat)
		v->seat = wl_registry_bind(r, name, &wl_seat_interface, 1);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

/* vpointer FILE X Y WIDTH HEIGHT: once file FILE.go exists (or after 30 s), puts the pointer
 * at X,Y of a WIDTH x HEIGHT desktop and clicks the left button; writes "no-global" or
 * "clicked" and how the connection stands to FILE (a launched client has no shell to redirect
 * its output). 1 when the click was sent on a connection that stood. */
int rogue_vpointer(const char *path, uint32_t x, uint32_t y, uint32_t width, uint32_t height)
{
	struct vpointer v = {0};
	struct wl_display *display = rogue_connect();
	struct zwlr_virtual_pointer_v1 *vp;
	FILE *out = fopen(path, "w");
	char go[4096];
	int err;

	if (!out)
		return 2;
	snprintf(go, sizeof(go), "%s.go", path);
	for (int i = 0; i < 600 && access(go, F_OK) != 0; i++)
		usleep(50000);
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &v);
	wl_display_roundtrip(display);
	if (!v.manager) {
		fprintf(out, "no-global\n");
		fclose(out);
		return 0;
	}
	vp = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(v.manager, v.seat);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, x, y, width, height);
	zwlr_virtual_pointer_v1_frame(vp);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	zwlr_virtual_pointer_v1_frame(vp);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_frame(vp);
	wl_display_roundtrip(display);
	err = wl_display_get_error(display);
	fprintf(out, "clicked\n%s\n", err ? "protocol-error" : "connected");
	fclose(out);
	/* Stays until killed, as a launched client must not exit at once (it would be
	 * restarted). */
	if (!err)
		while (wl_display_dispatch(display) >= 0)
			;
	return err ? 0 : 1;
}
