/* SPDX-License-Identifier: MIT */
/* The parts of garnet-rogue, one file per kind of attack. */
#ifndef GARNET_ROGUE_H
#define GARNET_ROGUE_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

/* Connects to WAYLAND_SOCKET or WAYLAND_DISPLAY; exits with status 2 when it cannot. */
struct wl_display *rogue_connect(void);

/* Prints "WHAT; " and how the connection stands (still connected, protocol error, or the
 * errno's text); returns the connection's error, 0 while it stands. */
int rogue_report_connection(struct wl_display *display, const char *what);

/* Waits up to timeout_ms for garnet's events and dispatches what came; -1 once the connection
 * failed. */
int rogue_dispatch_timeout(struct wl_display *display, int timeout_ms);

/* CLOCK_MONOTONIC, in microseconds. */
uint64_t rogue_now_us(void);

/* window FILE WIDTH HEIGHT [RRGGBB]: a window (of that colour) that logs every input event it
 * receives; runs until killed or disconnected. */
int rogue_window(const char *path, int32_t width, int32_t height, bool text_field, uint32_t rgb);

/* rogue-video.c: video FILE WIDTH HEIGHT [menu], a window whose desynchronised subsurface
 * alone commits a new colour every 100 ms (a video player), with a popup open (menu); logs
 * "mapped", "menu", "frames N". */
/* extra: NULL, "menu" (a popup opens), "menu-video" (the frames are the popup's) or "grow"
 * (the window grows once, when the file path.grow appears). */
int rogue_video(const char *path, int32_t width, int32_t height, const char *extra);

/* drive GO DONE [COMBO]: once file GO exists, injects a key press, a click and a touch at the
 * middle of the first output through garnet_test (a trusted client's tool, not an attack),
 * then presses COMBO (quit: ctrl+alt+BackSpace, print, super-l, super-m, click:X,Y, press:X,Y (held), or type:TEXT, in
 * which ',' is Return) and writes DONE. */
int rogue_drive(const char *go, const char *done, const char *combo);
/* rogue-portal.c: portal-capture APP_ID PID (1: granted) and script (keys from stdin). */
int rogue_portal_capture(const char *app_id, uint32_t pid);
/* rogue-portal-backend.c: portal-backend [PID...] PID, a backend naming pids it should not,
 * then one whose copies race garnet's events. */
int rogue_portal_backend(const uint32_t *pids, int count);
int rogue_script(void);

/* inhibit FILE: a window that inhibits garnet's keyboard shortcuts and logs "active",
 * "inactive" and "key KEY STATE"; runs until killed or disconnected. */
int rogue_inhibit(const char *path);

struct wp_single_pixel_buffer_manager_v1;
struct wp_viewporter;
/* Gives surface one colour at width x height and commits. */
void rogue_fill_surface(struct wl_surface *surface,
			struct wp_single_pixel_buffer_manager_v1 *pixels,
			struct wp_viewporter *viewporter, int32_t width, int32_t height);
/* The same in colour rgb (0xRRGGBB). */
void rogue_fill_surface_rgb(struct wl_surface *surface,
			    struct wp_single_pixel_buffer_manager_v1 *pixels,
			    struct wp_viewporter *viewporter, int32_t width, int32_t height,
			    uint32_t rgb);

/* lock FILE / locker FILE [WAIT]: (once file WAIT exists) locks the session through ext-session-lock and shows a lock
 * surface on the first output, writing "no-global", "finished" or "locked PID" to FILE. A
 * locker stays until killed, or unlocks when FILE.unlock appears; a lock attempt returns 1
 * when it locked the session. */
int rogue_lock(const char *path, const char *wait_path, bool stay);

/* clip-victim FILE GO: a window that copies a secret when it gets the keyboard and pastes it
 * back; once file GO exists it takes the keyboard again (garnet_test stands in for a click).
 * clip-sniff FILE: a window that keeps the last selection offer it was sent and tries to read
 * it whenever it loses the keyboard. Both log to FILE and run until killed. */
int rogue_clipboard(const char *path, const char *refocus, bool victim);
/* paste FILE [primary]: a window that takes the keyboard (garnet_test stands in for a click)
 * and pastes the clipboard (or primary selection) it is then offered, as text, into FILE;
 * 1 when nothing was offered as text. */
int rogue_paste(const char *path, bool primary);

/* flood COUNT: sends COUNT requests as fast as the socket takes them; 0 when garnet cut the
 * connection first. frames FILE SECONDS: a surface that commits a new picture on every frame
 * callback, logging "frame MS" (CLOCK_REALTIME) for each, for SECONDS. */
