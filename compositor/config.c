// SPDX-License-Identifier: MIT
// garnet.ini: the system file holds what decides trust, the user's file the rest.
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-tree.h"
#include "cli.h"
#include "config.h"
#include "garnet-security.h"

void config_init(struct config *cfg)
{
	garnet_options_init(&cfg->options);
	cfg->launcher_restarts = 3;
	cfg->xwayland_enable = -1;
	cfg->xwayland_idle_timeout = -1;
	cfg->input = (struct garnet_input_config){
		.tap = -1, .natural_scroll = -1, .left_handed = -1, .accel_flat = -1};
}

static char *keep(struct config *cfg, const char *value)
{
	char *copy;

	if (cfg->string_count == MAX_LIST)
		return NULL;
	copy = strdup(value);
	if (copy)
		cfg->strings[cfg->string_count++] = copy;
	return copy;
}

bool config_parse_int(const char *value, long min, long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 0);
	if (errno || end == value || *end || v < min || v > max)
		return false;
	*out = (int)v;
	return true;
}

static bool parse_transform(const char *value, int32_t *out)
{
	static const char *const names[] = {"normal",	   "90",	  "180",
					    "270",	   "flipped",	  "flipped-90",
					    "flipped-180", "flipped-270"};

	for (int i = 0; i < 8; i++) {
		if (strcmp(value, names[i]) == 0) {
			*out = i;
			return true;
		}
	}
	return false;
}

static int handle_output_key(struct config *cfg, const char *name, const char *value)
{
	struct garnet_output_mode *m = &cfg->outputs[cfg->output_count - 1];
	int hz;

	struct garnet_drm_output_config *d = &cfg->drm_outputs[cfg->output_count - 1];
	double rate = 0;
	char at;

	if (strcmp(name, "name") == 0)
		return (d->name = keep(cfg, value)) != NULL;
	if (strcmp(name, "mode") == 0) {
		int n = sscanf(value, "%dx%d%c%lf", &m->width, &m->height, &at, &rate);

		if ((n != 2 && !(n == 4 && at == '@' && rate > 0 && rate <= 1000)) ||
		    m->width <= 0 || m->height <= 0) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "mode '%s' is not WIDTHxHEIGHT or WIDTHxHEIGHT@HZ", value);
			return 0;
		}
		d->width = m->width;
		d->height = m->height;
		d->refresh_mhz = (int32_t)(rate * 1000);
		if (d->refresh_mhz)
			m->refresh_mhz = d->refresh_mhz;
		return 1;
	}
	if (strcmp(name, "scale") == 0) {
		if (!config_parse_int(value, 1, 8, &m->scale)) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "scale '%s' is not a whole number from 1 to 8", value);
			return 0;
		}
		return 1;
	}
	if (strcmp(name, "transform") == 0) {
		if (!parse_transform(value, &m->transform)) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "transform '%s' is not normal, 90, 180, 270 or flipped[-N]",
				 value);
			return 0;
		}
		return 1;
	}
	if (strcmp(name, "refresh") == 0) {
		if (!config_parse_int(value, 0, 1000, &hz)) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "refresh '%s' is not a rate in Hz (0: repaint on demand)", value);
			return 0;
		}
		m->refresh_mhz = hz * 1000;
		return 1;
	}
	snprintf(cfg->error, sizeof(cfg->error), "unknown key '%s' in [output] (name, mode, "
		 "scale, transform, refresh)", name);
	return 0;
}

/* Checked here, where inih still knows the line, rather than when the compositor exists. */
static int check_binding(struct config *cfg, const struct binding_config *b)
{
	char why[200];

	if (garnet_binding_check(b->modifiers, b->key, b->action, b->argument, why, sizeof(why)))
		return 1;
	snprintf(cfg->error, sizeof(cfg->error), "binding: %s", why);
	return 0;
}

