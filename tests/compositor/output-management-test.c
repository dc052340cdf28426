// SPDX-License-Identifier: MIT
// zwlr_output_manager_v1 from a client's side (no security layer: the harness allows it):
// heads and modes describe the outputs, a configuration changes mode, position, transform
// and scale, a stale one is cancelled, values garnet cannot show fail and change nothing,
// and misuse is a protocol error, never a crash.
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "garnet/compositor.h"
#include "garnet/headless.h"
#include "garnet/output.h"
#include "harness.h"
#include "screencopy-client.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"

struct om_mode {
	struct zwlr_output_mode_v1 *mode;
	int32_t width, height, refresh;
	bool preferred, finished;
	struct wl_list link;
};

struct om_head {
	struct zwlr_output_head_v1 *head;
	char name[64];
	struct wl_list modes; /* om_mode.link */
	struct om_mode *current;
	int32_t x, y, transform, enabled;
	wl_fixed_t scale;
	bool finished;
	struct wl_list link;
};

struct om {
	struct client *client;
	struct zwlr_output_manager_v1 *manager;
	struct wl_list heads; /* om_head.link */
	uint32_t serial;
	int dones;
};

static void mode_size(void *data, struct zwlr_output_mode_v1 *m, int32_t w, int32_t h)
{
	struct om_mode *mode = data;

	mode->width = w;
	mode->height = h;
}

static void mode_refresh(void *data, struct zwlr_output_mode_v1 *m, int32_t refresh)
{
	((struct om_mode *)data)->refresh = refresh;
}

static void mode_preferred(void *data, struct zwlr_output_mode_v1 *m)
{
	((struct om_mode *)data)->preferred = true;
}

static void mode_finished(void *data, struct zwlr_output_mode_v1 *m)
{
	((struct om_mode *)data)->finished = true;
}

static const struct zwlr_output_mode_v1_listener mode_listener = {mode_size, mode_refresh,
								  mode_preferred, mode_finished};

static void head_name(void *data, struct zwlr_output_head_v1 *h, const char *name)
{
	struct om_head *head = data;

	snprintf(head->name, sizeof(head->name), "%s", name);
}

static void head_description(void *data, struct zwlr_output_head_v1 *h, const char *d)
{
}

static void head_physical_size(void *data, struct zwlr_output_head_v1 *h, int32_t w, int32_t ht)
{
}

static void head_mode(void *data, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *m)
{
	struct om_head *head = data;
	struct om_mode *mode = calloc(1, sizeof(*mode));

	mode->mode = m;
	wl_list_insert(head->modes.prev, &mode->link);
	zwlr_output_mode_v1_add_listener(m, &mode_listener, mode);
}

static void head_enabled(void *data, struct zwlr_output_head_v1 *h, int32_t enabled)
{
	((struct om_head *)data)->enabled = enabled;
}

static void head_current_mode(void *data, struct zwlr_output_head_v1 *h,
			      struct zwlr_output_mode_v1 *m)
{
	struct om_head *head = data;

	head->current = zwlr_output_mode_v1_get_user_data(m);
}

static void head_position(void *data, struct zwlr_output_head_v1 *h, int32_t x, int32_t y)
{
	struct om_head *head = data;

	head->x = x;
	head->y = y;
}

static void head_transform(void *data, struct zwlr_output_head_v1 *h, int32_t transform)
{
	((struct om_head *)data)->transform = transform;
}

static void head_scale(void *data, struct zwlr_output_head_v1 *h, wl_fixed_t scale)
{
	((struct om_head *)data)->scale = scale;
}

static void head_finished(void *data, struct zwlr_output_head_v1 *h)
{
	((struct om_head *)data)->finished = true;
}

static void head_string(void *data, struct zwlr_output_head_v1 *h, const char *s)
{
}

static void head_adaptive_sync(void *data, struct zwlr_output_head_v1 *h, uint32_t state)
{
}

static const struct zwlr_output_head_v1_listener head_listener = {
	head_name,	   head_description, head_physical_size, head_mode,	     head_enabled,
	head_current_mode, head_position,    head_transform,	 head_scale,	     head_finished,
	head_string,	   head_string,	     head_string,	 head_adaptive_sync,
};

static void manager_head(void *data, struct zwlr_output_manager_v1 *m,
			 struct zwlr_output_head_v1 *h)
{
	struct om *om = data;
	struct om_head *head = calloc(1, sizeof(*head));

	head->head = h;
	wl_list_init(&head->modes);
	wl_list_insert(om->heads.prev, &head->link);
	zwlr_output_head_v1_add_listener(h, &head_listener, head);
}

static void manager_done(void *data, struct zwlr_output_manager_v1 *m, uint32_t serial)
{
	struct om *om = data;

	om->serial = serial;
	om->dones++;
}

static void manager_finished(void *data, struct zwlr_output_manager_v1 *m)
{
}

static const struct zwlr_output_manager_v1_listener manager_listener = {manager_head, manager_done,
									manager_finished};

static struct om *om_bind(struct client *c)
{
	struct om *om = calloc(1, sizeof(*om));

