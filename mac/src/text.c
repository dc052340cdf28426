// SPDX-License-Identifier: MIT
/* Reading policy and answer files: lines, tokens with "quoted" parts, whole files. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private.h"

/* Policies are small; a limit keeps a hostile or mistaken file from eating memory. */
#define MAX_FILE_SIZE (4u << 20)

void line_reader_init(struct line_reader *reader, const char *text, size_t len)
{
	memset(reader, 0, sizeof(*reader));
	reader->text = text;
	reader->len = len;
}

bool line_reader_next(struct line_reader *reader)
{
	if (reader->pos >= reader->len)
		return false;
	const char *start = reader->text + reader->pos;
	const char *nl = memchr(start, '\n', reader->len - reader->pos);
	size_t n = nl ? (size_t)(nl - start) : reader->len - reader->pos;
	reader->cur = start;
	reader->cur_len = n;
	reader->pos += n + (nl ? 1 : 0);
	reader->line++;
	reader->col = 0;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

int next_token(struct line_reader *reader, struct token *token, const char **message,
	       unsigned int *column)
{
	const char *s = reader->cur;
	size_t n = reader->cur_len, i = reader->col;

	while (i < n && is_space(s[i]))
		i++;
	if (i >= n || s[i] == '#') {
		reader->col = n;
		return 0;
	}

	char *out = malloc(n - i + 1);
	if (!out) {
		*message = "out of memory";
		*column = (unsigned int)i + 1;
		return -ENOMEM;
	}
	size_t o = 0;
	unsigned int start = (unsigned int)i + 1;
	while (i < n && !is_space(s[i]) && s[i] != '#') {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f) {
			free(out);
			*message = "control character in policy text";
			*column = (unsigned int)i + 1;
			return -EINVAL;
		}
		if (c != '"') {
			out[o++] = s[i++];
			continue;
		}
		size_t open = i++;
		for (;;) {
			if (i >= n) {
				free(out);
				*message = "unterminated quoted string";
				*column = (unsigned int)open + 1;
				return -EINVAL;
			}
			c = (unsigned char)s[i];
			if (c == '"') {
				i++;
				break;
			}
			if (c == '\\' && i + 1 < n && (s[i + 1] == '"' || s[i + 1] == '\\'))
				i++;
			else if (c < 0x20 || c == 0x7f) {
				free(out);
				*message = "control character in policy text";
				*column = (unsigned int)i + 1;
				return -EINVAL;
			}
			out[o++] = s[i++];
		}
	}
	out[o] = '\0';
	reader->col = i;
	token->text = out;
	token->column = start;
	return 1;
}

int read_whole_file(int fd, const char *name, char **text, size_t *len, struct wmac_error *error)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return set_error(error, -errno, name, 0, 0, "cannot stat: %s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return set_error(error, -EINVAL, name, 0, 0, "not a regular file");
	if ((unsigned long long)st.st_size > MAX_FILE_SIZE)
		return set_error(error, -EFBIG, name, 0, 0, "file larger than %u bytes",
				 MAX_FILE_SIZE);

	size_t cap = (size_t)st.st_size + 1, used = 0;
	char *buf = malloc(cap);
	if (!buf)
		return set_error(error, -ENOMEM, name, 0, 0, "out of memory");
	for (;;) {
		if (used + 1 >= cap) {
			if (cap > MAX_FILE_SIZE) {
				free(buf);
				return set_error(error, -EFBIG, name, 0, 0,
						 "file larger than %u bytes", MAX_FILE_SIZE);
			}
			char *bigger = realloc(buf, cap * 2);
			if (!bigger) {
				free(buf);
				return set_error(error, -ENOMEM, name, 0, 0, "out of memory");
			}
			buf = bigger;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + used, cap - used - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			return set_error(error, -e, name, 0, 0, "cannot read: %s", strerror(e));
		}
		if (r == 0)
			break;
		used += (size_t)r;
	}
	buf[used] = '\0';
	*text = buf;
	*len = used;
	return 0;
}

/* FNV-1a: short keys, good enough spread, no table. */
uint32_t hash_string(const char *s, size_t len)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

char *quote_token(const char *s)
{
	size_t n = strlen(s);
	char *out = malloc(2 * n + 3);
	if (!out)
		return NULL;
	size_t o = 0;
	out[o++] = '"';
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			out[o++] = '\\';
		out[o++] = s[i];
	}
	out[o++] = '"';
	out[o] = '\0';
	return out;
}
