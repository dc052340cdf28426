/* SPDX-License-Identifier: MIT */
/* A region (core layer): wl_region, and rectangle helpers on pixman regions. */
#ifndef GARNET_CORE_REGION_H
#define GARNET_CORE_REGION_H

#include <pixman.h>
#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct garnet_compositor;

void garnet_region_add_rect(pixman_region32_t *region, int32_t x, int32_t y, int32_t width,
			    int32_t height);
bool garnet_region_create(struct garnet_compositor *c, struct wl_client *client, uint32_t version,
			  uint32_t id);
pixman_region32_t *garnet_region_from_resource(struct wl_resource *resource);

#endif