static int handle_binding(struct config *cfg, const char *value)
{
	struct binding_config *b;
	char *copy, *combo, *action, *argument, *plus;

	if (cfg->binding_count == MAX_LIST) {
		snprintf(cfg->error, sizeof(cfg->error), "more than %d bindings", MAX_LIST);
		return 0;
	}
	copy = keep(cfg, value);
	if (!copy)
		return 0;
	combo = strtok_r(copy, " \t", &argument);
	action = combo ? strtok_r(NULL, " \t", &argument) : NULL;
	if (!combo || !action) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "binding '%s' is not 'MODIFIERS+KEY ACTION [ARGUMENT]'", value);
		return 0;
	}
	while (*argument == ' ' || *argument == '\t')
		argument++;
	b = &cfg->bindings[cfg->binding_count++];
	plus = strrchr(combo, '+');
	if (plus) {
		*plus = '\0';
		b->modifiers = combo;
		b->key = plus + 1;
	} else {
		b->modifiers = "";
		b->key = combo;
	}
	b->action = action;
	b->argument = *argument ? argument : NULL;
	if (strcmp(action, "launch") == 0 && b->argument &&
	    !garnet_security_is_launcher_name(b->argument)) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "binding: launch '%s' is no [launcher] entry name (lock-screen, "
			 "screenshooter, input-method, on-screen-keyboard, panel)", b->argument);
		return 0;
	}
	return check_binding(cfg, b);
}

static int handle_keyboard_key(struct config *cfg, const char *name, const char *value)
{
	struct garnet_keyboard_options *kb = &cfg->options.keyboard;
	const char **field = NULL;

	if (strcmp(name, "keymap_rules") == 0)
		field = &kb->rules;
	else if (strcmp(name, "keymap_model") == 0)
		field = &kb->model;
	else if (strcmp(name, "keymap_layout") == 0)
		field = &kb->layout;
	else if (strcmp(name, "keymap_variant") == 0)
		field = &kb->variant;
	else if (strcmp(name, "keymap_options") == 0)
		field = &kb->options;
	if (field) {
		*field = keep(cfg, value);
		return *field != NULL;
	}
	if (strcmp(name, "repeat-rate") == 0 && config_parse_int(value, 0, 1000, &kb->repeat_rate))
		return 1;
	if (strcmp(name, "repeat-delay") == 0 && config_parse_int(value, 0, 10000, &kb->repeat_delay))
		return 1;
	snprintf(cfg->error, sizeof(cfg->error), "bad key or value '%s=%s' in [keyboard]", name,
		 value);
	return 0;
}

/* [launcher] NAME=COMMAND: the trusted clients, by the names the policy gives rights to. */
static int handle_launcher(struct config *cfg, const char *name, const char *value)
{
	if (!garnet_security_is_launcher_name(name)) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "unknown launcher '%s' (lock-screen, screenshooter, input-method, "
			 "on-screen-keyboard, panel, notifications, launcher, idle, output-config)",
			 name);
		return 0;
	}
	for (int i = 0; i < cfg->launcher_count; i++) {
		if (strcmp(cfg->launchers[i].name, name) == 0) {
			snprintf(cfg->error, sizeof(cfg->error), "launcher '%s' given twice", name);
			return 0;
		}
	}
	if (cfg->launcher_count == MAX_LIST || !*value) {
		snprintf(cfg->error, sizeof(cfg->error), "launcher '%s' needs a command", name);
		return 0;
	}
	cfg->launchers[cfg->launcher_count].name = keep(cfg, name);
	cfg->launchers[cfg->launcher_count].command = keep(cfg, value);
	return cfg->launchers[cfg->launcher_count++].command != NULL;
}

static int parse_bool(const char *value, int *out);

