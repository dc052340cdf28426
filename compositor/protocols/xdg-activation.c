// SPDX-License-Identifier: MIT
// xdg_activation_v1: one client hands focus to another window (a launcher starting an app, a
// link opening in the browser) with a token. A token grants focus only if, when it was
// committed, its client held the keyboard and showed the serial of a press garnet had just sent
// it (set_serial); it is spent by its first use, expires after TOKEN_TIMEOUT_MS, dies with its
// client, and is stale once the user pressed anything in another client since its commit.
// Tokens garnet mints for the programs it starts (garnet_activation_mint) need no client.
// Each client holds at most TOKENS_PER_CLIENT live tokens: a new one retires its oldest, so a
// flood of tokens costs garnet a bounded amount of memory and the latest token always works.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../core/compositor.h"
#include "../core/surface.h"
#include "../core/seat.h"
#include "../core/client-budget.h"
#include "toplevel.h"
#include "xdg-shell.h"
#include "xdg-activation.h"
#include "../core/shell-hooks.h"
#include "client-protocols.h"
#include "xdg-activation-v1-server-protocol.h"

#define TOKEN_BYTES 16
#define TOKEN_TIMEOUT_MS 10000
/* Programs garnet starts may take a while to show their first window. */
#define LAUNCH_TOKEN_TIMEOUT_MS 30000
#define TOKENS_PER_CLIENT 32

struct activation {
	struct garnet_compositor *compositor;
	struct wl_list tokens; /* activation_token.link: granted, unspent tokens */
	struct token_owner *garnet; /* garnet's own tokens, for the programs it launches */
	struct wl_listener compositor_destroy;
};

/* The live tokens of one client (or of garnet), freed with it. */
struct token_owner {
	struct activation *activation;
	struct wl_client *client; /* NULL: garnet */
	struct wl_list tokens; /* activation_token.owner_link, oldest first */
	int count;
	struct wl_listener client_destroy;
};

struct activation_token {
	struct activation *activation;
	struct wl_resource *resource; /* NULL once the client destroyed its object */
	struct wl_client *client;
	char name[TOKEN_BYTES * 2 + 1];
	bool committed, has_serial;
	uint32_t serial;
	uint32_t deadline_msec;
	unsigned int input_generation; /* the seat's, at commit */
	struct token_owner *owner; /* set while live (granted and not spent) */
	struct wl_list link, owner_link;
};

static void token_retire(struct activation_token *token)
{
	if (!token->owner)
		return;
	garnet_list_unlink(&token->link);
	garnet_list_unlink(&token->owner_link);
	token->owner->count--;
	token->owner = NULL;
	if (!token->resource)
		free(token);
}

static void owner_free(struct token_owner *owner)
{
	struct activation_token *token, *tmp;

	wl_list_for_each_safe(token, tmp, &owner->tokens, owner_link)
		token_retire(token);
	wl_list_remove(&owner->client_destroy.link);
	free(owner);
}

static void owner_client_destroyed(struct wl_listener *listener, void *data)
{
	struct token_owner *owner = wl_container_of(listener, owner, client_destroy);

	(void)data;
	owner_free(owner);
}

static struct token_owner *owner_create(struct activation *activation, struct wl_client *client)
{
	struct token_owner *owner = calloc(1, sizeof(*owner));

	if (!owner)
		return NULL;
	owner->activation = activation;
	owner->client = client;
	wl_list_init(&owner->tokens);
	owner->client_destroy.notify = owner_client_destroyed;
	if (client)
		wl_client_add_destroy_listener(client, &owner->client_destroy);
	else
		wl_list_init(&owner->client_destroy.link);
	return owner;
}

static struct token_owner *owner_of(struct activation *activation, struct wl_client *client)
{
	struct wl_listener *l = wl_client_get_destroy_listener(client, owner_client_destroyed);
	struct token_owner *owner;

	if (l)
		return wl_container_of(l, owner, client_destroy);
	return owner_create(activation, client);
}

static bool expired(struct activation *activation, struct activation_token *token)
{
	return (int32_t)(token->deadline_msec - garnet_now_msec(activation->compositor)) < 0;
}

static bool make_name(struct activation_token *token)
{
	uint8_t bytes[TOKEN_BYTES];

	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes))
		return false;
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(token->name + i * 2, 3, "%02x", bytes[i]);
	return true;
}

