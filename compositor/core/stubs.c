// SPDX-License-Identifier: MIT
#include "internal.h"
struct garnet_shell { int x; };
struct garnet_shell *garnet_shell_create(struct garnet_compositor *c) { static struct garnet_shell s; return &s; }
void garnet_shell_destroy(struct garnet_shell *shell) {}
bool garnet_shell_handle_key(struct garnet_shell *shell, uint32_t key, bool pressed) { return false; }
void garnet_shell_handle_click(struct garnet_shell *shell, struct garnet_surface *surface) {}
void garnet_shell_output_added(struct garnet_shell *shell, struct garnet_output *output) {}
void garnet_shell_focus(struct garnet_shell *shell, struct garnet_toplevel *toplevel) {}
struct garnet_toplevel *garnet_shell_toplevel_for_surface(struct garnet_shell *shell, struct garnet_surface *surface) { return NULL; }
void garnet_shell_move_toplevel(struct garnet_shell *shell, struct garnet_surface *surface, int32_t x, int32_t y) {}
bool garnet_xdg_shell_init(struct garnet_compositor *c) { return true; }
bool garnet_xdg_decoration_init(struct garnet_compositor *c) { return true; }
bool garnet_xdg_output_init(struct garnet_compositor *c) { return true; }
bool garnet_data_device_init(struct garnet_compositor *c) { return true; }
bool garnet_primary_selection_init(struct garnet_compositor *c) { return true; }
void garnet_seat_data_device_focus(struct garnet_seat *seat, struct wl_client *client) {}
bool garnet_compositor_add_binding(struct garnet_compositor *c, const char *modifiers, const char *key, const char *action, const char *argument, char *error, size_t error_size) { return true; }
int garnet_compositor_window_count(struct garnet_compositor *c) { return 0; }