/* [xwayland] domain=NAME:PROGRAM...: the programs garnet launches into one shared X server. */
static int handle_xwayland(struct config *cfg, const char *name, const char *value)
{
	size_t len = strcspn(value, ":");

	if (strcmp(name, "enable") == 0)
		return parse_bool(value, &cfg->xwayland_enable);
	if (strcmp(name, "path") == 0) {
		if (value[0] != '/') {
			snprintf(cfg->error, sizeof(cfg->error),
				 "[xwayland] path=%s: want an absolute path", value);
			return 0;
		}
		return (cfg->xwayland_path = keep(cfg, value)) != NULL;
	}
	if (strcmp(name, "idle-timeout") == 0) {
		if (config_parse_int(value, 0, 86400, &cfg->xwayland_idle_timeout))
			return 1;
		snprintf(cfg->error, sizeof(cfg->error),
			 "[xwayland] idle-timeout=%s: want seconds (0: never)", value);
		return 0;
	}
	if (strcmp(name, "domain") != 0) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "unknown key '%s' in [xwayland] (enable, path, idle-timeout, domain)",
			 name);
		return 0;
	}
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyz"
					 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.";

	if (len == 0 || len > 64 || value[len] != ':' ||
	    !value[len + 1 + strspn(value + len + 1, " ")] || strspn(value, name_chars) != len) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "[xwayland] domain=%s: want NAME:PROGRAM... (NAME of letters, digits, -_.)",
			 value);
		return 0;
	}
	if (cfg->xwayland_domain_count == MAX_LIST) {
		snprintf(cfg->error, sizeof(cfg->error), "more than %d X11 domains", MAX_LIST);
		return 0;
	}
	return (cfg->xwayland_domains[cfg->xwayland_domain_count++] = keep(cfg, value)) != NULL;
}

/* [panel] launcher=NAME:COMMAND: a button of the panel. The command is run as exec bindings
 * are (untrusted), so the user's own file may hold it; the panel only ever sees NAME. */
static int handle_panel(struct config *cfg, const char *name, const char *value)
{
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : 0;

	if (strcmp(name, "launcher") != 0) {
		snprintf(cfg->error, sizeof(cfg->error), "unknown key '%s' in [panel] (launcher)",
			 name);
		return 0;
	}
	if (len == 0 || len > 64 || !colon[1]) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "[panel] launcher=%s: want NAME:COMMAND (a name of 1 to 64 bytes)", value);
		return 0;
	}
	for (int i = 0; i < cfg->panel_launcher_count; i++) {
		if (strncmp(cfg->panel_launchers[i], value, len + 1) == 0) {
			snprintf(cfg->error, sizeof(cfg->error),
				 "[panel] launcher '%.*s' given twice", (int)len, value);
			return 0;
		}
	}
	if (cfg->panel_launcher_count == MAX_LIST) {
		snprintf(cfg->error, sizeof(cfg->error), "more than %d panel launchers", MAX_LIST);
		return 0;
	}
	return (cfg->panel_launchers[cfg->panel_launcher_count++] = keep(cfg, value)) != NULL;
}

static int handle_security_key(struct config *cfg, const char *name, const char *value)
{
	int limit;

	if (strcmp(name, "policy") == 0)
		return (cfg->policy = keep(cfg, value)) != NULL;
	if (strcmp(name, "user-policy") == 0)
		return (cfg->user_policy = keep(cfg, value)) != NULL;
	/* Where denials are recorded is the administrator's choice: the user's own processes must
	 * not be able to hide theirs. */
	if (strcmp(name, "audit") == 0 && (strcmp(value, "auto") == 0 ||
					  strcmp(value, "journal") == 0 ||
					  strcmp(value, "log") == 0 || value[0] == '/'))
		return (cfg->audit = keep(cfg, value)) != NULL;
	if (strcmp(name, "unlock-pam-service") == 0)
		return (cfg->pam_service = keep(cfg, value)) != NULL;
	if (strcmp(name, "unlock-pam-confdir") == 0 && value[0] == '/')
		return (cfg->pam_confdir = keep(cfg, value)) != NULL;
	if (strcmp(name, "launcher-restarts") == 0 &&
	    config_parse_int(value, 0, 100, &cfg->launcher_restarts))
		return 1;
	if (strcmp(name, "max-requests-per-second") == 0 &&
	    config_parse_int(value, 0, 100000000, &limit)) {
		cfg->options.requests_per_second = (uint32_t)limit;
		return 1;
	}
	snprintf(cfg->error, sizeof(cfg->error), "bad key or value '%s=%s' in [security]", name,
		 value);
	return 0;
}

