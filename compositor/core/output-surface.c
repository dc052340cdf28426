// SPDX-License-Identifier: MIT
// A surface a role shows on one output: its surface, view and output, and their teardown.
#include "output-surface.h"
#include "surface.h"
#include "output.h"

void garnet_output_surface_init(struct garnet_output_surface *os, struct garnet_surface *surface,
				wl_notify_func_t surface_destroyed)
{
	os->surface = surface;
	os->output = NULL;
	garnet_view_init(&os->view, surface);
	os->surface_destroy.notify = surface_destroyed;
	wl_signal_add(&surface->events.destroy, &os->surface_destroy);
	wl_list_init(&os->output_destroy.link);
}

void garnet_output_surface_set_output(struct garnet_output_surface *os,
				      struct garnet_output *output,
				      wl_notify_func_t output_destroyed)
{
	garnet_output_surface_drop_output(os);
	os->output = output;
	os->output_destroy.notify = output_destroyed;
	wl_signal_add(&output->events.destroy, &os->output_destroy);
}

void garnet_output_surface_drop_output(struct garnet_output_surface *os)
{
	if (!os->output)
		return;
	wl_list_remove(&os->output_destroy.link);
	wl_list_init(&os->output_destroy.link);
	os->output = NULL;
}

void garnet_output_surface_detach(struct garnet_output_surface *os)
{
	if (os->surface) {
		garnet_view_finish(&os->view);
		wl_list_remove(&os->surface_destroy.link);
		os->surface->role_data = NULL;
		os->surface = NULL;
	}
	garnet_output_surface_drop_output(os);
}
