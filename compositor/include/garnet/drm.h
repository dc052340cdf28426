/* SPDX-License-Identifier: MIT */
/* The DRM backend: garnet as the desktop session on a VT. Outputs are the connectors of a KMS
 * device, input comes from libinput, and both are opened through the seat (libseat). */
#ifndef GARNET_DRM_H
#define GARNET_DRM_H

#include <stdbool.h>
#include "garnet/compositor.h"

/* One [output] section: which connector (name as garnet logs it, e.g. "Virtual-1"; NULL or
 * empty matches any connector no other section names) and how to drive it. */
struct garnet_drm_output_config {
	const char *name;
	int32_t width, height; /* 0: the connector's preferred mode */
	int32_t refresh_mhz;   /* 0: any refresh of that size, the highest first */
	int32_t scale, transform;
};

/* [libinput]: -1 leaves a setting at the device's default. */
struct garnet_input_config {
	int tap;            /* tap-to-click on touchpads */
	int natural_scroll; /* content follows the fingers */
	int left_handed;    /* the primary and secondary buttons swapped */
	bool accel_set;
	double accel_speed; /* -1 (slow) .. 1 (fast) */
	int accel_flat;     /* 1: no acceleration curve (flat), 0: adaptive */
};

struct garnet_drm_options {
	const char *seat;       /* NULL: XDG_SEAT or seat0 */
	int tty;                /* > 0: make VT tty the active one first and run there */
	const char *drm_device; /* NULL: the first KMS device on the seat with a connector */
	const struct garnet_drm_output_config *outputs;
	int output_count;
	struct garnet_input_config input;
};

/* Opens the seat, the KMS device and the input devices, and adds an output for every connected
 * connector (and later ones on hotplug). Ctrl+Alt+F1..F12 switch VTs. Returns false with the
 * reason logged. The backend lives until the compositor is destroyed. */
GARNET_EXPORT bool garnet_drm_backend_create(struct garnet_compositor *c,
					     const struct garnet_drm_options *options);

#endif