/* [limits]: what one client may make garnet hold (garnet_limits); 0 is no limit. Sizes are in
 * MiB. Kept in this one function so that it can move with the section. */
static int handle_limits_key(struct config *cfg, const char *name, const char *value)
{
	static const struct {
		const char *key;
		int limit; /* enum garnet_limit, or -1 for a field of its own */
		uint64_t unit;
	} keys[] = {
		{"buffer-memory-mib", GARNET_LIMIT_TEXTURE_BYTES, 1u << 20},
		{"surfaces", GARNET_LIMIT_SURFACES, 1},
		{"subsurfaces", GARNET_LIMIT_SUBSURFACES, 1},
		{"region-rectangles", GARNET_LIMIT_REGION_RECTS, 1},
		{"mime-types", GARNET_LIMIT_MIME_TYPES, 1},
		{"activation-tokens", GARNET_LIMIT_ACTIVATION_TOKENS, 1},
		{"rectangles-per-region", -1, 1},
		{"copy-mib-per-frame", -1, 1u << 20},
		{"requests-per-second", -1, 1},
	};
	struct garnet_limits *l = &cfg->options.limits;
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(value, &end, 10);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (strcmp(name, keys[i].key) != 0)
			continue;
		if (errno || end == value || *end || *value == '-' || v > UINT32_MAX)
			break;
		if (keys[i].limit >= 0)
			l->max[keys[i].limit] = v * keys[i].unit;
		else if (strcmp(name, "rectangles-per-region") == 0)
			l->region_rects = (uint32_t)v;
		else if (strcmp(name, "copy-mib-per-frame") == 0)
			l->copy_bytes_per_frame = v * keys[i].unit;
		else
			cfg->options.requests_per_second = (uint32_t)v;
		return 1;
	}
	snprintf(cfg->error, sizeof(cfg->error), "bad key or value '%s=%s' in [limits]", name,
		 value);
	return 0;
}

static int parse_bool(const char *value, int *out)
{
	if (strcmp(value, "true") == 0 || strcmp(value, "1") == 0)
		*out = 1;
	else if (strcmp(value, "false") == 0 || strcmp(value, "0") == 0)
		*out = 0;
	else
		return 0;
	return 1;
}

static int handle_libinput_key(struct config *cfg, const char *name, const char *value)
{
	struct garnet_input_config *in = &cfg->input;
	char *end;

	if (strcmp(name, "enable-tap") == 0 && parse_bool(value, &in->tap))
		return 1;
	if (strcmp(name, "natural-scroll") == 0 && parse_bool(value, &in->natural_scroll))
		return 1;
	if (strcmp(name, "left-handed") == 0 && parse_bool(value, &in->left_handed))
		return 1;
	if (strcmp(name, "accel-profile") == 0 &&
	    (strcmp(value, "flat") == 0 || strcmp(value, "adaptive") == 0)) {
		in->accel_flat = strcmp(value, "flat") == 0;
		return 1;
	}
	if (strcmp(name, "accel-speed") == 0) {
		in->accel_speed = strtod(value, &end);
		if (end != value && !*end && in->accel_speed >= -1 && in->accel_speed <= 1) {
			in->accel_set = true;
			return 1;
		}
	}
	snprintf(cfg->error, sizeof(cfg->error),
		 "bad key or value '%s=%s' in [libinput] (enable-tap, natural-scroll and "
		 "left-handed take true or false, accel-speed a number from -1 to 1, "
		 "accel-profile flat or adaptive)", name, value);
	return 0;
}

