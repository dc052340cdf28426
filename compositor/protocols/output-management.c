// SPDX-License-Identifier: MIT
// zwlr_output_manager_v1 (version 4): kanshi and wlr-randr read the outputs (heads and their
// modes) and change their mode, position, transform and scale. Arranging the screens moves
// what the user sees, so the manager is a privileged global and each output of a
// configuration is asked of the security layer (configure_output) when it is tested or
// applied; a refusal is the configuration's failed event. A configuration is checked whole
// before any output changes (core/output-configure.c) and undone if an output fails midway.
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/lifetime.h"
#include "../core/output.h"
#include "output-management.h"
#include "wlr-output-management-unstable-v1-server-protocol.h"

#define MANAGER_VERSION 4
#define MODE_VERSION 3 /* zwlr_output_mode_v1 stops at 3 */

struct output_management {
	struct garnet_compositor *compositor;
	struct wl_list managers; /* manager.link */
	/* Bumped at every change of any output: a configuration made before is cancelled. */
	uint32_t serial;
	uint64_t last_config_id;
	/* The outputs this manager disabled: out of the compositor's list, still heads. */
	struct wl_list disabled; /* disabled_output.link */
	/* The changes of one turn of the loop reach the clients with one done. */
	struct wl_event_source *idle;
	struct wl_listener compositor_destroy;
};

struct disabled_output {
	struct garnet_output *output;
	struct wl_list link;
	struct wl_listener gone;
};

struct manager {
	struct output_management *state;
	struct wl_resource *resource;
	struct wl_list heads; /* head.link */
	struct wl_list link;
};

/* A client's head: one output as one manager resource sees it. */
struct head {
	struct manager *manager; /* NULL once the manager is gone */
	struct wl_resource *resource;
	struct garnet_output *output; /* NULL once finished (the output went) */
	struct wl_list modes; /* mode.link */
	struct wl_list link;
	struct wl_listener output_destroy;
	/* The id of the configuration this head was last named in. */
	uint64_t last_config;
};

struct mode {
	struct head *head; /* NULL once the head is gone */
	struct wl_resource *resource;
	struct garnet_output_mode mode;
	bool custom; /* not a mode the backend offers: the output's present custom mode */
	bool finished;
	struct wl_list link;
};

/* One output named in a configuration: enabled (with its resource, and what it sets) or
 * disabled (no resource). */
struct config_head {
	struct configuration *config; /* NULL once the configuration is gone */
	struct wl_resource *resource;
	struct garnet_output *output; /* NULL once the output went: the serial is stale then */
	bool enabled;
	bool mode_set, position_set, transform_set, scale_set, adaptive_sync_set;
	bool scale_fractional; /* a scale garnet cannot show: the configuration fails */
	int32_t width, height, refresh_mhz, x, y, transform, scale;
	bool adaptive_sync;
	struct wl_list link;
	struct wl_listener output_destroy;
};

struct configuration {
	struct output_management *state;
	struct wl_resource *resource;
	uint32_t serial;
	bool used; /* applied or tested: only destroy is left */
	/* It names a head whose output is gone: it cannot be applied (nothing of that head is
	 * kept, so naming finished heads again and again costs nothing). */
	bool names_finished_head;
	uint32_t output_mask; /* the outputs named (garnet_output.index bits) */
	uint64_t id; /* never 0, never reused */
	struct wl_list heads; /* config_head.link */
};

/* ---- modes and heads ---- */

static void mode_resource_destroy(struct wl_resource *resource)
{
	struct mode *m = wl_resource_get_user_data(resource);

	garnet_list_unlink(&m->link);
	free(m);
}

static const struct zwlr_output_mode_v1_interface mode_impl = {
	.release = garnet_resource_destroy_request,
};

static struct mode *mode_send(struct head *h, const struct garnet_output_mode *om, bool preferred)
{
	struct wl_client *client = wl_resource_get_client(h->resource);
	int version = wl_resource_get_version(h->resource);
	struct mode *m = calloc(1, sizeof(*m));

