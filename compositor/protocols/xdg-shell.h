/* SPDX-License-Identifier: MIT */
/* xdg-shell (protocols layer) as the rest of libgarnet sees it: its global, its toplevels and
 * popups. What its own files share is in xdg-shell-private.h. */
#ifndef GARNET_PROTOCOLS_XDG_SHELL_H
#define GARNET_PROTOCOLS_XDG_SHELL_H

#include "../core/compositor.h"
#include "toplevel.h"

bool garnet_xdg_shell_init(struct garnet_compositor *c);
void garnet_xdg_ping(struct garnet_surface *surface);
/* The surface a subsurface or popup ultimately belongs to. */
struct garnet_surface *garnet_xdg_root_surface(struct garnet_surface *surface);
/* The surface a popup (a menu) was opened from; NULL when surface is no popup. */
struct garnet_surface *garnet_xdg_popup_parent(struct garnet_surface *surface);
/* Raises the shown popups of surface (and theirs) into layer, above it, after the window itself
 * was raised. */
void garnet_xdg_raise_popups(struct garnet_surface *surface, enum garnet_layer_id layer);
struct garnet_toplevel *garnet_xdg_toplevel_from_surface(struct garnet_surface *surface);
struct garnet_toplevel *garnet_xdg_toplevel_from_resource(struct wl_resource *toplevel);
/* Makes parent (NULL: none) toplevel's parent, as xdg_toplevel.set_parent does; false (nothing
 * changed) when toplevel is parent or one of its ancestors. */
bool garnet_xdg_toplevel_set_parent(struct garnet_toplevel *toplevel,
				    struct garnet_toplevel *parent);

/* A toplevel's title and app id as the client set them, or NULL (for task bars). */
const char *garnet_xdg_toplevel_title(struct garnet_toplevel *toplevel);
const char *garnet_xdg_toplevel_app_id(struct garnet_toplevel *toplevel);
/* For layer-shell's get_popup: gives a popup made without a parent the surface of another
 * shell's role as its parent, on that shell's list; false (the caller posts its error) when the
 * popup has a parent already, was committed or is done. */
bool xdg_popup_set_foreign_parent(struct wl_resource *popup_resource, struct garnet_surface *parent,
				  struct wl_list *popups);
/* A foreign parent's popups (its list) go up with it, are done, or lose it. */
void xdg_popups_raise(struct wl_list *popups, enum garnet_layer_id layer);
void xdg_popups_dismiss(struct wl_list *popups);
void xdg_popups_orphan(struct wl_list *popups);

#endif