/* Sections that choose what garnet trusts: which programs get trusted identities, the policy,
 * the PAM service and the limits that hold a client back. A file the user (or a client running
 * as the user) can write must not reach them, whatever its keys. */
static bool system_section(const char *section)
{
	static const char *const names[] = {"launcher", "security", "limits"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(section, names[i]) == 0)
			return true;
	}
	return false;
}

/* One output for each [output] header read and not yet made one. */
static bool add_outputs(struct config *cfg)
{
	while (cfg->output_count < cfg->output_headers) {
		if (cfg->output_count == MAX_OUTPUTS) {
			snprintf(cfg->error, sizeof(cfg->error), "more than %d outputs",
				 MAX_OUTPUTS);
			return false;
		}
		cfg->outputs[cfg->output_count] = (struct garnet_output_mode){
			.width = 1024, .height = 768, .scale = 1, .refresh_mhz = 60000};
		cfg->drm_outputs[cfg->output_count] = (struct garnet_drm_output_config){0};
		cfg->output_count++;
	}
	return true;
}

struct config_reader {
	FILE *f;
	struct config *cfg;
};

/* inih's line reader: it reads a line, handles it, then reads the next, so an [output] header
 * counted here is made an output before the handler sees the section's first key. inih's own
 * rule for a header: '[' after leading blanks, the name up to ']'. */
static char *read_line(char *str, int num, void *stream)
{
	struct config_reader *r = stream;
	char *line = fgets(str, num, r->f), *p = line;

	/* inih skips a UTF-8 byte order mark before the first line's header. */
	if (p && strncmp(p, "\xef\xbb\xbf", 3) == 0)
		p += 3;
	while (p && (*p == ' ' || *p == '\t'))
		p++;
	if (p && strncmp(p, "[output]", 8) == 0)
		r->cfg->output_headers++;
	return line;
}

