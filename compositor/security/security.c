// SPDX-License-Identifier: MIT
// The security layer: one libwmac subject per client, the global filter, the audit log and the
// trusted launcher. Clients on the public socket get their subject from the kernel
// (SO_PEERCRED and /proc); clients garnet launched get theirs from the launch record, which no
// other client can obtain.
// The trusted launcher itself is security/launcher.c.
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wmac.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "garnet/security.h"
#include "garnet-security.h"
#include "security-private.h"

/* libgarnet has one seat; its wl_seat name. */
#define SEAT_NAME "seat0"

static const char *const launcher_names[] = {
	"lock-screen", "screenshooter", "input-method", "on-screen-keyboard", "panel",
	"notifications", "launcher", "idle", "portal", "output-config",
};

bool garnet_security_is_launcher_name(const char *name)
{
	for (size_t i = 0; i < sizeof(launcher_names) / sizeof(launcher_names[0]); i++) {
		if (strcmp(name, launcher_names[i]) == 0)
			return true;
	}
	return false;
}

static void on_client_destroy(struct wl_listener *listener, void *data);

struct client_subject *security_subject_of(const struct wl_client *client)
{
	struct wl_listener *l =
		wl_client_get_destroy_listener((struct wl_client *)client, on_client_destroy);

	return l ? wl_container_of(l, (struct client_subject *)NULL, destroy) : NULL;
}

static void on_client_destroy(struct wl_listener *listener, void *data)
{
	struct client_subject *cs = wl_container_of(listener, cs, destroy);
	struct launched *l = cs->launched;

	(void)data;
	wl_list_remove(&cs->destroy.link);
	wmac_subject_destroy(cs->subject);
	for (int i = 0; i < cs->logged_count && i < LOGGED_DENIALS; i++)
		free(cs->logged[i]);
	free(cs);
	if (l) {
		l->client = NULL;
		if (l->on_demand)
			garnet_log(l->security->compositor, GARNET_LOG_INFO, "security",
				   "launcher %s exited (it starts again when its binding is pressed)",
				   l->entry);
		else if (!l->security->shutting_down)
			security_relaunch(l);
	}
}

static struct client_subject *attach(struct wl_client *client, struct wmac_subject *subject)
{
	struct client_subject *cs = calloc(1, sizeof(*cs));

	if (!cs) {
		wmac_subject_destroy(subject);
		return NULL;
	}
	cs->subject = subject;
	cs->destroy.notify = on_client_destroy;
	wl_client_add_destroy_listener(client, &cs->destroy);
	return cs;
}

static void on_client_created(struct wl_listener *listener, void *data)
{
	struct garnet_security *s = wl_container_of(listener, s, client_created);
	struct wl_client *client = data;
	struct wmac_subject *subject = wmac_subject_from_socket(wl_client_get_fd(client));

	/* No subject means every check is denied: the client keeps only ordinary globals. */
	if (!subject) {
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "no identity for a new client: %s", strerror(errno));
		return;
	}
	attach(client, subject);
}

/* True the first time this client is denied this permission on this object; after
 * LOGGED_DENIALS distinct ones, once more to say that the rest go unlogged. */
static bool first_denial(struct garnet_security *s, struct client_subject *cs,
			 const struct wmac_audit_record *r)
{
	char *key;

	if (asprintf(&key, "%s %s", r->permission, r->object ? r->object : "") < 0)
		return true; /* logged, not remembered */
	for (int i = 0; i < cs->logged_count && i < LOGGED_DENIALS; i++) {
		if (strcmp(cs->logged[i], key) == 0) {
			free(key);
			return false;
		}
	}
	if (cs->logged_count >= LOGGED_DENIALS) {
		/* Said once: the count stops one past the last remembered denial. */
		if (cs->logged_count == LOGGED_DENIALS && cs->logged_count++)
			garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
				   "%d different denials for one client; its further denials are "
				   "not logged", LOGGED_DENIALS);
		free(key);
		return false;
	}
	cs->logged[cs->logged_count++] = key;
	return true;
}

/* Every denial is logged with the verified identity, the permission and the deciding rule,
 * once per client, permission and object. */
