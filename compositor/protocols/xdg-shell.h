// SPDX-License-Identifier: MIT
// What the xdg-shell files share (xdg-wm-base.c, xdg-positioner.c, xdg-surface.c, xdg-toplevel.c,
// xdg-popup.c, xdg-popup-grab.c): the objects behind their resources and the calls between them.
#ifndef GARNET_PROTOCOLS_XDG_SHELL_H
#define GARNET_PROTOCOLS_XDG_SHELL_H

#include "../core/internal.h"

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
	struct wl_list parent_link;
	struct positioner positioner;
	int32_t x, y, width, height; /* relative to the parent's window geometry */
	struct garnet_view view;
	bool grabbing;
	bool dismissed; /* popup_done was sent: it never maps again */
	struct wl_list grab_link;
};

/* One popup grab per compositor seat: the chain of grabbing popups of one client. */
struct popup_grab {
	struct garnet_pointer_grab base;
	struct wl_list popups; /* xdg_popup_data.grab_link, topmost first */
	struct wl_client *client;
	bool active;
	struct garnet_compositor *compositor;
	struct wl_listener compositor_destroy, keyboard_focus;
};

extern const struct garnet_surface_role toplevel_role, popup_role, xdg_surface_role;

/* xdg-surface.c */
struct xdg_surface_data *xdg_from_surface(struct garnet_surface *surface);
struct xdg_surface_data *xdg_surface_from(struct wl_resource *resource);
uint32_t send_surface_configure(struct xdg_surface_data *xs);
bool xdg_precommit(struct garnet_surface *surface);
void xdg_commit(struct garnet_surface *surface);
bool take_role(struct xdg_surface_data *xs, struct wl_resource *resource);
void wm_base_get_xdg_surface(struct wl_client *client, struct wl_resource *resource,
			     uint32_t id, struct wl_resource *surface_resource);

/* xdg-toplevel.c */
void toplevel_configure(struct garnet_toplevel *toplevel);
void toplevel_resource_destroy(struct wl_resource *resource);
void xdg_surface_get_toplevel(struct wl_client *client, struct wl_resource *resource,
			      uint32_t id);

/* xdg-positioner.c */
struct positioner *positioner_from(struct wl_resource *resource);
void constrain_axis(const struct positioner *p, bool horizontal, int32_t min, int32_t max,
		    int32_t *pos, int32_t *size);
void wm_base_create_positioner(struct wl_client *client, struct wl_resource *resource,
			       uint32_t id);

/* xdg-popup.c */
void popup_send_configure(struct xdg_popup_data *popup);
void popup_unmap(struct xdg_popup_data *popup);
void popup_dismiss(struct xdg_popup_data *popup);
void popup_resource_destroy(struct wl_resource *resource);
void xdg_surface_get_popup(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			   struct wl_resource *parent_resource,
			   struct wl_resource *positioner_resource);

/* xdg-popup-grab.c */
struct popup_grab *seat_popup_grab(struct garnet_compositor *c, bool create);
void popup_grab(struct wl_client *client, struct wl_resource *resource, struct wl_resource *seat,
		uint32_t serial);

#endif
