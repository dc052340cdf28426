/* SPDX-License-Identifier: MIT */
/*
 * libwmac: mandatory access control for graphical sessions.
 *
 * A compositor asks libwmac before every privileged act ("may this client take a screenshot?").
 * libwmac knows who asks (a subject), what is asked (a permission and an object), and decides
 * from a policy file (wmac.policy(5)). It does not depend on any display server library.
 *
 * Typical use:
 *
 *	struct wmac_context *mac = wmac_context_create();
 *	struct wmac_error err;
 *	if (wmac_context_load(mac, "/etc/wmac/wmac.policy", user_path, &err) < 0)
 *		log("%s:%u:%u: %s", err.file, err.line, err.column, err.message);
 *	wmac_context_set_audit(mac, log_decision, NULL, 1000);
 *	struct wmac_subject *who = wmac_subject_from_socket(client_fd);   // on connect
 *	if (wmac_check(mac, who, "screenshot", "HDMI-A-1") != WMAC_ALLOW) // before the act
 *		refuse();
 *	wmac_subject_destroy(who);                                        // on disconnect
 *
 * Fail-closed guarantee: every error path returns WMAC_DENY. A NULL context, NULL subject,
 * unknown permission, unloaded policy, or a request that no rule matches is denied. Numeric
 * value 0 is WMAC_DENY, so zeroed memory and forgotten initialisations also deny.
 *
 * Threads: wmac_check() and wmac_answer() may be called from several threads at once on one
 * context, concurrently with wmac_context_load(); a reload is atomic (a check sees either the
 * old or the new policy, never a mix). A subject belongs to the first context that checks it:
 * checks of it with another context are denied. Its attributes must be set before it is
 * shared between threads. The audit callback runs on the thread that made the decision,
 * without any libwmac lock held, so it may call libwmac again.
 *
 * Clients the compositor starts itself (lock screen, panel, screenshooter, on-screen keyboard)
 * get their subject from wmac_subject_from_launch(), never from their socket: see there.
 * Sandboxed clients get wmac_subject_set_sandbox() right after their subject is created.
 * The design and threat model are in doc/wmac.md; the policy format in wmac.policy(5).
 */
#ifndef WMAC_H
#define WMAC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WMAC_VERSION_MAJOR 1
#define WMAC_VERSION_MINOR 0
#define WMAC_VERSION_MICRO 0
#define WMAC_VERSION "1.0.0"
/* True when the header is at least version major.minor (compile-time feature checks). */
#define WMAC_VERSION_AT_LEAST(major, minor) \
	(WMAC_VERSION_MAJOR > (major) ||    \
	 (WMAC_VERSION_MAJOR == (major) && WMAC_VERSION_MINOR >= (minor)))

/* Version of the library actually loaded at run time, e.g. "1.0.0". */
const char *wmac_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Decisions                                                                                */

enum wmac_decision {
	/* Refuse the act. Also the answer to every error. */
	WMAC_DENY = 0,
	/* Let the act proceed. */
	WMAC_ALLOW = 1,
	/*
	 * Ask the user through the compositor's own trusted UI (a surface no client can draw over
	 * or synthesise input for), then report the answer with wmac_answer(). Until the user
	 * answered, the act must not proceed; a compositor that cannot ask treats ASK as DENY.
	 */
	WMAC_ASK = 2,
};

/* "allow", "deny", "ask"; "invalid" for any other value. */
const char *wmac_decision_name(enum wmac_decision decision);

/* How long a user's answer to an ASK decision is remembered. */
enum wmac_scope {
	/* This one request only; nothing is remembered. */
	WMAC_SCOPE_ONCE = 0,
	/* Until the context is destroyed (the end of the graphical session). */
	WMAC_SCOPE_SESSION = 1,
	/* Written to the per-user answer file (wmac_context_set_answer_file()). */
	WMAC_SCOPE_FOREVER = 2,
};

/* ---------------------------------------------------------------------------------------- */
/* Permissions                                                                              */

/*
 * Permissions are named by strings. The built-in set, with what the object names:
 *
 *	permission         the act                                   object
 *	screenshot         copy the pixels of an output once         output name
 *	screencast         stream the pixels of an output            output name
 *	lock-screen        lock the session, draw the lock surface   none
 *	virtual-keyboard   inject key events                         seat name
 *	virtual-pointer    inject pointer events                     seat name
 *	input-method       compose text for other clients            seat name
 *	global-shortcut    get a key combination whatever has focus  action name
 *	selection-read     read the clipboard without focus          seat name
 *	selection-write    set the clipboard without focus           seat name
 *	privileged-global  bind a privileged protocol global         interface name
 *	buffer-import      use a buffer another client owns          the owner, as named by the compositor
 *	fullscreen         cover every output                        output name
 *	raise-focus        take keyboard focus without user action   none
 *
 * A policy file may declare more (names with a dot, e.g. "org.example.record-audio").
 * Asking for a permission that is neither built in nor declared yields WMAC_DENY.
 */