static int config_handler(void *user, const char *section, const char *name, const char *value)
{
	struct config *cfg = user;
	int repaint;

	if (name && system_section(section) && !cfg->system) {
		snprintf(cfg->error, sizeof(cfg->error),
			 "[%s] is read only from a root-owned system file (%s), not from a file "
			 "the user can change", section, GARNET_SYSTEM_CONFIG);
		return 0;
	}

	if (!add_outputs(cfg))
		return 0;
	/* Builds of inih with INI_CALL_HANDLER_ON_NEW_SECTION call with no name: nothing to do. */
	if (!name)
		return 1;

	if (strcmp(section, "core") == 0) {
		if (strcmp(name, "backend") == 0)
			return (cfg->backend = keep(cfg, value)) != NULL;
		if (strcmp(name, "socket") == 0)
			return (cfg->options.socket = keep(cfg, value)) != NULL;
		if (strcmp(name, "log") == 0 && (strcmp(value, "auto") == 0 ||
						 strcmp(value, "journal") == 0 ||
						 strcmp(value, "stderr") == 0))
			return (cfg->log_target = keep(cfg, value)) != NULL;
		if (strcmp(name, "repaint-window") == 0 && strcmp(value, "auto") == 0) {
			cfg->options.repaint_window_ms = GARNET_REPAINT_WINDOW_AUTO;
			return 1;
		}
		if (strcmp(name, "repaint-window") == 0 && config_parse_int(value, 0, 100, &repaint)) {
			cfg->options.repaint_window_ms = repaint;
			return 1;
		}
		snprintf(cfg->error, sizeof(cfg->error), "bad key or value '%s=%s' in [core]",
			 name, value);
		return 0;
	}
	if (strcmp(section, "keyboard") == 0)
		return handle_keyboard_key(cfg, name, value);
	if (strcmp(section, "libinput") == 0)
		return handle_libinput_key(cfg, name, value);
	if (strcmp(section, "output") == 0)
		return handle_output_key(cfg, name, value);
	if (strcmp(section, "shell") == 0) {
		if (strcmp(name, "background-color") == 0) {
			char *end;
			unsigned long argb = strtoul(value, &end, 0);

			if (end == value || *end || argb > 0xffffffffUL) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "background-color '%s' is not 0xAARRGGBB", value);
				return 0;
			}
			cfg->options.background_argb = (uint32_t)argb | 0xff000000u;
			return 1;
		}
		if (strcmp(name, "binding") == 0)
			return handle_binding(cfg, value);
		/* Read once garnet runs: a broken file is logged and leaves the colour. */
		if (strcmp(name, "background-image") == 0)
			return (cfg->background_image = keep(cfg, value)) != NULL;
		if (strcmp(name, "lock-after-idle") == 0) {
			if (!config_parse_int(value, 0, 86400, &cfg->lock_after_idle)) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "lock-after-idle '%s' is not seconds from 0 to 86400",
					 value);
				return 0;
			}
			return 1;
		}
		if (strcmp(name, "dpms-after-idle") == 0) {
			if (!config_parse_int(value, 0, 86400, &cfg->dpms_after_idle)) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "dpms-after-idle '%s' is not seconds from 0 to 86400",
					 value);
				return 0;
			}
			return 1;
		}
		if (strcmp(name, "cast-list-seconds") == 0) {
			int seconds;

			if (!config_parse_int(value, 0, 86400, &seconds)) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "cast-list-seconds '%s' is not seconds from 0 to 86400",
					 value);
				return 0;
			}
			cfg->options.cast_list_seconds = (uint32_t)seconds;
			return 1;
		}
		if (strcmp(name, "builtin-cursor") == 0) {
			int on;

			if (!parse_bool(value, &on)) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "builtin-cursor '%s' is not true or false", value);
				return 0;
			}
			cfg->options.builtin_cursor = on;
			return 1;
		}
		snprintf(cfg->error, sizeof(cfg->error), "unknown key '%s' in [shell]", name);
		return 0;
	}
	if (strcmp(section, "launcher") == 0)
		return handle_launcher(cfg, name, value);
	if (strcmp(section, "shortcuts") == 0) {
		/* ACTION=MODIFIERS+KEY is the binding MODIFIERS+KEY shortcut ACTION. */
		char binding[256];

		snprintf(binding, sizeof(binding), "%s shortcut %s", value, name);
		return handle_binding(cfg, binding);
	}
	if (strcmp(section, "panel") == 0)
		return handle_panel(cfg, name, value);
	if (strcmp(section, "xwayland") == 0)
		return handle_xwayland(cfg, name, value);
	if (strcmp(section, "security") == 0)
		return handle_security_key(cfg, name, value);
	if (strcmp(section, "limits") == 0)
		return handle_limits_key(cfg, name, value);
	if (strcmp(section, "autostart") == 0 && strcmp(name, "command") == 0) {
		if (cfg->autostart_count == MAX_LIST) {
			snprintf(cfg->error, sizeof(cfg->error), "more than %d autostart commands",
				 MAX_LIST);
			return 0;
		}
		return (cfg->autostart[cfg->autostart_count++] = keep(cfg, value)) != NULL;
	}
	snprintf(cfg->error, sizeof(cfg->error), "unknown section or key [%s] %s", section, name);
	return 0;
}


static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* The weston.ini convention: the user's file first, then the system's; from the build tree
 * the repository's data/garnet.ini stands in for the system's. */
