// SPDX-License-Identifier: MIT
// The journal when garnet runs under it, stderr otherwise; the audit trail apart from the log
// (SYSLOG_IDENTIFIER=garnet-audit, or a file of its own), so that an administrator reads every
// denial with `journalctl -t garnet-audit` and the fields say who, what and the answer.
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>
#include <systemd/sd-journal.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "config.h"
#include "garnet/log.h"
#include "garnet-security.h"
#include "log-target.h"

#define JOURNAL_SOCKET "/run/systemd/journal/socket"

static int priority(enum garnet_log_level level)
{
	switch (level) {
	case GARNET_LOG_ERROR:
		return LOG_ERR;
	case GARNET_LOG_WARNING:
		return LOG_WARNING;
	case GARNET_LOG_INFO:
		return LOG_INFO;
	default:
		return LOG_DEBUG;
	}
}

/* systemd's own test: stderr is the journal when it is the stream JOURNAL_STREAM names. */
static bool stderr_is_journal(void)
{
	const char *stream = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	return stream && sscanf(stream, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
	       st.st_dev == dev && st.st_ino == ino;
}

static FILE *open_append(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "a") : NULL;

	if (!f) {
		fprintf(stderr, "garnet: cannot open log %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}

bool log_target_open(struct log_target *t, const struct cli *cli, const struct config *cfg)
{
	const char *log = cfg->log_target ? cfg->log_target : "auto";
	const char *audit = cfg->audit ? cfg->audit : "auto";

	*t = (struct log_target){.debug = cli->debug};
	if (cli->log_path) {
		t->log_file = open_append(cli->log_path);
		if (!t->log_file)
			return false;
	} else {
		t->journal_log = strcmp(log, "journal") == 0 ||
				 (strcmp(log, "auto") == 0 && stderr_is_journal());
	}
	if (strcmp(audit, "journal") == 0) {
		t->journal_audit = true;
	} else if (strcmp(audit, "auto") == 0) {
		/* The audit trail is the system's record: in the journal whenever there is one,
		 * unless the log was sent to a file of its own (the tests read it there). */
		t->journal_audit = t->journal_log ||
				   (!cli->log_path && access(JOURNAL_SOCKET, W_OK) == 0);
	} else if (strcmp(audit, "log") != 0) {
		t->audit_file = open_append(audit);
		if (!t->audit_file) {
			log_target_close(t);
			return false;
		}
	}
	return true;
}

static void journal_log(enum garnet_log_level level, const char *scope, const char *message,
			void *data)
{
	if (sd_journal_send("MESSAGE=%s: %s", scope, message, "PRIORITY=%d", priority(level),
			    "SYSLOG_IDENTIFIER=garnet", "GARNET_SCOPE=%s", scope, NULL) < 0)
		fprintf(stderr, "garnet: %s: %s\n", scope, message);
}

void log_target_apply(struct log_target *t, struct garnet_compositor *c)
{
	if (t->log_file)
		garnet_log_set_stream(c, t->log_file);
	if (t->journal_log)
		garnet_log_set_handler(c, journal_log, t);
	garnet_log_set_level(c, t->debug ? GARNET_LOG_DEBUG : GARNET_LOG_INFO);
	if (t->journal_audit && !t->journal_log)
		garnet_log(c, GARNET_LOG_INFO, "security",
			   "audit trail in the journal: journalctl -t garnet-audit");
	else if (t->audit_file)
		garnet_log(c, GARNET_LOG_INFO, "security", "audit trail in its own file");
}

/* One field of a journal entry; the buffers live as long as the call. */
struct fields {
	struct iovec iov[12];
	char text[12][1100];
	int count;
};

static void field(struct fields *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void field(struct fields *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(f->text[f->count], sizeof(f->text[0]), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(f->text[0]))
		n = sizeof(f->text[0]) - 1;
	f->iov[f->count] = (struct iovec){.iov_base = f->text[f->count], .iov_len = (size_t)n};
	f->count++;
}

static void audit(const struct garnet_audit_event *e, void *data)
{
	struct log_target *t = data;
	struct fields f = {.count = 0};
	char stamp[64], message[1024];
	struct tm tm;
	time_t now;

	if (e->level == GARNET_LOG_DEBUG && !t->debug)
		return;
	/* One record, one line: the message names what clients chose (an executable's path). */
	garnet_log_escape(message, sizeof(message), e->message);
	if (t->audit_file) {
		now = time(NULL);
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%S%z", &tm);
		fprintf(t->audit_file, "%s garnet-audit: %s\n", stamp, message);
		fflush(t->audit_file);
		return;
	}
	field(&f, "MESSAGE=%s", message);
	field(&f, "PRIORITY=%d", priority(e->level));
	field(&f, "SYSLOG_IDENTIFIER=garnet-audit");
	field(&f, "GARNET_DECISION=%s", e->decision);
	field(&f, "GARNET_PERMISSION=%s", e->permission);
	if (e->object && e->object[0])
		field(&f, "GARNET_OBJECT=%s", e->object);
	if (e->pid > 0)
		field(&f, "GARNET_CLIENT_PID=%d", (int)e->pid);
	if (e->executable)
		field(&f, "GARNET_CLIENT_EXE=%s", e->executable);
	field(&f, "GARNET_REASON=%s", e->reason);
	if (e->rule_file)
		field(&f, "GARNET_RULE=%s:%u", e->rule_file, e->rule_line);
	field(&f, "GARNET_COUNT=%lu", e->count);
	/* Never lost: without a journal the record goes to stderr. */
	if (sd_journal_sendv(f.iov, f.count) < 0)
		fprintf(stderr, "garnet-audit: %s\n", message);
}

void log_target_apply_security(struct log_target *t, struct garnet_security *s)
{
	if (t->journal_audit || t->audit_file)
		garnet_security_set_audit_sink(s, audit, t);
}

void log_target_close(struct log_target *t)
{
	if (t->log_file)
		fclose(t->log_file);
	if (t->audit_file)
		fclose(t->audit_file);
	t->log_file = t->audit_file = NULL;
}
