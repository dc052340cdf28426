// SPDX-License-Identifier: MIT
/* wmac.policy(5) parsing: every error message with its line and column, loading, precedence. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "wmac.h"

static const char *default_policy_path;

/* Loads text (as the user layer when user is set) and checks the error it must produce. */
static void expect_error_at(const char *text, bool user, unsigned int line, unsigned int column,
			    const char *message, int srcline)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	int ret = user ? wmac_context_load_text(ctx, "sys", "version 1\n", "user", text, &err)
		       : wmac_context_load_text(ctx, "sys", text, NULL, NULL, &err);
	if (ret != -EINVAL || err.line != line || err.column != column ||
	    !strstr(err.message, message) || strcmp(err.file, user ? "user" : "sys") != 0) {
		printf("# line %d: got %d %s:%u:%u: %s\n", srcline, ret, err.file, err.line,
		       err.column, err.message);
		printf("#   wanted %s:%u:%u: ...%s...\n", user ? "user" : "sys", line, column,
		       message);
		tap_failed = true;
	}
	wmac_context_destroy(ctx);
}
#define expect_error(text, line, column, message) \
	expect_error_at(text, false, line, column, message, __LINE__)
#define expect_user_error(text, line, column, message) \
	expect_error_at(text, true, line, column, message, __LINE__)

static void parser_reports_every_error_with_line_and_column(void)
{
	expect_error("allow screenshot\n", 1, 1, "expected 'version 1' as the first statement");
	expect_error("# only a comment\n\n", 2, 1, "empty policy");
	expect_error("", 1, 1, "empty policy");
	expect_error("version 2\n", 1, 9, "unsupported policy version '2'");
	expect_error("version 1\nversion 1\n", 2, 1, "'version' given twice");
	expect_error("version\n", 1, 8, "missing number after 'version'");
	expect_error("version 1 x\n", 1, 11, "unexpected 'x' after 'version 1'");
	expect_error("version 1\nallow\n", 2, 6, "missing permission after 'allow'");
	expect_error("version 1\nallow screnshot\n", 2, 7, "unknown permission 'screnshot'");
	expect_error("version 1\nallow :x\n", 2, 7, "missing permission name before ':'");
	expect_error("version 1\ndeny screenshot:\n", 2, 17, "empty object after ':'");
	expect_error("version 1\ndeny screenshot:a*b\n", 2, 18,
		     "'*' is only allowed at the end of an object");
	expect_error("version 1\nallow screenshot exe\n", 2, 18, "expected KEY=VALUE, got 'exe'");
	expect_error("version 1\nallow screenshot exe=\n", 2, 22, "empty value for 'exe'");
	expect_error("version 1\nallow screenshot exe=grim\n", 2, 22,
		     "exe must be an absolute path, not 'grim'");
	expect_error("version 1\nallow screenshot exe=/a*/b\n", 2, 24,
		     "'*' is only allowed at the end of an exe path");
	expect_error("version 1\nallow screenshot uid=abc\n", 2, 22, "invalid uid 'abc'");
	expect_error("version 1\nallow screenshot uid=-1\n", 2, 22, "invalid uid '-1'");
	expect_error("version 1\nallow screenshot uid=1 uid=2\n", 2, 28,
		     "'uid' given twice in one rule");
	expect_error("version 1\nallow screenshot launcher=a launcher=b\n", 2, 38,
		     "'launcher' given twice in one rule");
	expect_error("version 1\nallow screenshot exe=/a exe=/b\n", 2, 29,
		     "'exe' given twice in one rule");
	expect_error("version 1\nallow screenshot colour=red\n", 2, 18, "unknown key 'colour'");
	expect_error("version 1\nallow screenshot remember=never\n", 2, 1,
		     "remember= is only valid on ask rules");
	expect_error("version 1\nask screenshot remember=sometimes\n", 2, 25,
		     "invalid remember value 'sometimes'");
	expect_error("version 1\nask screenshot remember=never remember=always\n", 2, 40,
		     "'remember' given twice in one rule");
	expect_error("version 1\nallow screenshot exe=/x sandbox=org.flatpak\n", 2, 1,
		     "exe= never matches a sandboxed subject");
	expect_error("version 1\nallow screenshot exe=\"/a b\n", 2, 22,
		     "unterminated quoted string");
	expect_error("version 1\nallow screen\x01shot\n", 2, 13, "control character");
	expect_error("version 1\nfrobnicate\n", 2, 1, "unknown statement 'frobnicate'");
	expect_error("version 1\npermission Foo\n", 2, 12, "invalid permission name 'Foo'");
	expect_error("version 1\npermission nodot\n", 2, 12, "invalid permission name 'nodot'");
	expect_error("version 1\npermission screenshot\n", 2, 12,
		     "permission 'screenshot' is built in");
	expect_error("version 1\npermission org.x.y\npermission org.x.y\n", 3, 12,
		     "permission 'org.x.y' declared twice");
	expect_error("version 1\npermission\n", 2, 11, "missing name after 'permission'");
	expect_error("version 1\npermission org.x.y z\n", 2, 20,
		     "unexpected 'z' after the permission name");
	expect_error("version 1\nallow org.x.y\n", 2, 7, "unknown permission 'org.x.y'");

	char longline[6000];
	memset(longline, '#', sizeof(longline));
	memcpy(longline, "version 1\n", 10);
	longline[sizeof(longline) - 1] = '\0';
	expect_error(longline, 2, 4097, "line longer than 4096 bytes");
}

