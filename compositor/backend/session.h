/* SPDX-License-Identifier: MIT */
/* The seat session (backends, beside the protocols layer; libseat): who may open DRM and input
 * devices, and whether garnet's VT is the one on screen. Shared by the DRM and libinput
 * backends. */
#ifndef GARNET_BACKEND_SESSION_H
#define GARNET_BACKEND_SESSION_H

#include <stdbool.h>
#include <wayland-server-core.h>

struct garnet_compositor;
struct garnet_session;

/* Opens the seat through libseat (backend chosen by libseat; LIBSEAT_BACKEND honoured) and waits
 * up to a few seconds until it is enabled. seat names the seat (NULL: XDG_SEAT or seat0); tty > 0
 * first makes that VT the active one (libseat takes the VT active at opening). NULL on failure,
 * with the reason logged. */
struct garnet_session *garnet_session_create(struct garnet_compositor *c, const char *seat,
					     int tty);
/* Closes every device still open and the seat; libseat gives the VT back in text mode. */
void garnet_session_destroy(struct garnet_session *session);

/* Opens a device node through the seat. Returns the fd (close it with
 * garnet_session_close_device), or -1 with errno set. */
int garnet_session_open_device(struct garnet_session *session, const char *path);
void garnet_session_close_device(struct garnet_session *session, int fd);

bool garnet_session_is_active(struct garnet_session *session);
const char *garnet_session_seat_name(struct garnet_session *session);
/* Asks for a switch to VT (session) number vt; true when the request was accepted. */
bool garnet_session_switch_vt(struct garnet_session *session, int vt);
/* Emitted when the session becomes active (enabled) or inactive (data: the session). Listeners
 * of the inactive edge must stop touching their devices before returning. */
struct wl_signal *garnet_session_get_active_signal(struct garnet_session *session);

#endif
