/* SPDX-License-Identifier: MIT */
/* A client's budget (core layer): what each client may make of each kind of object, charged
 * when it makes one and given back when it goes. */
#ifndef GARNET_CORE_CLIENT_BUDGET_H
#define GARNET_CORE_CLIENT_BUDGET_H

#include "compositor.h"

bool garnet_client_budget_init(struct garnet_compositor *c);
void garnet_client_budget_finish(struct garnet_compositor *c);
/* Takes amount of limit from the client's budget: false, with the client's no_memory error
 * posted and logged, when it would go over (the caller then makes nothing). */
bool garnet_client_charge(struct wl_client *client, enum garnet_limit limit, uint64_t amount);
/* True once libwayland takes the client apart (its objects go next, in any order). */
bool garnet_client_is_going(struct wl_client *client);
/* Gives back what a charge took, when the object goes. */
void garnet_client_uncharge(struct wl_client *client, enum garnet_limit limit, uint64_t amount);

#endif
