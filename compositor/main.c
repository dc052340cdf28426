// SPDX-License-Identifier: MIT
// garnet: command line, garnet.ini, logging, signals and autostart around libgarnet.
#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "garnet/compositor.h"
#include "garnet/drm.h"
#include "garnet/headless.h"
#include "garnet/log.h"
#include "garnet/output.h"
#include "garnet/security.h"
#include "garnet-security.h"
#include "logind-lock.h"
#include "unlock-pam.h"
#include "garnet/wayland.h"

#define MAX_OUTPUTS 8
#define MAX_LIST 32

struct binding_config {
	char *modifiers, *key, *action, *argument;
};

struct config {
	struct garnet_options options;
	const char *backend;
	struct garnet_output_mode outputs[MAX_OUTPUTS];
	struct garnet_drm_output_config drm_outputs[MAX_OUTPUTS]; /* name and chosen mode */
	int output_count;
	struct garnet_input_config input;
	bool in_output_section;
	struct binding_config bindings[MAX_LIST];
	int binding_count;
	char *autostart[MAX_LIST];
	int autostart_count;
	struct {
		char *name, *command;
	} launchers[MAX_LIST];
	int launcher_count, launcher_restarts;
	int lock_after_idle; /* seconds, 0: never */
	const char *pam_service; /* garnet's own lock screen checks passwords with it */
	const char *pam_confdir; /* where that service is, when not /etc/pam.d */
	const char *policy, *user_policy;
	char *strings[MAX_LIST]; /* owned copies of string options */
	int string_count;
	char error[256];
	const char *path, *system_path;
	bool system; /* the file being read may hold the sections that choose what is trusted */
};

struct cli {
	const char *config_path;
	bool no_config, debug, test_mode, oneshot;
	const char *backend, *socket, *log_path, *screenshot;
	const char *seat, *drm_device;
	int tty;
	const char *autostart[MAX_LIST];
	int autostart_count;
	int width, height, scale;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: garnet [OPTIONS]\n"
		"A Wayland compositor that keeps clients from spying on, forging or locking out\n"
		"one another.\n\n"
		"  -B, --backend=NAME      backend: headless (the default: outputs in memory),\n"
		"                          drm (the desktop session on a VT, through libseat) or\n"
		"                          wayland (windows in the compositor of WAYLAND_DISPLAY)\n"
		"  -S, --socket=NAME       listen on NAME in XDG_RUNTIME_DIR (default: wayland-N)\n"
		"  -c, --config=FILE       read FILE instead of searching for garnet.ini\n"
		"      --no-config         read no configuration file\n"
		"      --width=PIXELS      headless/wayland output width (default 1024)\n"
		"      --height=PIXELS     headless/wayland output height (default 768)\n"
		"      --scale=N           headless/wayland output scale (default 1)\n"
		"      --seat=NAME         drm: the seat to run on (default: XDG_SEAT or seat0)\n"
		"      --tty=N             drm: switch to VT N and run there (default: this VT)\n"
		"      --drm-device=PATH   drm: the KMS device (default: the seat's first card\n"
		"                          with connectors)\n"
		"  -l, --log=FILE          log to FILE instead of stderr\n"
		"  -d, --debug             log debug messages\n"
		"      --autostart=COMMAND run COMMAND once garnet is up (may be repeated)\n"
		"      --test-mode         expose the garnet_test protocol (test harness only)\n"
		"      --screenshot=FILE   write a PNG of the first output once a window shows\n"
		"                          (or after 5 seconds), and print where\n"
		"      --oneshot           exit after the screenshot instead of running on\n"
		"  -v, --version           print the version and exit\n"
		"  -h, --help              print this help and exit\n\n"
		"garnet.ini is searched in $XDG_CONFIG_HOME (~/.config), then garnet/garnet.ini\n"
		"in each of $XDG_CONFIG_DIRS (/etc/xdg). [launcher], [security] and [limits]\n"
		"are read only from " GARNET_SYSTEM_CONFIG ", which root owns (or from a\n"
		"--config file owned by root and writable by no one else). See garnet.ini(5).\n"
		"SIGTERM and SIGINT shut garnet down cleanly.\n");
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

