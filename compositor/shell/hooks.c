// SPDX-License-Identifier: MIT
// The shell's answers to core and the protocols (core/shell-hooks.h): installed by
// garnet_shell_create, so that nothing below the shell names a file of shell/.
#include "../core/shell-hooks.h"
#include "focus.h"
#include "shell-private.h"

const struct garnet_shell_hooks garnet_shell_hooks_impl = {
	.handle_key = garnet_shell_handle_key,
	.handle_click = garnet_shell_handle_click,
	.shortcut_trigger = garnet_shell_shortcut_trigger,
	.return_keyboard = garnet_focus_return_keyboard,
	.focus_lock_surface = garnet_focus_lock_surface,
	.focus_surface = garnet_focus_surface,
	.activate = garnet_focus_activate,
	.client_holds_keyboard = garnet_focus_client_holds_keyboard,
	.may_fullscreen = garnet_focus_may_fullscreen,
	.taskbar_request = garnet_focus_taskbar_request,
	.popup_grab_allowed = garnet_focus_popup_grab_allowed,
	.popup_mapped = garnet_focus_popup_mapped,
	.popup_gone = garnet_focus_popup_gone,
	.popup_layer = garnet_focus_popup_layer,
	.output_removed = garnet_shell_output_removed,
	.toplevel_map = garnet_shell_toplevel_map,
	.toplevel_unmap = garnet_shell_toplevel_unmap,
	.toplevel_commit = garnet_shell_toplevel_commit,
	.request_move = garnet_shell_request_move,
	.request_resize = garnet_shell_request_resize,
	.set_maximized = garnet_shell_set_maximized,
	.set_fullscreen = garnet_shell_set_fullscreen,
	.set_minimized = garnet_shell_set_minimized,
	.toplevel_for_surface = garnet_shell_toplevel_for_surface,
	.move_toplevel = garnet_shell_move_toplevel,
	.usable_area_changed = garnet_shell_usable_area_changed,
	.layer_keyboard_changed = garnet_focus_layer_keyboard_changed,
};
