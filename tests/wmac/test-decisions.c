// SPDX-License-Identifier: MIT
/* Decisions for each permission, failing closed, ASK and remembered answers, sandboxes. */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "private.h"
#include "tap.h"

static struct wmac_subject *launched(const char *entry, const char *exe)
{
	struct wmac_launch_record rec = {
		.entry = entry,
		.executable = exe,
		.pid = 4321,
		.uid = 1000,
		.gid = 1000,
	};
	return wmac_subject_from_launch(&rec);
}

static struct wmac_context *context_with(const char *system, const char *user)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	if (wmac_context_load_text(ctx, "sys", system, "user", user, &err) != 0) {
		printf("# %s:%u:%u: %s\n", err.file, err.line, err.column, err.message);
		tap_failed = true;
	}
	return ctx;
}

static const char *const permissions[] = {
	"screenshot",	   "screencast",	"lock-screen",	   "virtual-keyboard",
	"virtual-pointer", "input-method",	"global-shortcut", "selection-read",
	"selection-write", "privileged-global", "buffer-import",   "fullscreen",
	"raise-focus",
};

static void each_permission_is_granted_only_where_the_policy_says(void)
{
	char policy[4096] = "version 1\n";
	for (size_t i = 0; i < sizeof(permissions) / sizeof(permissions[0]); i++) {
		CHECK(wmac_permission_is_builtin(permissions[i]));
		char line[128];
		snprintf(line, sizeof(line), "allow %s:obj-%zu launcher=trusted\n", permissions[i],
			 i);
		strcat(policy, line);
	}
	struct wmac_context *ctx = context_with(policy, NULL);
	struct wmac_subject *trusted = launched("trusted", "/usr/bin/t");
	struct wmac_subject *other = launched("other", "/usr/bin/t");
	for (size_t i = 0; i < sizeof(permissions) / sizeof(permissions[0]); i++) {
		char obj[32], wrong[32];
		snprintf(obj, sizeof(obj), "obj-%zu", i);
		snprintf(wrong, sizeof(wrong), "obj-%zu", i + 1);
		CHECK_INT(wmac_check(ctx, trusted, permissions[i], obj), WMAC_ALLOW);
		CHECK_INT(wmac_check(ctx, trusted, permissions[i], wrong), WMAC_DENY);
		CHECK_INT(wmac_check(ctx, other, permissions[i], obj), WMAC_DENY);
		/* Cached answers are the same answers. */
		CHECK_INT(wmac_check(ctx, trusted, permissions[i], obj), WMAC_ALLOW);
		CHECK_INT(wmac_check(ctx, other, permissions[i], obj), WMAC_DENY);
	}
	CHECK(!wmac_permission_is_builtin("screenshots"));
	CHECK(!wmac_permission_is_builtin(NULL));
	wmac_subject_destroy(trusted);
	wmac_subject_destroy(other);
	wmac_context_destroy(ctx);
}

struct reasons {
	char last[64];
	unsigned long records;
};

static void keep_reason(const struct wmac_audit_record *r, void *data)
{
	struct reasons *reasons = data;
	snprintf(reasons->last, sizeof(reasons->last), "%s", r->reason);
	reasons->records++;
}

