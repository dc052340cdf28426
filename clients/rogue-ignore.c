// SPDX-License-Identifier: MIT
// The no-op callbacks of rogue-ignore.h.
#include "rogue-ignore.h"

void rogue_ignore_data_device_enter(void *d, struct wl_data_device *dd, uint32_t serial,
				    struct wl_surface *s, wl_fixed_t x, wl_fixed_t y,
				    struct wl_data_offer *offer)
{
}

void rogue_ignore_data_device_event(void *d, struct wl_data_device *dd)
{
}

void rogue_ignore_data_device_motion(void *d, struct wl_data_device *dd, uint32_t t, wl_fixed_t x,
				     wl_fixed_t y)
{
}

void rogue_ignore_global_remove(void *data, struct wl_registry *r, uint32_t name)
{
}

void rogue_ignore_keyboard_key(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t t,
			       uint32_t key, uint32_t state)
{
}

void rogue_ignore_keyboard_leave(void *d, struct wl_keyboard *k, uint32_t serial,
				 struct wl_surface *s)
{
}

void rogue_ignore_keyboard_modifiers(void *d, struct wl_keyboard *k, uint32_t serial, uint32_t dep,
				     uint32_t lat, uint32_t lock, uint32_t group)
{
}

void rogue_ignore_keyboard_repeat(void *d, struct wl_keyboard *k, int32_t rate, int32_t delay)
{
}

void rogue_ignore_offer_actions(void *d, struct wl_data_offer *o, uint32_t a)
{
}

void rogue_ignore_offer_mime(void *d, struct wl_data_offer *o, const char *mime)
{
}

void rogue_ignore_pointer_axis(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis,
			       wl_fixed_t v)
{
}

void rogue_ignore_pointer_axis_discrete(void *d, struct wl_pointer *p, uint32_t axis,
					int32_t discrete)
{
}

void rogue_ignore_pointer_axis_source(void *d, struct wl_pointer *p, uint32_t source)
{
}

void rogue_ignore_pointer_axis_stop(void *d, struct wl_pointer *p, uint32_t time, uint32_t axis)
{
}

void rogue_ignore_pointer_frame(void *d, struct wl_pointer *p)
{
}

void rogue_ignore_pointer_motion(void *d, struct wl_pointer *p, uint32_t time, wl_fixed_t x,
				 wl_fixed_t y)
{
}

void rogue_ignore_popup_configure(void *d, struct xdg_popup *pp, int32_t x, int32_t y, int32_t w,
				  int32_t h)
{
}

void rogue_ignore_source_target(void *d, struct wl_data_source *s, const char *mime)
{
}

void rogue_ignore_toplevel_close(void *data, struct xdg_toplevel *tl)
{
}

void rogue_ignore_toplevel_configure(void *data, struct xdg_toplevel *tl, int32_t width,
				     int32_t height, struct wl_array *states)
{
}

void rogue_ignore_touch_event(void *d, struct wl_touch *t)
{
}
