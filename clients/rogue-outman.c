// SPDX-License-Identifier: MIT
// garnet-rogue outman: zwlr_output_manager_v1 from the client side. An ordinary client wants
// to move or shrink the screens (to push garnet's dialogs off what the user sees, or to make
// the desktop unusable); started as garnet's output-config client it is the trusted tool, and
// then it tries the values garnet cannot show, and a stale configuration.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rogue-ignore.h"
#include "rogue.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"

#define MAX_HEADS 8

struct outman_head {
	struct zwlr_output_head_v1 *head;
	char name[64];
	int32_t width, height, x, y, enabled;
	wl_fixed_t scale;
};

struct outman {
	struct zwlr_output_manager_v1 *manager;
	struct outman_head heads[MAX_HEADS];
	int count;
	uint32_t serial;
	FILE *out;
	const char *result;
};

static void mode_size(void *data, struct zwlr_output_mode_v1 *m, int32_t w, int32_t h)
{
	int32_t *size = data;

	size[0] = w;
	size[1] = h;
}

static void mode_ignore(void *data, struct zwlr_output_mode_v1 *m)
{
}

static void mode_refresh(void *data, struct zwlr_output_mode_v1 *m, int32_t refresh)
{
}

static const struct zwlr_output_mode_v1_listener mode_listener = {mode_size, mode_refresh,
								  mode_ignore, mode_ignore};

static void head_name(void *data, struct zwlr_output_head_v1 *h, const char *name)
{
	struct outman_head *head = data;

	snprintf(head->name, sizeof(head->name), "%s", name);
}

static void head_string(void *data, struct zwlr_output_head_v1 *h, const char *s)
{
}

static void head_physical_size(void *data, struct zwlr_output_head_v1 *h, int32_t w, int32_t ht)
{
}

/* Each mode keeps its size in memory of its own: the head's current mode names one. The
 * first head's modes are kept for the modes action. */
static struct zwlr_output_mode_v1 *first_modes[64];
static int first_mode_count;

static void head_mode(void *data, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *m)
{
	static int32_t sizes[256][2];
	static int used;
	static struct zwlr_output_head_v1 *first;

	zwlr_output_mode_v1_add_listener(m, &mode_listener, sizes[used < 255 ? used++ : 255]);
	if (!first)
		first = h;
	if (first == h && first_mode_count < 64)
		first_modes[first_mode_count++] = m;
}

static void head_int(void *data, struct zwlr_output_head_v1 *h, int32_t value)
{
}

static void head_current_mode(void *data, struct zwlr_output_head_v1 *h,
			      struct zwlr_output_mode_v1 *m)
{
	struct outman_head *head = data;
	int32_t *size = zwlr_output_mode_v1_get_user_data(m);

	head->width = size[0];
	head->height = size[1];
}

static void head_enabled(void *data, struct zwlr_output_head_v1 *h, int32_t enabled)
{
	((struct outman_head *)data)->enabled = enabled;
}

static void head_position(void *data, struct zwlr_output_head_v1 *h, int32_t x, int32_t y)
{
	struct outman_head *head = data;

	head->x = x;
	head->y = y;
}

static void head_scale(void *data, struct zwlr_output_head_v1 *h, wl_fixed_t scale)
{
	((struct outman_head *)data)->scale = scale;
}

static void head_finished(void *data, struct zwlr_output_head_v1 *h)
{
}

static void head_adaptive_sync(void *data, struct zwlr_output_head_v1 *h, uint32_t state)
{
}

static const struct zwlr_output_head_v1_listener head_listener = {
	head_name,	   head_string,	  head_physical_size, head_mode,	  head_enabled,
	head_current_mode, head_position, head_int,	      head_scale,	  head_finished,
	head_string,	   head_string,	  head_string,	      head_adaptive_sync,
};

static void manager_head(void *data, struct zwlr_output_manager_v1 *m,
			 struct zwlr_output_head_v1 *h)
{
	struct outman *om = data;
	struct outman_head *head = &om->heads[om->count < MAX_HEADS - 1 ? om->count++ : om->count];

	head->head = h;
	zwlr_output_head_v1_add_listener(h, &head_listener, head);
}

static void manager_done(void *data, struct zwlr_output_manager_v1 *m, uint32_t serial)
{
	((struct outman *)data)->serial = serial;
}

static void manager_finished(void *data, struct zwlr_output_manager_v1 *m)
{
}

static const struct zwlr_output_manager_v1_listener manager_listener = {manager_head, manager_done,
									manager_finished};