static void on_audit(const struct wmac_audit_record *r, void *data)
{
	struct garnet_security *s = data;
	char who[512], rule[300] = "", message[1024];
	struct garnet_audit_event event = {0};

	if (r->decision != WMAC_ALLOW && s->asking && r->subject == s->asking->subject &&
	    !first_denial(s, s->asking, r))
		return;

	if (r->subject)
		wmac_subject_describe(r->subject, who, sizeof(who));
	else
		snprintf(who, sizeof(who), "a client without identity");
	if (r->rule_file)
		snprintf(rule, sizeof(rule), " (%s:%u)", r->rule_file, r->rule_line);
	event.level = r->decision == WMAC_ALLOW ? GARNET_LOG_DEBUG : GARNET_LOG_WARNING;
	snprintf(message, sizeof(message), "%s: %s %s%s%s, %s%s%s",
		 wmac_decision_name(r->decision), who, r->permission, r->object[0] ? " " : "",
		 r->object, r->reason, rule, r->count > 1 ? " (repeated)" : "");
	if (!s->audit_sink) {
		garnet_log(s->compositor, event.level, "security", "%s", message);
		return;
	}
	event.decision = wmac_decision_name(r->decision);
	event.pid = r->subject ? wmac_subject_get_pid(r->subject) : 0;
	event.executable = r->subject ? wmac_subject_get_executable(r->subject) : NULL;
	event.permission = r->permission;
	event.object = r->object;
	event.reason = r->reason;
	event.rule_file = r->rule_file;
	event.rule_line = r->rule_line;
	event.count = r->count;
	event.message = message;
	s->audit_sink(&event, s->audit_sink_data);
}

void garnet_security_set_audit_sink(struct garnet_security *s, garnet_audit_sink sink,
				    void *data)
{
	s->audit_sink = sink;
	s->audit_sink_data = data;
}

/* Every check goes through here, so the audit callback knows whose it reports. */
static enum wmac_decision decide(struct garnet_security *s, const struct wl_client *client,
				 const char *permission, const char *object)
{
	struct client_subject *cs = security_subject_of(client);
	enum wmac_decision d;

	s->asking = cs;
	d = wmac_check(s->mac, cs ? cs->subject : NULL, permission, object);
	s->asking = NULL;
	return d;
}

static bool check(struct garnet_security *s, const struct wl_client *client,
		  const char *permission, const char *object)
{
	return decide(s, client, permission, object) == WMAC_ALLOW;
}

/* --test-mode exists for test harnesses, which drive garnet through garnet_test from the
 * public socket: in that mode, and only for that interface, every client is let in. */
static bool test_door(struct garnet_security *s, const struct wl_interface *interface)
{
	return s->test_mode && strcmp(interface->name, "garnet_test") == 0;
}

static bool global_visible(void *data, const struct wl_client *client,
			   const struct wl_interface *interface, bool privileged)
{
	return !privileged || test_door(data, interface) ||
	       check(data, client, WMAC_PERMISSION_PRIVILEGED_GLOBAL, interface->name);
}

/* Asked again at bind time: the registry filter is no guard against a guessed global name. */
static bool bind_privileged(void *data, struct wl_client *client,
			    const struct wl_interface *interface)
{
	return test_door(data, interface) ||
	       check(data, client, WMAC_PERMISSION_PRIVILEGED_GLOBAL, interface->name);
}

void garnet_security_set_test_mode(struct garnet_security *s, bool on)
{
	s->test_mode = on;
}

/* Asked at every capture: a grant can be withdrawn by a policy reload between two pictures.
 * "ask" becomes garnet's consent dialog, whose answer comes back through user_answered. */
static enum garnet_decision capture_output(void *data, struct wl_client *client,
					   const char *output_name, bool stream)
{
	switch (decide(data, client,
		       stream ? WMAC_PERMISSION_SCREENCAST : WMAC_PERMISSION_SCREENSHOT,
		       output_name)) {
	case WMAC_ALLOW:
		return GARNET_ALLOW;
	case WMAC_ASK:
		return GARNET_ASK;
	default:
		return GARNET_DENY;
	}
}

/* garnet_buffer's capture_output: another client's pixels put into an object shared with the
 * asker's DRM file, i.e. a screenshot. The request cannot wait for the consent dialog, so only an
 * outright allow shares; "ask" is a refusal like "deny". */
static bool share_pixels(void *data, struct wl_client *client, enum garnet_pixels_kind kind,
			 const char *object)
{
	return kind == GARNET_PIXELS_OUTPUT &&
	       check(data, client, WMAC_PERMISSION_SCREENSHOT, object);
}

static enum garnet_decision capture_for_app(void *data, struct wl_client *client,
					    const char *app_id, uint32_t pid,
					    const char *output_name, bool stream, char *who,
					    size_t who_size)
{
	return security_capture_for_app(data, client, app_id, pid, output_name, stream, who,
					who_size);
}

