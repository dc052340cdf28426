/* SPDX-License-Identifier: MIT */
/* wlr-data-control (protocols layer): clipboard managers' global, told of every selection. */
#ifndef GARNET_PROTOCOLS_DATA_CONTROL_H
#define GARNET_PROTOCOLS_DATA_CONTROL_H

#include "../core/compositor.h"

bool garnet_data_control_init(struct garnet_compositor *c);
/* The clipboard (or primary selection) changed: clipboard managers hear of it. */
void garnet_data_control_selection_changed(struct garnet_seat *seat,
					   enum garnet_selection_kind kind);

#endif
