// SPDX-License-Identifier: MIT
// The compositor's logger: timestamped lines with a level and a scope.
#include <string.h>
#include <sys/time.h>

#include "compositor.h"

static const char *const level_names[] = {
	[GARNET_LOG_ERROR] = "error",
	[GARNET_LOG_WARNING] = "warning",
	[GARNET_LOG_INFO] = "info",
	[GARNET_LOG_DEBUG] = "debug",
};

void garnet_logv(struct garnet_compositor *c, enum garnet_log_level level, const char *scope,
		 const char *fmt, va_list ap)
{
	FILE *out = c && c->log_stream ? c->log_stream : stderr;
	enum garnet_log_level max = c ? c->log_level : GARNET_LOG_INFO;
	struct timeval tv;
	struct tm tm;

	if (level > max)
		return;
	if (c && c->log_handler) {
		char message[1024];

		vsnprintf(message, sizeof(message), fmt, ap);
		c->log_handler(level, scope, message, c->log_handler_data);
		return;
	}
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	fprintf(out, "[%02d:%02d:%02d.%03ld] %s %s: ", tm.tm_hour, tm.tm_min, tm.tm_sec,
		(long)tv.tv_usec / 1000, level_names[level], scope);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	fflush(out);
}

void garnet_log(struct garnet_compositor *c, enum garnet_log_level level, const char *scope,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	garnet_logv(c, level, scope, fmt, ap);
	va_end(ap);
}

void garnet_log_set_stream(struct garnet_compositor *c, FILE *stream)
{
	c->log_stream = stream;
}

void garnet_log_set_level(struct garnet_compositor *c, enum garnet_log_level level)
{
	c->log_level = level;
}

enum garnet_log_level garnet_log_get_level(struct garnet_compositor *c)
{
	return c->log_level;
}

void garnet_log_set_handler(struct garnet_compositor *c, garnet_log_handler handler, void *data)
{
	c->log_handler = handler;
	c->log_handler_data = data;
}