static void every_error_path_denies(void)
{
	struct reasons why = {0};
	struct wmac_subject *s = launched("trusted", "/usr/bin/t");
	CHECK_INT(WMAC_DENY, 0);
	CHECK_INT(wmac_check(NULL, s, "fullscreen", NULL), WMAC_DENY);

	/* A fresh context has no policy at all. */
	struct wmac_context *ctx = wmac_context_create();
	wmac_context_set_audit(ctx, keep_reason, &why, 0);
	CHECK_INT(wmac_check(ctx, s, "fullscreen", NULL), WMAC_DENY);
	CHECK_STR(why.last, "no policy");

	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "sys",
					 "version 1\nallow fullscreen\nallow org.x.y\n"
					 "permission org.x.y\n",
					 NULL, NULL, &err),
		  -EINVAL);
	CHECK_INT(wmac_context_load_text(ctx, "sys",
					 "version 1\nallow fullscreen\npermission org.x.y\n"
					 "allow org.x.y\nallow screenshot launcher=other\n",
					 NULL, NULL, &err),
		  0);
	CHECK_INT(wmac_check(ctx, s, "fullscreen", NULL), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, s, "org.x.y", NULL), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, NULL, "fullscreen", NULL), WMAC_DENY);
	CHECK_STR(why.last, "no subject");
	CHECK_INT(wmac_check(ctx, s, NULL, NULL), WMAC_DENY);
	CHECK_STR(why.last, "invalid argument");
	CHECK_INT(wmac_check(ctx, s, "org.x.z", NULL), WMAC_DENY);
	CHECK_STR(why.last, "unknown permission");
	CHECK_INT(wmac_check(ctx, s, "Fullscreen", NULL), WMAC_DENY);
	CHECK_STR(why.last, "unknown permission");
	CHECK_INT(wmac_check(ctx, s, "", NULL), WMAC_DENY);
	CHECK_INT(wmac_check(ctx, s, "screenshot", "out"), WMAC_DENY);
	CHECK_STR(why.last, "no rule matched");

	/* A subject belongs to the context that first checked it. */
	struct wmac_context *other = context_with("version 1\nallow fullscreen\n", NULL);
	CHECK_INT(wmac_check(other, s, "fullscreen", NULL), WMAC_DENY);
	wmac_context_destroy(other);

	/* Bad subjects are refused at creation. */
	struct wmac_launch_record rec = {.entry = "x", .executable = "relative/path"};
	errno = 0;
	CHECK(wmac_subject_from_launch(&rec) == NULL && errno == EINVAL);
	rec.executable = NULL;
	CHECK(wmac_subject_from_launch(&rec) == NULL);
	CHECK(wmac_subject_from_launch(NULL) == NULL);
	CHECK(wmac_subject_from_socket(-1) == NULL && errno == EBADF);
	int devnull = open("/dev/null", O_RDONLY);
	CHECK(wmac_subject_from_socket(devnull) == NULL && errno == ENOTSOCK);
	close(devnull);
	int unconnected = socket(AF_UNIX, SOCK_STREAM, 0);
	CHECK(wmac_subject_from_socket(unconnected) == NULL);
	close(unconnected);
	int udp = socket(AF_INET, SOCK_DGRAM, 0);
	CHECK(wmac_subject_from_socket(udp) == NULL && errno == EINVAL);
	close(udp);

	CHECK_STR(wmac_decision_name(WMAC_ASK), "ask");
	CHECK_STR(wmac_decision_name((enum wmac_decision)7), "invalid");
	wmac_subject_destroy(s);
	wmac_context_destroy(ctx);
}

static void user_policy_only_tightens_decisions(void)
{
	struct reasons why = {0};
	struct wmac_context *ctx =
		context_with("version 1\nallow fullscreen\ndeny screenshot\nask screencast\n"
			     "allow raise-focus launcher=t\n",
			     "version 1\ndeny fullscreen launcher=t\nask screenshot launcher=t\n"
			     "ask raise-focus\ndeny screencast:secret\n");
	wmac_context_set_audit(ctx, keep_reason, &why, 0);
	struct wmac_subject *t = launched("t", "/usr/bin/t");
	struct wmac_subject *u = launched("u", "/usr/bin/u");
	CHECK_INT(wmac_check(ctx, t, "fullscreen", NULL), WMAC_DENY);
	CHECK_STR(why.last, "user policy");
	CHECK_INT(wmac_check(ctx, u, "fullscreen", NULL), WMAC_ALLOW);
	/* A user's ask never loosens a system deny. */
	CHECK_INT(wmac_check(ctx, t, "screenshot", NULL), WMAC_DENY);
	CHECK_STR(why.last, "rule");
	CHECK_INT(wmac_check(ctx, t, "raise-focus", NULL), WMAC_ASK);
	CHECK_INT(wmac_check(ctx, t, "screencast", "secret"), WMAC_DENY);
	CHECK_INT(wmac_check(ctx, t, "screencast", "public"), WMAC_ASK);
	wmac_subject_destroy(t);
	wmac_subject_destroy(u);
	wmac_context_destroy(ctx);
}

