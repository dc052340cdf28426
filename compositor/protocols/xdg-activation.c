// SPDX-License-Identifier: MIT
// xdg_activation_v1: one client hands focus to another window (a launcher starting an app, a
// link opening in the browser) with a token. A token grants focus only if the client that asked
// for it held the keyboard focus when it committed the token, so no client can use activation
// to steal focus from the one the user is typing into. Tokens are random and single-use.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../core/internal.h"
#include "client-protocols.h"
#include "xdg-activation-v1-server-protocol.h"

#define TOKEN_BYTES 16

struct activation {
	struct garnet_compositor *compositor;
	struct wl_list tokens; /* activation_token.link, committed ones only */
	struct wl_listener compositor_destroy;
};

struct activation_token {
	struct activation *activation;
	struct wl_resource *resource; /* NULL once the client destroyed its object */
	char name[TOKEN_BYTES * 2 + 1];
	bool committed, granted;
	bool listed; /* committed and not yet spent */
	struct wl_list link;
};

static void token_free(struct activation_token *token)
{
	wl_list_remove(&token->link);
	free(token);
}

/* A committed token outlives its object (it is passed to another client): only its resource
 * goes away. */
static void token_resource_destroy(struct wl_resource *resource)
{
	struct activation_token *token = wl_resource_get_user_data(resource);

	token->resource = NULL;
	if (!token->listed)
		token_free(token);
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
	(void)client;
	(void)serial; /* focus at commit decides, which a stale serial cannot fake */
	(void)seat;
	token_from_request(resource);
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

static void token_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct activation_token *token = token_from_request(resource);
	struct garnet_surface *focus;
	uint8_t bytes[TOKEN_BYTES];

	if (!token)
		return;
	if (getrandom(bytes, sizeof(bytes), 0) != (ssize_t)sizeof(bytes)) {
		wl_resource_post_no_memory(resource);
		return;
	}
	for (size_t i = 0; i < sizeof(bytes); i++)
		snprintf(token->name + i * 2, 3, "%02x", bytes[i]);
	focus = token->activation->compositor->seat->keyboard_focus;
	token->granted = focus && wl_resource_get_client(focus->resource) == client;
	token->committed = true;
	token->listed = true;
	wl_list_insert(&token->activation->tokens, &token->link);
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
	struct activation_token *token = calloc(1, sizeof(*token));

	if (!token) {
		wl_resource_post_no_memory(resource);
		return;
	}
	token->resource = wl_resource_create(client, &xdg_activation_token_v1_interface,
					     wl_resource_get_version(resource), id);
	if (!token->resource) {
		free(token);
		wl_resource_post_no_memory(resource);
		return;
	}
	token->activation = activation;
	wl_list_init(&token->link);
	wl_resource_set_implementation(token->resource, &token_impl, token,
				       token_resource_destroy);
}

/* Unknown, used or ungranted tokens are ignored, as the protocol allows. */
static void activation_activate(struct wl_client *client, struct wl_resource *resource,
				const char *name, struct wl_resource *surface_resource)
{
	struct activation *activation = wl_resource_get_user_data(resource);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct activation_token *token, *found = NULL;
	struct garnet_toplevel *toplevel;
	bool granted;

	(void)client;
	wl_list_for_each(token, &activation->tokens, link) {
		if (strcmp(token->name, name) == 0) {
			found = token;
			break;
		}
	}
	if (!found)
		return;
	granted = found->granted;
	garnet_list_unlink(&found->link);
	found->listed = false;
	if (!found->resource)
		token_free(found);
	toplevel = garnet_xdg_toplevel_from_surface(surface);
	if (granted && toplevel)
		garnet_shell_focus(activation->compositor->shell, toplevel);
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

/* Clients are gone; tokens whose objects died before them are still listed. */
static void activation_compositor_destroy(struct wl_listener *listener, void *data)
{
	struct activation *activation = wl_container_of(listener, activation, compositor_destroy);
	struct activation_token *token, *tmp;

	(void)data;
	wl_list_for_each_safe(token, tmp, &activation->tokens, link)
		token_free(token);
	wl_list_remove(&activation->compositor_destroy.link);
	free(activation);
}

bool garnet_xdg_activation_init(struct garnet_compositor *c)
{
	struct activation *activation = calloc(1, sizeof(*activation));

	if (!activation)
		return false;
	activation->compositor = c;
	wl_list_init(&activation->tokens);
	if (!garnet_global_create(c, &xdg_activation_v1_interface, 1, activation,
				  activation_bind, false)) {
		free(activation);
		return false;
	}
	activation->compositor_destroy.notify = activation_compositor_destroy;
	wl_signal_add(&c->events.destroy, &activation->compositor_destroy);
	return true;
}