#define WMAC_PERMISSION_SCREENSHOT "screenshot"
#define WMAC_PERMISSION_SCREENCAST "screencast"
#define WMAC_PERMISSION_LOCK_SCREEN "lock-screen"
#define WMAC_PERMISSION_VIRTUAL_KEYBOARD "virtual-keyboard"
#define WMAC_PERMISSION_VIRTUAL_POINTER "virtual-pointer"
#define WMAC_PERMISSION_INPUT_METHOD "input-method"
#define WMAC_PERMISSION_GLOBAL_SHORTCUT "global-shortcut"
#define WMAC_PERMISSION_SELECTION_READ "selection-read"
#define WMAC_PERMISSION_SELECTION_WRITE "selection-write"
#define WMAC_PERMISSION_PRIVILEGED_GLOBAL "privileged-global"
#define WMAC_PERMISSION_BUFFER_IMPORT "buffer-import"
#define WMAC_PERMISSION_FULLSCREEN "fullscreen"
#define WMAC_PERMISSION_RAISE_FOCUS "raise-focus"

/* True when name is one of the built-in permissions above. */
bool wmac_permission_is_builtin(const char *name);

/* ---------------------------------------------------------------------------------------- */
/* Subjects: who asks                                                                       */

struct wmac_subject;

/*
 * Creates the subject for the process at the other end of a connected AF_UNIX socket.
 *
 * Identity is established by the kernel, never by what the client claims:
 *  1. SO_PEERCRED gives the pid, uid and gid recorded when the peer connected;
 *  2. a pidfd pins that process (SO_PEERPIDFD where the kernel has it, which names the very
 *     process that connected; pidfd_open() otherwise);
 *  3. the executable is read from /proc through that pid, together with the process start
 *     time and its current credentials;
 *  4. then everything is checked again: the pidfd's process must still be alive (so the pid
 *     was not reused while /proc was read), start time and executable must be unchanged (no
 *     exec meanwhile), the effective uid/gid must still be those of the connection (no setuid
 *     exec), the process must still hold the other end of this very connection (a process
 *     that exec'd with a close-on-exec socket, handed its connection to another process, or a
 *     reused pid does not), and its LSM label must match the connection's (SO_PEERSEC).
 *
 * If any step fails the subject is still returned but marked unverified (see
 * wmac_subject_is_verified()): it keeps the uid (and LSM label) of the connection but has no
 * executable, so no exe= rule can match it (launcher= rules only match launched subjects), and
 * remembered answers never apply to it.
 *
 * A socketpair() made by the calling process reports the caller as its peer; such a subject
 * is unverified: use wmac_subject_from_launch() for clients the compositor starts itself.
 *
 * A peer whose pid this process cannot see (it runs in a pid namespace that is not ours or a
 * descendant) gets an unverified subject with pid 0.
 *
 * Returns NULL with errno set when fd is not a connected AF_UNIX socket (EBADF, ENOTSOCK,
 * ENOTCONN, EINVAL) or on allocation failure (ENOMEM). The fd is not kept.
 */
struct wmac_subject *wmac_subject_from_socket(int fd);

/*
 * A subject for a process named by its pid by someone the compositor trusts (the desktop
 * portal's backend, which learnt the pid of an application's D-Bus connection from the bus
 * daemon), so that the application, not the backend, is the subject of a decision. Nothing
 * ties the pid to the process that asked, so the subject is always unverified: no exe= rule
 * matches it and remembered answers never apply. Returns NULL with errno ESRCH when no such
 * process can be inspected, EPERM when its effective uid is not uid, EINVAL for pid <= 0.
 */
struct wmac_subject *wmac_subject_from_pid(pid_t pid, uid_t uid);

/*
 * What the compositor knows about a client it started itself, typically over a socketpair
 * whose other end it handed to the child (e.g. in WAYLAND_SOCKET).
 */
struct wmac_launch_record {
	/* Name of the launcher entry (the compositor's configuration), e.g. "lock-screen". */
	const char *entry;
	/* Absolute path of the executable the compositor exec'd. */
	const char *executable;
	/* argv[0] given to it; NULL for the executable path. */
	const char *argv0;
	/* The child's pid, uid and gid. */
	pid_t pid;
	uid_t uid;
	gid_t gid;
};