static void answers_apply_only_where_the_policy_asks(void)
{
	struct wmac_context *ctx =
		context_with("version 1\nask screenshot\ndeny screencast\nallow fullscreen\n"
			     "ask selection-read remember=never\n",
			     NULL);
	struct wmac_subject *a = launched("a", "/usr/bin/a");
	struct wmac_subject *b = launched("b", "/usr/bin/b");
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out"), WMAC_ASK);
	/* Once: nothing is remembered. */
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_ONCE), 0);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out"), WMAC_ASK);
	/* An answer can never turn a deny (or an allow) into something else. */
	CHECK_INT(wmac_answer(ctx, a, "screencast", "out", WMAC_ALLOW, WMAC_SCOPE_SESSION), -EPERM);
	CHECK_INT(wmac_check(ctx, a, "screencast", "out"), WMAC_DENY);
	CHECK_INT(wmac_answer(ctx, a, "fullscreen", NULL, WMAC_DENY, WMAC_SCOPE_SESSION), -EPERM);
	CHECK_INT(wmac_answer(ctx, a, "org.no.such", NULL, WMAC_ALLOW, WMAC_SCOPE_ONCE), -EPERM);
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ASK, WMAC_SCOPE_ONCE), -EINVAL);
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ALLOW, (enum wmac_scope)9),
		  -EINVAL);
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "o\nut", WMAC_ALLOW, WMAC_SCOPE_ONCE), -EINVAL);
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_FOREVER),
		  -ENOENT);
	CHECK_INT(wmac_answer(ctx, a, "selection-read", "seat0", WMAC_ALLOW, WMAC_SCOPE_SESSION),
		  -EPERM);
	/* Session: applies to this identity, for this object only. */
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_SESSION), 0);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out"), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "other"), WMAC_ASK);
	CHECK_INT(wmac_check(ctx, b, "screenshot", "out"), WMAC_ASK);
	struct wmac_subject *a2 = launched("a", "/usr/bin/a");
	CHECK_INT(wmac_check(ctx, a2, "screenshot", "out"), WMAC_ALLOW);
	CHECK_INT(wmac_answer(ctx, b, "screenshot", "out", WMAC_DENY, WMAC_SCOPE_SESSION), 0);
	CHECK_INT(wmac_check(ctx, b, "screenshot", "out"), WMAC_DENY);
	/* A reload that denies wins over every remembered allow. */
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "sys", "version 1\ndeny screenshot\n", NULL, NULL,
					 &err),
		  0);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out"), WMAC_DENY);
	wmac_subject_destroy(a);
	wmac_subject_destroy(a2);
	wmac_subject_destroy(b);
	wmac_context_destroy(ctx);
}

static void forever_answers_survive_in_the_answer_file(void)
{
	char dir[] = "/tmp/wmac-answers-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[128];
	snprintf(path, sizeof(path), "%s/answers", dir);
	struct wmac_error err;
	const char *policy = "version 1\nask screenshot\nask screencast\n";

	struct wmac_context *ctx = context_with(policy, NULL);
	CHECK_INT(wmac_context_set_answer_file(ctx, path, &err), 0);
	struct wmac_subject *a = launched("a", "/usr/bin/a");
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out \"1\"", WMAC_ALLOW, WMAC_SCOPE_FOREVER),
		  0);
	CHECK_INT(wmac_answer(ctx, a, "screencast", "", WMAC_DENY, WMAC_SCOPE_FOREVER), 0);
	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);

	ctx = context_with(policy, NULL);
	a = launched("a", "/usr/bin/a");
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out \"1\""), WMAC_ASK);
	CHECK_INT(wmac_context_set_answer_file(ctx, path, &err), 0);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out \"1\""), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, a, "screencast", NULL), WMAC_DENY);
	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);

	/* A broken answer file is reported by line and changes nothing. */
	FILE *f = fopen(path, "a");
	fprintf(f, "maybe screenshot \"x\" \"launcher:a\"\n");
	fclose(f);
	ctx = context_with(policy, NULL);
	CHECK_INT(wmac_context_set_answer_file(ctx, path, &err), -EINVAL);
	CHECK_INT(err.line, 4);
	CHECK(strstr(err.message, "not 'maybe'") != NULL);
	wmac_context_destroy(ctx);
	unlink(path);
	rmdir(dir);
}

