/* SPDX-License-Identifier: MIT */
/* Logging: one logger per compositor, with levels and named scopes. */
#ifndef GARNET_LOG_H
#define GARNET_LOG_H

#include <stdarg.h>
#include <stdio.h>
#include "garnet/compositor.h"

struct garnet_compositor;

enum garnet_log_level {
	GARNET_LOG_ERROR = 0,
	GARNET_LOG_WARNING,
	GARNET_LOG_INFO,
	GARNET_LOG_DEBUG,
};

/* Writes "[HH:MM:SS.mmm] level scope: message" to the compositor's log stream when level is at
 * or below the configured level. scope names the part speaking ("seat", "output", "security").
 * A message is one line whatever it holds: its control characters (from what clients choose:
 * an executable's path, a title) are written as \xNN, so none can forge a line of its own. */
GARNET_EXPORT void garnet_log(struct garnet_compositor *c, enum garnet_log_level level, const char *scope,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* garnet_log with the arguments as a va_list. */
GARNET_EXPORT void garnet_logv(struct garnet_compositor *c, enum garnet_log_level level, const char *scope,
		 const char *fmt, va_list ap);

/* Where the log goes (default stderr, not owned). */
GARNET_EXPORT void garnet_log_set_stream(struct garnet_compositor *c, FILE *stream);
/* How much of it: messages above level are dropped (default INFO). */
GARNET_EXPORT void garnet_log_set_level(struct garnet_compositor *c, enum garnet_log_level level);
/* The level set, so a caller can skip building a message nobody reads. */
GARNET_EXPORT enum garnet_log_level garnet_log_get_level(struct garnet_compositor *c);

/* in as one line: control characters (below 0x20, and 0x7f) as \xNN, cut to fit size. */
GARNET_EXPORT void garnet_log_escape(char *out, size_t size, const char *in);

/* A message that passed the level, formatted (cut at 1 KiB) and escaped, for a log other than a
 * stream (the system journal). */
typedef void (*garnet_log_handler)(enum garnet_log_level level, const char *scope,
				   const char *message, void *data);
/* Sends every message to handler instead of the stream; NULL goes back to the stream. */
GARNET_EXPORT void garnet_log_set_handler(struct garnet_compositor *c, garnet_log_handler handler,
					  void *data);

#endif