static void user_policy_may_only_tighten(void)
{
	expect_user_error("version 1\nallow screenshot\n", 2, 1, "a per-user policy may not grant");
	expect_user_error("version 1\npermission org.x.y\n", 2, 1,
			  "permissions are declared in the system policy only");
	expect_user_error("version 1\nask screenshot remember=always\n", 2, 1,
			  "a per-user policy may only say remember=never");
	expect_user_error("deny screenshot\n", 1, 1, "expected 'version 1'");

	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(wmac_context_load_text(ctx, "sys", "version 1\nallow fullscreen\n", "user",
					 "version 1\ndeny fullscreen\nask screenshot "
					 "remember=never\n",
					 &err),
		  0);
	wmac_context_destroy(ctx);
}

static void valid_forms_parse(void)
{
	static const char *const texts[] = {
		"version 1\n",
		"  version   1   # trailing comment\n\n\t\n",
		"version 1\r\nallow fullscreen\r\n",
		"version 1\nallow screenshot:HDMI-A-1 exe=/usr/bin/grim uid=1000\n",
		"version 1\nallow global-shortcut:media-* launcher=panel\n",
		"version 1\ndeny screenshot:* exe=/opt/*\n",
		"version 1\nallow screenshot exe=\"/opt/My App/bin/shot\"\n",
		"version 1\nask screencast sandbox=org.flatpak app-id=org.example.Rec "
		"remember=always\n",
		"version 1\ndeny selection-read label=\"unconfined (enforce)\"\n",
		"version 1\npermission org.example.record-audio\nask org.example.record-audio\n",
		"version 1\nallow screenshot exe=\"/a\\\"b\"\n",
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct wmac_context *ctx = wmac_context_create();
		struct wmac_error err;
		int ret = wmac_context_load_text(ctx, "sys", texts[i], NULL, NULL, &err);
		if (ret != 0) {
			printf("# text %zu: %s:%u:%u: %s\n", i, err.file, err.line, err.column,
			       err.message);
			tap_failed = true;
		}
		wmac_context_destroy(ctx);
	}
}

static enum wmac_decision decide_for(struct wmac_context *ctx, const char *entry,
				     const char *permission, const char *object)
{
	struct wmac_launch_record rec = {
		.entry = entry,
		.executable = "/usr/libexec/garnet-shot",
		.pid = 1234,
		.uid = 1000,
		.gid = 1000,
	};
	struct wmac_subject *s = wmac_subject_from_launch(&rec);
	enum wmac_decision d = wmac_check(ctx, s, permission, object);
	wmac_subject_destroy(s);
	return d;
}

struct last_rule {
	const char *file;
	unsigned int line;
	char reason[64];
};