	om->client = c;
	wl_list_init(&om->heads);
	om->manager = wl_registry_bind(c->registry, client_find_global(c, "zwlr_output_manager_v1"),
				       &zwlr_output_manager_v1_interface, 4);
	zwlr_output_manager_v1_add_listener(om->manager, &manager_listener, om);
	client_roundtrip(c);
	client_roundtrip(c);
	return om;
}

/* Frees what the client holds, the proxies garnet made (heads, modes) with it. */
static void om_free(struct om *om)
{
	struct om_head *h, *th;
	struct om_mode *m, *tm;

	wl_list_for_each_safe (h, th, &om->heads, link) {
		wl_list_for_each_safe (m, tm, &h->modes, link) {
			zwlr_output_mode_v1_destroy(m->mode);
			free(m);
		}
		if (h->head)
			zwlr_output_head_v1_destroy(h->head);
		free(h);
	}
	zwlr_output_manager_v1_destroy(om->manager);
	free(om);
}

static struct om_head *om_head(struct om *om, const char *name)
{
	struct om_head *h;

	wl_list_for_each (h, &om->heads, link) {
		if (strcmp(h->name, name) == 0)
			return h;
	}
	test_fail(om->client->test, __FILE__, __LINE__, "no head %s", name);
}

static struct om_mode *om_mode(struct om_head *h, int32_t width, int32_t height)
{
	struct om_mode *m;

	wl_list_for_each (m, &h->modes, link) {
		if (m->width == width && m->height == height)
			return m;
	}
	return NULL;
}

enum result { NONE, SUCCEEDED, FAILED, CANCELLED };

static void config_succeeded(void *data, struct zwlr_output_configuration_v1 *c)
{
	*(enum result *)data = SUCCEEDED;
}

static void config_failed(void *data, struct zwlr_output_configuration_v1 *c)
{
	*(enum result *)data = FAILED;
}

static void config_cancelled(void *data, struct zwlr_output_configuration_v1 *c)
{
	*(enum result *)data = CANCELLED;
}

static const struct zwlr_output_configuration_v1_listener config_listener = {
	config_succeeded, config_failed, config_cancelled};

struct config {
	struct zwlr_output_configuration_v1 *config;
	struct zwlr_output_configuration_head_v1 *target; /* the head under test's */
	enum result result;
};

/* A configuration with serial, every head enabled as it is; target's head configuration
 * kept for the test to set. */
static struct config *config_every_head(struct om *om, uint32_t serial, struct om_head *target)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct zwlr_output_configuration_head_v1 *ch;
	struct om_head *h;

	cfg->config = zwlr_output_manager_v1_create_configuration(om->manager, serial);
	zwlr_output_configuration_v1_add_listener(cfg->config, &config_listener, &cfg->result);
	wl_list_for_each (h, &om->heads, link) {
		if (h->finished)
			continue;
		ch = zwlr_output_configuration_v1_enable_head(cfg->config, h->head);
		if (h == target)
			cfg->target = ch;
		else
			zwlr_output_configuration_head_v1_destroy(ch);
	}
	return cfg;
}

/* Applies (or tests) and waits for the answer; the configuration is destroyed. */
static enum result config_finish(struct om *om, struct config *cfg, bool test)
{
	enum result r;

	if (test)
		zwlr_output_configuration_v1_test(cfg->config);
	else
		zwlr_output_configuration_v1_apply(cfg->config);
	while (cfg->result == NONE && wl_display_dispatch(om->client->display) >= 0)
		;
	client_roundtrip(om->client);
	r = cfg->result;
	if (cfg->target)
		zwlr_output_configuration_head_v1_destroy(cfg->target);
	zwlr_output_configuration_v1_destroy(cfg->config);
	free(cfg);
	return r;
}

/* A refresh rate, for the modes to carry one; the tests that end with check_compositor_serves
 * use OUT0 (repaint on demand), where a capture follows the commit made before it. */
/* clang-format off */
#define OUT {320, 240, 1, 0, 60000}
#define OUT0 {320, 240, 1, 0, 0}
/* clang-format on */

TEST_WITH(heads_and_modes_describe_each_output, NULL, OUT, OUT)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *one = om_head(om, "HEADLESS-1"), *two = om_head(om, "HEADLESS-2");

	check_int(t, wl_list_length(&om->heads), ==, 2);
	check_int(t, om->dones, ==, 1);
	check_int(t, one->enabled, ==, 1);
	check(t, one->current && one->current->width == 320 && one->current->height == 240);
	check(t, one->current->preferred);
	check_int(t, one->current->refresh, ==, 60000);
	check(t, om_mode(one, 1024, 768) != NULL);
	check_int(t, two->x, ==, 320);
	check_int(t, two->y, ==, 0);
	check_int(t, one->scale, ==, wl_fixed_from_int(1));
	check_int(t, one->transform, ==, WL_OUTPUT_TRANSFORM_NORMAL);
	om_free(om);
	client_destroy(c);
}

