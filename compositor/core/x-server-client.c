// SPDX-License-Identifier: MIT
// The mark of an X server client (x-server-client.h): a destroy listener of its own notify
// function, so it goes with the client and needs no list.
#include <stdlib.h>
#include <wayland-server-core.h>

#include "x-server-client.h"

static void x_server_gone(struct wl_listener *listener, void *data)
{
	(void)data;
	wl_list_remove(&listener->link);
	free(listener);
}

bool garnet_client_mark_x_server(struct wl_client *client)
{
	struct wl_listener *mark;

	if (garnet_client_is_x_server(client))
		return true;
	mark = calloc(1, sizeof(*mark));
	if (!mark)
		return false;
	mark->notify = x_server_gone;
	wl_client_add_destroy_listener(client, mark);
	return true;
}

bool garnet_client_is_x_server(const struct wl_client *client)
{
	/* libwayland's global filter hands a const client; the lookup only reads it. */
	return wl_client_get_destroy_listener((struct wl_client *)client, x_server_gone) != NULL;
}
