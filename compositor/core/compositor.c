// SPDX-License-Identifier: MIT
// The compositor object: display, socket, the registry's filter, layers. Which globals exist
// and in what order everything is made and freed is globals.c's, one layer up.
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "x-server-client.h"
#include "compositor.h"
#include "output.h"
#include "surface.h"
#include "seat.h"
#include "consent.h"
#include "lock-prompt.h"
#include "client-budget.h"

void garnet_options_init(struct garnet_options *o)
{
	*o = (struct garnet_options){
		.keyboard = {.repeat_rate = 40, .repeat_delay = 400},
		.background_argb = 0xff2e3440,
		.repaint_window_ms = GARNET_REPAINT_WINDOW_AUTO,
		.requests_per_second = 100000,
		.limits = {
			.max = {
				[GARNET_LIMIT_TEXTURE_BYTES] = 256u << 20,
				[GARNET_LIMIT_SURFACES] = 4096,
				[GARNET_LIMIT_SUBSURFACES] = 1024,
				[GARNET_LIMIT_REGION_RECTS] = 65536,
				[GARNET_LIMIT_MIME_TYPES] = 1024,
				[GARNET_LIMIT_ACTIVATION_TOKENS] = 64,
			},
			.region_rects = 1024,
			.copy_bytes_per_frame = 32u << 20,
		},
		.builtin_cursor = true,
		.consent_arm_ms = 500,
		.cast_list_seconds = 10,
	};
}

/* What only this file touches: garnet_compositor_alloc hands out the base, every other file
 * sees only struct garnet_compositor. */
struct compositor_private {
	struct garnet_compositor base;
	char *keyboard_strings[5]; /* owned copies behind options.keyboard */
	struct wl_list privileged_globals; /* garnet_privileged_global.link */
};

static struct compositor_private *private_of(struct garnet_compositor *c)
{
	return (struct compositor_private *)((char *)c - offsetof(struct compositor_private, base));
}

static struct garnet_privileged_global *find_privileged(struct garnet_compositor *c,
							  const struct wl_global *global)
{
	struct garnet_privileged_global *p;

	wl_list_for_each(p, &private_of(c)->privileged_globals, link) {
		if (p->global == global)
			return p;
	}
	return NULL;
}

/* Every client's registry passes through here: the security layer hides what it must. */
static bool global_filter(const struct wl_client *client, const struct wl_global *global,
			  void *data)
{
	struct garnet_compositor *c = data;
	struct garnet_privileged_global *p = find_privileged(c, global);

	/* Whatever the policy says, the protocol's own rule first (a sandbox cannot make one). */
	if (p && p->hidden_from && p->hidden_from(client))
		return false;
	/* An X server speaks for every X client of its domain: none of them is trusted. */
	if (p && garnet_client_is_x_server(client)) {
		garnet_log(c, GARNET_LOG_DEBUG, "security",
			   "privileged global %s hidden from an Xwayland",
			   wl_global_get_interface(global)->name);
		return false;
	}
	if (!c->hooks.global_visible)
		return true;
	return c->hooks.global_visible(c->hooks.data, client, wl_global_get_interface(global),
				       p != NULL);
}

void garnet_global_hide_from(struct garnet_compositor *c, struct wl_global *global,
			     bool (*hidden_from)(const struct wl_client *client))
{
	struct garnet_privileged_global *p = find_privileged(c, global);

	if (p)
		p->hidden_from = hidden_from;
}

struct wl_global *garnet_global_create(struct garnet_compositor *c,
				       const struct wl_interface *interface, int version,
				       void *data, wl_global_bind_func_t bind, bool privileged)
{
	struct wl_global *global = wl_global_create(c->display, interface, version, data, bind);
	struct garnet_privileged_global *p;

	if (!global || !privileged)
		return global;
	p = calloc(1, sizeof(*p));
	if (!p) {
		wl_global_destroy(global);
		return NULL;
	}
	p->global = global;
	wl_list_insert(&private_of(c)->privileged_globals, &p->link);
	return global;
}

bool garnet_global_check_bind(struct garnet_compositor *c, struct wl_client *client,
			      const struct wl_interface *interface)
{
	pid_t pid = 0;

	if (garnet_client_is_x_server(client)) {
		garnet_log(c, GARNET_LOG_WARNING, "security",
			   "denied: an Xwayland may not bind %s (privileged)", interface->name);
		wl_client_post_implementation_error(client, "binding %s is not permitted",
						    interface->name);
		return false;
	}
	if (!c->hooks.bind_privileged || c->hooks.bind_privileged(c->hooks.data, client, interface))
		return true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_WARNING, "security", "denied: pid %d may not bind %s", (int)pid,
		   interface->name);
	wl_client_post_implementation_error(client, "binding %s is not permitted",
					    interface->name);
	return false;
}

/* What a security layer's unset hooks decide: no. */
static bool deny_privileged_global(void *data, const struct wl_client *client,
				   const struct wl_interface *interface, bool privileged)
{
	return !privileged;
}

