// SPDX-License-Identifier: MIT
// An output disabled and enabled again by an output configuration (zwlr_output_manager_v1's
// disable_head): it leaves the layout as an unplugged output does (its windows move to the
// other outputs, its layer surfaces are closed, captures and casts of it end, its wl_output
// global goes) but the object stays, with its name, so that the same head enables it again.
// The screen goes dark where the backend can darken it.
#include "output.h"
#include "shell-hooks.h"

static size_t enabled_outputs(struct garnet_compositor *c)
{
	return (size_t)wl_list_length(&c->outputs);
}

bool garnet_output_disable(struct garnet_output *output, const char **why)
{
	struct garnet_compositor *c = output->compositor;

	if (output->disabled)
		return true;
	/* Nothing left to show the lock, a dialog or a window on. */
	if (enabled_outputs(c) <= 1) {
		*why = "the last enabled output stays on";
		return false;
	}
	garnet_output_leave_layout(output);
	output->disabled = true;
	if (output->impl->set_power)
		output->impl->set_power(output, false);
	garnet_log(c, GARNET_LOG_INFO, "output", "%s: disabled", output->name);
	if (c->protocol_hooks.output_changed)
		c->protocol_hooks.output_changed(output);
	return true;
}

bool garnet_output_enable(struct garnet_output *output, const struct garnet_output_config *config,
			  const char **why)
{
	struct garnet_compositor *c = output->compositor;

	if (!output->disabled)
		return garnet_output_configure(output, config, false, why);
	/* Checked whole before it joins: a refused configuration leaves it disabled. */
	if (!garnet_output_configure(output, config, true, why))
		return false;
	output->disabled = false;
	if (output->impl->set_power && !output->power_off)
		output->impl->set_power(output, true);
	garnet_output_join_layout(output);
	garnet_log(c, GARNET_LOG_INFO, "output", "%s: enabled", output->name);
	/* Its mode and place as asked; this also tells every client and the shell. */
	if (!garnet_output_configure(output, config, false, why)) {
		garnet_output_disable(output, why);
		return false;
	}
	return true;
}