static void sandboxed_subjects_match_by_app_and_remember_only_if_allowed(void)
{
	struct wmac_context *ctx =
		context_with("version 1\nask screenshot\nallow screencast sandbox=org.flatpak "
			     "app-id=org.example.Rec\nallow fullscreen exe=/usr/bin/bwrap\n"
			     "ask selection-read sandbox=org.flatpak remember=always\n",
			     NULL);
	struct wmac_subject *s = launched("app", "/usr/bin/bwrap");
	CHECK_INT(wmac_check(ctx, s, "fullscreen", NULL), WMAC_ALLOW);
	CHECK_INT(wmac_subject_set_sandbox(s, "org.flatpak", "org.example.Rec", "42"), 0);
	CHECK_INT(wmac_subject_set_sandbox(s, "org.other", "x", NULL), -EEXIST);
	CHECK_INT(wmac_subject_set_sandbox(s, "", "x", NULL), -EINVAL);
	CHECK_STR(wmac_subject_get_app_id(s), "org.example.Rec");
	CHECK_STR(wmac_subject_get_instance_id(s), "42");
	/* Inside a sandbox the executable path no longer identifies anything. */
	CHECK_INT(wmac_check(ctx, s, "fullscreen", NULL), WMAC_DENY);
	CHECK_INT(wmac_check(ctx, s, "screencast", "out"), WMAC_ALLOW);
	CHECK_INT(wmac_check(ctx, s, "screenshot", "out"), WMAC_ASK);
	CHECK_INT(wmac_answer(ctx, s, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_SESSION), -EPERM);
	CHECK_INT(wmac_answer(ctx, s, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_ONCE), 0);
	CHECK_INT(wmac_answer(ctx, s, "selection-read", "seat0", WMAC_ALLOW, WMAC_SCOPE_SESSION),
		  0);
	CHECK_INT(wmac_check(ctx, s, "selection-read", "seat0"), WMAC_ALLOW);
	/* Another app in the same engine does not inherit the answer. */
	struct wmac_subject *t = launched("app", "/usr/bin/bwrap");
	CHECK_INT(wmac_subject_set_sandbox(t, "org.flatpak", "org.example.Other", NULL), 0);
	CHECK_INT(wmac_check(ctx, t, "selection-read", "seat0"), WMAC_ASK);
	CHECK_INT(wmac_check(ctx, t, "screencast", "out"), WMAC_DENY);
	wmac_subject_destroy(s);
	wmac_subject_destroy(t);
	wmac_context_destroy(ctx);
}

static void subject_accessors_describe_the_subject(void)
{
	struct wmac_launch_record rec = {
		.entry = "lock-screen",
		.executable = "/usr/libexec/garnet-lock",
		.argv0 = "garnet-lock",
		.pid = 77,
		.uid = 1000,
		.gid = 100,
	};
	struct wmac_subject *s = wmac_subject_from_launch(&rec);
	CHECK(wmac_subject_is_verified(s));
	CHECK(wmac_subject_is_launched(s));
	CHECK(wmac_subject_get_unverified_reason(s) == NULL);
	CHECK_INT(wmac_subject_get_pid(s), 77);
	CHECK_INT(wmac_subject_get_uid(s), 1000);
	CHECK_INT(wmac_subject_get_gid(s), 100);
	CHECK_INT(wmac_subject_get_pidfd(s), -1);
	CHECK_STR(wmac_subject_get_launcher_entry(s), "lock-screen");
	CHECK_STR(wmac_subject_get_executable(s), "/usr/libexec/garnet-lock");
	CHECK_STR(wmac_subject_get_argv0(s), "garnet-lock");
	CHECK(wmac_subject_get_sandbox_engine(s) == NULL);
	CHECK(wmac_subject_get_lsm_label(s) == NULL);
	char buf[256];
	wmac_subject_describe(s, buf, sizeof(buf));
	CHECK_STR(buf, "pid 77 uid 1000 launcher lock-screen exe /usr/libexec/garnet-lock");
	CHECK_STR(wmac_version(), WMAC_VERSION);
	CHECK(WMAC_VERSION_AT_LEAST(1, 0));
	CHECK(!WMAC_VERSION_AT_LEAST(1, 1));
	wmac_subject_destroy(s);
	wmac_subject_destroy(NULL);
	wmac_context_destroy(NULL);
}

/* The disk refusing an answer must not lose it: it still holds for the session. */
static void answer_that_cannot_be_saved_still_holds_for_the_session(void)
{
	struct wmac_context *ctx = context_with("version 1\nask screenshot\n", NULL);
	struct wmac_error err;
	char dir[] = "/tmp/wmac-gone-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/answers", dir);
	CHECK_INT(wmac_context_set_answer_file(ctx, path, &err), 0);
	rmdir(dir);
	struct wmac_subject *a = launched("a", "/usr/bin/a");
	CHECK_INT(wmac_answer(ctx, a, "screenshot", "out", WMAC_ALLOW, WMAC_SCOPE_FOREVER),
		  -ENOENT);
	CHECK_INT(wmac_check(ctx, a, "screenshot", "out"), WMAC_ALLOW);
	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);
}