/*
 * Creates a verified subject for a client the compositor launched. The record is trusted as
 * given: only the compositor can fill it. Returns NULL with errno EINVAL when entry or
 * executable is missing or executable is not an absolute path, ENOMEM on allocation failure.
 */
struct wmac_subject *wmac_subject_from_launch(const struct wmac_launch_record *record);

/* Frees a subject, delivering its pending audit counts first. NULL is a no-op. */
void wmac_subject_destroy(struct wmac_subject *subject);

/*
 * Attaches the sandbox context a sandbox engine registered for this client through
 * security-context-v1 (engine e.g. "org.flatpak", app id, instance id; app_id and
 * instance_id may be NULL). The context can be set only once: returns -EEXIST on a second
 * call, -EINVAL for a NULL or empty engine, -ENOMEM, or 0. Rules may then match it with
 * sandbox= and app-id=; a sandboxed subject never matches exe= rules (inside a sandbox the
 * executable path means nothing) and remembered answers apply to it only when the system
 * policy allows it (remember=always).
 */
int wmac_subject_set_sandbox(struct wmac_subject *subject, const char *engine, const char *app_id,
			     const char *instance_id);

bool wmac_subject_is_verified(const struct wmac_subject *subject);
/*
 * Why the subject is unverified, e.g. "exec during resolution" or "the process that connected
 * has exited"; NULL if verified.
 */
const char *wmac_subject_get_unverified_reason(const struct wmac_subject *subject);
/* True for subjects created with wmac_subject_from_launch(). */
bool wmac_subject_is_launched(const struct wmac_subject *subject);
pid_t wmac_subject_get_pid(const struct wmac_subject *subject);
uid_t wmac_subject_get_uid(const struct wmac_subject *subject);
gid_t wmac_subject_get_gid(const struct wmac_subject *subject);
/*
 * A pidfd for the subject's process, owned by the subject (do not close it); -1 for launched
 * and unverified subjects. Lets the compositor notice when the client's process exits.
 */
int wmac_subject_get_pidfd(const struct wmac_subject *subject);
/* The following return NULL when unknown. Strings live as long as the subject. */
const char *wmac_subject_get_executable(const struct wmac_subject *subject);
const char *wmac_subject_get_launcher_entry(const struct wmac_subject *subject);
const char *wmac_subject_get_argv0(const struct wmac_subject *subject);
const char *wmac_subject_get_sandbox_engine(const struct wmac_subject *subject);
const char *wmac_subject_get_app_id(const struct wmac_subject *subject);
const char *wmac_subject_get_instance_id(const struct wmac_subject *subject);
const char *wmac_subject_get_lsm_label(const struct wmac_subject *subject);

/*
 * Writes a one-line description for logs, e.g.
 * "pid 4242 uid 1000 exe /usr/bin/grim" or
 * "pid 7 uid 1000 (unverified: exec during resolution)".
 * Returns the length it needed, like snprintf().
 */
int wmac_subject_describe(const struct wmac_subject *subject, char *buf, size_t size);

/* ---------------------------------------------------------------------------------------- */
/* Context and policy                                                                       */

struct wmac_context;

/*
 * Creates a context with an empty policy: until a policy is loaded, every check is denied.
 * Returns NULL with errno ENOMEM on failure.
 */
struct wmac_context *wmac_context_create(void);

/* Frees the context (subjects are independent and freed separately). NULL is a no-op. */
void wmac_context_destroy(struct wmac_context *ctx);

/* Where a load failed. line and column are 1-based; 0 when not tied to a place in the file. */
struct wmac_error {
	char file[256];
	unsigned int line;
	unsigned int column;
	/* Negative errno: -EINVAL for syntax, -EACCES for an untrusted file, -ENOENT, ... */
	int code;
	char message[256];
};

/*
 * Parses and compiles a new policy, then atomically replaces the active one.
 *
 * system_path is the trust root: it must be a regular file owned by the trusted owner (root
 * unless wmac_context_set_trusted_owner() says otherwise) and not writable by group or
 * others. user_path (may be NULL; a missing file is fine) may only make decisions stricter:
 * a rule there that grants (allow) is an error. See wmac.policy(5) for the format.
 *
 * Returns 0, or a negative errno with *error filled (when error is not NULL); on failure
 * the active policy is left unchanged. A broken user file fails the whole load; a compositor
 * that would rather run with the system policy alone may load again with user_path NULL
 * (after telling the user), giving up the user's restrictions until the file is fixed.
 */