static void describe_client(void *data, struct wl_client *client, char *buf, size_t size)
{
	struct client_subject *cs = security_subject_of(client);

	if (cs)
		wmac_subject_describe(cs->subject, buf, size);
	else
		snprintf(buf, size, "a client without identity");
}

/* The owner of a buffer as buffer-import rules name it (doc/wmac.md): by the strongest
 * identity garnet verified, in the words of the rule keys that match the same identity. */
static void owner_object(const struct wl_client *owner, char *buf, size_t size)
{
	struct client_subject *cs = security_subject_of(owner);
	const char *entry = cs ? wmac_subject_get_launcher_entry(cs->subject) : NULL;
	const char *engine = cs ? wmac_subject_get_sandbox_engine(cs->subject) : NULL;
	const char *app_id = cs ? wmac_subject_get_app_id(cs->subject) : NULL;
	const char *exe = cs ? wmac_subject_get_executable(cs->subject) : NULL;

	if (entry)
		snprintf(buf, size, "launcher:%s", entry);
	else if (engine && app_id)
		snprintf(buf, size, "app-id:%s", app_id);
	else if (engine)
		snprintf(buf, size, "sandbox:%s", engine);
	else if (exe && wmac_subject_is_verified(cs->subject))
		snprintf(buf, size, "exe:%s", exe);
	else
		snprintf(buf, size, "unverified");
}

/* garnet_buffer_broker_v1: client uses an object owner offered it. Like share_pixels, the
 * offer cannot wait for a dialog: only an outright allow shares. */
static bool import_buffer(void *data, struct wl_client *client, struct wl_client *owner)
{
	struct garnet_security *s = data;
	char object[PATH_MAX + 16], who[512];

	owner_object(owner, object, sizeof(object));
	describe_client(s, owner, who, sizeof(who));
	garnet_log(s->compositor, GARNET_LOG_DEBUG, "security", "buffer-import: owner %s is %s",
		   who, object);
	return check(s, client, WMAC_PERMISSION_BUFFER_IMPORT, object);
}


static const char *ask_permission(enum garnet_ask_act act)
{
	switch (act) {
	case GARNET_ASK_CAPTURE_OUTPUT:
		return WMAC_PERMISSION_SCREENSHOT;
	case GARNET_ASK_RECORD_OUTPUT:
		return WMAC_PERMISSION_SCREENCAST;
	}
	return "";
}

/* The user's answer, to libwmac: remembered for the session where the subject's identity
 * allows it (an app whose identity cannot be remembered gets this one act only). */
static void user_answered(void *data, struct wl_client *client, enum garnet_ask_act act,
			  const char *object, bool allowed, enum garnet_answer_scope scope)
{
	struct garnet_security *s = data;
	struct client_subject *cs = security_subject_of(client);
	int ret;

	if (!cs)
		return;
	ret = wmac_answer(s->mac, cs->subject, ask_permission(act), object,
			  allowed ? WMAC_ALLOW : WMAC_DENY,
			  scope == GARNET_ANSWER_SESSION ? WMAC_SCOPE_SESSION : WMAC_SCOPE_ONCE);
	if (ret < 0)
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "the answer for %s cannot be remembered: %s", ask_permission(act),
			   strerror(-ret));
}

/* The focused client reads the selections it is offered; reading one's own data is harmless.
 * Anyone else (an old offer kept after losing focus, a clipboard manager) needs libwmac. */
static bool read_selection(void *data, struct wl_client *client, struct wl_client *owner,
			   enum garnet_selection_kind kind)
{
	struct garnet_security *s = data;

	if (kind == GARNET_SELECTION_DRAG || client == owner ||
	    client == garnet_compositor_get_focused_client(s->compositor))
		return true;
	return check(s, client, WMAC_PERMISSION_SELECTION_READ, SEAT_NAME);
}

/* The seat delivers input only to the surface with focus (or under the pointer, or the
 * touch); the policy adds nothing per event, but says so rather than leaving the hook unset. */
static bool deliver_input(void *data, struct wl_client *client, struct garnet_surface *surface,
			  enum garnet_input_kind kind)
{
	return true;
}

static bool write_selection(void *data, struct wl_client *client, enum garnet_selection_kind kind)
{
	struct garnet_security *s = data;

	(void)kind;
	return client == garnet_compositor_get_focused_client(s->compositor) ||
	       check(s, client, WMAC_PERMISSION_SELECTION_WRITE, SEAT_NAME);
}