	if (!m) {
		wl_client_post_no_memory(client);
		return NULL;
	}
	m->resource = garnet_resource_create(client, &zwlr_output_mode_v1_interface,
					     version < MODE_VERSION ? version : MODE_VERSION, 0,
					     &mode_impl, m, mode_resource_destroy);
	if (!m->resource) {
		free(m);
		return NULL;
	}
	m->head = h;
	m->mode = *om;
	wl_list_insert(h->modes.prev, &m->link);
	zwlr_output_head_v1_send_mode(h->resource, m->resource);
	zwlr_output_mode_v1_send_size(m->resource, om->width, om->height);
	if (om->refresh_mhz > 0)
		zwlr_output_mode_v1_send_refresh(m->resource, om->refresh_mhz);
	if (preferred)
		zwlr_output_mode_v1_send_preferred(m->resource);
	return m;
}

static bool same_mode(const struct garnet_output_mode *a, const struct garnet_output_mode *b)
{
	return a->width == b->width && a->height == b->height && a->refresh_mhz == b->refresh_mhz;
}

/* Finished, a mode object only waits for its client's release: off the head's list (which
 * every output change walks), tied to no head. */
static void mode_finish(struct mode *m)
{
	zwlr_output_mode_v1_send_finished(m->resource);
	m->finished = true;
	m->head = NULL;
	garnet_list_unlink(&m->link);
}

/* The head's mode object for the output's present mode. A custom mode gets one of its own,
 * and the custom mode it replaces is finished: a client changing sizes again and again makes
 * one mode object at a time in every manager, not one per size. */
static struct mode *current_mode(struct head *h)
{
	struct mode *m, *tmp, *made;

	wl_list_for_each (m, &h->modes, link) {
		if (!m->finished && same_mode(&m->mode, &h->output->mode))
			return m;
	}
	made = mode_send(h, &h->output->mode, false);
	if (!made)
		return NULL;
	made->custom = true;
	wl_list_for_each_safe (m, tmp, &h->modes, link) {
		if (m != made && m->custom && !m->finished)
			mode_finish(m);
	}
	return made;
}

static void head_send_state(struct head *h)
{
	struct garnet_output *o = h->output;
	int version = wl_resource_get_version(h->resource);
	struct mode *m;

	/* Disabled: no mode, place, transform or scale to tell. */
	if (o->disabled) {
		zwlr_output_head_v1_send_enabled(h->resource, 0);
		return;
	}
	m = current_mode(h);
	zwlr_output_head_v1_send_enabled(h->resource, 1);
	if (m)
		zwlr_output_head_v1_send_current_mode(h->resource, m->resource);
	zwlr_output_head_v1_send_position(h->resource, o->x, o->y);
	zwlr_output_head_v1_send_transform(h->resource, o->mode.transform);
	zwlr_output_head_v1_send_scale(h->resource, wl_fixed_from_int(o->mode.scale));
	if (version >= ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_SINCE_VERSION)
		zwlr_output_head_v1_send_adaptive_sync(
			h->resource, ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_DISABLED);
}

/* The head no longer stands for an output; its modes end with it. */
static void head_finish(struct head *h)
{
	struct mode *m, *tmp;

	if (!h->output)
		return;
	garnet_list_unlink(&h->output_destroy.link);
	h->output = NULL;
	wl_list_for_each_safe (m, tmp, &h->modes, link)
		mode_finish(m);
	zwlr_output_head_v1_send_finished(h->resource);
}

static void schedule_done(struct output_management *state);

static void head_output_destroyed(struct wl_listener *listener, void *data)
{
	struct head *h = wl_container_of(listener, h, output_destroy);
	struct output_management *state = h->manager ? h->manager->state : NULL;

	head_finish(h);
	if (state)
		schedule_done(state);
}

static void head_resource_destroy(struct wl_resource *resource)
{
	struct head *h = wl_resource_get_user_data(resource);
	struct mode *m, *tmp;

	garnet_list_unlink(&h->output_destroy.link);
	garnet_list_unlink(&h->link);
	/* Its mode objects stay the client's, with no head. */
	wl_list_for_each_safe (m, tmp, &h->modes, link) {
		m->head = NULL;
		garnet_list_unlink(&m->link);
	}
	free(h);
}

static const struct zwlr_output_head_v1_interface head_impl = {
	.release = garnet_resource_destroy_request,
};