static bool find_config(char *out, size_t size, const struct build_tree *bt)
{
	const char *home = getenv("HOME"), *xdg_home = getenv("XDG_CONFIG_HOME");
	const char *dirs = getenv("XDG_CONFIG_DIRS");
	char list[PATH_MAX], *dir, *save;

	if (xdg_home && *xdg_home) {
		snprintf(out, size, "%s/garnet.ini", xdg_home);
		if (readable(out))
			return true;
	} else if (home) {
		snprintf(out, size, "%s/.config/garnet.ini", home);
		if (readable(out))
			return true;
	}
	if (bt) {
		snprintf(out, size, "%s", bt->config);
		return readable(out);
	}
	snprintf(list, sizeof(list), "%s", dirs && *dirs ? dirs : GARNET_XDG_CONFIG_DIR);
	for (dir = strtok_r(list, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/garnet/garnet.ini", dir);
		if (readable(out))
			return true;
	}
	return false;
}

/* The rule libwmac applies to its system policy: owned by root (or, in the build tree, by
 * the executable's owner), writable by no one else. */
static bool owned_by(FILE *f, uid_t owner)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 && st.st_uid == owner &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

static bool owned_by_root(FILE *f)
{
	return owned_by(f, 0);
}

/* Reads path from f (and closes it); system says whether it may hold the trust sections. */
static bool read_config(struct config *cfg, const char *path, FILE *f, bool system)
{
	struct config_reader reader = {f, cfg};
	int line;

	cfg->system = system;
	line = ini_parse_stream(read_line, &reader, config_handler, cfg);
	fclose(f);
	cfg->system = false;
	/* A last [output] without keys is an output too. */
	if (line == 0 && !add_outputs(cfg))
		line = -1;
	if (line != 0) {
		fprintf(stderr, "garnet: %s:%d: %s\n", path, line,
			cfg->error[0] ? cfg->error : "syntax error");
		return false;
	}
	return true;
}

/* An optional file (the system one) may be missing; any other failure is said. */
static FILE *open_config(const char *path, bool optional)
{
	FILE *f = fopen(path, "r");

	if (!f && !(optional && errno == ENOENT))
		fprintf(stderr, "garnet: cannot read config %s: %s\n", path, strerror(errno));
	return f;
}

/*
 * The system file (GARNET_SYSTEM_CONFIG) holds [launcher], [security] and [limits]; the user's
 * file (found as weston.ini is, or given with --config) holds the rest. A --config file that
 * is itself owned by root and writable by no one else stands in for the system file, so a
 * test or a kiosk can give garnet a whole configuration of its own. bt: garnet runs from its
 * build tree (build-tree.h), or NULL.
 */
bool config_load(struct config *cfg, const struct cli *cli, const struct build_tree *bt)
{
	char found[PATH_MAX];
	const char *path = cli->config_path, *system_path;
	FILE *f = NULL, *system;

	if (cli->no_config)
		return true;
	if (path) {
		f = open_config(path, false);
		if (!f)
			return false;
		if (owned_by_root(f)) {
			cfg->system_path = keep(cfg, path);
			return read_config(cfg, path, f, true);
		}
	}
	/* The build tree reads none of an installed garnet's files: its own system file (the
	 * panel of the build tree, as the installed one launches garnet-panel) stands in. */
	system_path = bt ? (bt->system[0] ? bt->system : NULL) : GARNET_SYSTEM_CONFIG;
	system = system_path ? open_config(system_path, true) : NULL;
	if (system) {
		if (!read_config(cfg, system_path, system,
				 bt ? owned_by(system, bt->owner) : owned_by_root(system))) {
			if (f)
				fclose(f);
			return false;
		}
		cfg->system_path = keep(cfg, system_path);
	} else if (!bt && errno != ENOENT) {
		if (f)
			fclose(f);
		return false;
	}
	if (!f) {
		if (!find_config(found, sizeof(found), bt))
			return true;
		path = found;
		f = open_config(path, false);
		if (!f)
			return false;
	}
	if (!read_config(cfg, path, f, false))
		return false;
	cfg->path = keep(cfg, path);
	return true;
}

void config_user_policy_path(char *out, size_t size)
{
	const char *home = getenv("HOME"), *xdg_home = getenv("XDG_CONFIG_HOME");

	if (xdg_home && *xdg_home)
		snprintf(out, size, "%s/wmac/wmac.policy", xdg_home);
	else
		snprintf(out, size, "%s/.config/wmac/wmac.policy", home ? home : "");
}

void config_free(struct config *cfg)
{
	for (int i = 0; i < cfg->string_count; i++)
		free(cfg->strings[i]);
}