/* Locking, and taking over a lock whose locker died, are the trusted locker's alone. */
static bool inject_keys(void *data, struct wl_client *client)
{
	return check(data, client, WMAC_PERMISSION_VIRTUAL_KEYBOARD, SEAT_NAME);
}

static bool inject_pointer(void *data, struct wl_client *client)
{
	return check(data, client, WMAC_PERMISSION_VIRTUAL_POINTER, SEAT_NAME);
}

static bool input_method(void *data, struct wl_client *client)
{
	return check(data, client, WMAC_PERMISSION_INPUT_METHOD, SEAT_NAME);
}

static bool global_shortcut(void *data, struct wl_client *client, const char *action)
{
	return check(data, client, WMAC_PERMISSION_GLOBAL_SHORTCUT, action);
}

static bool lock_session(void *data, struct wl_client *client)
{
	return check(data, client, WMAC_PERMISSION_LOCK_SCREEN, NULL);
}

static bool raise_focus(void *data, struct wl_client *client)
{
	return check(data, client, WMAC_PERMISSION_RAISE_FOCUS, NULL);
}

static bool fullscreen(void *data, struct wl_client *client, const char *output)
{
	return check(data, client, WMAC_PERMISSION_FULLSCREEN, output);
}

/* Declared by garnet's system policy (data/wmac.policy); a policy without it denies it. */
#define PERMISSION_IDLE_NOTIFY "garnet.idle-notify"

static bool idle_notify(void *data, struct wl_client *client)
{
	return check(data, client, PERMISSION_IDLE_NOTIFY, SEAT_NAME);
}

/* Declared by garnet's system policy: the object is the layer's name, so that a policy
 * gives the overlay layer to a few trusted clients and the others to everyone. */
#define PERMISSION_LAYER "garnet.layer"
#define PERMISSION_EXCLUSIVE_KEYBOARD "garnet.exclusive-keyboard"

static bool layer(void *data, struct wl_client *client, const char *name)
{
	return check(data, client, PERMISSION_LAYER, name);
}

static bool exclusive_keyboard(void *data, struct wl_client *client)
{
	return check(data, client, PERMISSION_EXCLUSIVE_KEYBOARD, SEAT_NAME);
}

/* Declared by garnet's system policy: other clients' window titles and app ids, for a task
 * bar. Beyond privileged-global, which several trusted clients hold for other globals. */
#define PERMISSION_FOREIGN_TOPLEVEL "garnet.foreign-toplevel"

static bool foreign_toplevel(void *data, struct wl_client *client)
{
	return check(data, client, PERMISSION_FOREIGN_TOPLEVEL, SEAT_NAME);
}

/* Declared by garnet's system policy: darkening the screens (the object is the output's
 * name), for the idle daemon. */
#define PERMISSION_OUTPUT_POWER "garnet.output-power"

static bool output_power(void *data, struct wl_client *client, const char *output)
{
	return check(data, client, PERMISSION_OUTPUT_POWER, output);
}

/* Declared by garnet's system policy: arranging the outputs (the object is the output's
 * name), for an output configuration tool (kanshi, wlr-randr). */
#define PERMISSION_OUTPUT_CONFIG "garnet.output-config"

static bool configure_output(void *data, struct wl_client *client, const char *output)
{
	return check(data, client, PERMISSION_OUTPUT_CONFIG, output);
}

/* The subject made from the socket (the sandboxed process's uid, pid and label) gains the
 * engine's identity; without a subject the client would be refused everything anyway, but
 * dropping it says so plainly. */
static bool client_sandboxed(void *data, struct wl_client *client, const char *engine,
			     const char *app_id, const char *instance_id)
{
	struct garnet_security *s = data;
	struct client_subject *cs = security_subject_of(client);
	char who[512];
	int ret;

	if (!cs)
		return false;
	ret = wmac_subject_set_sandbox(cs->subject, engine, app_id, instance_id);
	if (ret < 0) {
		garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
			   "cannot attach sandbox %s: %s", engine, strerror(-ret));
		return false;
	}
	wmac_subject_describe(cs->subject, who, sizeof(who));
	garnet_log(s->compositor, GARNET_LOG_INFO, "security", "sandboxed client: %s", who);
	return true;
}

/* An X11 domain is a subject of its own: the Xwayland garnet started (a launch record, since
 * its socketpair names garnet) carrying the domain as a sandbox app id, so the policy judges
 * it by sandbox=garnet-xwayland and app-id=DOMAIN and never by the executable. libgarnet hides
 * every privileged global from it whatever the policy says. */