static void head_create(struct manager *mgr, struct garnet_output *o)
{
	struct wl_client *client = wl_resource_get_client(mgr->resource);
	int version = wl_resource_get_version(mgr->resource);
	struct head *h = calloc(1, sizeof(*h));

	if (!h) {
		wl_client_post_no_memory(client);
		return;
	}
	h->resource = garnet_resource_create(client, &zwlr_output_head_v1_interface, version, 0,
					     &head_impl, h, head_resource_destroy);
	if (!h->resource) {
		free(h);
		return;
	}
	h->manager = mgr;
	h->output = o;
	wl_list_init(&h->modes);
	wl_list_insert(mgr->heads.prev, &h->link);
	h->output_destroy.notify = head_output_destroyed;
	wl_signal_add(&o->events.gone, &h->output_destroy);
	zwlr_output_manager_v1_send_head(mgr->resource, h->resource);
	zwlr_output_head_v1_send_name(h->resource, o->name);
	zwlr_output_head_v1_send_description(h->resource, o->description);
	if (version >= ZWLR_OUTPUT_HEAD_V1_MAKE_SINCE_VERSION) {
		/* As wl_output.geometry says. */
		zwlr_output_head_v1_send_make(h->resource, "garnet");
		zwlr_output_head_v1_send_model(h->resource, o->name);
	}
	if (o->mode_count == 0)
		mode_send(h, &o->mode, true);
	for (size_t i = 0; i < o->mode_count; i++)
		mode_send(h, &o->modes[i], i == 0);
	head_send_state(h);
}

static struct head *head_for(struct manager *mgr, struct garnet_output *o)
{
	struct head *h;

	wl_list_for_each (h, &mgr->heads, link) {
		if (h->output == o)
			return h;
	}
	return NULL;
}

static void send_done(void *data)
{
	struct output_management *state = data;
	struct manager *mgr;

	state->idle = NULL;
	wl_list_for_each (mgr, &state->managers, link)
		zwlr_output_manager_v1_send_done(mgr->resource, state->serial);
}

static void schedule_done(struct output_management *state)
{
	state->serial++;
	if (!state->idle)
		state->idle = wl_event_loop_add_idle(state->compositor->loop, send_done, state);
}

void garnet_output_management_output_changed(struct garnet_output *output)
{
	struct output_management *state = output->compositor->output_management;
	struct manager *mgr;
	struct head *h;

	if (!state)
		return;
	wl_list_for_each (mgr, &state->managers, link) {
		h = head_for(mgr, output);
		if (h)
			head_send_state(h);
		else
			head_create(mgr, output);
	}
	schedule_done(state);
}

/* ---- a configuration's heads ---- */

static void config_head_unlink(struct config_head *ch)
{
	garnet_list_unlink(&ch->output_destroy.link);
	garnet_list_unlink(&ch->link);
	ch->output = NULL;
	ch->config = NULL;
}

static void config_head_output_destroyed(struct wl_listener *listener, void *data)
{
	struct config_head *ch = wl_container_of(listener, ch, output_destroy);

	garnet_list_unlink(&ch->output_destroy.link);
	/* Its index may come back with another output, which this configuration never named. */
	if (ch->config) {
		ch->config->output_mask &= ~(1u << ch->output->index);
		ch->config->names_finished_head = true;
	}
	ch->output = NULL;
}

static void config_head_resource_destroy(struct wl_resource *resource)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	config_head_unlink(ch);
	free(ch);
}

/* The head configuration to change, or NULL when it is inert (its configuration used or
 * gone), when the request is ignored. A property set twice is a protocol error. */
static struct config_head *settable(struct wl_resource *resource, bool *set)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!ch->config || ch->config->used)
		return NULL;
	if (*set) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET,
				       "property already set");
		return NULL;
	}
	*set = true;
	return ch;
}

static void config_head_set_mode(struct wl_client *client, struct wl_resource *resource,
				 struct wl_resource *mode_resource)
{
	struct config_head *ch = wl_resource_get_user_data(resource);
	struct mode *m = wl_resource_get_user_data(mode_resource);

	if (!settable(resource, &ch->mode_set))
		return;
	/* A mode of a head that went with its output: nothing to set (the configuration fails
	 * or is cancelled when it names that output). */
	if (!ch->output || m->finished) {
		ch->mode_set = false;
		return;
	}
	if (!m->head || m->head->output != ch->output) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE,
				       "mode %ux%u is not one of %s's", (unsigned)m->mode.width,
				       (unsigned)m->mode.height, ch->output->name);
		return;
	}
	ch->width = m->mode.width;
	ch->height = m->mode.height;
	ch->refresh_mhz = m->mode.refresh_mhz;
}