TEST_WITH(applied_mode_position_scale_and_transform_reach_every_client, NULL, OUT)
{
	struct client *c = client_create(t);
	struct client *watcher = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct config *cfg = config_every_head(om, om->serial, h);
	struct client_output *seen;
	pixman_image_t *shot;

	zwlr_output_configuration_head_v1_set_mode(cfg->target, om_mode(h, 640, 480)->mode);
	zwlr_output_configuration_head_v1_set_position(cfg->target, 100, 50);
	zwlr_output_configuration_head_v1_set_scale(cfg->target, wl_fixed_from_int(2));
	zwlr_output_configuration_head_v1_set_transform(cfg->target, WL_OUTPUT_TRANSFORM_90);
	check_int(t, config_finish(om, cfg, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check(t, h->current && h->current->width == 640 && h->current->height == 480);
	check_int(t, h->x, ==, 100);
	check_int(t, h->y, ==, 50);
	check_int(t, h->scale, ==, wl_fixed_from_int(2));
	check_int(t, h->transform, ==, WL_OUTPUT_TRANSFORM_90);
	check_int(t, om->dones, ==, 2);
	/* An ordinary client sees it in wl_output, and the screen is the new size. */
	client_roundtrip(watcher);
	seen = client_first_output(watcher);
	check_int(t, seen->width, ==, 640);
	check_int(t, seen->height, ==, 480);
	check_int(t, seen->scale, ==, 2);
	check_int(t, seen->transform, ==, WL_OUTPUT_TRANSFORM_90);
	shot = capture_output(watcher, seen);
	check_int(t, pixman_image_get_width(shot), ==, 640);
	check_int(t, pixman_image_get_height(shot), ==, 480);
	pixman_image_unref(shot);
	om_free(om);
	client_destroy(watcher);
	client_destroy(c);
}

TEST_WITH(a_custom_mode_is_advertised_once_applied, NULL, OUT)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct config *cfg = config_every_head(om, om->serial, h);
	struct om_mode *first;

	zwlr_output_configuration_head_v1_set_custom_mode(cfg->target, 333, 222, 0);
	check_int(t, config_finish(om, cfg, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check(t, h->current && h->current->width == 333 && h->current->height == 222);
	/* refresh 0: the output kept its own. */
	check_int(t, h->current->refresh, ==, 60000);
	/* Another custom mode replaces it: the first is finished, not kept for ever. */
	first = h->current;
	cfg = config_every_head(om, om->serial, h);
	zwlr_output_configuration_head_v1_set_custom_mode(cfg->target, 444, 333, 0);
	check_int(t, config_finish(om, cfg, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check(t, h->current && h->current->width == 444 && !h->current->finished);
	check(t, first->finished);
	om_free(om);
	client_destroy(c);
}

TEST_WITH(a_tested_configuration_changes_nothing, NULL, OUT)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct config *cfg = config_every_head(om, om->serial, h);

	zwlr_output_configuration_head_v1_set_mode(cfg->target, om_mode(h, 800, 600)->mode);
	check_int(t, config_finish(om, cfg, true), ==, SUCCEEDED);
	check_int(t, om->dones, ==, 1);
	check_int(t, client_first_output(c)->width, ==, 320);
	om_free(om);
	client_destroy(c);
}

TEST_WITH(a_configuration_with_a_stale_serial_is_cancelled, NULL, OUT)
{
	struct client *c = client_create(t);
	struct client *other = client_create(t);
	struct om *om = om_bind(c), *om2 = om_bind(other);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct config *stale = config_every_head(om, om->serial, h);
	struct config *cfg = config_every_head(om2, om2->serial, om_head(om2, "HEADLESS-1"));

	/* Another client changes the outputs first. */
	zwlr_output_configuration_head_v1_set_position(cfg->target, 10, 10);
	check_int(t, config_finish(om2, cfg, false), ==, SUCCEEDED);
	zwlr_output_configuration_head_v1_set_position(stale->target, 500, 500);
	check_int(t, config_finish(om, stale, false), ==, CANCELLED);
	client_roundtrip(c);
	check_int(t, h->x, ==, 10);
	/* A serial never sent. */
	cfg = config_every_head(om, om->serial + 1000, h);
	check_int(t, config_finish(om, cfg, false), ==, CANCELLED);
	om_free(om2);
	om_free(om);
	client_destroy(other);
	client_destroy(c);
}

enum extreme {
	HUGE_X,
	HUGE_NEGATIVE_Y,
	TINY_SCALE,
	HUGE_SCALE,
	LARGEST_FIXED_SCALE,
	HUGE_CUSTOM_MODE,
	MODE_BEYOND_THE_BACKEND,
	MODE_SMALLER_THAN_SCALE,
	HUGE_REFRESH,
	DISABLED,
	ADAPTIVE_SYNC,
	FRACTIONAL_SCALE,
	EXTREMES,
};

static void set_extreme(struct config *cfg, struct om *om, struct om_head *h, enum extreme e)
{
	struct zwlr_output_configuration_head_v1 *ch = cfg->target;

	switch (e) {
	case HUGE_X:
		zwlr_output_configuration_head_v1_set_position(ch, INT32_MAX, 0);
		break;
	case HUGE_NEGATIVE_Y:
		zwlr_output_configuration_head_v1_set_position(ch, 0, INT32_MIN);
		break;
	case TINY_SCALE: /* 1/256: rounds to 0 */
		zwlr_output_configuration_head_v1_set_scale(ch, 1);
		break;
	case HUGE_SCALE:
		zwlr_output_configuration_head_v1_set_scale(ch, wl_fixed_from_int(100));
		break;
	case LARGEST_FIXED_SCALE:
		zwlr_output_configuration_head_v1_set_scale(ch, INT32_MAX);
		break;
	case HUGE_CUSTOM_MODE:
		zwlr_output_configuration_head_v1_set_custom_mode(ch, INT32_MAX, INT32_MAX, 60000);
		break;
	case MODE_BEYOND_THE_BACKEND: /* 2 GB of buffers */
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 16384, 16384, 0);
		break;
	case MODE_SMALLER_THAN_SCALE:
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 3, 3, 0);
		zwlr_output_configuration_head_v1_set_scale(ch, wl_fixed_from_int(4));
		break;
	case HUGE_REFRESH:
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 320, 240, INT32_MAX);
		break;
	case ADAPTIVE_SYNC:
		zwlr_output_configuration_head_v1_set_adaptive_sync(
			ch, ZWLR_OUTPUT_HEAD_V1_ADAPTIVE_SYNC_STATE_ENABLED);
		break;
	case FRACTIONAL_SCALE: /* refused, not rounded to 2 */
		zwlr_output_configuration_head_v1_set_scale(ch, wl_fixed_from_double(1.5));
		break;
	case DISABLED:
	case EXTREMES:
		break;
	}
}

TEST_WITH(values_garnet_cannot_show_fail_and_change_nothing, NULL, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct config *cfg;

	for (int e = 0; e < EXTREMES; e++) {
		if (e == DISABLED) {
			cfg = calloc(1, sizeof(*cfg));
			cfg->config = zwlr_output_manager_v1_create_configuration(om->manager,
										  om->serial);
			zwlr_output_configuration_v1_add_listener(cfg->config, &config_listener,
								  &cfg->result);
			zwlr_output_configuration_v1_disable_head(cfg->config, h->head);
		} else {
			cfg = config_every_head(om, om->serial, h);
			set_extreme(cfg, om, h, e);
		}
		if (config_finish(om, cfg, e % 2) != FAILED)
			test_fail(t, __FILE__, __LINE__, "extreme %d did not fail", e);
	}
	check_int(t, om->dones, ==, 1);
	check_int(t, h->x, ==, 0);
	check_int(t, client_first_output(c)->width, ==, 320);
	check_int(t, client_first_output(c)->scale, ==, 1);
	check_compositor_serves(t);
	om_free(om);
	client_destroy(c);
}

enum misuse {
	SCALE_ZERO,
	SCALE_NEGATIVE,
	TRANSFORM_8,
	TRANSFORM_NEGATIVE,
	CUSTOM_MODE_ZERO,
	CUSTOM_MODE_NEGATIVE_REFRESH,
	MODE_OF_ANOTHER_HEAD,
	POSITION_TWICE,
	MODE_AND_CUSTOM_MODE,
	ADAPTIVE_SYNC_5,
	HEAD_ENABLED_TWICE,
	HEAD_ENABLED_AND_DISABLED,
	HEAD_LEFT_OUT,
	APPLIED_TWICE,
	MISUSES,
};

static const struct {
	const struct wl_interface *iface;
	uint32_t code;
} misuse_error[MISUSES] = {
	[SCALE_ZERO] = {&zwlr_output_configuration_head_v1_interface,
			ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE},
	[SCALE_NEGATIVE] = {&zwlr_output_configuration_head_v1_interface,
			    ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_SCALE},
	[TRANSFORM_8] = {&zwlr_output_configuration_head_v1_interface,
			 ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM},
	[TRANSFORM_NEGATIVE] = {&zwlr_output_configuration_head_v1_interface,
				ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_TRANSFORM},
	[CUSTOM_MODE_ZERO] = {&zwlr_output_configuration_head_v1_interface,
			      ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE},
	[CUSTOM_MODE_NEGATIVE_REFRESH] =
		{&zwlr_output_configuration_head_v1_interface,
		 ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_CUSTOM_MODE},
	[MODE_OF_ANOTHER_HEAD] = {&zwlr_output_configuration_head_v1_interface,
				  ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE},
	[POSITION_TWICE] = {&zwlr_output_configuration_head_v1_interface,
			    ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET},
	[MODE_AND_CUSTOM_MODE] = {&zwlr_output_configuration_head_v1_interface,
				  ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_ALREADY_SET},
	[ADAPTIVE_SYNC_5] = {&zwlr_output_configuration_head_v1_interface,
			     ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_ADAPTIVE_SYNC_STATE},
	[HEAD_ENABLED_TWICE] = {&zwlr_output_configuration_v1_interface,
				ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD},
	[HEAD_ENABLED_AND_DISABLED] = {&zwlr_output_configuration_v1_interface,
				       ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD},
	[HEAD_LEFT_OUT] = {&zwlr_output_configuration_v1_interface,
			   ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD},
	[APPLIED_TWICE] = {&zwlr_output_configuration_v1_interface,
			   ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_USED},
};

static void misuse(struct om *om, enum misuse what)
{
	struct om_head *one = om_head(om, "HEADLESS-1"), *two = om_head(om, "HEADLESS-2");
	struct zwlr_output_configuration_v1 *cfg =
		zwlr_output_manager_v1_create_configuration(om->manager, om->serial);
	struct zwlr_output_configuration_head_v1 *ch, *other = NULL, *again = NULL;

	if (what != HEAD_LEFT_OUT)
		other = zwlr_output_configuration_v1_enable_head(cfg, two->head);
	if (what == HEAD_ENABLED_AND_DISABLED)
		zwlr_output_configuration_v1_disable_head(cfg, one->head);
	ch = zwlr_output_configuration_v1_enable_head(cfg, one->head);
	switch (what) {
	case SCALE_ZERO:
		zwlr_output_configuration_head_v1_set_scale(ch, 0);
		break;
	case SCALE_NEGATIVE:
		zwlr_output_configuration_head_v1_set_scale(ch, wl_fixed_from_int(-2));
		break;
	case TRANSFORM_8:
		zwlr_output_configuration_head_v1_set_transform(ch, 8);
		break;
	case TRANSFORM_NEGATIVE:
		zwlr_output_configuration_head_v1_set_transform(ch, -1);
		break;
	case CUSTOM_MODE_ZERO:
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 0, 0, 0);
		break;
	case CUSTOM_MODE_NEGATIVE_REFRESH:
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 640, 480, -1);
		break;
	case MODE_OF_ANOTHER_HEAD:
		zwlr_output_configuration_head_v1_set_mode(ch, two->current->mode);
		break;
	case POSITION_TWICE:
		zwlr_output_configuration_head_v1_set_position(ch, 0, 0);
		zwlr_output_configuration_head_v1_set_position(ch, 10, 0);
		break;
	case MODE_AND_CUSTOM_MODE:
		zwlr_output_configuration_head_v1_set_mode(ch, one->current->mode);
		zwlr_output_configuration_head_v1_set_custom_mode(ch, 640, 480, 0);
		break;
	case ADAPTIVE_SYNC_5:
		zwlr_output_configuration_head_v1_set_adaptive_sync(ch, 5);
		break;
	case HEAD_ENABLED_TWICE:
		again = zwlr_output_configuration_v1_enable_head(cfg, one->head);
		break;
	case APPLIED_TWICE:
		zwlr_output_configuration_v1_apply(cfg);
		zwlr_output_configuration_v1_apply(cfg);
		break;
	case HEAD_LEFT_OUT:
		zwlr_output_configuration_v1_apply(cfg);
		break;
	case HEAD_ENABLED_AND_DISABLED:
	case MISUSES:
		break;
	}
	wl_display_roundtrip(om->client->display);
	if (again)
		zwlr_output_configuration_head_v1_destroy(again);
	if (other)
		zwlr_output_configuration_head_v1_destroy(other);
	zwlr_output_configuration_head_v1_destroy(ch);
	zwlr_output_configuration_v1_destroy(cfg);
}