static bool client_xwayland(void *data, struct wl_client *client, const char *executable,
			    const char *domain)
{
	struct garnet_security *s = data;
	struct client_subject *cs = security_subject_of(client);
	struct wmac_launch_record record = {
		.entry = "xwayland",
		.executable = executable,
		.uid = getuid(),
		.gid = getgid(),
	};
	struct wmac_subject *subject;
	char who[512];

	if (!cs)
		return false;
	subject = wmac_subject_from_launch(&record);
	if (!subject || wmac_subject_set_sandbox(subject, "garnet-xwayland", domain, NULL) < 0) {
		wmac_subject_destroy(subject);
		garnet_log(s->compositor, GARNET_LOG_ERROR, "security",
			   "no identity for the Xwayland of domain %s", domain);
		return false;
	}
	wmac_subject_destroy(cs->subject);
	cs->subject = subject;
	wmac_subject_describe(subject, who, sizeof(who));
	garnet_log(s->compositor, GARNET_LOG_INFO, "security", "X11 domain %s: %s", domain, who);
	return true;
}

/* Joining a shared X11 domain gives every key, pixel and window of its X clients: the policy's
 * garnet.xwayland-domain on the domain's name. */
static bool join_xwayland_domain(void *data, struct wl_client *client, const char *domain)
{
	return check(data, client, "garnet.xwayland-domain", domain);
}

struct garnet_security *garnet_security_create(struct garnet_compositor *c,
					       const char *policy_path, const char *user_path,
					       char *error, size_t error_size)
{
	return garnet_security_create_owned(c, policy_path, 0, user_path, error, error_size);
}

struct garnet_security *garnet_security_create_owned(struct garnet_compositor *c,
						     const char *policy_path, uid_t policy_owner,
						     const char *user_path, char *error,
						     size_t error_size)
{
	struct garnet_security *s = calloc(1, sizeof(*s));
	struct wmac_error err = {0};

	if (error_size)
		error[0] = '\0';
	if (!s)
		return NULL;
	s->compositor = c;
	wl_list_init(&s->launched);
	s->mac = wmac_context_create();
	if (!s->mac) {
		free(s);
		return NULL;
	}
	wmac_context_set_audit(s->mac, on_audit, s, 1000);
	wmac_context_set_trusted_owner(s->mac, policy_owner);
	if (wmac_context_load(s->mac, policy_path, user_path, &err) < 0)
		snprintf(error, error_size, "%s:%u:%u: %s", err.file[0] ? err.file : policy_path,
			 err.line, err.column, err.message);
	s->client_created.notify = on_client_created;
	wl_display_add_client_created_listener(garnet_compositor_get_display(c),
					       &s->client_created);
	garnet_compositor_set_security_hooks(c, &(struct garnet_security_hooks){
		.global_visible = global_visible,
		.bind_privileged = bind_privileged,
		.capture_output = capture_output,
		.share_pixels = share_pixels,
		.import_buffer = import_buffer,
		.capture_for_app = capture_for_app,
		.describe_client = describe_client,
		.user_answered = user_answered,
		.lock_session = lock_session,
		.idle_notify = idle_notify,
		.inject_keys = inject_keys,
		.inject_pointer = inject_pointer,
		.input_method = input_method,
		.global_shortcut = global_shortcut,
		.read_selection = read_selection,
		.write_selection = write_selection,
		.client_sandboxed = client_sandboxed,
		.client_xwayland = client_xwayland,
		.join_xwayland_domain = join_xwayland_domain,
		.raise_focus = raise_focus,
		.fullscreen = fullscreen,
		.layer = layer,
		.exclusive_keyboard = exclusive_keyboard,
		.foreign_toplevel = foreign_toplevel,
		.output_power = output_power,
		.configure_output = configure_output,
		.deliver_input = deliver_input,
		.data = s,
		/* A hook added to libgarnet later denies until it is listed here. */
		.deny_unset = true,
	});
	return s;
}

void garnet_security_destroy(struct garnet_security *s)
{
	if (!s)
		return;
	/* Subjects report their last audit counts to the context: they go first, with their
	 * clients, and launched clients are not started again. */
	s->shutting_down = true;
	wl_display_destroy_clients(garnet_compositor_get_display(s->compositor));
	security_launched_free_all(s);
	wl_list_remove(&s->client_created.link);
	garnet_compositor_set_security_hooks(s->compositor, NULL);
	wmac_context_destroy(s->mac);
	free(s);
}