static void on_global(void *data, struct wl_registry *r, uint32_t name, const char *interface,
		      uint32_t version)
{
	struct outman *om = data;

	if (strcmp(interface, zwlr_output_manager_v1_interface.name) == 0)
		om->manager = wl_registry_bind(r, name, &zwlr_output_manager_v1_interface,
					       version < 4 ? version : 4);
}

static const struct wl_registry_listener registry_listener = {on_global,
							      rogue_ignore_global_remove};

static void config_succeeded(void *data, struct zwlr_output_configuration_v1 *c)
{
	((struct outman *)data)->result = "succeeded";
}

static void config_failed(void *data, struct zwlr_output_configuration_v1 *c)
{
	((struct outman *)data)->result = "failed";
}

static void config_cancelled(void *data, struct zwlr_output_configuration_v1 *c)
{
	((struct outman *)data)->result = "cancelled";
}

static const struct zwlr_output_configuration_v1_listener config_listener = {
	config_succeeded, config_failed, config_cancelled};

enum value {
	MOVE,
	HUGE_POSITION,
	TINY_SCALE,
	HUGE_SCALE,
	HUGE_MODE,
	DISABLE,
	STALE,
	MODE,
	ODD,
	SECOND_OFF,
	SECOND_ON,
};

static const char *const value_names[] = {"move",      "huge-position", "tiny-scale",
					  "huge-scale", "huge-mode",	"disable",
					  "stale-serial", "mode", "odd-custom-mode",
					  "second-off", "second-on"};

/* The mode object the MODE value sets. */
static struct zwlr_output_mode_v1 *chosen_mode;

/* One configuration of every head, the first one given value; logs "NAME RESULT". */
static void configure(struct wl_display *display, struct outman *om, enum value v)
{
	struct zwlr_output_configuration_v1 *cfg = zwlr_output_manager_v1_create_configuration(
		om->manager, v == STALE ? om->serial - 1 : om->serial);
	struct zwlr_output_configuration_head_v1 *ch;

	om->result = NULL;
	zwlr_output_configuration_v1_add_listener(cfg, &config_listener, om);
	for (int i = 0; i < om->count; i++) {
		if ((i == 0 && v == DISABLE) || (i == 1 && v == SECOND_OFF)) {
			zwlr_output_configuration_v1_disable_head(cfg, om->heads[i].head);
			continue;
		}
		ch = zwlr_output_configuration_v1_enable_head(cfg, om->heads[i].head);
		if (i == 0 && (v == MOVE || v == STALE)) {
			zwlr_output_configuration_head_v1_set_custom_mode(ch, 800, 600, 0);
			zwlr_output_configuration_head_v1_set_position(ch, 100, 50);
		} else if (i == 0 && v == HUGE_POSITION) {
			zwlr_output_configuration_head_v1_set_position(ch, INT32_MAX, INT32_MIN);
		} else if (i == 0 && v == TINY_SCALE) {
			zwlr_output_configuration_head_v1_set_scale(ch, 1);
		} else if (i == 0 && v == HUGE_SCALE) {
			zwlr_output_configuration_head_v1_set_scale(ch, INT32_MAX);
		} else if (i == 1 && v == SECOND_ON) {
			/* Back on, at another size each time. */
			zwlr_output_configuration_head_v1_set_custom_mode(
				ch, om->heads[1].width == 320 ? 400 : 320, 240, 0);
		} else if (i == 0 && v == MODE) {
			zwlr_output_configuration_head_v1_set_mode(ch, chosen_mode);
		} else if (i == 0 && v == ODD) {
			/* No display lists 1001x701: a DRM output has no such mode. */
			zwlr_output_configuration_head_v1_set_custom_mode(ch, 1001, 701, 0);
		} else if (i == 0 && v == HUGE_MODE) {
			zwlr_output_configuration_head_v1_set_custom_mode(ch, INT32_MAX, INT32_MAX,
									  INT32_MAX);
		}
		zwlr_output_configuration_head_v1_destroy(ch);
	}
	zwlr_output_configuration_v1_apply(cfg);
	while (!om->result && wl_display_dispatch(display) >= 0)
		;
	wl_display_roundtrip(display);
	fprintf(om->out, "%s %s\n", value_names[v], om->result ? om->result : "no-answer");
	fflush(om->out);
	zwlr_output_configuration_v1_destroy(cfg);
}

static void log_heads(struct outman *om)
{
	for (int i = 0; i < om->count; i++)
		fprintf(om->out, "head %s %dx%d at %d,%d scale %d%s\n", om->heads[i].name,
			om->heads[i].width, om->heads[i].height, om->heads[i].x, om->heads[i].y,
			wl_fixed_to_int(om->heads[i].scale), om->heads[i].enabled ? "" : " off");
	fflush(om->out);
}