/* Makes token live for owner: expired tokens go first, then the oldest over the cap. */
static void owner_add(struct token_owner *owner, struct activation_token *token,
		      uint32_t timeout_ms)
{
	struct activation *activation = owner->activation;
	struct activation_token *old, *tmp;

	wl_list_for_each_safe(old, tmp, &owner->tokens, owner_link) {
		if (expired(activation, old))
			token_retire(old);
	}
	if (owner->count >= TOKENS_PER_CLIENT) {
		old = wl_container_of(owner->tokens.next, old, owner_link);
		token_retire(old);
	}
	token->deadline_msec = garnet_now_msec(activation->compositor) + timeout_ms;
	token->input_generation = activation->compositor->seat->input_generation;
	token->owner = owner;
	owner->count++;
	wl_list_insert(owner->tokens.prev, &token->owner_link);
	wl_list_insert(&activation->tokens, &token->link);
}

/* A committed token outlives its object (it is passed to another client): only its resource
 * goes away. */
static void token_resource_destroy(struct wl_resource *resource)
{
	struct activation_token *token = wl_resource_get_user_data(resource);

	garnet_client_uncharge(token->client, GARNET_LIMIT_ACTIVATION_TOKENS, 1);
	token->resource = NULL;
	if (!token->owner)
		free(token);
}

static struct activation_token *token_from_request(struct wl_resource *resource)
{
	struct activation_token *token = wl_resource_get_user_data(resource);

	if (token->committed) {
		wl_resource_post_error(resource, XDG_ACTIVATION_TOKEN_V1_ERROR_ALREADY_USED,
				       "the token was already committed");
		return NULL;
	}
	return token;
}

static void token_set_serial(struct wl_client *client, struct wl_resource *resource,
			     uint32_t serial, struct wl_resource *seat)
{
	struct activation_token *token = token_from_request(resource);

	(void)client;
	(void)seat; /* garnet has one seat */
	if (!token)
		return;
	token->serial = serial;
	token->has_serial = true;
}

static void token_set_app_id(struct wl_client *client, struct wl_resource *resource,
			     const char *app_id)
{
	(void)client;
	(void)app_id;
	token_from_request(resource);
}

static void token_set_surface(struct wl_client *client, struct wl_resource *resource,
			      struct wl_resource *surface)
{
	(void)client;
	(void)surface;
	token_from_request(resource);
}

/* Every commit gets a name (the protocol has no refusal); only a granted one is kept. */
static void token_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct activation_token *token = token_from_request(resource);
	struct garnet_compositor *c;
	struct token_owner *owner;
	pid_t pid = 0;

	if (!token)
		return;
	c = token->activation->compositor;
	if (!make_name(token)) {
		wl_resource_post_no_memory(resource);
		return;
	}
	token->committed = true;
	if (token->has_serial && c->shell_hooks->client_holds_keyboard(c, client) &&
	    garnet_seat_input_serial_valid(c->seat, client, token->serial)) {
		owner = owner_of(token->activation, client);
		if (!owner) {
			wl_resource_post_no_memory(resource);
			return;
		}
		owner_add(owner, token, TOKEN_TIMEOUT_MS);
	} else {
		wl_client_get_credentials(client, &pid, NULL, NULL);
		garnet_log(c, GARNET_LOG_DEBUG, "focus",
			   "activation token of pid %d grants nothing: %s", (int)pid,
			   token->has_serial ? "no keyboard focus or no recent press with that serial"
					     : "no serial");
	}
	xdg_activation_token_v1_send_done(resource, token->name);
}

static const struct xdg_activation_token_v1_interface token_impl = {
	.set_serial = token_set_serial,
	.set_app_id = token_set_app_id,
	.set_surface = token_set_surface,
	.commit = token_commit,
	.destroy = garnet_resource_destroy_request,
};

static void activation_get_activation_token(struct wl_client *client,
					    struct wl_resource *resource, uint32_t id)
{
	struct activation *activation = wl_resource_get_user_data(resource);
	struct activation_token *token;

	/* Every token object counts against its client's budget while it exists (a refusal has
	 * already cut the client off). */
	if (!garnet_client_charge(client, GARNET_LIMIT_ACTIVATION_TOKENS, 1))
		return;
	token = calloc(1, sizeof(*token));
	if (!token) {
		garnet_client_uncharge(client, GARNET_LIMIT_ACTIVATION_TOKENS, 1);
		wl_resource_post_no_memory(resource);
		return;
	}
	token->resource = wl_resource_create(client, &xdg_activation_token_v1_interface,
					     wl_resource_get_version(resource), id);
	if (!token->resource) {
		free(token);
		garnet_client_uncharge(client, GARNET_LIMIT_ACTIVATION_TOKENS, 1);
		wl_resource_post_no_memory(resource);
		return;
	}
	token->activation = activation;
	token->client = client;
	wl_list_init(&token->link);
	wl_list_init(&token->owner_link);
	wl_resource_set_implementation(token->resource, &token_impl, token,
				       token_resource_destroy);
}