static bool parse_int(const char *value, long min, long max, int *out)
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
		if (!parse_int(value, 1, 8, &m->scale)) {
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
		if (!parse_int(value, 0, 1000, &hz)) {
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
	if (strcmp(name, "repeat-rate") == 0 && parse_int(value, 0, 1000, &kb->repeat_rate))
		return 1;
	if (strcmp(name, "repeat-delay") == 0 && parse_int(value, 0, 10000, &kb->repeat_delay))
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
			 "on-screen-keyboard, panel)", name);
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

static int handle_security_key(struct config *cfg, const char *name, const char *value)
{
	int limit;

	if (strcmp(name, "policy") == 0)
		return (cfg->policy = keep(cfg, value)) != NULL;
	if (strcmp(name, "user-policy") == 0)
		return (cfg->user_policy = keep(cfg, value)) != NULL;
	if (strcmp(name, "unlock-pam-service") == 0)
		return (cfg->pam_service = keep(cfg, value)) != NULL;
	if (strcmp(name, "unlock-pam-confdir") == 0 && value[0] == '/')
		return (cfg->pam_confdir = keep(cfg, value)) != NULL;
	if (strcmp(name, "launcher-restarts") == 0 &&
	    parse_int(value, 0, 100, &cfg->launcher_restarts))
		return 1;
	if (strcmp(name, "max-requests-per-second") == 0 &&
	    parse_int(value, 0, 100000000, &limit)) {
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

	/* inih calls with name == NULL at each new section (INI_CALL_HANDLER_ON_NEW_SECTION). */
	if (strcmp(section, "output") == 0 && !cfg->in_output_section) {
		if (cfg->output_count == MAX_OUTPUTS) {
			snprintf(cfg->error, sizeof(cfg->error), "more than %d outputs",
				 MAX_OUTPUTS);
			return 0;
		}
		cfg->outputs[cfg->output_count++] = (struct garnet_output_mode){
			.width = 1024, .height = 768, .scale = 1, .refresh_mhz = 60000};
		cfg->drm_outputs[cfg->output_count - 1] = (struct garnet_drm_output_config){0};
		cfg->in_output_section = true;
	} else if (strcmp(section, "output") != 0) {
		cfg->in_output_section = false;
	}
	if (!name)
		return 1;

	if (strcmp(section, "core") == 0) {
		if (strcmp(name, "backend") == 0)
			return (cfg->backend = keep(cfg, value)) != NULL;
		if (strcmp(name, "socket") == 0)
			return (cfg->options.socket = keep(cfg, value)) != NULL;
		if (strcmp(name, "repaint-window") == 0 && parse_int(value, 0, 100, &repaint)) {
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
		if (strcmp(name, "lock-after-idle") == 0) {
			if (!parse_int(value, 0, 86400, &cfg->lock_after_idle)) {
				snprintf(cfg->error, sizeof(cfg->error),
					 "lock-after-idle '%s' is not seconds from 0 to 86400",
					 value);
				return 0;
			}
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

/* An entry a binding launches starts when the binding is pressed, not with garnet; so does
 * the locker when a lock binding or idle time locks the session. */
static bool launched_by_binding(const struct config *cfg, const char *entry)
{
	if (cfg->lock_after_idle > 0 && strcmp(entry, "lock-screen") == 0)
		return true;
	for (int i = 0; i < cfg->binding_count; i++) {
		if (strcmp(cfg->bindings[i].action, "lock") == 0 &&
		    strcmp(entry, "lock-screen") == 0)
			return true;
		if (strcmp(cfg->bindings[i].action, "launch") == 0 && cfg->bindings[i].argument &&
		    strcmp(cfg->bindings[i].argument, entry) == 0)
			return true;
	}
	return false;
}

static bool launch_on_demand(void *data, const char *entry)
{
	return garnet_security_start_on_demand(data, entry);
}

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

/* The weston.ini convention: the user's file first, then the system's. */
static bool find_config(char *out, size_t size)
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
	snprintf(list, sizeof(list), "%s", dirs && *dirs ? dirs : "/etc/xdg");
	for (dir = strtok_r(list, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, size, "%s/garnet/garnet.ini", dir);
		if (readable(out))
			return true;
	}
	return false;
}

/* The rule libwmac applies to its system policy: owned by root, writable by no one else. */
static bool owned_by_root(FILE *f)
{
	struct stat st;

	return fstat(fileno(f), &st) == 0 && st.st_uid == 0 &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* Reads path from f (and closes it); system says whether it may hold the trust sections. */
static bool read_config(struct config *cfg, const char *path, FILE *f, bool system)
{
	int line;

	cfg->system = system;
	line = ini_parse_file(f, config_handler, cfg);
	fclose(f);
	cfg->system = false;
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
 * test or a kiosk can give garnet a whole configuration of its own.
 */
static bool load_config(struct config *cfg, const struct cli *cli)
{
	char found[PATH_MAX];
	const char *path = cli->config_path;
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
	system = open_config(GARNET_SYSTEM_CONFIG, true);
	if (system) {
		if (!read_config(cfg, GARNET_SYSTEM_CONFIG, system, owned_by_root(system))) {
			if (f)
				fclose(f);
			return false;
		}
		cfg->system_path = GARNET_SYSTEM_CONFIG;
	} else if (errno != ENOENT) {
		if (f)
			fclose(f);
		return false;
	}
	if (!f) {
		if (!find_config(found, sizeof(found)))
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

/* The user's own restrictions: $XDG_CONFIG_HOME/wmac/wmac.policy (may be missing). */
static void default_user_policy(char *out, size_t size)
{
	const char *home = getenv("HOME"), *xdg_home = getenv("XDG_CONFIG_HOME");

	if (xdg_home && *xdg_home)
		snprintf(out, size, "%s/wmac/wmac.policy", xdg_home);
	else
		snprintf(out, size, "%s/.config/wmac/wmac.policy", home ? home : "");
}

static bool verify_runtime_dir(void)
{
	const char *dir = getenv("XDG_RUNTIME_DIR");
	struct stat st;

	if (!dir || !*dir) {
		fprintf(stderr, "garnet: XDG_RUNTIME_DIR is not set; it must name a directory of "
				"mode 0700 owned by you\n");
		return false;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "garnet: XDG_RUNTIME_DIR=%s is not a directory\n", dir);
		return false;
	}
	if (st.st_uid != getuid() || (st.st_mode & 077)) {
		fprintf(stderr, "garnet: XDG_RUNTIME_DIR=%s must be owned by uid %u with mode "
				"0700 (it is uid %u, mode %04o)\n", dir, getuid(), st.st_uid,
			st.st_mode & 07777);
		return false;
	}
	return true;
}

struct instance {
	struct garnet_compositor *compositor;
	struct garnet_output *output;
	const char *screenshot;
	bool oneshot, shot_taken;
	int exit_code;
	struct wl_listener frame;
	struct wl_event_source *screenshot_timeout;
};

static void take_screenshot(struct instance *s)
{
	if (s->shot_taken)
		return;
	s->shot_taken = true;
	if (garnet_output_write_png(s->output, s->screenshot)) {
		printf("garnet: screenshot of %s written to %s\n",
		       garnet_output_get_name(s->output), s->screenshot);
		fflush(stdout);
	} else {
		s->exit_code = 1;
	}
	if (s->oneshot)
		garnet_compositor_terminate(s->compositor);
}

static void on_frame(struct wl_listener *listener, void *data)
{
	struct instance *s = wl_container_of(listener, s, frame);

	/* A window mapped while this frame was on its way shows only in the next one. */
	if (garnet_compositor_window_count(s->compositor) > 0 &&
	    !garnet_output_repaint_pending(s->output))
		take_screenshot(s);
}

static int screenshot_timeout(void *data)
{
	take_screenshot(data);
	return 0;
}

static int on_signal(int signal, void *data)
{
	struct instance *s = data;

	garnet_log(s->compositor, GARNET_LOG_INFO, "core", "%s: shutting down",
		   strsignal(signal));
	garnet_compositor_terminate(s->compositor);
	return 0;
}

/* Every client costs descriptors; libgarnet restores the old limit in the children it starts. */
static void raise_nofile_limit(void)
{
	struct rlimit lim;

	if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
		lim.rlim_cur = lim.rlim_max;
		setrlimit(RLIMIT_NOFILE, &lim);
	}
}

static bool parse_cli(int argc, char **argv, struct cli *cli, int *exit_code)
{
	enum { OPT_NO_CONFIG = 256, OPT_WIDTH, OPT_HEIGHT, OPT_SCALE, OPT_TEST, OPT_SHOT,
	       OPT_ONESHOT, OPT_AUTOSTART, OPT_SEAT, OPT_TTY, OPT_DRM_DEVICE };
	static const struct option longopts[] = {
		{"backend", required_argument, NULL, 'B'},
		{"socket", required_argument, NULL, 'S'},
		{"config", required_argument, NULL, 'c'},
		{"no-config", no_argument, NULL, OPT_NO_CONFIG},
		{"width", required_argument, NULL, OPT_WIDTH},
		{"height", required_argument, NULL, OPT_HEIGHT},
		{"scale", required_argument, NULL, OPT_SCALE},
		{"log", required_argument, NULL, 'l'},
		{"debug", no_argument, NULL, 'd'},
		{"test-mode", no_argument, NULL, OPT_TEST},
		{"screenshot", required_argument, NULL, OPT_SHOT},
		{"oneshot", no_argument, NULL, OPT_ONESHOT},
		{"autostart", required_argument, NULL, OPT_AUTOSTART},
		{"seat", required_argument, NULL, OPT_SEAT},
		{"tty", required_argument, NULL, OPT_TTY},
		{"drm-device", required_argument, NULL, OPT_DRM_DEVICE},
		{"version", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	int opt;

	*exit_code = 1;
	while ((opt = getopt_long(argc, argv, "B:S:c:l:dvh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			cli->backend = optarg;
			break;
		case 'S':
			cli->socket = optarg;
			break;
		case 'c':
			cli->config_path = optarg;
			break;
		case OPT_NO_CONFIG:
			cli->no_config = true;
			break;
		case OPT_WIDTH:
		case OPT_HEIGHT:
		case OPT_SCALE: {
			int *field = opt == OPT_WIDTH ? &cli->width
				     : opt == OPT_HEIGHT ? &cli->height : &cli->scale;

			if (!parse_int(optarg, 1, opt == OPT_SCALE ? 8 : 16384, field)) {
				fprintf(stderr, "garnet: --%s=%s is out of range\n",
					longopts[opt - OPT_NO_CONFIG + 3].name, optarg);
				return false;
			}
			break;
		}
		case 'l':
			cli->log_path = optarg;
			break;
		case 'd':
			cli->debug = true;
			break;
		case OPT_TEST:
			cli->test_mode = true;
			break;
		case OPT_SHOT:
			cli->screenshot = optarg;
			break;
		case OPT_ONESHOT:
			cli->oneshot = true;
			break;
		case OPT_AUTOSTART:
			if (cli->autostart_count == MAX_LIST) {
				fprintf(stderr, "garnet: more than %d --autostart\n", MAX_LIST);
				return false;
			}
			cli->autostart[cli->autostart_count++] = optarg;
			break;
		case OPT_SEAT:
			cli->seat = optarg;
			break;
		case OPT_TTY:
			if (!parse_int(optarg, 1, 63, &cli->tty)) {
				fprintf(stderr, "garnet: --tty=%s is not a VT number (1-63)\n",
					optarg);
				return false;
			}
			break;
		case OPT_DRM_DEVICE:
			cli->drm_device = optarg;
			break;
		case 'v':
			printf("garnet %s\n", GARNET_VERSION);
			*exit_code = 0;
			return false;
		case 'h':
			usage(stdout);
			*exit_code = 0;
			return false;
		default:
			usage(stderr);
			return false;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "garnet: unexpected argument '%s'\n", argv[optind]);
		return false;
	}
	if (cli->oneshot && !cli->screenshot) {
		fprintf(stderr, "garnet: --oneshot needs --screenshot\n");
		return false;
	}
	return true;
}

static bool start_backend(struct garnet_compositor *c, struct config *cfg, const struct cli *cli)
{
	struct garnet_drm_options drm = {
		.seat = cli->seat,
		.tty = cli->tty,
		.drm_device = cli->drm_device,
		.outputs = cfg->drm_outputs,
		.output_count = cfg->output_count,
		.input = cfg->input,
	};

	if (strcmp(cfg->backend, "drm") == 0) {
		for (int i = 0; i < cfg->output_count; i++) {
			cfg->drm_outputs[i].scale = cfg->outputs[i].scale;
			cfg->drm_outputs[i].transform = cfg->outputs[i].transform;
		}
		if (garnet_drm_backend_create(c, &drm))
			return true;
		fprintf(stderr, "garnet: cannot start the drm backend (see the log above)\n");
		return false;
	}
	if (cfg->output_count == 0)
		cfg->outputs[cfg->output_count++] = (struct garnet_output_mode){
			.width = 1024, .height = 768, .scale = 1, .refresh_mhz = 60000};
	if (cli->width)
		cfg->outputs[0].width = cli->width;
	if (cli->height)
		cfg->outputs[0].height = cli->height;
	if (cli->scale)
		cfg->outputs[0].scale = cli->scale;
	if (strcmp(cfg->backend, "wayland") == 0) {
		if (garnet_wayland_backend_create(c, NULL, cfg->outputs, cfg->output_count))
			return true;
		fprintf(stderr, "garnet: cannot start the wayland backend (see the log above)\n");
		return false;
	}
	for (int i = 0; i < cfg->output_count; i++) {
		if (!garnet_headless_add_output(c, &cfg->outputs[i]))
			return false;
	}
	return true;
}

static void free_config(struct config *cfg)
{
	for (int i = 0; i < cfg->string_count; i++)
		free(cfg->strings[i]);
}

int main(int argc, char **argv)
{
	struct cli cli = {0};
	struct config cfg = {0};
	struct instance s = {.exit_code = 0};
	struct garnet_security *security = NULL;
	struct garnet_unlock_pam *unlock;
	struct garnet_logind_lock *logind;
	char user_policy[PATH_MAX];
	struct wl_event_source *sigterm = NULL, *sigint = NULL;
	struct wl_event_loop *loop;
	FILE *log = NULL;
	char error[256];
	int exit_code;

	sigset_t stop_signals;

	/* Held from the start, so a SIGTERM that comes before the loop listens for it (the socket
	 * exists a moment earlier) still ends in a clean shutdown. */
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGINT);
	sigprocmask(SIG_BLOCK, &stop_signals, NULL);
	/* No core dump and no ptrace by the user's other processes: garnet's memory holds every
	 * client's pixels, the clipboard and, on the lock screen, the password being typed. */
	prctl(PR_SET_DUMPABLE, 0);
	if (!parse_cli(argc, argv, &cli, &exit_code))
		return exit_code;
	garnet_options_init(&cfg.options);
	cfg.launcher_restarts = 3;
	cfg.input = (struct garnet_input_config){
		.tap = -1, .natural_scroll = -1, .left_handed = -1, .accel_flat = -1};
	if (!load_config(&cfg, &cli))
		goto err_config;
	cfg.options.test_mode = cli.test_mode;
	if (cli.socket)
		cfg.options.socket = cli.socket;
	if (cli.backend)
		cfg.backend = cli.backend;
	if (!cfg.backend)
		cfg.backend = "headless";
	if (strcmp(cfg.backend, "headless") != 0 && strcmp(cfg.backend, "drm") != 0 &&
	    strcmp(cfg.backend, "wayland") != 0) {
		fprintf(stderr, "garnet: backend '%s' is not available (this build has: "
				"headless, drm, wayland)\n", cfg.backend);
		goto err_config;
	}
	if (!verify_runtime_dir())
		goto err_config;
	if (cli.log_path) {
		log = fopen(cli.log_path, "a");
		if (!log) {
			fprintf(stderr, "garnet: cannot open log %s: %s\n", cli.log_path,
				strerror(errno));
			goto err_config;
		}
	}

	s.compositor = garnet_compositor_create(&cfg.options);
	if (!s.compositor) {
		fprintf(stderr, "garnet: could not start the compositor (see the log above)\n");
		goto err_log;
	}
	raise_nofile_limit();
	if (log)
		garnet_log_set_stream(s.compositor, log);
	garnet_log_set_level(s.compositor, cli.debug ? GARNET_LOG_DEBUG : GARNET_LOG_INFO);
	if (cfg.system_path)
		garnet_log(s.compositor, GARNET_LOG_INFO, "config", "read %s (system)",
			   cfg.system_path);
	if (cfg.path)
		garnet_log(s.compositor, GARNET_LOG_INFO, "config", "read %s", cfg.path);
	for (int i = 0; i < cfg.binding_count; i++) {
		struct binding_config *b = &cfg.bindings[i];

		if (!garnet_compositor_add_binding(s.compositor, b->modifiers, b->key, b->action,
						   b->argument, error, sizeof(error))) {
			fprintf(stderr, "garnet: %s: [shell] binding %s+%s: %s\n",
				cfg.path ? cfg.path : cfg.system_path,
				b->modifiers, b->key, error);
			goto err_compositor;
		}
	}

	if (!start_backend(s.compositor, &cfg, &cli))
		goto err_compositor;

	/* The security layer is always on: without a readable policy it denies everything
	 * privileged rather than allowing it. */
	if (!cfg.user_policy)
		default_user_policy(user_policy, sizeof(user_policy));
	security = garnet_security_create(s.compositor,
					  cfg.policy ? cfg.policy : GARNET_SYSTEM_POLICY,
					  cfg.user_policy ? cfg.user_policy : user_policy, error,
					  sizeof(error));
	if (!security) {
		fprintf(stderr, "garnet: out of memory for the security layer\n");
		goto err_compositor;
	}
	if (error[0])
		garnet_log(s.compositor, GARNET_LOG_ERROR, "security",
			   "policy not loaded, every privileged act is denied: %s", error);
	garnet_security_set_test_mode(security, cli.test_mode);

	loop = garnet_compositor_get_loop(s.compositor);
	sigterm = wl_event_loop_add_signal(loop, SIGTERM, on_signal, &s);
	sigint = wl_event_loop_add_signal(loop, SIGINT, on_signal, &s);
	signal(SIGPIPE, SIG_IGN);
	setenv("WAYLAND_DISPLAY", garnet_compositor_get_socket(s.compositor), 1);
	printf("garnet: running on the %s backend, WAYLAND_DISPLAY=%s\n", cfg.backend,
	       garnet_compositor_get_socket(s.compositor));
	fflush(stdout);

	if (cli.screenshot) {
		s.screenshot = cli.screenshot;
		s.oneshot = cli.oneshot;
		s.output = garnet_compositor_first_output(s.compositor);
		s.frame.notify = on_frame;
		wl_signal_add(garnet_output_get_frame_signal(s.output), &s.frame);
		s.screenshot_timeout = wl_event_loop_add_timer(loop, screenshot_timeout, &s);
		wl_event_source_timer_update(s.screenshot_timeout, 5000);
	}
	for (int i = 0; i < cfg.launcher_count; i++)
		garnet_security_launch(security, cfg.launchers[i].name, cfg.launchers[i].command,
				       cfg.launcher_restarts,
				       launched_by_binding(&cfg, cfg.launchers[i].name));
	garnet_compositor_set_launch_handler(s.compositor, launch_on_demand, security);
	if (!garnet_compositor_lock_after_idle(s.compositor, cfg.lock_after_idle))
		goto err_compositor;
	for (int i = 0; i < cfg.autostart_count; i++)
		garnet_compositor_spawn(s.compositor, cfg.autostart[i]);
	for (int i = 0; i < cli.autostart_count; i++)
		garnet_compositor_spawn(s.compositor, cli.autostart[i]);

	unlock = garnet_unlock_pam_create(
		s.compositor, cfg.pam_service ? cfg.pam_service : "garnet", cfg.pam_confdir);
	logind = garnet_logind_lock_create(s.compositor);
	garnet_compositor_run(s.compositor);
	garnet_logind_lock_destroy(logind);
	garnet_unlock_pam_destroy(unlock);

	if (s.screenshot) {
		wl_list_remove(&s.frame.link);
		wl_event_source_remove(s.screenshot_timeout);
	}
	wl_event_source_remove(sigterm);
	wl_event_source_remove(sigint);
	garnet_security_destroy(security);
	garnet_compositor_destroy(s.compositor);
	if (log)
		fclose(log);
	free_config(&cfg);
	return s.exit_code;

err_compositor:
	garnet_security_destroy(security);
	garnet_compositor_destroy(s.compositor);
err_log:
	if (log)
		fclose(log);
err_config:
	free_config(&cfg);
	return 1;
}
