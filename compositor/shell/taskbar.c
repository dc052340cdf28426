// SPDX-License-Identifier: MIT
// What a task bar asks of windows (zwlr_foreign_toplevel_handle_v1's requests): the acts of the
// user's own bindings, done as if the user had pressed them. Only the trusted task bar gets
// this far (the security layer's foreign_toplevel), but even it cannot move the keyboard or
// change a window while the lock, garnet's lock screen or the consent dialog is up.
#include "../core/surface.h"
#include "focus.h"
#include "shell-private.h"
#include "../protocols/toplevel.h"

static const char *request_name(enum garnet_taskbar_request request)
{
	static const char *const names[] = {
		[GARNET_TASKBAR_ACTIVATE] = "activate",
		[GARNET_TASKBAR_CLOSE] = "close",
		[GARNET_TASKBAR_MINIMIZE] = "minimize",
		[GARNET_TASKBAR_MAXIMIZE] = "maximize",
		[GARNET_TASKBAR_UNMAXIMIZE] = "unmaximize",
		[GARNET_TASKBAR_FULLSCREEN] = "fullscreen",
		[GARNET_TASKBAR_UNFULLSCREEN] = "unfullscreen",
	};

	return request < sizeof(names) / sizeof(names[0]) ? names[request] : "?";
}

bool garnet_focus_taskbar_request(struct garnet_shell *shell, struct garnet_toplevel *tl,
				  enum garnet_taskbar_request request, struct garnet_output *output,
				  struct wl_client *client)
{
	struct garnet_compositor *c = shell->compositor;
	pid_t pid = 0;

	if (!tl->mapped)
		return false;
	if (garnet_focus_lock_or_dialog_holds_keyboard(c)) {
		wl_client_get_credentials(client, &pid, NULL, NULL);
		garnet_log(c, GARNET_LOG_INFO, "focus",
			   "denied: task bar pid %d asked to %s a window while the lock or a "
			   "dialog of garnet's holds the keyboard",
			   (int)pid, request_name(request));
		return false;
	}
	switch (request) {
	case GARNET_TASKBAR_ACTIVATE:
		garnet_shell_focus(shell, tl);
		break;
	case GARNET_TASKBAR_CLOSE:
		tl->impl->close(tl);
		break;
	case GARNET_TASKBAR_MINIMIZE:
		garnet_shell_set_minimized(shell, tl);
		break;
	case GARNET_TASKBAR_MAXIMIZE:
	case GARNET_TASKBAR_UNMAXIMIZE:
		garnet_shell_set_maximized(shell, tl, request == GARNET_TASKBAR_MAXIMIZE);
		break;
	case GARNET_TASKBAR_FULLSCREEN:
		/* The window's client holds the fullscreen permission, or its window stays. */
		if (!garnet_focus_may_fullscreen(c, wl_resource_get_client(tl->surface->resource),
						 output))
			return false;
		garnet_shell_set_fullscreen(shell, tl, true, output);
		break;
	case GARNET_TASKBAR_UNFULLSCREEN:
		garnet_shell_set_fullscreen(shell, tl, false, NULL);
		break;
	}
	/* Minimizing an unfocused window changes no state its client is configured with. */
	if (c->protocol_hooks.toplevel_changed)
		c->protocol_hooks.toplevel_changed(tl);
	return true;
}
