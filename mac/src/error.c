// SPDX-License-Identifier: MIT
/* Filling struct wmac_error: every failure names its file, line and column. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "private.h"

int set_error(struct wmac_error *error, int code, const char *file, unsigned int line,
	      unsigned int column, const char *fmt, ...)
{
	if (error) {
		memset(error, 0, sizeof(*error));
		snprintf(error->file, sizeof(error->file), "%s", file ? file : "");
		error->line = line;
		error->column = column;
		error->code = code;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(error->message, sizeof(error->message), fmt, ap);
		va_end(ap);
	}
	return code;
}
