// SPDX-License-Identifier: MIT
// garnet.ini as garnet reads it: which file, which sections each file may hold, the values.
#ifndef GARNET_CONFIG_H
#define GARNET_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "garnet/compositor.h"
#include "garnet/drm.h"
#include "garnet/output.h"

#define MAX_OUTPUTS 8
#define MAX_LIST 32

struct build_tree;
struct cli;

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
	/* [output] headers read so far (by the line reader: Debian's inih does not tell the
	 * handler about new sections), each one output even when it holds no key. */
	int output_headers;
	struct binding_config bindings[MAX_LIST];
	int binding_count;
	char *autostart[MAX_LIST];
	int autostart_count;
	struct {
		char *name, *command;
	} launchers[MAX_LIST];
	int launcher_count, launcher_restarts;
	/* [panel] launcher=NAME:COMMAND, checked: a NAME of its own, a COMMAND after it */
	char *panel_launchers[MAX_LIST];
	int panel_launcher_count;
	/* [xwayland] (doc/xwayland.md): enable (-1: when the server is installed), the server's
	 * path, and domain=NAME:PROGRAM... lines, checked: a valid NAME, a PROGRAM after it. */
	int xwayland_enable;
	const char *xwayland_path;
	int xwayland_idle_timeout; /* seconds a private domain lives idle; -1: the default */
	char *xwayland_domains[MAX_LIST];
	int xwayland_domain_count;
	int lock_after_idle; /* seconds, 0: never */
	int dpms_after_idle; /* seconds until the outputs are powered off, 0: never */
	const char *background_image; /* [shell] background-image: a PNG, or NULL */
	const char *pam_service; /* garnet's own lock screen checks passwords with it */
	const char *pam_confdir; /* where that service is, when not /etc/pam.d */
	const char *policy, *user_policy;
	const char *log_target; /* [core] log: auto, journal or stderr */
	const char *audit; /* [security] audit: auto, journal, log or a file */
	char *strings[MAX_LIST]; /* owned copies of string options */
	int string_count;
	char error[256];
	const char *path, *system_path;
	bool system; /* the file being read may hold the sections that choose what is trusted */
};

/* The defaults, before any file is read. */
void config_init(struct config *cfg);
/* Reads the system file and the user's (or --config's); false: an error was printed. From the
 * build tree (bt not NULL) the repository's garnet.ini stands in for the installed ones. */
bool config_load(struct config *cfg, const struct cli *cli, const struct build_tree *bt);
void config_free(struct config *cfg);
/* A whole number in [min, max], strtol's bases; false otherwise. */
bool config_parse_int(const char *value, long min, long max, int *out);
/* The user's own restrictions: $XDG_CONFIG_HOME/wmac/wmac.policy (may be missing). */
void config_user_policy_path(char *out, size_t size);

#endif