static void remember_rule(const struct wmac_audit_record *r, void *data)
{
	struct last_rule *last = data;
	last->file = r->rule_file;
	last->line = r->rule_line;
	snprintf(last->reason, sizeof(last->reason), "%s", r->reason);
}

static void most_specific_rule_wins(void)
{
	struct wmac_context *ctx = wmac_context_create();
	struct last_rule last = {0};
	wmac_context_set_audit(ctx, remember_rule, &last, 0);
	struct wmac_error err;
	const char *policy = "version 1\n"
			     "allow screenshot:out-1\n" /* 2 */
			     "deny screenshot launcher=shot\n" /* 3 */
			     "allow screenshot:out-2 launcher=shot\n" /* 4 */
			     "allow global-shortcut:media-* launcher=p\n" /* 5 */
			     "deny global-shortcut:media-vol* launcher=p\n" /* 6 */
			     "allow global-shortcut:media-volume-up launcher=p\n" /* 7 */
			     "allow lock-screen launcher=l\n" /* 8 */
			     "deny lock-screen launcher=l\n" /* 9 */
			     "allow fullscreen launcher=l\n" /* 10 */
			     "deny fullscreen uid=1000\n" /* 11 */
			     "allow raise-focus exe=/usr/libexec/*\n" /* 12 */
			     "deny raise-focus exe=/usr/libexec/garnet-shot\n"; /* 13 */
	CHECK_INT(wmac_context_load_text(ctx, "p", policy, NULL, NULL, &err), 0);

	/* A subject match outranks an object match. */
	CHECK_INT(decide_for(ctx, "shot", "screenshot", "out-1"), WMAC_DENY);
	CHECK_INT(last.line, 3);
	CHECK_INT(decide_for(ctx, "other", "screenshot", "out-1"), WMAC_ALLOW);
	CHECK_INT(last.line, 2);
	/* Same subject rank: the exact object outranks the wildcard. */
	CHECK_INT(decide_for(ctx, "shot", "screenshot", "out-2"), WMAC_ALLOW);
	CHECK_INT(last.line, 4);
	/* Exact beats the longer prefix, which beats the shorter one. */
	CHECK_INT(decide_for(ctx, "p", "global-shortcut", "media-volume-up"), WMAC_ALLOW);
	CHECK_INT(last.line, 7);
	CHECK_INT(decide_for(ctx, "p", "global-shortcut", "media-volume-down"), WMAC_DENY);
	CHECK_INT(last.line, 6);
	CHECK_INT(decide_for(ctx, "p", "global-shortcut", "media-play"), WMAC_ALLOW);
	CHECK_INT(last.line, 5);
	CHECK_INT(decide_for(ctx, "p", "global-shortcut", "alt-tab"), WMAC_DENY);
	CHECK_STR(last.reason, "no rule matched");
	CHECK(last.file == NULL);
	/* A tie goes to the stricter decision, whatever the order. */
	CHECK_INT(decide_for(ctx, "l", "lock-screen", NULL), WMAC_DENY);
	CHECK_INT(last.line, 9);
	/* A launcher entry outranks a uid. */
	CHECK_INT(decide_for(ctx, "l", "fullscreen", NULL), WMAC_ALLOW);
	CHECK_INT(last.line, 10);
	CHECK_INT(decide_for(ctx, "x", "fullscreen", NULL), WMAC_DENY);
	CHECK_INT(last.line, 11);
	/* An exact executable outranks a directory prefix. */
	CHECK_INT(decide_for(ctx, "x", "raise-focus", NULL), WMAC_DENY);
	CHECK_INT(last.line, 13);
	CHECK_STR(last.file, "p");
	wmac_context_destroy(ctx);
}

