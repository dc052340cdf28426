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

void garnet_log_escape(char *out, size_t size, const char *in)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!size)
		return;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f) {
			if (o + 1 >= size)
				break;
			out[o++] = (char)*p;
			continue;
		}
		if (o + 4 >= size)
			break;
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[*p >> 4];
		out[o++] = hex[*p & 0xf];
	}
	out[o] = '\0';
}

void garnet_logv(struct garnet_compositor *c, enum garnet_log_level level, const char *scope,
		 const char *fmt, va_list ap)
{
	FILE *out = c && c->log_stream ? c->log_stream : stderr;
	enum garnet_log_level max = c ? c->log_level : GARNET_LOG_INFO;
	char message[4096], line[4096];
	struct timeval tv;
	struct tm tm;

	if (level > max)
		return;
	vsnprintf(message, sizeof(message), fmt, ap);
	garnet_log_escape(line, c && c->log_handler ? 1024 : sizeof(line), message);
	if (c && c->log_handler) {
		c->log_handler(level, scope, line, c->log_handler_data);
		return;
	}
	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	fprintf(out, "[%02d:%02d:%02d.%03ld] %s %s: %s\n", tm.tm_hour, tm.tm_min, tm.tm_sec,
		(long)tv.tv_usec / 1000, level_names[level], scope, line);
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