int wmac_context_load(struct wmac_context *ctx, const char *system_path, const char *user_path,
		      struct wmac_error *error);

/*
 * Same as wmac_context_load() with the policies given as text (NUL-terminated). The names
 * are used in error messages and audit records. No ownership check is possible: pass only
 * text from a trusted source as system_text. user_text may be NULL.
 */
int wmac_context_load_text(struct wmac_context *ctx, const char *system_name,
			   const char *system_text, const char *user_name, const char *user_text,
			   struct wmac_error *error);

/* Owner whose system policy files are trusted (default 0, root). */
void wmac_context_set_trusted_owner(struct wmac_context *ctx, uid_t uid);

/*
 * Sets the file that keeps answers given with WMAC_SCOPE_FOREVER for this user, and loads
 * the answers it already holds (a missing file is empty). Answers are only consulted where
 * the policy says ASK, so they can never grant what the policy denies. Returns 0 or a
 * negative errno with *error filled (a malformed file is reported by line and ignored as a
 * whole).
 */
int wmac_context_set_answer_file(struct wmac_context *ctx, const char *path,
				 struct wmac_error *error);

/* ---------------------------------------------------------------------------------------- */
/* Checks                                                                                   */

/*
 * Decides whether subject may exercise permission on object (object may be NULL when the
 * permission has none; it is then the empty string). Cheap enough to call on every input
 * event: results are cached per subject until the policy or the remembered answers change.
 * Fails closed (see the top of this file). Every decision reaches the audit callback.
 */
enum wmac_decision wmac_check(struct wmac_context *ctx, struct wmac_subject *subject,
			      const char *permission, const char *object);

/*
 * Reports the user's answer (WMAC_ALLOW or WMAC_DENY) to a check that returned WMAC_ASK.
 * The answer is audited. With WMAC_SCOPE_SESSION or WMAC_SCOPE_FOREVER it is remembered
 * for this subject's identity (launcher entry, sandbox app, or executable).
 *
 * Returns 0, or:
 *  -EINVAL  answer is not ALLOW or DENY, scope is unknown, or an argument is NULL;
 *  -EPERM   the policy does not say ASK for this request right now (an answer can never
 *           turn a DENY into an ALLOW), or the answer may not be remembered for this
 *           subject (unverified, or sandboxed without remember=always in the system policy);
 *  -ENOENT  WMAC_SCOPE_FOREVER without an answer file;
 *  other    writing the answer file failed with this errno (the answer still applies for
 *           the session).
 */
int wmac_answer(struct wmac_context *ctx, struct wmac_subject *subject, const char *permission,
		const char *object, enum wmac_decision answer, enum wmac_scope scope);

/* ---------------------------------------------------------------------------------------- */
/* Audit                                                                                    */

struct wmac_audit_record {
	const struct wmac_subject *subject; /* NULL when the check had no subject */
	const char *permission; /* as asked; "" when NULL was passed */
	const char *object; /* "" when none */
	enum wmac_decision decision;
	/* The rule that decided: file name and 1-based line; NULL and 0 when no rule did. */
	const char *rule_file;
	unsigned int rule_line;
	/*
	 * Why: "rule", "user policy", "remembered answer", "user answer", "no rule matched",
	 * "unknown permission", "no policy", "no subject", "invalid argument".
	 */
	const char *reason;
	/*
	 * How many identical decisions (same subject, permission, object, decision, rule) this
	 * record stands for: 1, or more when repetitions within the rate-limit interval were
	 * folded into it. Summing count over all records gives the number of decisions made.
	 */
	unsigned long count;
};

typedef void (*wmac_audit_func)(const struct wmac_audit_record *record, void *data);

/*
 * Sets the audit callback (NULL to remove it). Identical decisions for one subject are
 * reported at most once per interval_ms: the first is reported at once, the following are
 * counted and reported with their count when the interval has passed and the decision is
 * made again, at wmac_context_flush_audit(), or when the subject is destroyed.
 * interval_ms = 0 reports every decision on its own.
 */
void wmac_context_set_audit(struct wmac_context *ctx, wmac_audit_func func, void *data,
			    unsigned int interval_ms);

/* Delivers the counts of repetitions not yet reported for this subject (NULL: none). */
void wmac_context_flush_audit(struct wmac_context *ctx, struct wmac_subject *subject);

#ifdef __cplusplus
}
#endif

#endif