static void failed_reload_keeps_active_policy(void)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	CHECK_INT(
		wmac_context_load_text(ctx, "a", "version 1\nallow fullscreen\n", NULL, NULL, &err),
		0);
	CHECK_INT(decide_for(ctx, "x", "fullscreen", NULL), WMAC_ALLOW);
	CHECK_INT(wmac_context_load_text(ctx, "b", "version 1\ndeny fullscreen\nallow bogus\n",
					 NULL, NULL, &err),
		  -EINVAL);
	CHECK_INT(err.line, 3);
	CHECK_INT(decide_for(ctx, "x", "fullscreen", NULL), WMAC_ALLOW);
	/* A broken user file also leaves everything as it was. */
	CHECK_INT(wmac_context_load_text(ctx, "b", "version 1\n", "u",
					 "version 1\nallow fullscreen\n", &err),
		  -EINVAL);
	CHECK_INT(decide_for(ctx, "x", "fullscreen", NULL), WMAC_ALLOW);
	wmac_context_destroy(ctx);
}

static char tmpdir[] = "/tmp/wmac-parser-XXXXXX";

static char *write_file(const char *name, const char *text, mode_t mode)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];
	snprintf(p, 256, "%s/%s", tmpdir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	fchmod(fd, mode);
	close(fd);
	return p;
}

static void policy_files_are_checked_for_trust(void)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	wmac_context_set_trusted_owner(ctx, getuid());
	char *sys = write_file("sys.policy", "version 1\nallow fullscreen\nask screenshot\n", 0644);
	char *user = write_file("user.policy", "version 1\n\ndeny screenshot:out-9\n", 0666);
	CHECK_INT(wmac_context_load(ctx, sys, user, &err), 0);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-9"), WMAC_DENY);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-1"), WMAC_ASK);

	/* A missing user file is no restriction; a missing system file is an error. */
	char missing[300];
	snprintf(missing, sizeof(missing), "%s/none", tmpdir);
	CHECK_INT(wmac_context_load(ctx, sys, missing, &err), 0);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-9"), WMAC_ASK);
	CHECK_INT(wmac_context_load(ctx, missing, NULL, &err), -ENOENT);
	CHECK_STR(err.file, missing);

	/* A system file that others could write is not a trust root. */
	char *writable = write_file("writable.policy", "version 1\nallow screenshot\n", 0664);
	CHECK_INT(wmac_context_load(ctx, writable, NULL, &err), -EACCES);
	CHECK(strstr(err.message, "untrusted system policy") != NULL);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-1"), WMAC_ASK);
	wmac_context_set_trusted_owner(ctx, getuid() + 4242);
	CHECK_INT(wmac_context_load(ctx, sys, NULL, &err), -EACCES);

	/* Errors in the user file name the user file. */
	wmac_context_set_trusted_owner(ctx, getuid());
	char *bad = write_file("bad-user.policy", "version 1\n# ok\nallow screenshot\n", 0600);
	CHECK_INT(wmac_context_load(ctx, sys, bad, &err), -EINVAL);
	CHECK_STR(err.file, bad);
	CHECK_INT(err.line, 3);
	CHECK_INT(err.column, 1);
	CHECK_INT(wmac_context_load(ctx, tmpdir, NULL, &err), -EINVAL);
	CHECK_STR(err.message, "not a regular file");
	wmac_context_destroy(ctx);
	unlink(sys);
	unlink(user);
	unlink(writable);
	unlink(bad);
}

/* Anything running as the user can plant a FIFO or a device where the user file goes. */
static void user_file_that_is_not_a_regular_file_cannot_hang_the_caller(void)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	wmac_context_set_trusted_owner(ctx, getuid());
	char *sys = write_file("sys.policy", "version 1\nallow fullscreen\n", 0644);
	char fifo[300];
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmpdir);
	CHECK_INT(mkfifo(fifo, 0600), 0);
	alarm(10); /* a hang fails the test instead of blocking the suite */
	CHECK_INT(wmac_context_load(ctx, sys, fifo, &err), -EINVAL);
	CHECK_STR(err.file, fifo);
	CHECK_STR(err.message, "not a regular file");
	CHECK_INT(wmac_context_load(ctx, sys, "/dev/zero", &err), -EINVAL);
	CHECK_INT(wmac_context_set_answer_file(ctx, fifo, &err), -EINVAL);
	alarm(0);
	CHECK_INT(decide_for(ctx, "x", "fullscreen", NULL), WMAC_DENY);
	wmac_context_destroy(ctx);
	unlink(fifo);
	unlink(sys);
}