static bool deny_bind(void *data, struct wl_client *client, const struct wl_interface *interface)
{
	return false;
}

static bool deny_input(void *data, struct wl_client *client, struct garnet_surface *surface,
		       enum garnet_input_kind kind)
{
	return false;
}

static bool deny_read(void *data, struct wl_client *client, struct wl_client *owner,
		      enum garnet_selection_kind kind)
{
	return false;
}

static bool deny_write(void *data, struct wl_client *client, enum garnet_selection_kind kind)
{
	return false;
}

static bool deny_pixels(void *data, struct wl_client *client, enum garnet_pixels_kind kind,
			const char *object)
{
	return false;
}

static bool deny_import(void *data, struct wl_client *client, struct wl_client *owner)
{
	return false;
}

static enum garnet_decision deny_capture(void *data, struct wl_client *client,
					 const char *output_name, bool stream)
{
	return GARNET_DENY;
}

static bool deny_client(void *data, struct wl_client *client)
{
	return false;
}

/* An act of client on a named object (a shortcut action, an output). */
static bool deny_named(void *data, struct wl_client *client, const char *name)
{
	return false;
}

static bool deny_sandbox(void *data, struct wl_client *client, const char *engine,
			 const char *app_id, const char *instance_id)
{
	return false;
}

static bool deny_xwayland(void *data, struct wl_client *client, const char *executable,
			  const char *domain)
{
	return false;
}

void garnet_compositor_set_security_hooks(struct garnet_compositor *c,
					  const struct garnet_security_hooks *hooks)
{
	struct garnet_security_hooks *h = &c->hooks;

	*h = hooks ? *hooks : (struct garnet_security_hooks){0};
	if (!h->deny_unset)
		return;
	h->global_visible = h->global_visible ? h->global_visible : deny_privileged_global;
	h->bind_privileged = h->bind_privileged ? h->bind_privileged : deny_bind;
	h->deliver_input = h->deliver_input ? h->deliver_input : deny_input;
	h->read_selection = h->read_selection ? h->read_selection : deny_read;
	h->write_selection = h->write_selection ? h->write_selection : deny_write;
	h->share_pixels = h->share_pixels ? h->share_pixels : deny_pixels;
	h->import_buffer = h->import_buffer ? h->import_buffer : deny_import;
	h->capture_output = h->capture_output ? h->capture_output : deny_capture;
	h->lock_session = h->lock_session ? h->lock_session : deny_client;
	h->inject_keys = h->inject_keys ? h->inject_keys : deny_client;
	h->inject_pointer = h->inject_pointer ? h->inject_pointer : deny_client;
	h->input_method = h->input_method ? h->input_method : deny_client;
	h->global_shortcut = h->global_shortcut ? h->global_shortcut : deny_named;
	h->idle_notify = h->idle_notify ? h->idle_notify : deny_client;
	h->raise_focus = h->raise_focus ? h->raise_focus : deny_client;
	h->fullscreen = h->fullscreen ? h->fullscreen : deny_named;
	h->layer = h->layer ? h->layer : deny_named;
	h->exclusive_keyboard = h->exclusive_keyboard ? h->exclusive_keyboard : deny_client;
	h->foreign_toplevel = h->foreign_toplevel ? h->foreign_toplevel : deny_client;
	h->output_power = h->output_power ? h->output_power : deny_named;
	h->configure_output = h->configure_output ? h->configure_output : deny_named;
	h->client_sandboxed = h->client_sandboxed ? h->client_sandboxed : deny_sandbox;
	h->client_xwayland = h->client_xwayland ? h->client_xwayland : deny_xwayland;
	h->join_xwayland_domain = h->join_xwayland_domain ? h->join_xwayland_domain : deny_named;
}

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void copy_options(struct garnet_compositor *c, const struct garnet_options *o)
{
	struct garnet_keyboard_options *kb = &c->options.keyboard;
	char **strings = private_of(c)->keyboard_strings;

	c->options = *o;
	c->options.socket = NULL;
	strings[0] = dup_or_null(o->keyboard.rules);
	strings[1] = dup_or_null(o->keyboard.model);
	strings[2] = dup_or_null(o->keyboard.layout);
	strings[3] = dup_or_null(o->keyboard.variant);
	strings[4] = dup_or_null(o->keyboard.options);
	kb->rules = strings[0];
	kb->model = strings[1];
	kb->layout = strings[2];
	kb->variant = strings[3];
	kb->options = strings[4];
}

static bool add_socket(struct garnet_compositor *c, const char *name)
{
	const char *auto_name;

	if (name) {
		if (wl_display_add_socket(c->display, name) < 0) {
			garnet_log(c, GARNET_LOG_ERROR, "core", "cannot listen on socket %s: %s",
				   name, strerror(errno));
			return false;
		}
		c->socket = strdup(name);
		return c->socket != NULL;
	}
	auto_name = wl_display_add_socket_auto(c->display);
	if (!auto_name) {
		garnet_log(c, GARNET_LOG_ERROR, "core", "no free wayland-N socket: %s",
			   strerror(errno));
		return false;
	}
	c->socket = strdup(auto_name);
	return c->socket != NULL;
}

