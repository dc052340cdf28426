// SPDX-License-Identifier: MIT
/*
 * Remembered answers to ASK: an in-memory set, and the per-user file that keeps the ones
 * given "forever". File format, one per line: `allow|deny PERMISSION OBJECT IDENTITY`, the
 * last two quoted.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

#define MAX_ANSWERS 4096

void answer_set_finish(struct answer_set *set)
{
	for (size_t i = 0; i < set->count; i++) {
		free(set->items[i].identity);
		free(set->items[i].permission);
		free(set->items[i].object);
	}
	free(set->items);
	memset(set, 0, sizeof(*set));
}

const struct answer *answer_set_find(const struct answer_set *set, const char *identity,
				     const char *permission, const char *object)
{
	for (size_t i = 0; i < set->count; i++) {
		const struct answer *a = &set->items[i];
		if (strcmp(a->identity, identity) == 0 && strcmp(a->permission, permission) == 0 &&
		    strcmp(a->object, object) == 0)
			return a;
	}
	return NULL;
}

int answer_set_put(struct answer_set *set, const char *identity, const char *permission,
		   const char *object, enum wmac_decision decision)
{
	struct answer *existing =
		(struct answer *)answer_set_find(set, identity, permission, object);
	if (existing) {
		existing->decision = decision;
		return 0;
	}
	/* Lookups are linear: a planted file of millions of lines must not stall checks. */
	if (set->count >= MAX_ANSWERS)
		return -ENOSPC;
	if (set->count == set->capacity) {
		size_t cap = set->capacity ? set->capacity * 2 : 8;
		struct answer *bigger = realloc(set->items, cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		set->items = bigger;
		set->capacity = cap;
	}
	struct answer a = {
		.identity = strdup(identity),
		.permission = strdup(permission),
		.object = strdup(object),
		.decision = decision,
	};
	if (!a.identity || !a.permission || !a.object) {
		free(a.identity);
		free(a.permission);
		free(a.object);
		return -ENOMEM;
	}
	set->items[set->count++] = a;
	return 0;
}

static int parse_answer_line(struct line_reader *reader, const char *path, struct answer_set *set,
			     struct wmac_error *error)
{
	struct token tok[5] = {0};
	int n = 0, ret = 0;
	const char *message = "";
	unsigned int column = 1;
	while (n < 5) {
		ret = next_token(reader, &tok[n], &message, &column);
		if (ret <= 0)
			break;
		n++;
	}
	if (ret < 0) {
		ret = set_error(error, ret, path, reader->line, column, "%s", message);
	} else if (n == 0) {
		ret = 0;
	} else if (n != 4) {
		ret = set_error(error, -EINVAL, path, reader->line, n > 4 ? tok[4].column : 1,
				"expected: allow|deny PERMISSION \"OBJECT\" \"IDENTITY\"");
	} else if (strcmp(tok[0].text, "allow") != 0 && strcmp(tok[0].text, "deny") != 0) {
		ret = set_error(error, -EINVAL, path, reader->line, tok[0].column,
				"an answer is allow or deny, not '%s'", tok[0].text);
	} else {
		enum wmac_decision d = tok[0].text[0] == 'a' ? WMAC_ALLOW : WMAC_DENY;
		ret = answer_set_put(set, tok[3].text, tok[1].text, tok[2].text, d);
		if (ret == -ENOSPC)
			set_error(error, ret, path, reader->line, 1,
				  "too many answers (at most %d)", MAX_ANSWERS);
		else if (ret < 0)
			set_error(error, ret, path, reader->line, 1, "out of memory");
	}
	for (int i = 0; i < 5; i++)
		free(tok[i].text);
	return ret;
}

int answer_file_load(struct answer_set *set, const char *path, struct wmac_error *error)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return set_error(error, -errno, path, 0, 0, "cannot open: %s", strerror(errno));
	char *text;
	size_t len;
	int ret = read_whole_file(fd, path, &text, &len, error);
	close(fd);
	if (ret < 0)
		return ret;
	ret = answer_text_parse(set, path, text, len, error);
	free(text);
	return ret;
}

int answer_text_parse(struct answer_set *set, const char *name, const char *text, size_t len,
		      struct wmac_error *error)
{
	struct answer_set loaded = {0};
	struct line_reader reader;
	int ret = 0;
	line_reader_init(&reader, text, len);
	while (ret == 0 && line_reader_next(&reader))
		ret = parse_answer_line(&reader, name, &loaded, error);
	if (ret < 0) {
		answer_set_finish(&loaded);
		return ret;
	}
	answer_set_finish(set);
	*set = loaded;
	return 0;
}

/* Written to a temporary file then renamed, so a crash never leaves half a file. */
int answer_file_save(const struct answer_set *set, const char *path)
{
	char *tmp;
	if (asprintf(&tmp, "%s.tmp.%d", path, (int)getpid()) < 0)
		return -ENOMEM;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		return -e;
	}
	FILE *f = fdopen(fd, "w");
	if (!f) {
		int e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return -e;
	}
	fprintf(f, "# Answers remembered by libwmac; see wmac.policy(5).\n");
	int ret = 0;
	for (size_t i = 0; i < set->count && ret == 0; i++) {
		const struct answer *a = &set->items[i];
		char *object = quote_token(a->object), *identity = quote_token(a->identity);
		if (!object || !identity)
			ret = -ENOMEM;
		else
			fprintf(f, "%s %s %s %s\n", wmac_decision_name(a->decision), a->permission,
				object, identity);
		free(object);
		free(identity);
	}
	if (fflush(f) != 0 || fsync(fd) != 0)
		ret = ret ? ret : -errno;
	if (fclose(f) != 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret < 0)
		unlink(tmp);
	free(tmp);
	return ret;
}
