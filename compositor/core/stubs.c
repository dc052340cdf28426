// SPDX-License-Identifier: MIT
#include "internal.h"
bool garnet_xdg_decoration_init(struct garnet_compositor *c) { return true; }
bool garnet_xdg_output_init(struct garnet_compositor *c) { return true; }
bool garnet_data_device_init(struct garnet_compositor *c) { return true; }
bool garnet_primary_selection_init(struct garnet_compositor *c) { return true; }
void garnet_seat_data_device_focus(struct garnet_seat *seat, struct wl_client *client) {}