struct garnet_compositor *garnet_compositor_alloc(const struct garnet_options *o)
{
	struct compositor_private *priv = calloc(1, sizeof(*priv));
	struct garnet_compositor *c = priv ? &priv->base : NULL;

	if (!c)
		return NULL;
	wl_list_init(&priv->privileged_globals);
	copy_options(c, o);
	c->log_level = GARNET_LOG_INFO;
	c->clock = CLOCK_MONOTONIC;
	if (getrlimit(RLIMIT_NOFILE, &c->nofile) < 0)
		c->nofile.rlim_cur = c->nofile.rlim_max = 0;
	wl_list_init(&c->outputs);
	wl_list_init(&c->pending_releases);
	wl_list_init(&c->backends);
	for (int i = 0; i < GARNET_LAYER_COUNT; i++)
		wl_list_init(&c->layers[i]);
	wl_signal_init(&c->events.destroy);
	wl_signal_init(&c->events.new_surface);
	wl_signal_init(&c->events.output_frame);
	if (!garnet_lock_prompt_init(c))
		goto err_display;

	c->display = wl_display_create();
	if (!c->display)
		goto err_display;
	c->loop = wl_display_get_event_loop(c->display);
	wl_display_set_global_filter(c->display, global_filter, c);
	if (!o->no_socket && !add_socket(c, o->socket))
		goto err_socket;
	return c;

err_socket:
	garnet_compositor_free(c);
	return NULL;
err_display:
	garnet_lock_prompt_finish(c);
	free(priv);
	return NULL;
}

void garnet_compositor_disconnect(struct garnet_compositor *c)
{
	struct garnet_output *output, *tmp_output;

	/* Clients first: their resources point into everything below. */
	wl_display_destroy_clients(c->display);
	if (c->seat && c->seat->grab != &c->seat->default_grab) {
		c->seat->grab->impl->cancel(c->seat->grab);
		c->seat->grab = &c->seat->default_grab;
	}
	wl_signal_emit_mutable(&c->events.destroy, c);
	/* The clients' buffers went with them, and their pending releases. */
	if (c->release_idle)
		wl_event_source_remove(c->release_idle);
	c->release_idle = NULL;
	/* Outputs while the shell and seat they report to still exist. */
	wl_list_for_each_safe(output, tmp_output, &c->outputs, link)
		garnet_output_destroy(output);
}

void garnet_compositor_free(struct garnet_compositor *c)
{
	struct compositor_private *priv = private_of(c);
	struct garnet_backend *backend, *tmp_backend;
	struct garnet_privileged_global *p, *tmp_p;

	garnet_seat_destroy(c->seat);
	garnet_lock_prompt_finish(c);
	garnet_consent_finish(c);
	if (c->builtin_cursor)
		pixman_image_unref(c->builtin_cursor);
	if (c->background_image)
		pixman_image_unref(c->background_image);
	c->seat = NULL;
	wl_list_for_each_safe(backend, tmp_backend, &c->backends, link) {
		wl_list_remove(&backend->link);
		backend->destroy(backend);
	}
	wl_list_for_each_safe(p, tmp_p, &priv->privileged_globals, link) {
		wl_list_remove(&p->link);
		free(p);
	}
	garnet_client_budget_finish(c);
	wl_display_destroy(c->display);
	for (size_t i = 0; i < GARNET_ARRAY_LENGTH(priv->keyboard_strings); i++)
		free(priv->keyboard_strings[i]);
	free(c->socket);
	free(priv);
}

struct wl_display *garnet_compositor_get_display(struct garnet_compositor *c)
{
	return c->display;
}

struct wl_event_loop *garnet_compositor_get_loop(struct garnet_compositor *c)
{
	return c->loop;
}

const char *garnet_compositor_get_socket(struct garnet_compositor *c)
{
	return c->socket;
}

struct garnet_seat *garnet_compositor_get_seat(struct garnet_compositor *c)
{
	return c->seat;
}

struct garnet_output *garnet_compositor_first_output(struct garnet_compositor *c)
{
	struct garnet_output *output;

	if (wl_list_empty(&c->outputs))
		return NULL;
	output = wl_container_of(c->outputs.next, output, link);
	return output;
}

struct garnet_output *garnet_compositor_find_output(struct garnet_compositor *c, const char *name)
{
	struct garnet_output *output;

	wl_list_for_each(output, &c->outputs, link) {
		if (strcmp(output->name, name) == 0)
			return output;
	}
	return NULL;
}

void garnet_compositor_run(struct garnet_compositor *c)
{
	wl_display_run(c->display);
}

void garnet_compositor_terminate(struct garnet_compositor *c)
{
	wl_display_terminate(c->display);
}

uint32_t garnet_now_msec(struct garnet_compositor *c)
{
	struct timespec ts;

	clock_gettime(c->clock, &ts);
	return (uint32_t)(ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}