static void installed_default_policy_loads(void)
{
	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	struct stat st;
	CHECK_INT(stat(default_policy_path, &st), 0);
	wmac_context_set_trusted_owner(ctx, st.st_uid);
	int ret = wmac_context_load(ctx, default_policy_path, NULL, &err);
	if (ret == -EACCES) {
		/* A group-writable checkout: check the text itself. */
		FILE *f = fopen(default_policy_path, "r");
		static char text[65536];
		size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
		if (f)
			fclose(f);
		text[n] = '\0';
		ret = wmac_context_load_text(ctx, default_policy_path, text, NULL, NULL, &err);
	}
	if (ret)
		printf("# %s:%u:%u: %s\n", err.file, err.line, err.column, err.message);
	CHECK_INT(ret, 0);
	CHECK_INT(decide_for(ctx, "random", "fullscreen", "HDMI-A-1"), WMAC_ALLOW);
	CHECK_INT(decide_for(ctx, "random", "screenshot", "HDMI-A-1"), WMAC_ASK);
	CHECK_INT(decide_for(ctx, "screenshooter", "screenshot", "HDMI-A-1"), WMAC_ALLOW);
	CHECK_INT(decide_for(ctx, "random", "lock-screen", NULL), WMAC_DENY);
	CHECK_INT(decide_for(ctx, "lock-screen", "lock-screen", NULL), WMAC_ALLOW);
	CHECK_INT(decide_for(ctx, "random", "virtual-keyboard", "seat0"), WMAC_DENY);
	CHECK_INT(decide_for(ctx, "random", "selection-read", "seat0"), WMAC_DENY);
	CHECK_INT(decide_for(ctx, "random", "global-shortcut", "alt-tab"), WMAC_DENY);
	wmac_context_destroy(ctx);
}

/* "version 1", then count lines PREFIX<n>SUFFIX. */
static char *repeat_lines(const char *prefix, const char *suffix, int count)
{
	size_t cap = (size_t)count * 64 + 64, len = 0;
	char *text = malloc(cap);
	len += (size_t)snprintf(text, cap, "version 1\n");
	for (int i = 0; i < count; i++)
		len += (size_t)snprintf(text + len, cap - len, "%s%d%s\n", prefix, i, suffix);
	return text;
}

/* Limits keep a huge or hostile file from costing unbounded memory or time. */
static void oversized_policies_are_refused_by_line(void)
{
	char *text = repeat_lines("permission org.example.p", "", 4100);
	expect_error(text, 4085, 12, "too many permissions (at most 4096)");
	free(text);
	text = repeat_lines("deny screenshot:out-", "", 100001);
	expect_error(text, 100002, 1, "too many rules (at most 100000)");
	free(text);

	struct wmac_context *ctx = wmac_context_create();
	struct wmac_error err;
	text = repeat_lines("permission org.example.p", "", 4000);
	CHECK_INT(wmac_context_load_text(ctx, "p", text, NULL, NULL, &err), 0);
	free(text);
	text = repeat_lines("allow screenshot:out-", " launcher=x", 100000);
	CHECK_INT(wmac_context_load_text(ctx, "p", text, NULL, NULL, &err), 0);
	free(text);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-99999"), WMAC_ALLOW);
	CHECK_INT(decide_for(ctx, "x", "screenshot", "out-100000"), WMAC_DENY);
	wmac_context_destroy(ctx);
}

int main(int argc, char **argv)
{
	default_policy_path = argc > 1 ? argv[1] : "data/wmac.policy";
	if (!mkdtemp(tmpdir))
		return 99;
	RUN(parser_reports_every_error_with_line_and_column);
	RUN(user_policy_may_only_tighten);
	RUN(valid_forms_parse);
	RUN(most_specific_rule_wins);
	RUN(failed_reload_keeps_active_policy);
	RUN(policy_files_are_checked_for_trust);
	RUN(user_file_that_is_not_a_regular_file_cannot_hang_the_caller);
	RUN(installed_default_policy_loads);
	RUN(oversized_policies_are_refused_by_line);
	rmdir(tmpdir);
	return tap_done();
}