/* Still good at the moment it is used: unexpired, and the user has not pressed anything in
 * another client since it was made (a token kept for later cannot steal the keyboard from
 * whatever the user turned to). */
static bool still_valid(struct activation *activation, struct activation_token *token)
{
	struct garnet_compositor *c = activation->compositor;
	struct garnet_seat *seat = c->seat;

	if (expired(activation, token))
		return false;
	if (token->input_generation == seat->input_generation)
		return true;
	return token->owner->client &&
	       c->shell_hooks->client_holds_keyboard(c, token->owner->client) &&
	       garnet_seat_input_last_client(seat) == token->owner->client;
}

/* Unknown, used, expired or stale tokens are ignored, as the protocol allows. */
static void activation_activate(struct wl_client *client, struct wl_resource *resource,
				const char *name, struct wl_resource *surface_resource)
{
	struct activation *activation = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct activation_token *token, *found = NULL;
	struct garnet_toplevel *toplevel;
	uint32_t left;
	bool valid;
	pid_t pid = 0;

	wl_list_for_each(token, &activation->tokens, link) {
		if (strcmp(token->name, name) == 0) {
			found = token;
			break;
		}
	}
	wl_client_get_credentials(client, &pid, NULL, NULL);
	if (!found) {
		garnet_log(activation->compositor, GARNET_LOG_DEBUG, "focus",
			   "pid %d activated with an unknown, spent or expired token", (int)pid);
		return;
	}
	valid = still_valid(activation, found);
	left = found->deadline_msec - garnet_now_msec(activation->compositor);
	token_retire(found);
	toplevel = garnet_xdg_toplevel_from_surface(surface);
	if (!valid || !toplevel) {
		garnet_log(activation->compositor, GARNET_LOG_DEBUG, "focus",
			   "pid %d activated with a token that %s", (int)pid,
			   valid ? "names no toplevel" : "expired or went stale");
		return;
	}
	activation->compositor->shell_hooks->activate(activation->compositor->shell, toplevel, client,
						      left);
}

static const struct xdg_activation_v1_interface activation_impl = {
	.destroy = garnet_resource_destroy_request,
	.get_activation_token = activation_get_activation_token,
	.activate = activation_activate,
};

static void activation_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct wl_resource *resource =
		wl_resource_create(client, &xdg_activation_v1_interface, (int)version, id);

	if (!resource) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &activation_impl, data, NULL);
}

/* Clients are gone; tokens whose objects died before them went with their owners. */
static void activation_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct activation *activation = wl_container_of(listener, activation, compositor_destroy);

	(void)data;
	owner_free(activation->garnet);
	wl_list_remove(&activation->compositor_destroy.link);
	free(activation);
}

static struct activation *activation_of(struct garnet_compositor *c)
{
	struct wl_listener *l = wl_signal_get(&c->events.destroy, activation_compositor_destroy);
	struct activation *activation;

	return l ? wl_container_of(l, activation, compositor_destroy) : NULL;
}

bool garnet_activation_mint(struct garnet_compositor *c, char *name, size_t size)
{
	struct activation *activation = activation_of(c);
	struct activation_token *token;

	if (!activation || size <= TOKEN_BYTES * 2)
		return false;
	token = calloc(1, sizeof(*token));
	if (!token)
		return false;
	token->activation = activation;
	token->committed = true;
	wl_list_init(&token->link);
	wl_list_init(&token->owner_link);
	if (!make_name(token)) {
		free(token);
		return false;
	}
	owner_add(activation->garnet, token, LAUNCH_TOKEN_TIMEOUT_MS);
	snprintf(name, size, "%s", token->name);
	return true;
}

bool garnet_xdg_activation_init(struct garnet_compositor *c)
{
	struct activation *activation = calloc(1, sizeof(*activation));

	if (!activation)
		return false;
	activation->compositor = c;
	wl_list_init(&activation->tokens);
	activation->garnet = owner_create(activation, NULL);
	if (!activation->garnet)
		goto err_owner;
	if (!garnet_global_create(c, &xdg_activation_v1_interface, 1, activation,
				  activation_bind, false))
		goto err_global;
	activation->compositor_destroy.notify = activation_compositor_destroy;
	wl_signal_add(&c->events.destroy, &activation->compositor_destroy);
	return true;

err_global:
	owner_free(activation->garnet);
err_owner:
	free(activation);
	return false;
}