TEST_WITH(misuse_of_a_configuration_is_a_protocol_error, NULL, OUT0, OUT0)
{
	for (int what = 0; what < MISUSES; what++) {
		struct client *c = client_create(t);
		struct om *om = om_bind(c);

		misuse(om, what);
		client_expect_protocol_error(c, misuse_error[what].iface, misuse_error[what].code);
		om_free(om);
		client_destroy(c);
	}
	check_compositor_serves(t);
}

static void unplug_second_output(struct garnet_compositor *c, void *data)
{
	garnet_output_destroy(garnet_compositor_find_output(c, "HEADLESS-2"));
}

static void plug_an_output(struct garnet_compositor *c, void *data)
{
	struct garnet_output_mode mode = {200, 100, 0, 1, 0};

	garnet_headless_add_output(c, &mode);
}

TEST_WITH(unplugging_finishes_the_head_and_its_modes_and_cancels_configurations, NULL, OUT0, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *two = om_head(om, "HEADLESS-2");
	struct om_mode *two_mode = two->current;
	struct config *cfg = config_every_head(om, om->serial, om_head(om, "HEADLESS-1"));
	struct om_mode *m;

	zwlr_output_configuration_head_v1_set_position(cfg->target, 0, 300);
	test_run_on_compositor(t, unplug_second_output, NULL);
	check_int(t, config_finish(om, cfg, false), ==, CANCELLED);
	check(t, two->finished);
	wl_list_for_each (m, &two->modes, link)
		check(t, m->finished);
	check_int(t, om->dones, ==, 2);
	/* The finished head's mode on the remaining head: ignored, and the configuration that
	 * names the finished head fails. */
	cfg = config_every_head(om, om->serial, om_head(om, "HEADLESS-1"));
	zwlr_output_configuration_head_v1_set_mode(cfg->target, two_mode->mode);
	zwlr_output_configuration_head_v1_destroy(
		zwlr_output_configuration_v1_enable_head(cfg->config, two->head));
	check_int(t, config_finish(om, cfg, false), ==, FAILED);
	/* A head plugged in is announced with its modes. */
	test_run_on_compositor(t, plug_an_output, NULL);
	client_roundtrip(c);
	check_int(t, om->dones, ==, 3);
	check(t, om_mode(om_head(om, "HEADLESS-3"), 200, 100) != NULL);
	check_compositor_serves(t);
	om_free(om);
	client_destroy(c);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A finished head costs nothing however often it is named: two configurations name it in
 * turn (each time a new one for that configuration), and garnet answers at once; named twice
 * in one configuration, it is the protocol's already_configured_head. */
TEST_WITH(a_finished_head_named_again_and_again_costs_nothing, NULL, OUT0, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *two = om_head(om, "HEADLESS-2");
	struct config *a, *b;
	double start;

	test_run_on_compositor(t, unplug_second_output, NULL);
	client_roundtrip(c);
	check(t, two->finished);
	a = config_every_head(om, om->serial, NULL);
	b = config_every_head(om, om->serial, NULL);
	start = now_s();
	for (int i = 0; i < 50000; i++) {
		zwlr_output_configuration_v1_disable_head(a->config, two->head);
		zwlr_output_configuration_v1_disable_head(b->config, two->head);
		/* The client's connection holds a few thousand requests. */
		if (i % 500 == 499)
			client_roundtrip(c);
	}
	client_roundtrip(c);
	check(t, now_s() - start < 5.0);
	check_int(t, config_finish(om, a, false), ==, FAILED);
	check_int(t, config_finish(om, b, true), ==, FAILED);
	/* Twice in one configuration. */
	a = config_every_head(om, om->serial, NULL);
	zwlr_output_configuration_v1_disable_head(a->config, two->head);
	zwlr_output_configuration_v1_disable_head(a->config, two->head);
	wl_display_roundtrip(c->display);
	client_expect_protocol_error(c, &zwlr_output_configuration_v1_interface,
				     ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_ALREADY_CONFIGURED_HEAD);
	zwlr_output_configuration_v1_destroy(a->config);
	free(a);
	om_free(om);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST_WITH(a_mode_of_a_released_head_is_a_protocol_error, NULL, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct om_mode *m = h->current;
	struct om *again;
	struct config *cfg;

	/* The head is released; its mode object stays the client's, standing for nothing. */
	zwlr_output_head_v1_release(h->head);
	h->head = NULL;
	h->finished = true;
	again = om_bind(c);
	cfg = config_every_head(again, again->serial, om_head(again, "HEADLESS-1"));
	zwlr_output_configuration_head_v1_set_mode(cfg->target, m->mode);
	wl_display_roundtrip(c->display);
	client_expect_protocol_error(c, &zwlr_output_configuration_head_v1_interface,
				     ZWLR_OUTPUT_CONFIGURATION_HEAD_V1_ERROR_INVALID_MODE);
	zwlr_output_configuration_head_v1_destroy(cfg->target);
	zwlr_output_configuration_v1_destroy(cfg->config);
	free(cfg);
	om_free(again);
	om_free(om);
	client_destroy(c);
	check_compositor_serves(t);
}

struct follower {
	int32_t x, y, width, height; /* xdg_output */
	uint32_t layer_width, layer_height, layer_serial;
};

static void xo_position(void *data, struct zxdg_output_v1 *o, int32_t x, int32_t y)
{
	struct follower *f = data;

	f->x = x;
	f->y = y;
}

static void xo_size(void *data, struct zxdg_output_v1 *o, int32_t w, int32_t h)
{
	struct follower *f = data;

	f->width = w;
	f->height = h;
}

static void xo_done(void *data, struct zxdg_output_v1 *o)
{
}

static void xo_string(void *data, struct zxdg_output_v1 *o, const char *s)
{
}

static const struct zxdg_output_v1_listener xo_listener = {xo_position, xo_size, xo_done, xo_string,
							   xo_string};

static void layer_configure(void *data, struct zwlr_layer_surface_v1 *ls, uint32_t serial,
			    uint32_t w, uint32_t h)
{
	struct follower *f = data;

	f->layer_serial = serial;
	f->layer_width = w;
	f->layer_height = h;
	zwlr_layer_surface_v1_ack_configure(ls, serial);
}

static void layer_closed(void *data, struct zwlr_layer_surface_v1 *ls)
{
}

static const struct zwlr_layer_surface_v1_listener layer_listener = {layer_configure, layer_closed};

TEST_WITH(xdg_output_and_a_layer_surface_follow_the_new_size_and_place, NULL, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *h = om_head(om, "HEADLESS-1");
	struct follower f = {0};
	struct zxdg_output_v1 *xo = zxdg_output_manager_v1_get_xdg_output(
		c->xdg_output_manager, client_first_output(c)->wl_output);
	struct zwlr_layer_shell_v1 *shell =
		wl_registry_bind(c->registry, client_find_global(c, "zwlr_layer_shell_v1"),
				 &zwlr_layer_shell_v1_interface, 4);
	struct wl_surface *surface = wl_compositor_create_surface(c->compositor);
	struct zwlr_layer_surface_v1 *ls = zwlr_layer_shell_v1_get_layer_surface(
		shell, surface, client_first_output(c)->wl_output, ZWLR_LAYER_SHELL_V1_LAYER_TOP,
		"bar");
	struct buffer *bar;
	struct config *cfg;

	zxdg_output_v1_add_listener(xo, &xo_listener, &f);
	zwlr_layer_surface_v1_add_listener(ls, &layer_listener, &f);
	/* A bar across the top: as wide as the output. */
	zwlr_layer_surface_v1_set_anchor(ls, ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
						     ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
						     ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT);
	zwlr_layer_surface_v1_set_size(ls, 0, 20);
	wl_surface_commit(surface);
	client_roundtrip(c);
	check_int(t, f.layer_width, ==, 320);
	/* Shown: only shown surfaces take part in the output's arrangement. */
	bar = buffer_create(c, 320, 20, WL_SHM_FORMAT_ARGB8888);
	buffer_fill(bar, 0xff0000ff);
	wl_surface_attach(surface, bar->wl_buffer, 0, 0);
	wl_surface_commit(surface);
	client_roundtrip(c);

	cfg = config_every_head(om, om->serial, h);
	zwlr_output_configuration_head_v1_set_custom_mode(cfg->target, 600, 400, 0);
	zwlr_output_configuration_head_v1_set_scale(cfg->target, wl_fixed_from_int(2));
	zwlr_output_configuration_head_v1_set_position(cfg->target, -50, 70);
	check_int(t, config_finish(om, cfg, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check_int(t, f.x, ==, -50);
	check_int(t, f.y, ==, 70);
	check_int(t, f.width, ==, 300);
	check_int(t, f.height, ==, 200);
	check_int(t, f.layer_width, ==, 300);
	check_int(t, f.layer_height, ==, 20);

	zwlr_layer_surface_v1_destroy(ls);
	wl_surface_destroy(surface);
	buffer_destroy(bar);
	zwlr_layer_shell_v1_destroy(shell);
	zxdg_output_v1_destroy(xo);
	om_free(om);
	client_destroy(c);
}

static void layer_closed_count(void *data, struct zwlr_layer_surface_v1 *ls)
{
	(*(int *)data)++;
}

static void layer_configure_ack(void *data, struct zwlr_layer_surface_v1 *ls, uint32_t serial,
				uint32_t w, uint32_t h)
{
	zwlr_layer_surface_v1_ack_configure(ls, serial);
}

static const struct zwlr_layer_surface_v1_listener closing_listener = {layer_configure_ack,
									layer_closed_count};

static struct client_output *output_named(struct client *c, const char *name)
{
	struct client_output *o;

	wl_list_for_each (o, &c->outputs, link) {
		if (strcmp(o->name, name) == 0)
			return o;
	}
	test_fail(c->test, __FILE__, __LINE__, "no output %s", name);
}

/* The wl_output globals a client connecting now is offered. */
static int outputs_offered(struct test_context *t)
{
	struct client *probe = client_create(t);
	int n = wl_list_length(&probe->outputs);

	client_destroy(probe);
	return n;
}

/* Every head of om: target disabled when off, every other one enabled as it is. */
static enum result set_head(struct om *om, struct om_head *target, bool on)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct om_head *h;

	cfg->config = zwlr_output_manager_v1_create_configuration(om->manager, om->serial);
	zwlr_output_configuration_v1_add_listener(cfg->config, &config_listener, &cfg->result);
	wl_list_for_each (h, &om->heads, link) {
		if (h->finished)
			continue;
		if (h == target && !on)
			zwlr_output_configuration_v1_disable_head(cfg->config, h->head);
		else if (h == target || h->enabled)
			zwlr_output_configuration_head_v1_destroy(
				zwlr_output_configuration_v1_enable_head(cfg->config, h->head));
		else
			zwlr_output_configuration_v1_disable_head(cfg->config, h->head);
	}
	return config_finish(om, cfg, false);
}

static bool shows(pixman_image_t *shot, uint32_t argb)
{
	for (int y = 0; y < pixman_image_get_height(shot); y++)
		for (int x = 0; x < pixman_image_get_width(shot); x++)
			if (image_pixel(shot, x, y) == argb)
				return true;
	return false;
}

/* A disabled output leaves the layout: its wl_output goes, its layer surfaces are closed, a
 * capture of it fails, its window comes to the other output; the head stays (enabled 0) and enables it again, for this
 * client and a new one; the last enabled output cannot be disabled. */
TEST_WITH(a_disabled_output_leaves_the_layout_and_comes_back, NULL, OUT0, OUT0)
{
	struct client *c = client_create(t), *later;
	struct om *om = om_bind(c), *om2;
	struct om_head *one = om_head(om, "HEADLESS-1"), *two = om_head(om, "HEADLESS-2");
	struct zwlr_layer_shell_v1 *shell =
		wl_registry_bind(c->registry, client_find_global(c, "zwlr_layer_shell_v1"),
				 &zwlr_layer_shell_v1_interface, 4);
	struct wl_surface *surface = wl_compositor_create_surface(c->compositor);
	struct zwlr_layer_surface_v1 *ls = zwlr_layer_shell_v1_get_layer_surface(
		shell, surface, output_named(c, "HEADLESS-2")->wl_output,
		ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM, "bar");
	struct client_surface *win = toplevel_create(c, 40, 40, 0xff10e010, NULL);
	struct zwlr_screencopy_manager_v1 *scm;
	struct zwlr_screencopy_frame_v1 *frame;
	struct frame_state st = {0};
	struct buffer *copy;
	int closed = 0;
	pixman_image_t *shot;

	zwlr_layer_surface_v1_add_listener(ls, &closing_listener, &closed);
	zwlr_layer_surface_v1_set_size(ls, 100, 20);
	wl_surface_commit(surface);
	garnet_test_move_surface(c->garnet_test, win->wl_surface, 400, 20);
	client_roundtrip(c);
	check(t, surface_commit_and_wait_frame(win));
	shot = capture_output(c, client_first_output(c));
	check(t, !shows(shot, 0xff10e010));
	pixman_image_unref(shot);

	/* A capture of it waiting for its next damage. */
	scm = screencopy_bind(c);
	frame = screencopy_start_on(t, c, scm, output_named(c, "HEADLESS-2")->wl_output, &st,
				    &copy);
	zwlr_screencopy_frame_v1_copy_with_damage(frame, copy->wl_buffer);
	client_roundtrip(c);
	check(t, !st.ready && !st.failed);

	check_int(t, set_head(om, two, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check_int(t, two->enabled, ==, 0);
	check(t, !two->finished);
	check_int(t, closed, ==, 1);
	check(t, st.failed);
	zwlr_screencopy_frame_v1_destroy(frame);
	zwlr_screencopy_manager_v1_destroy(scm);
	buffer_destroy(copy);
	check_int(t, outputs_offered(t), ==, 1);
	check(t, surface_commit_and_wait_frame(win));
	shot = capture_output(c, client_first_output(c));
	check(t, shows(shot, 0xff10e010));
	pixman_image_unref(shot);
	/* The last enabled output stays. */
	check_int(t, set_head(om, one, false), ==, FAILED);
	client_roundtrip(c);
	check_int(t, one->enabled, ==, 1);
	/* The disabled head named disabled again (as wlr-randr names every head): it stays off. */
	check_int(t, set_head(om, one, true), ==, SUCCEEDED);
	client_roundtrip(c);
	check_int(t, two->enabled, ==, 0);

	/* A client that comes later sees the disabled head, and enables it. */
	later = client_create(t);
	om2 = om_bind(later);
	check_int(t, om_head(om2, "HEADLESS-2")->enabled, ==, 0);
	check_int(t, set_head(om2, om_head(om2, "HEADLESS-2"), true), ==, SUCCEEDED);
	client_roundtrip(c);
	check_int(t, two->enabled, ==, 1);
	check_int(t, outputs_offered(t), ==, 2);

	/* Off and on again and again: garnet keeps serving, nothing piles up. */
	for (int i = 0; i < 40; i++) {
		check_int(t, set_head(om, two, i % 2 == 1), ==, SUCCEEDED);
		client_roundtrip(c);
	}
	check_int(t, two->enabled, ==, 1);
	check_compositor_serves(t);

	zwlr_layer_surface_v1_destroy(ls);
	wl_surface_destroy(surface);
	zwlr_layer_shell_v1_destroy(shell);
	surface_destroy(win);
	om_free(om2);
	client_destroy(later);
	om_free(om);
	client_destroy(c);
}

/* A disabled output is still a head: a configuration that leaves it out is the protocol's
 * unconfigured_head, as for an enabled one, and garnet keeps serving. */
TEST_WITH(a_configuration_that_omits_a_disabled_head_is_a_protocol_error, NULL, OUT0, OUT0)
{
	struct client *c = client_create(t);
	struct om *om = om_bind(c);
	struct om_head *one = om_head(om, "HEADLESS-1"), *two = om_head(om, "HEADLESS-2");
	struct zwlr_output_configuration_v1 *config;

	check_int(t, set_head(om, two, false), ==, SUCCEEDED);
	client_roundtrip(c);
	check_int(t, two->enabled, ==, 0);
	config = zwlr_output_manager_v1_create_configuration(om->manager, om->serial);
	zwlr_output_configuration_head_v1_destroy(
		zwlr_output_configuration_v1_enable_head(config, one->head));
	zwlr_output_configuration_v1_test(config);
	wl_display_roundtrip(c->display);
	client_expect_protocol_error(c, &zwlr_output_configuration_v1_interface,
				     ZWLR_OUTPUT_CONFIGURATION_V1_ERROR_UNCONFIGURED_HEAD);
	zwlr_output_configuration_v1_destroy(config);
	om_free(om);
	client_destroy(c);
	check_compositor_serves(t);
}
