// SPDX-License-Identifier: MIT
// Captures the desktop portal's backend asks for on an application's behalf: the application
// is the subject of the decision, made from the pid the backend names (the bus daemon's word
// for the D-Bus connection that asked), never the backend, which may capture nothing itself.
// The app id the portal claims is only shown; a sandboxed process's own app id replaces it.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "garnet/log.h"
#include "security-private.h"

/* Flatpak's record of the sandbox, bind-mounted read-only into it by flatpak: "name=APP" in
 * its [Application] group. Empty when the process is not in a flatpak sandbox. */
static void flatpak_app_id(pid_t pid, char *buf, size_t size)
{
	char path[64], text[4096], *p, *end;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/root/.flatpak-info", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	p = strstr(text, "\nname=");
	if (!p && strncmp(text, "name=", 5) == 0)
		p = text - 1;
	if (!p)
		return;
	p += 6;
	end = strchr(p, '\n');
	snprintf(buf, size, "%.*s", end ? (int)(end - p) : (int)strlen(p), p);
}

static const char *executable_of(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, buf, size - 1);
	if (n < 0)
		return "unknown";
	buf[n] = '\0';
	return buf;
}

enum garnet_decision security_capture_for_app(struct garnet_security *s, struct wl_client *portal,
					      const char *claimed_app_id, uint32_t pid,
					      const char *output_name, bool stream, char *who,
					      size_t who_size)
{
	struct client_subject *backend = security_subject_of(portal);
	struct wmac_subject *app;
	char real_app_id[256], exe[512];
	enum wmac_decision d;
	uid_t uid;

	snprintf(who, who_size, "pid %u", pid);
	/* Only the portal entry garnet launched speaks for applications: other trusted clients
	 * may hold every privileged global (the panel does), but not this voice. */
	if (!backend || !wmac_subject_is_launched(backend->subject) ||
	    strcmp(wmac_subject_get_launcher_entry(backend->subject), "portal") != 0) {
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "a capture for pid %u from a client that is not the portal entry: "
			   "refused",
			   pid);
		return GARNET_DENY;
	}
	uid = wmac_subject_get_uid(backend->subject);
	app = wmac_subject_from_pid((pid_t)pid, uid);
	if (!app) {
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "a capture for pid %u refused: %s", pid,
			   errno == EPERM ? "another user's process" : "no such process");
		return GARNET_DENY;
	}
	flatpak_app_id((pid_t)pid, real_app_id, sizeof(real_app_id));
	if (real_app_id[0] && wmac_subject_set_sandbox(app, "org.flatpak", real_app_id, NULL) < 0)
		real_app_id[0] = '\0';
	if (claimed_app_id[0] && strcmp(claimed_app_id, real_app_id) != 0)
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "the portal claims app id '%s' for pid %u, whose own is '%s': the "
			   "process decides",
			   claimed_app_id, pid, real_app_id);
	snprintf(who, who_size, "%s%s%spid %u exe %s", real_app_id[0] ? "app " : "", real_app_id,
		 real_app_id[0] ? ", " : "", pid, executable_of((pid_t)pid, exe, sizeof(exe)));
	s->asking = NULL;
	d = wmac_check(s->mac, app,
		       stream ? WMAC_PERMISSION_SCREENCAST : WMAC_PERMISSION_SCREENSHOT,
		       output_name);
	garnet_log(s->compositor, GARNET_LOG_INFO, "security", "portal capture for %s: %s", who,
		   wmac_decision_name(d));
	wmac_subject_destroy(app);
	return d == WMAC_ALLOW ? GARNET_ALLOW : d == WMAC_ASK ? GARNET_ASK : GARNET_DENY;
}
