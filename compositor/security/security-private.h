/* SPDX-License-Identifier: MIT */
/* What security.c (the hooks) and launcher.c (the trusted launcher) share: the security layer's
 * state, each client's subject and each launcher entry. */
#ifndef GARNET_SECURITY_PRIVATE_H
#define GARNET_SECURITY_PRIVATE_H

#include <stdbool.h>
#include <wayland-server-core.h>
#include <wmac.h>

#include "garnet/security.h"
#include "garnet-security.h"

struct launched {
	struct garnet_security *security;
	char *entry, *command, *executable;
	char **argv; /* the command's words; argv[0] names executable, the identity it runs as */
	int restarts_left;
	bool on_demand; /* started by a binding, each time; never restarted */
	struct wl_client *client; /* NULL while not running */
	struct wl_list link;
};

/* Denials already logged for one client: without a policy each get_registry is a denial per
 * privileged global, and a client asking in a loop would fill the disk (41 MB in 3 s). */
#define LOGGED_DENIALS 32

struct client_subject {
	struct wmac_subject *subject;
	struct launched *launched; /* the entry this client was started as, or NULL */
	/* "permission object" of each, compared whole: a hash would let a client pick an
	 * object whose denial collides with one already logged and so goes unrecorded. */
	char *logged[LOGGED_DENIALS];
	int logged_count;
	struct wl_listener destroy;
};

struct garnet_security {
	struct garnet_compositor *compositor;
	struct wmac_context *mac;
	struct wl_listener client_created;
	struct wl_list launched;
	struct client_subject *asking; /* whose check the audit callback reports */
	garnet_audit_sink audit_sink; /* NULL: the audit trail is garnet's log */
	void *audit_sink_data;
	bool shutting_down, test_mode;
};

/* security.c */
/* The subject garnet holds for client, or NULL (no identity: every check denies). */
struct client_subject *security_subject_of(const struct wl_client *client);

/* portal-subject.c */
/* The capture_for_app hook (see garnet/security.h). */
enum garnet_decision security_capture_for_app(struct garnet_security *s, struct wl_client *portal,
					      const char *claimed_app_id, uint32_t pid,
					      const char *output_name, bool stream, char *who,
					      size_t who_size);

/* launcher.c */
/* Starts a launcher entry whose client exited again, while it has restarts left. */
void security_relaunch(struct launched *l);
/* Frees every launcher entry (their clients are gone). */
void security_launched_free_all(struct garnet_security *s);

#endif