/* Waits (answering the compositor) until path exists: the test looked at the display. */
static void wait_for_file(struct wl_display *display, const char *path)
{
	struct timespec tick = {0, 50 * 1000 * 1000};

	while (access(path, F_OK) != 0 && wl_display_roundtrip(display) >= 0)
		nanosleep(&tick, NULL);
}

/* modes: the first output to another of its modes, back to the one it had, then a custom
 * mode no display offers; after the first two, waits for FILE.1 and FILE.2. */
static bool cycle_modes(struct wl_display *display, struct outman *om, const char *path)
{
	struct zwlr_output_mode_v1 *original = NULL, *other = NULL;
	char go[4096];
	bool ok = true;

	for (int i = 0; i < first_mode_count; i++) {
		int32_t *size = zwlr_output_mode_v1_get_user_data(first_modes[i]);

		if (size[0] == om->heads[0].width && size[1] == om->heads[0].height) {
			if (!original)
				original = first_modes[i];
		} else if (!other) {
			other = first_modes[i];
		}
	}
	if (!original || !other) {
		fprintf(om->out, "no-second-mode\n");
		return false;
	}
	for (int step = 1; step <= 2; step++) {
		int32_t *size;

		chosen_mode = step == 1 ? other : original;
		size = zwlr_output_mode_v1_get_user_data(chosen_mode);
		fprintf(om->out, "to %dx%d\n", size[0], size[1]);
		configure(display, om, MODE);
		ok = ok && om->result && strcmp(om->result, "succeeded") == 0;
		log_heads(om);
		snprintf(go, sizeof(go), "%s.%d", path, step);
		wait_for_file(display, go);
	}
	configure(display, om, ODD);
	log_heads(om);
	return ok;
}

/* toggle: the second output off and on again (at another size), again and again, then a
 * configuration with the serial from before; logs each kind of result once with its count. */
static bool toggle(struct wl_display *display, struct outman *om)
{
	int succeeded = 0, other = 0;

	if (om->count < 2) {
		fprintf(om->out, "one-head\n");
		return false;
	}
	for (int i = 0; i < 30; i++) {
		configure(display, om, SECOND_OFF);
		succeeded += om->result && strcmp(om->result, "succeeded") == 0;
		other += !om->result || strcmp(om->result, "succeeded") != 0;
		configure(display, om, SECOND_ON);
		succeeded += om->result && strcmp(om->result, "succeeded") == 0;
		other += !om->result || strcmp(om->result, "succeeded") != 0;
	}
	fprintf(om->out, "toggled %d succeeded %d other\n", succeeded, other);
	configure(display, om, STALE);
	return succeeded > 0;
}

/* outman FILE move|extremes|modes|toggle: move changes the first output to 800x600 at 100,50; extremes
 * first tries a huge position, scales of 1/256 and 2^23, a huge mode, turning the output off
 * and a stale serial, then moves it. Logs "no-global", the heads, each "NAME RESULT", the
 * heads again, "done" and how the connection stands, then stays until killed (a launched
 * client must not exit). 1 when any configuration succeeded. */
int rogue_outman(const char *path, const char *action)
{
	struct outman om = {0};
	struct wl_display *display = rogue_connect();
	bool changed = false;
	int err;

	om.out = fopen(path, "w");
	if (!om.out)
		return 2;
	wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, &om);
	wl_display_roundtrip(display);
	if (!om.manager) {
		fprintf(om.out, "no-global\n");
		fclose(om.out);
		pause();
		return 0;
	}
	zwlr_output_manager_v1_add_listener(om.manager, &manager_listener, &om);
	wl_display_roundtrip(display);
	wl_display_roundtrip(display);
	log_heads(&om);
	if (strcmp(action, "extremes") == 0) {
		for (enum value v = HUGE_POSITION; v <= STALE; v++) {
			configure(display, &om, v);
			changed |= om.result && strcmp(om.result, "succeeded") == 0;
		}
	}
	if (strcmp(action, "modes") == 0) {
		changed = cycle_modes(display, &om, path);
	} else if (strcmp(action, "toggle") == 0) {
		changed = toggle(display, &om);
	} else {
		configure(display, &om, MOVE);
		changed |= om.result && strcmp(om.result, "succeeded") == 0;
	}
	wl_display_roundtrip(display);
	log_heads(&om);
	err = wl_display_get_error(display);
	fprintf(om.out, "done\n%s\n", err ? "protocol-error" : "connected");
	fflush(om.out);
	if (!err)
		while (wl_display_dispatch(display) >= 0)
			;
	fclose(om.out);
	return changed ? 1 : 0;
}