static void config_head_set_custom_mode(struct wl_client *client, struct wl_resource *resource,
					int32_t width, int32_t height, int32_t refresh)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!settable(resource, &ch->mode_set))
		return;
	if (width <= 0 || height <= 0 || refresh < 0) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE,
				       "custom mode %dx%d at %d mHz", width, height, refresh);
		return;
	}
	ch->width = width;
	ch->height = height;
	/* 0: any refresh; the output keeps its own. */
	ch->refresh_mhz = refresh ? refresh : -1;
}

static void config_head_set_position(struct wl_client *client, struct wl_resource *resource,
				     int32_t x, int32_t y)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!settable(resource, &ch->position_set))
		return;
	ch->x = x;
	ch->y = y;
}

static void config_head_set_transform(struct wl_client *client, struct wl_resource *resource,
				      int32_t transform)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!settable(resource, &ch->transform_set))
		return;
	if (transform < WL_OUTPUT_TRANSFORM_NORMAL || transform > WL_OUTPUT_TRANSFORM_FLIPPED_270) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM,
				       "transform %d is not a wl_output.transform", transform);
		return;
	}
	ch->transform = transform;
}

static void config_head_set_scale(struct wl_client *client, struct wl_resource *resource,
				  wl_fixed_t scale)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!settable(resource, &ch->scale_set))
		return;
	if (scale <= 0) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE,
				       "scale %f is not positive", wl_fixed_to_double(scale));
		return;
	}
	/* garnet scales outputs by whole numbers: a fractional scale is the configuration's
	 * failure, not silently another scale than the user asked for (doc/compositor.md).
	 * Out of range is a failure too. In 64 bits: no overflow. */
	ch->scale_fractional = scale % 256 != 0;
	ch->scale = (int32_t)(((int64_t)scale + 128) / 256);
}

static void config_head_set_adaptive_sync(struct wl_client *client, struct wl_resource *resource,
					  uint32_t state)
{
	struct config_head *ch = wl_resource_get_user_data(resource);

	if (!settable(resource, &ch->adaptive_sync_set))
		return;
	if (state != ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_DISABLED &&
	    state != ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_ENABLED) {
		wl_resource_post_error(
			resource,
			ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_ADAPTIVE_SYNC_STATE,
			"adaptive sync state %u", state);
		return;
	}
	ch->adaptive_sync = state == ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_ENABLED;
}

static const struct zwlr_output_configuration_head_v1_interface config_head_impl = {
	.set_mode = config_head_set_mode,
	.set_custom_mode = config_head_set_custom_mode,
	.set_position = config_head_set_position,
	.set_transform = config_head_set_transform,
	.set_scale = config_head_set_scale,
	.set_adaptive_sync = config_head_set_adaptive_sync,
};

/* ---- configurations ---- */

static struct configuration *usable(struct wl_resource *resource)
{
	struct configuration *cfg = wl_resource_get_user_data(resource);

	if (cfg->used) {
		wl_resource_post_error(resource, ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED,
				       "the configuration was already applied or tested");
		return NULL;
	}
	return cfg;
}

/* Adds head's output to the configuration; false (a protocol error sent) when it is there. */
static struct config_head *config_add(struct configuration *cfg, struct wl_resource *resource,
				      struct wl_resource *head_resource, bool enabled)
{
	struct head *h = wl_resource_get_user_data(head_resource);
	struct config_head *ch;

	/* O(1) per request: the outputs named are bits of the configuration. */
	if (h->output && (cfg->output_mask & (1u << h->output->index))) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD,
				       "%s is configured twice", h->output->name);
		return NULL;
	}
	/* The same finished head twice in a row is the same error; other repeats of finished
	 * heads are not caught, and cost nothing: such a configuration only fails. */
	if (!h->output && h->last_config == cfg->id) {
		wl_resource_post_error(resource,
				       ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD,
				       "a finished head is configured twice");
		return NULL;
	}
	h->last_config = cfg->id;
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		wl_resource_post_no_memory(resource);
		return NULL;
	}
	ch->enabled = enabled;
	wl_list_init(&ch->output_destroy.link);
	wl_list_init(&ch->link);
	/* A finished head is kept nowhere (its configuration head, if enabled, is inert): the
	 * configuration is cancelled or fails, so nothing of it is needed. */
	if (!h->output) {
		cfg->names_finished_head = true;
		return ch;
	}
	ch->config = cfg;
	wl_list_insert(cfg->heads.prev, &ch->link);
	cfg->output_mask |= 1u << h->output->index;
	ch->output = h->output;
	ch->output_destroy.notify = config_head_output_destroyed;
	wl_signal_add(&h->output->events.gone, &ch->output_destroy);
	return ch;
}

