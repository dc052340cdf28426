// SPDX-License-Identifier: MIT
// Which globals a garnet compositor offers, and the order the layers are made and freed in:
// core first, the protocols built on it, the shell over both. The one file that names them all.
#include "core/compositor.h"
#include "core/surface.h"
#include "core/subsurface.h"
#include "core/seat.h"
#include "core/data-source.h"
#include "core/consent.h"
#include "core/client-budget.h"
#include "render/renderer.h"
#include "protocols/xdg-shell.h"
#include "protocols/session-lock.h"
#include "protocols/security-context.h"
#include "protocols/single-pixel-buffer.h"
#include "protocols/garnet-test.h"
#include "protocols/primary-selection.h"
#include "protocols/data-control.h"
#include "protocols/xdg-activation.h"
#include "shell/shell.h"
#include "protocols/client-protocols.h"
#include "protocols/foreign-toplevel.h"
#include "protocols/layer-shell.h"
#include "protocols/virtual-pointer.h"
#include "protocols/output-power.h"
#include "protocols/portal.h"
#include "protocols/output-management.h"
#include "xwayland/xwayland-core.h"

/* The registry lists globals in the order they are made; clients see this order. */
static bool create_globals(struct garnet_compositor *c)
{
	if (!garnet_compositor_protocol_init(c) || !garnet_subcompositor_init(c) ||
	    !garnet_shm_init(c) || !garnet_presentation_init(c) || !garnet_viewporter_init(c) ||
	    !garnet_xdg_shell_init(c) || !garnet_xdg_decoration_init(c) ||
	    !garnet_xdg_output_init(c) || !garnet_data_device_init(c) ||
	    !garnet_primary_selection_init(c) || !garnet_single_pixel_buffer_init(c) ||
	    !garnet_screencopy_init(c) || !garnet_session_lock_init(c) ||
	    !garnet_layer_shell_init(c) || !garnet_foreign_toplevel_init(c) ||
	    !garnet_virtual_keyboard_init(c) || !garnet_virtual_pointer_init(c) ||
	    !garnet_output_power_init(c) || !garnet_portal_init(c) ||
	    !garnet_output_management_init(c) ||
	    !garnet_data_control_init(c) || !garnet_client_budget_init(c) ||
	    !garnet_security_context_init(c))
		return false;
	if (c->options.test_mode && !garnet_test_protocol_init(c))
		return false;
	c->seat = garnet_seat_create(c, &c->options.keyboard);
	if (!c->seat)
		return false;
	c->shell = garnet_shell_create(c);
	if (!c->shell)
		return false;
	if (c->options.builtin_cursor) {
		c->builtin_cursor = garnet_builtin_cursor_create();
		if (!c->builtin_cursor)
			return false;
	}
	/* These want the seat. */
	return garnet_client_protocols_init(c) && garnet_consent_init(c);
}

static void output_changed(struct garnet_output *output)
{
	garnet_layer_shell_output_changed(output);
	garnet_output_management_output_changed(output);
}

static bool window_of(struct garnet_surface *surface, const char **title)
{
	struct garnet_toplevel *toplevel = garnet_xdg_toplevel_from_surface(surface);

	if (toplevel) {
		*title = garnet_xdg_toplevel_title(toplevel);
		return true;
	}
	toplevel = garnet_xwayland_toplevel_from_surface(surface);
	if (!toplevel)
		return false;
	*title = toplevel->impl->title ? toplevel->impl->title(toplevel) : NULL;
	return true;
}

/* Core's news for the protocols create_globals makes (each copes with being told before its
 * global exists or after its state is gone, as when core called it by name). */
static void hook_protocols(struct garnet_compositor *c)
{
	c->protocol_hooks = (struct garnet_protocol_hooks){
		.selection_changed = garnet_data_control_selection_changed,
		.selection_focus = garnet_primary_selection_focus,
		.frame_shown = c->options.test_mode ? garnet_capture_complete : NULL,
		.mint_activation = garnet_activation_mint,
		.unlock = garnet_session_lock_release,
		.toplevel_changed = garnet_foreign_toplevel_changed,
		.surface_outputs_changed = garnet_foreign_toplevel_surface_outputs_changed,
		.output_bound = garnet_foreign_toplevel_output_bound,
		.output_changed = output_changed,
		.x11_launch_env = garnet_xwayland_launch_env,
		.window_of = window_of,
		.popup_parent = garnet_xdg_popup_parent,
	};
}

struct garnet_compositor *garnet_compositor_create(const struct garnet_options *o)
{
	struct garnet_options defaults;
	struct garnet_compositor *c;

	if (!o) {
		garnet_options_init(&defaults);
		o = &defaults;
	}
	c = garnet_compositor_alloc(o);
	if (!c)
		return NULL;
	hook_protocols(c);
	if (!create_globals(c)) {
		garnet_compositor_destroy(c);
		return NULL;
	}
	return c;
}

void garnet_compositor_destroy(struct garnet_compositor *c)
{
	if (!c)
		return;
	garnet_compositor_disconnect(c);
	garnet_shell_destroy(c->shell);
	c->shell = NULL;
	garnet_security_context_finish(c);
	garnet_compositor_free(c);
}