int rogue_flood(long count);
/* rename-flood FILE COUNT: a window renamed COUNT times with 4 KB titles and app ids, then
 * "flood-end..."; writes "renamed N" to FILE and stays until killed. */
int rogue_rename_flood(const char *path, long count);
int rogue_frames(const char *path, int seconds);

/* shortcuts FILE SECONDS: asks garnet_shortcuts_v1 for every action garnet knows and for every
 * letter and f1..f12 as action names, logs "bound NAME TRIGGER", "refused NAME REASON" and
 * "activated NAME" for SECONDS, then asks for "super+l" (a protocol error). 1 when anything
 * was bound. */
int rogue_shortcuts(const char *path, int seconds);

/* lifetime ATTACK: subsurface-orphan, roles-orphaned, toplevel-destroy-commit,
 * activate-unmapped, extreme-coordinates, and the legitimate subsurface-kept, activate-mapped,
 * moderate-coordinates: 1 when garnet stopped answering. */
int rogue_lifetime(const char *attack);
/* idle FILE TIMEOUT_MS SECONDS: asks ext-idle-notify for a TIMEOUT_MS notification and logs
 * "watching", then "idled MS" and "resumed MS" (CLOCK_MONOTONIC) for SECONDS, then "done";
 * "no-global" when the notifier is not offered.
 * registries COUNT: gets its registry COUNT times, each with a round trip. */
/* cover FILE cursor|drag|popup: a window over the output that, once the pointer is on it,
 * sets a 400x400 red cursor, or on a button press starts a drag with a 400x400 red icon or
 * shows a 400x400 red popup holding a grab; logs what it did and "drag-cancelled",
 * "popup-done". Runs until killed. */
int rogue_cover(const char *path, const char *kind);
int rogue_idle(const char *path, uint32_t timeout_ms, int seconds);
int rogue_registries(long count);
/* popup FILE PARENT SERIAL, activation FILE STEP, token-flood FILE COUNT, launched FILE: the
 * attacks on the keyboard focus (rogue-focus.c). */
int rogue_popup(const char *path, const char *parent, const char *serial);
int rogue_activation(const char *path, const char *step);
int rogue_token_flood(const char *path, long count);
int rogue_launched(const char *path);
/* The budget and client memory (rogue-budget.c): pool SURFACES, regions COUNT, objects KIND
 * COUNT (surfaces, subsurfaces, mime-types), ping SECONDS,
 * truncated-pool, big WIDTH HEIGHT, commit-flood WIDTH HEIGHT SECONDS, bad-keymap. Each prints
 * what it did and how the connection ended; -1 when argv is none of them. */
int rogue_budget(int argc, char **argv);
/* layer FILE LAYER [OPTION=VALUE...]: a layer-shell surface that logs what it is told;
 * layer-abuse ATTACK: malformed layer-shell requests (rogue-layer.c). */
int rogue_layer(int argc, char **argv);
int rogue_layer_abuse(const char *attack);
/* toplevels FILE [SECONDS]: every window's title, app id and states through
 * zwlr_foreign_toplevel_management_v1, logged to FILE; the commands written to FILE.cmd
 * ("activate TITLE", "close TITLE", "minimize TITLE", ...) asked of those windows
 * (rogue-toplevels.c). 1 when the manager is not offered. */
int rogue_toplevels(const char *path, int seconds);
/* vpointer FILE X Y WIDTH HEIGHT: a click at X,Y through zwlr_virtual_pointer_v1, logged to
 * FILE (rogue-vpointer.c). 1 when the click went out on a connection that stood. */
/* panel-launch FILE NAME [COUNT]: garnet_panel_v1's launch with NAME, COUNT times
 * (rogue-panel.c). */
int rogue_panel_launch(const char *path, const char *name, int count);

int rogue_vpointer(const char *path, uint32_t x, uint32_t y, uint32_t width, uint32_t height);
/* power FILE STEPS: zwlr_output_power_v1 (rogue-power.c). */
int rogue_power(const char *path, const char *steps);
/* outman FILE move|extremes: arranges the outputs (rogue-outman.c). */
int rogue_outman(const char *path, const char *action);
/* Buffers garnet shows in place (rogue-zerocopy.c): shown-pool WINDOWS SECONDS, sparse WIDTH
 * HEIGHT SECONDS, truncate-shown, destroy-shown buffer|pool ARGB SECONDS, reuse-ids COUNT,
 * release-flood SECONDS. 0 when the client stayed connected (and, for release-flood, got
 * every buffer back); -1 when argv is none of them. */
int rogue_zerocopy(int argc, char **argv);

#endif