static void config_enable_head(struct wl_client *client, struct wl_resource *resource, uint32_t id,
			       struct wl_resource *head_resource)
{
	struct configuration *cfg = usable(resource);
	struct config_head *ch;

	if (!cfg)
		return;
	ch = config_add(cfg, resource, head_resource, true);
	if (!ch)
		return;
	ch->resource = garnet_resource_create(client, &zwlr_output_configuration_head_v1_interface,
					      wl_resource_get_version(resource), id,
					      &config_head_impl, ch, config_head_resource_destroy);
	if (!ch->resource) {
		config_head_unlink(ch);
		free(ch);
	}
}

static void config_disable_head(struct wl_client *client, struct wl_resource *resource,
				struct wl_resource *head_resource)
{
	struct configuration *cfg = usable(resource);
	struct config_head *ch = cfg ? config_add(cfg, resource, head_resource, false) : NULL;

	/* A finished head's is kept nowhere. */
	if (ch && !ch->config)
		free(ch);
}

/* The output's configuration as ch asks for it, from what it is now. */
static void wanted_config(struct config_head *ch, struct garnet_output_config *out)
{
	garnet_output_get_config(ch->output, out);
	if (ch->mode_set) {
		out->mode.width = ch->width;
		out->mode.height = ch->height;
		if (ch->refresh_mhz >= 0)
			out->mode.refresh_mhz = ch->refresh_mhz;
	}
	if (ch->position_set) {
		out->x = ch->x;
		out->y = ch->y;
	}
	if (ch->transform_set)
		out->mode.transform = ch->transform;
	if (ch->scale_set)
		out->mode.scale = ch->scale;
}

static bool may_configure(struct garnet_compositor *c, struct wl_client *client,
			  struct garnet_output *output)
{
	pid_t pid = 0;

	if (!c->hooks.configure_output ||
	    c->hooks.configure_output(c->hooks.data, client, output->name))
		return true;
	wl_client_get_credentials(client, &pid, NULL, NULL);
	garnet_log(c, GARNET_LOG_WARNING, "security", "denied: pid %d may not configure %s",
		   (int)pid, output->name);
	return false;
}

/* Why the configuration cannot be applied, or NULL; every output is checked whole first. */
static const char *refusal(struct configuration *cfg, struct wl_client *client,
			   struct garnet_output **which)
{
	struct garnet_compositor *c = cfg->state->compositor;
	struct garnet_output_config want;
	struct config_head *ch;
	size_t disabling = 0, enabling = 0;
	const char *why;

	*which = NULL;
	if (c->locked)
		return "the session is locked";
	if (cfg->names_finished_head)
		return "it names a head whose output is gone";
	wl_list_for_each (ch, &cfg->heads, link) {
		*which = ch->output;
		if (!ch->output)
			return "it names a head whose output is gone";
		if (!may_configure(c, client, ch->output))
			return "not allowed by the policy";
		if (!ch->enabled) {
			/* One already off stays off: it takes nothing away. */
			disabling += !ch->output->disabled;
			continue;
		}
		if (ch->adaptive_sync)
			return "no adaptive sync";
		if (ch->scale_fractional)
			return "garnet scales outputs by whole numbers only";
		wanted_config(ch, &want);
		if (!garnet_output_configure(ch->output, &want, true, &why))
			return why;
		enabling += ch->output->disabled;
	}
	*which = NULL;
	/* Disabled outputs the configuration does not name stay so; enabled ones it does not
	 * name are a protocol error before this. */
	if ((size_t)wl_list_length(&c->outputs) + enabling <= disabling)
		return "the last enabled output stays on";
	return NULL;
}

static void disabled_gone(struct wl_listener *listener, void *data)
{
	struct disabled_output *d = wl_container_of(listener, d, gone);

	wl_list_remove(&d->link);
	wl_list_remove(&d->gone.link);
	free(d);
}

static struct disabled_output *find_disabled(struct output_management *state,
					     struct garnet_output *o)
{
	struct disabled_output *d;

	wl_list_for_each (d, &state->disabled, link) {
		if (d->output == o)
			return d;
	}
	return NULL;
}

