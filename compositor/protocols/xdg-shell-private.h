// SPDX-License-Identifier: MIT
// xdg-shell (protocols layer), private: what the xdg-shell files share (xdg-wm-base.c, xdg-
// positioner.c, xdg-surface.c, xdg-toplevel.c, xdg-popup.c, xdg-popup-grab.c): the objects behind
// their resources and the calls between them.
#ifndef GARNET_PROTOCOLS_XDG_SHELL_PRIVATE_H
#define GARNET_PROTOCOLS_XDG_SHELL_PRIVATE_H

#include "../core/compositor.h"
#include "../core/surface.h"
#include "../core/view.h"
#include "toplevel.h"
#include "xdg-shell.h"

#define MAX_PENDING_SERIALS 32

struct wm_base {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	struct wl_list surfaces; /* xdg_surface_data.link */
	uint32_t ping_serial;
	struct wl_event_source *ping_timer;
};

struct positioner {
	int32_t width, height;
	int32_t anchor_x, anchor_y, anchor_width, anchor_height;
	bool has_size, has_anchor_rect;
	uint32_t anchor, gravity, constraints;
	int32_t offset_x, offset_y;
	bool reactive;
};

enum xdg_role { ROLE_NONE, ROLE_TOPLEVEL, ROLE_POPUP };

struct xdg_popup_data;

struct xdg_surface_data {
	struct wl_resource *resource;
	struct garnet_surface *surface;
	struct wm_base *base;
	struct wl_list link;
	struct wl_listener surface_destroy;
	enum xdg_role role;
	struct wl_resource *role_resource;
	bool initial_commit_done, configured, mapped;
	uint32_t serials[MAX_PENDING_SERIALS];
	int serial_count;
	bool has_geometry, pending_geometry_set;
	int32_t geometry[4], pending_geometry[4];

	struct garnet_toplevel toplevel;
	char *title, *app_id;
	bool sent_capabilities;

	struct xdg_popup_data *popup;
	struct wl_list popups; /* child xdg_popup_data.parent_link, topmost first */
};

struct xdg_popup_data {
	struct wl_resource *resource;
	struct xdg_surface_data *xs;
	struct xdg_surface_data *parent;
	/* A parent of another shell's role (a layer surface, through its get_popup), when
	 * parent is NULL; that shell keeps the popup on its own list through parent_link and
	 * orphans it before the surface goes (xdg_popups_orphan). */
	struct garnet_surface *foreign_parent;
	struct wl_list parent_link;
	struct positioner positioner;
	int32_t x, y, width, height; /* relative to the parent's window geometry */
	struct garnet_view view;
	bool grabbing;
	bool dismissed; /* popup_done was sent: it never maps again */
	struct wl_list grab_link;
};

extern const struct garnet_surface_role xdg_toplevel_role, xdg_popup_role, xdg_surface_role;

/* xdg-surface.c */
/* The xdg_surface behind a surface of one of the three roles above, or NULL. */
struct xdg_surface_data *xdg_from_surface(struct garnet_surface *surface);
struct xdg_surface_data *xdg_surface_from(struct wl_resource *resource);
/* Sends xdg_surface.configure with a new serial, remembered until acked. */
uint32_t xdg_surface_configure(struct xdg_surface_data *xs);
bool xdg_precommit(struct garnet_surface *surface);
void xdg_commit(struct garnet_surface *surface);
/* False, with the protocol error posted, when xs has a role object already. */
bool xdg_surface_take_role(struct xdg_surface_data *xs, struct wl_resource *resource);
/* xdg_wm_base.get_xdg_surface */
void xdg_surface_new(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		     struct wl_resource *surface_resource);

/* xdg-toplevel.c */
/* The toplevel mapped, unmapped or changed what task bars see of it: they are told. */
void xdg_toplevel_changed(struct garnet_toplevel *toplevel);
void xdg_toplevel_configure(struct garnet_toplevel *toplevel);
void xdg_toplevel_resource_destroy(struct wl_resource *resource);
/* xdg_surface.get_toplevel */
void xdg_toplevel_new(struct wl_client *client, struct wl_resource *resource, uint32_t id);

/* xdg-positioner.c */
struct positioner *xdg_positioner_from(struct wl_resource *resource);
/* One axis of a popup's placement within [min, max): flip, slide, resize as p allows. */
void xdg_positioner_constrain_axis(const struct positioner *p, bool horizontal, int32_t min,
				   int32_t max, int32_t *pos, int32_t *size);
/* xdg_wm_base.create_positioner */
void xdg_positioner_new(struct wl_client *client, struct wl_resource *resource, uint32_t id);

/* xdg-popup.c */
/* Places the popup against its parent and the output and sends the configure. */
void xdg_popup_configure(struct xdg_popup_data *popup);
void xdg_popup_unmap(struct xdg_popup_data *popup);
/* popup_done to it and its children; a dismissed popup never maps again. */
void xdg_popup_dismiss(struct xdg_popup_data *popup);
void xdg_popup_resource_destroy(struct wl_resource *resource);
/* The surface the popup is placed against (an xdg surface or a foreign parent), or NULL. */
struct garnet_surface *xdg_popup_parent_surface(struct xdg_popup_data *popup);
bool xdg_popup_parent_mapped(struct xdg_popup_data *popup);
/* xdg_surface.get_popup */
void xdg_popup_new(struct wl_client *client, struct wl_resource *resource, uint32_t id,
		   struct wl_resource *parent_resource, struct wl_resource *positioner_resource);

/* xdg-popup-grab.c */
/* xdg_popup.grab */
void xdg_popup_handle_grab(struct wl_client *client, struct wl_resource *resource,
			   struct wl_resource *seat, uint32_t serial);
void xdg_popup_grab_remove(struct xdg_popup_data *popup);

#endif