static void sandboxed_and_unverified_subjects_describe_themselves(void)
{
	struct wmac_subject *s = launched("app", "/usr/bin/bwrap");
	wmac_subject_set_sandbox(s, "org.flatpak", "org.example.App", NULL);
	char buf[256];
	wmac_subject_describe(s, buf, sizeof(buf));
	CHECK_STR(buf, "pid 4321 uid 1000 launcher app exe /usr/bin/bwrap sandbox org.flatpak app "
		       "org.example.App");
	wmac_subject_destroy(s);

	int sv[2];
	CHECK_INT(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	s = wmac_subject_from_socket(sv[0]);
	int n = wmac_subject_describe(s, buf, sizeof(buf));
	char want[256];
	snprintf(want, sizeof(want),
		 "pid %d uid %u (unverified: the peer is this process (a socketpair made here): "
		 "use a launch record)",
		 (int)getpid(), (unsigned int)geteuid());
	CHECK_STR(buf, want);
	CHECK_INT(n, strlen(want));
	CHECK_INT(wmac_subject_describe(s, buf, 4), strlen(want));
	CHECK_STR(buf, "pid");
	wmac_subject_describe(NULL, buf, sizeof(buf));
	CHECK_STR(buf, "(no subject)");
	wmac_subject_destroy(s);
	close(sv[0]);
	close(sv[1]);
}

/* A planted answer file of endless lines is refused instead of slowing every check. */
static void oversized_answer_file_is_refused(void)
{
	char dir[] = "/tmp/wmac-many-XXXXXX", path[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/answers", dir);
	FILE *f = fopen(path, "w");
	for (int i = 0; i < 4097; i++)
		fprintf(f, "allow screenshot \"o%d\" \"launcher:a\"\n", i);
	fclose(f);
	struct wmac_context *ctx = context_with("version 1\nask screenshot\n", NULL);
	struct wmac_error err;
	CHECK_INT(wmac_context_set_answer_file(ctx, path, &err), -ENOSPC);
	CHECK_INT(err.line, 4097);
	CHECK_STR(err.message, "too many answers (at most 4096)");
	struct wmac_subject *a = launched("a", "/usr/bin/a");
	CHECK_INT(wmac_check(ctx, a, "screenshot", "o1"), WMAC_ASK);
	wmac_subject_destroy(a);
	wmac_context_destroy(ctx);
	unlink(path);
	rmdir(dir);
}

/*
 * LSM labels come from the kernel (SO_PEERSEC) for socket subjects; this machine may run no
 * LSM, so the label is set directly on the subject to test the matching.
 */
static void lsm_label_rules_match_the_kernel_label(void)
{
	struct wmac_context *ctx =
		context_with("version 1\nallow screenshot label=\"system_u:system_r:shot_t:s0\"\n"
			     "deny screenshot label=\"system_u:system_r:shot_t:s0\" uid=1000\n",
			     NULL);
	struct wmac_subject *s = launched("x", "/usr/bin/x");
	CHECK_INT(wmac_check(ctx, s, "screenshot", NULL), WMAC_DENY);
	wmac_subject_destroy(s);

	s = launched("x", "/usr/bin/x");
	s->label = strdup("system_u:system_r:shot_t:s0");
	CHECK_STR(wmac_subject_get_lsm_label(s), "system_u:system_r:shot_t:s0");
	/* The uid makes the deny rule more specific. */
	CHECK_INT(wmac_check(ctx, s, "screenshot", NULL), WMAC_DENY);
	/* Same label, another uid: the label rule grants. */
	struct wmac_subject *t = launched("y", "/usr/bin/y");
	t->uid = 1001;
	t->label = strdup("system_u:system_r:shot_t:s0");
	CHECK_INT(wmac_check(ctx, t, "screenshot", NULL), WMAC_ALLOW);
	wmac_subject_destroy(t);
	t = launched("y", "/usr/bin/y");
	t->uid = 1001;
	t->label = strdup("system_u:system_r:other_t:s0");
	CHECK_INT(wmac_check(ctx, t, "screenshot", NULL), WMAC_DENY);
	wmac_subject_destroy(t);
	wmac_subject_destroy(s);
	wmac_context_destroy(ctx);
}

int main(void)
{
	RUN(each_permission_is_granted_only_where_the_policy_says);
	RUN(every_error_path_denies);
	RUN(user_policy_only_tightens_decisions);
	RUN(answers_apply_only_where_the_policy_asks);
	RUN(forever_answers_survive_in_the_answer_file);
	RUN(sandboxed_subjects_match_by_app_and_remember_only_if_allowed);
	RUN(subject_accessors_describe_the_subject);
	RUN(answer_that_cannot_be_saved_still_holds_for_the_session);
	RUN(sandboxed_and_unverified_subjects_describe_themselves);
	RUN(oversized_answer_file_is_refused);
	RUN(lsm_label_rules_match_the_kernel_label);
	return tap_done();
}