/* Enables or disables ch's output as it asks, keeping the list of disabled outputs. */
static bool set_enabled(struct output_management *state, struct config_head *ch,
			const struct garnet_output_config *want, const char **why)
{
	struct disabled_output *d = find_disabled(state, ch->output);

	if (ch->enabled) {
		if (!garnet_output_enable(ch->output, want, why))
			return false;
		if (d)
			disabled_gone(&d->gone, NULL);
		return true;
	}
	if (ch->output->disabled)
		return true;
	d = calloc(1, sizeof(*d));
	if (!d) {
		*why = "out of memory";
		return false;
	}
	if (!garnet_output_disable(ch->output, why)) {
		free(d);
		return false;
	}
	d->output = ch->output;
	d->gone.notify = disabled_gone;
	wl_signal_add(&ch->output->events.gone, &d->gone);
	wl_list_insert(&state->disabled, &d->link);
	return true;
}

/* The outputs enabled (or changed) first, then those disabled: the last enabled output is
 * never the one going. A failure undoes what changed. */
static bool apply(struct configuration *cfg, const char **why, struct garnet_output **which)
{
	struct garnet_output_config want, old[32];
	bool was_disabled[32];
	struct config_head *ch, *done;
	const char *ignored;
	size_t n = 0, i = 0;

	wl_list_for_each (ch, &cfg->heads, link) {
		if (!ch->enabled)
			continue;
		if (n == GARNET_ARRAY_LENGTH(old))
			break;
		*which = ch->output;
		garnet_output_get_config(ch->output, &old[n]);
		was_disabled[n] = ch->output->disabled;
		wanted_config(ch, &want);
		if (!set_enabled(cfg->state, ch, &want, why))
			goto err_undo;
		n++;
	}
	wl_list_for_each (ch, &cfg->heads, link) {
		*which = ch->output;
		if (!ch->enabled && !set_enabled(cfg->state, ch, NULL, why))
			return false;
	}
	return true;

err_undo:
	/* What changed goes back as it was. */
	wl_list_for_each (done, &cfg->heads, link) {
		if (i == n)
			break;
		if (!done->enabled)
			continue;
		if (was_disabled[i]) {
			struct config_head off = *done;

			off.enabled = false;
			set_enabled(cfg->state, &off, NULL, &ignored);
			i++;
		} else {
			garnet_output_configure(done->output, &old[i++], false, &ignored);
		}
	}
	return false;
}

static void unconfigured(struct wl_resource *resource, struct garnet_output *o)
{
	wl_resource_post_error(resource, ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD,
			       "%s is neither enabled nor disabled", o->name);
}

static void config_finish(struct wl_client *client, struct wl_resource *resource, bool test)
{
	struct configuration *cfg = usable(resource);
	struct garnet_compositor *c;
	struct disabled_output *d;
	struct garnet_output *o, *which = NULL;
	const char *why;

	if (!cfg)
		return;
	cfg->used = true;
	c = cfg->state->compositor;
	if (cfg->serial != cfg->state->serial) {
		zwlr_output_configuration_v1_send_cancelled(resource);
		return;
	}
	wl_list_for_each (o, &c->outputs, link) {
		if (!(cfg->output_mask & (1u << o->index))) {
			unconfigured(resource, o);
			return;
		}
	}
	/* A disabled output is still a head: the protocol wants it named as well. */
	wl_list_for_each (d, &cfg->state->disabled, link) {
		if (!(cfg->output_mask & (1u << d->output->index))) {
			unconfigured(resource, d->output);
			return;
		}
	}
	why = refusal(cfg, client, &which);
	if (!why && !test && !apply(cfg, &why, &which))
		why = why ? why : "the backend failed";
	if (why) {
		garnet_log(c, GARNET_LOG_WARNING, "output", "configuration of %s %s: %s",
			   which ? which->name : "the outputs", test ? "tested" : "refused", why);
		zwlr_output_configuration_v1_send_failed(resource);
		return;
	}
	zwlr_output_configuration_v1_send_succeeded(resource);
}

static void config_apply(struct wl_client *client, struct wl_resource *resource)
{
	config_finish(client, resource, false);
}

static void config_test(struct wl_client *client, struct wl_resource *resource)
{
	config_finish(client, resource, true);
}

