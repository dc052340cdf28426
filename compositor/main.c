// SPDX-License-Identifier: MIT
// garnet: the process around libgarnet. Reads the command line (cli.c) and garnet.ini
// (config.c), starts the backend (backends.c), the security layer and the programs
// (launcher.c), then runs until SIGTERM or SIGINT.
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends.h"
#include "build-tree.h"
#include "cli.h"
#include "config.h"
#include "garnet/compositor.h"
#include "garnet/log.h"
#include "garnet/output.h"
#include "garnet/security.h"
#include "garnet-security.h"
#include "launcher.h"
#include "xwayland-config.h"
#include "garnet/xwayland.h"
#include "log-target.h"
#include "logind-lock.h"
#include "unlock-pam.h"

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

/* The user counts as idle for logind once garnet itself acts on it: the shorter of the idle
 * times garnet.ini sets (0: none). */
static int idle_hint_seconds(const struct config *cfg)
{
	int a = cfg->lock_after_idle, b = cfg->dpms_after_idle;

	return a > 0 && (b <= 0 || a < b) ? a : b;
}

int main(int argc, char **argv)
{
	struct cli cli = {0};
	struct config cfg = {0};
	struct instance s = {.exit_code = 0};
	struct garnet_security *security = NULL;
	struct garnet_xwayland *xwayland = NULL;
	bool xwayland_ok;
	struct garnet_unlock_pam *unlock;
	struct garnet_logind_lock *logind;
	char user_policy[PATH_MAX];
	struct wl_event_source *sigterm = NULL, *sigint = NULL;
	struct wl_event_loop *loop;
	struct log_target log = {0};
	char error[256];
	int exit_code;
	struct build_tree build_tree;
	bool in_build_tree;
	const char *policy = GARNET_SYSTEM_POLICY;
	uid_t policy_owner = 0;

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
	if (!cli_parse(argc, argv, &cli, &exit_code))
		return exit_code;
	in_build_tree = build_tree_find(&build_tree);
	config_init(&cfg);
	if (!config_load(&cfg, &cli, in_build_tree ? &build_tree : NULL))
		goto err_config;
	cfg.options.test_mode = cli.test_mode;
	if (cli.socket)
		cfg.options.socket = cli.socket;
	if (cli.backend)
		cfg.backend = cli.backend;
	if (!cfg.backend)
		cfg.backend = "headless";
	if (!backend_known(cfg.backend))
		goto err_config;
	if (!verify_runtime_dir())
		goto err_config;
	if (!log_target_open(&log, &cli, &cfg))
		goto err_config;

	s.compositor = garnet_compositor_create(&cfg.options);
	if (!s.compositor) {
		fprintf(stderr, "garnet: could not start the compositor (see the log above)\n");
		goto err_log;
	}
	raise_nofile_limit();
	log_target_apply(&log, s.compositor);
	if (cfg.background_image)
		garnet_compositor_set_background_image(s.compositor, cfg.background_image);
	if (in_build_tree)
		garnet_log(s.compositor, GARNET_LOG_INFO, "config",
			   "running from the build tree: %s and %s stand in for the installed files",
			   build_tree.policy, build_tree.config);
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

	for (int i = 0; i < cfg.panel_launcher_count; i++) {
		char name[65];
		const char *colon = strchr(cfg.panel_launchers[i], ':');

		snprintf(name, sizeof(name), "%.*s", (int)(colon - cfg.panel_launchers[i]),
			 cfg.panel_launchers[i]);
		if (!garnet_compositor_add_panel_launcher(s.compositor, name, colon + 1))
			goto err_compositor;
	}

	if (!backend_start(s.compositor, &cfg, &cli))
		goto err_compositor;

	/* The security layer is always on: without a readable policy it denies everything
	 * privileged rather than allowing it. */
	if (!cfg.user_policy)
		config_user_policy_path(user_policy, sizeof(user_policy));
	if (cfg.policy) {
		policy = cfg.policy;
	} else if (in_build_tree) {
		policy = build_tree.policy;
		policy_owner = build_tree.owner;
	}
	security = garnet_security_create_owned(s.compositor, policy, policy_owner,
						cfg.user_policy ? cfg.user_policy : user_policy,
						error, sizeof(error));
	if (!security) {
		fprintf(stderr, "garnet: out of memory for the security layer\n");
		goto err_compositor;
	}
	if (error[0])
		garnet_log(s.compositor, GARNET_LOG_ERROR, "security",
			   "policy not loaded, every privileged act is denied: %s", error);
	else
		garnet_log(s.compositor, GARNET_LOG_INFO, "security", "policy %s", policy);
	log_target_apply_security(&log, security);
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
	xwayland = xwayland_config_apply(s.compositor, &cfg, &xwayland_ok);
	if (!xwayland_ok)
		goto err_compositor;
	launcher_start(security, s.compositor, &cfg);
	if (!garnet_compositor_lock_after_idle(s.compositor, cfg.lock_after_idle) ||
	    !garnet_compositor_power_off_after_idle(s.compositor, cfg.dpms_after_idle))
		goto err_compositor;
	launcher_autostart(s.compositor, &cfg, &cli);

	unlock = garnet_unlock_pam_create(
		s.compositor, cfg.pam_service ? cfg.pam_service : "garnet", cfg.pam_confdir);
	logind = garnet_logind_lock_create(s.compositor, idle_hint_seconds(&cfg));
	garnet_compositor_run(s.compositor);
	garnet_logind_lock_destroy(logind);
	garnet_unlock_pam_destroy(unlock);

	if (s.screenshot) {
		wl_list_remove(&s.frame.link);
		wl_event_source_remove(s.screenshot_timeout);
	}
	wl_event_source_remove(sigterm);
	wl_event_source_remove(sigint);
	garnet_xwayland_destroy(xwayland);
	garnet_security_destroy(security);
	garnet_compositor_destroy(s.compositor);
	log_target_close(&log);
	config_free(&cfg);
	return s.exit_code;

err_compositor:
	garnet_xwayland_destroy(xwayland);
	garnet_security_destroy(security);
	garnet_compositor_destroy(s.compositor);
err_log:
	log_target_close(&log);
err_config:
	config_free(&cfg);
	return 1;
}

