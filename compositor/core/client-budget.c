// SPDX-License-Identifier: MIT
// Each client's budget, in one place: requests per second (a flood is disconnected with a
// protocol error, so it cannot starve the event loop while other clients wait for their
// frames), what it makes garnet hold (garnet_options.limits: texture bytes, surfaces,
// rectangles, mime types, tokens).
#include <inttypes.h>
#include <stdlib.h>

#include "compositor.h"
#include "client-budget.h"
#include "x-server-client.h"

/* How many times a Wayland client's surfaces an X server may hold. */
#define X_SERVER_SURFACES_FACTOR 4

struct client_budget {
	struct garnet_compositor *compositor;
	struct wl_listener destroy;
	uint64_t window_start_ms;
	uint32_t requests;
	bool exceeded;
	uint64_t held[GARNET_LIMIT_COUNT];
};

static const char *const limit_names[GARNET_LIMIT_COUNT] = {
	[GARNET_LIMIT_TEXTURE_BYTES] = "bytes of buffer copies",
	[GARNET_LIMIT_SURFACES] = "surfaces",
	[GARNET_LIMIT_SUBSURFACES] = "subsurfaces",
	[GARNET_LIMIT_REGION_RECTS] = "region rectangles",
	[GARNET_LIMIT_MIME_TYPES] = "mime types",
	[GARNET_LIMIT_ACTIVATION_TOKENS] = "activation tokens",
};

static void budget_client_destroyed(struct wl_listener *listener, void *data)
{
	struct client_budget *b = wl_container_of(listener, b, destroy);

	wl_list_remove(&b->destroy.link);
	free(b);
}

static struct client_budget *budget_of(struct garnet_compositor *c, struct wl_client *client)
{
	struct wl_listener *l = wl_client_get_destroy_listener(client, budget_client_destroyed);
	struct client_budget *b;

	if (l)
		return wl_container_of(l, b, destroy);
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->compositor = c;
	b->destroy.notify = budget_client_destroyed;
	wl_client_add_destroy_listener(client, &b->destroy);
	return b;
}

static uint64_t now_ms(struct garnet_compositor *c)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* libwayland calls this before it runs each request. Posting the error makes libwayland stop
 * reading the client after this request and destroy it; destroying it here would pull the
 * client away under libwayland's feet. */
static void on_message(void *data, enum wl_protocol_logger_type type,
		       const struct wl_protocol_logger_message *message)
{
	struct garnet_compositor *c = data;
	struct wl_client *client;
	struct client_budget *b;
	uint64_t now;
	pid_t pid = 0;

	if (type != WL_PROTOCOL_LOGGER_REQUEST)
		return;
	/* Made here, before the client's first request runs, so that charges (made by requests)
	 * always find it, and never made while libwayland takes a client apart. */
	client = wl_resource_get_client(message->resource);
	b = budget_of(c, client);
	if (!b || b->exceeded || c->options.requests_per_second == 0)
		return;
	/* Checking the clock every request would cost more than the request: every 1024th. */
	if ((++b->requests & 1023) != 0 && b->requests <= c->options.requests_per_second)
		return;
	now = now_ms(c);
	if (b->window_start_ms == 0 || now - b->window_start_ms >= 1000) {
		b->window_start_ms = now;
		b->requests = 1;
		return;
	}
	if (b->requests <= c->options.requests_per_second)
		return;
	b->exceeded = true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_WARNING, "security",
		   "pid %d sent more than %u requests in a second: disconnected", (int)pid,
		   c->options.requests_per_second);
	wl_client_post_implementation_error(client, "more than %u requests in a second",
					    c->options.requests_per_second);
}

static struct client_budget *find_budget(struct wl_client *client)
{
	struct wl_listener *l = wl_client_get_destroy_listener(client, budget_client_destroyed);
	struct client_budget *b;

	return l ? wl_container_of(l, b, destroy) : NULL;
}

bool garnet_client_charge(struct wl_client *client, enum garnet_limit limit, uint64_t amount)
{
	struct client_budget *b = find_budget(client);
	uint64_t max;
	pid_t pid = 0;

	/* No budget: the client is being taken apart, and holds nothing for long. */
	if (!b)
		return true;
	max = b->compositor->options.limits.max[limit];
	/*
	 * An X server makes a surface for every X window shown, for all the X clients of its
	 * domain, and destroys it a second after the window goes (Xwayland gives its window
	 * manager that long to pair the two): a domain mapping and unmapping windows quickly
	 * holds many more than one Wayland client would.
	 */
	if (limit == GARNET_LIMIT_SURFACES && garnet_client_is_x_server(client) &&
	    max <= UINT64_MAX / X_SERVER_SURFACES_FACTOR)
		max *= X_SERVER_SURFACES_FACTOR;
	if (max == 0 || (b->held[limit] <= max && amount <= max - b->held[limit])) {
		b->held[limit] += amount;
		return true;
	}
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(b->compositor, GARNET_LOG_WARNING, "security",
		   "pid %d asked for more than its %" PRIu64 " %s: disconnected", (int)pid, max,
		   limit_names[limit]);
	wl_resource_post_error(wl_client_get_object(client, 1), WL_DISPLAY_ERROR_NO_MEMORY,
			       "over garnet's budget of %" PRIu64 " %s per client", max,
			       limit_names[limit]);
	return false;
}

bool garnet_client_is_going(struct wl_client *client)
{
	/* The budget is made before the client's first request and goes with its destroy
	 * signal, which libwayland emits before it destroys the client's objects. */
	return find_budget(client) == NULL;
}

void garnet_client_uncharge(struct wl_client *client, enum garnet_limit limit, uint64_t amount)
{
	struct client_budget *b = find_budget(client);

	if (b)
		b->held[limit] -= amount < b->held[limit] ? amount : b->held[limit];
}

bool garnet_client_budget_init(struct garnet_compositor *c)
{
	c->budget_logger = wl_display_add_protocol_logger(c->display, on_message, c);
	return c->budget_logger != NULL;
}

void garnet_client_budget_finish(struct garnet_compositor *c)
{
	if (c->budget_logger)
		wl_protocol_logger_destroy(c->budget_logger);
	c->budget_logger = NULL;
}
