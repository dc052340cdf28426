// SPDX-License-Identifier: MIT
// zwlr_output_power_manager_v1: an idle daemon darkens the outputs and lights them again.
// A dark screen hides what garnet shows the user, so the manager is a privileged global and
// every control is asked of the security layer (output_power); a refused control answers
// failed at once. While garnet's consent dialog asks the user, no client darkens a screen, and
// the lock screen or the dialog appearing lights what clients darkened (core/output-power.c).
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/lifetime.h"
#include "../core/output.h"
#include "../core/consent.h"
#include "output-power.h"
#include "wlr-output-power-management-unstable-v1-server-protocol.h"

struct power_control {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	struct garnet_output *output; /* NULL once failed: the control is inert */
	struct wl_listener output_destroy, output_power;
};

static uint32_t mode_of(struct garnet_output *output)
{
	return output->power_off ? ZWLR_OUTPUT_POWER_V1_MODE_OFF : ZWLR_OUTPUT_POWER_V1_MODE_ON;
}

static void control_fail(struct power_control *pc)
{
	garnet_list_unlink(&pc->output_destroy.link);
	garnet_list_unlink(&pc->output_power.link);
	pc->output = NULL;
	zwlr_output_power_v1_send_failed(pc->resource);
}

static void control_set_mode(struct wl_client *client, struct wl_resource *resource, uint32_t mode)
{
	struct power_control *pc = wl_resource_get_user_data(resource);
	struct garnet_compositor *c = pc->compositor;
	pid_t pid = 0;

	if (mode != ZWLR_OUTPUT_POWER_V1_MODE_OFF && mode != ZWLR_OUTPUT_POWER_V1_MODE_ON) {
		wl_resource_post_error(resource, ZWLR_OUTPUT_POWER_V1_ERROR_INVALID_MODE,
				       "mode %u is neither off (0) nor on (1)", mode);
		return;
	}
	if (!pc->output)
		return;
	if (mode == ZWLR_OUTPUT_POWER_V1_MODE_OFF && garnet_consent_active(c)) {
		/* The user is being asked: the screen stays lit, and the client hears so. */
		wl_client_get_credentials(client, &pid, NULL, NULL);
		garnet_log(c, GARNET_LOG_WARNING, "output",
			   "%s stays on: pid %d asked to power it off while garnet asks the user",
			   pc->output->name, (int)pid);
		zwlr_output_power_v1_send_mode(resource, mode_of(pc->output));
		return;
	}
	if (!garnet_output_power(pc->output, mode == ZWLR_OUTPUT_POWER_V1_MODE_ON, true))
		control_fail(pc);
}

static const struct zwlr_output_power_v1_interface control_impl = {
	.set_mode = control_set_mode,
	.destroy = garnet_resource_destroy_request,
};

static void control_output_destroyed(struct wl_listener *listener, void *data)
{
	struct power_control *pc = wl_container_of(listener, pc, output_destroy);

	control_fail(pc);
}

/* Every change, whoever made it, is told to every control of the output. */
static void control_output_power(struct wl_listener *listener, void *data)
{
	struct power_control *pc = wl_container_of(listener, pc, output_power);

	zwlr_output_power_v1_send_mode(pc->resource, mode_of(pc->output));
}

static void control_resource_destroy(struct wl_resource *resource)
{
	struct power_control *pc = wl_resource_get_user_data(resource);

	garnet_list_unlink(&pc->output_destroy.link);
	garnet_list_unlink(&pc->output_power.link);
	free(pc);
}

static bool may_control(struct garnet_compositor *c, struct wl_client *client,
			struct garnet_output *output)
{
	pid_t pid = 0;

	if (!c->hooks.output_power || c->hooks.output_power(c->hooks.data, client, output->name))
		return true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_WARNING, "security", "denied: pid %d may not power %s off or on",
		   (int)pid, output->name);
	return false;
}

static void manager_get_output_power(struct wl_client *client, struct wl_resource *resource,
				     uint32_t id, struct wl_resource *output_resource)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	struct power_control *pc = calloc(1, sizeof(*pc));

	if (!pc) {
		wl_client_post_no_memory(client);
		return;
	}
	pc->resource = wl_resource_create(client, &zwlr_output_power_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!pc->resource) {
		free(pc);
		wl_client_post_no_memory(client);
		return;
	}
	pc->compositor = c;
	wl_list_init(&pc->output_destroy.link);
	wl_list_init(&pc->output_power.link);
	wl_resource_set_implementation(pc->resource, &control_impl, pc, control_resource_destroy);
	/* An output already gone, or a client the policy does not trust with the screens. */
	if (!output || !may_control(c, client, output)) {
		zwlr_output_power_v1_send_failed(pc->resource);
		return;
	}
	pc->output = output;
	pc->output_destroy.notify = control_output_destroyed;
	wl_signal_add(&output->events.destroy, &pc->output_destroy);
	pc->output_power.notify = control_output_power;
	wl_signal_add(&output->events.power, &pc->output_power);
	zwlr_output_power_v1_send_mode(pc->resource, mode_of(output));
}

static const struct zwlr_output_power_manager_v1_interface manager_impl = {
	.get_output_power = manager_get_output_power,
	.destroy = garnet_resource_destroy_request,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;
	struct wl_resource *resource;

	if (!garnet_global_check_bind(c, client, &zwlr_output_power_manager_v1_interface))
		return;
	resource = garnet_resource_create(client, &zwlr_output_power_manager_v1_interface,
					  (int)version, id, &manager_impl, c, NULL);
	if (!resource)
		return;
}

bool garnet_output_power_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwlr_output_power_manager_v1_interface, 1, c, manager_bind,
				    true) != NULL;
}
