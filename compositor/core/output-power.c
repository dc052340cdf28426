// SPDX-License-Identifier: MIT
// Outputs powered off and on (DPMS): by garnet after an idle time, or by a trusted idle
// daemon through zwlr_output_power_v1. What garnet asks the user (the lock screen, the consent
// dialog) is never left on a dark screen by a client.
#include "compositor.h"
#include "output.h"

bool garnet_output_power(struct garnet_output *output, bool on, bool by_client)
{
	struct garnet_compositor *c = output->compositor;

	if (output->power_off == !on) {
		if (!on && !by_client)
			output->power_off_by_client = false; /* garnet's own from now on */
		return true;
	}
	if (output->impl->set_power && !output->impl->set_power(output, on)) {
		garnet_log(c, GARNET_LOG_WARNING, "output", "%s: cannot power %s", output->name,
			   on ? "on" : "off");
		return false;
	}
	output->power_off = !on;
	output->power_off_by_client = !on && by_client;
	garnet_log(c, GARNET_LOG_INFO, "output", "%s: powered %s%s", output->name,
		   on ? "on" : "off", by_client ? " by a client" : "");
	if (on)
		garnet_output_damage_whole(output);
	wl_signal_emit_mutable(&output->events.power, output);
	return true;
}

bool garnet_output_set_power(struct garnet_output *output, bool on)
{
	return garnet_output_power(output, on, false);
}

bool garnet_output_is_powered(struct garnet_output *output)
{
	return !output->power_off;
}

void garnet_compositor_power_on_for_prompt(struct garnet_compositor *c)
{
	struct garnet_output *output;

	wl_list_for_each (output, &c->outputs, link) {
		if (output->power_off && output->power_off_by_client)
			garnet_output_power(output, true, false);
	}
}