static void config_resource_destroy(struct wl_resource *resource)
{
	struct configuration *cfg = wl_resource_get_user_data(resource);
	struct config_head *ch, *tmp;

	/* The head configurations go with it: the enabled ones are the client's resources. */
	wl_list_for_each_safe (ch, tmp, &cfg->heads, link) {
		if (ch->resource) {
			config_head_unlink(ch);
			wl_resource_destroy(ch->resource);
		} else {
			config_head_unlink(ch);
			free(ch);
		}
	}
	free(cfg);
}

static const struct zwlr_output_configuration_v1_interface config_impl = {
	.enable_head = config_enable_head,
	.disable_head = config_disable_head,
	.apply = config_apply,
	.test = config_test,
	.destroy = garnet_resource_destroy_request,
};

/* ---- the manager ---- */

static void manager_create_configuration(struct wl_client *client, struct wl_resource *resource,
					 uint32_t id, uint32_t serial)
{
	struct manager *mgr = wl_resource_get_user_data(resource);
	struct configuration *cfg = calloc(1, sizeof(*cfg));

	if (!cfg) {
		wl_resource_post_no_memory(resource);
		return;
	}
	cfg->state = mgr->state;
	cfg->serial = serial;
	cfg->id = ++mgr->state->last_config_id;
	wl_list_init(&cfg->heads);
	cfg->resource = garnet_resource_create(client, &zwlr_output_configuration_v1_interface,
					       wl_resource_get_version(resource), id, &config_impl,
					       cfg, config_resource_destroy);
	if (!cfg->resource)
		free(cfg);
}

static void manager_detach(struct manager *mgr)
{
	struct head *h, *tmp;

	wl_list_for_each_safe (h, tmp, &mgr->heads, link) {
		h->manager = NULL;
		garnet_list_unlink(&h->link);
	}
	garnet_list_unlink(&mgr->link);
}

static void manager_stop(struct wl_client *client, struct wl_resource *resource)
{
	struct manager *mgr = wl_resource_get_user_data(resource);

	manager_detach(mgr);
	zwlr_output_manager_v1_send_finished(resource);
	wl_resource_destroy(resource);
}

static void manager_resource_destroy(struct wl_resource *resource)
{
	struct manager *mgr = wl_resource_get_user_data(resource);

	manager_detach(mgr);
	free(mgr);
}

static const struct zwlr_output_manager_v1_interface manager_impl = {
	.create_configuration = manager_create_configuration,
	.stop = manager_stop,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct output_management *state = data;
	struct disabled_output *d;
	struct garnet_output *o;
	struct manager *mgr;

	if (!garnet_global_check_bind(state->compositor, client, &zwlr_output_manager_v1_interface))
		return;
	mgr = calloc(1, sizeof(*mgr));
	if (!mgr) {
		wl_client_post_no_memory(client);
		return;
	}
	mgr->state = state;
	wl_list_init(&mgr->heads);
	mgr->resource =
		garnet_resource_create(client, &zwlr_output_manager_v1_interface, (int)version, id,
				       &manager_impl, mgr, manager_resource_destroy);
	if (!mgr->resource) {
		free(mgr);
		return;
	}
	wl_list_insert(&state->managers, &mgr->link);
	wl_list_for_each (o, &state->compositor->outputs, link)
		head_create(mgr, o);
	wl_list_for_each (d, &state->disabled, link)
		head_create(mgr, d->output);
	zwlr_output_manager_v1_send_done(mgr->resource, state->serial);
}

/* The clients, and with them every manager, are gone by now. */
static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct output_management *state = wl_container_of(listener, state, compositor_destroy);
	struct disabled_output *d, *tmp;

	if (state->idle)
		wl_event_source_remove(state->idle);
	/* Out of the compositor's list, the disabled outputs go here (their going frees d). */
	wl_list_for_each_safe (d, tmp, &state->disabled, link)
		garnet_output_destroy(d->output);
	wl_list_remove(&state->compositor_destroy.link);
	state->compositor->output_management = NULL;
	free(state);
}

bool garnet_output_management_init(struct garnet_compositor *c)
{
	struct output_management *state = calloc(1, sizeof(*state));

	if (!state)
		return false;
	state->compositor = c;
	wl_list_init(&state->managers);
	wl_list_init(&state->disabled);
	if (!garnet_global_create(c, &zwlr_output_manager_v1_interface, MANAGER_VERSION, state,
				  manager_bind, true)) {
		free(state);
		return false;
	}
	state->compositor_destroy.notify = compositor_destroyed;
	wl_signal_add(&c->events.destroy, &state->compositor_destroy);
	c->output_management = state;
	return true;
}
