/* SPDX-License-Identifier: MIT */
/* The primary selection (protocols layer, primary-selection.c): its global, the seat's primary
 * selection and who is offered it. */
#ifndef GARNET_PROTOCOLS_PRIMARY_SELECTION_H
#define GARNET_PROTOCOLS_PRIMARY_SELECTION_H

#include "../core/data-source.h"

bool garnet_primary_selection_init(struct garnet_compositor *c);
void garnet_seat_set_primary_selection(struct garnet_seat *seat, struct garnet_data_source *source);
void garnet_primary_selection_focus(struct garnet_seat *seat, struct wl_client *client);

#endif
