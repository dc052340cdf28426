// SPDX-License-Identifier: MIT
/* The wmac.policy(5) parser: one statement per line, every error with file, line and column. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define MAX_LINE 4096
#define MAX_RULES 100000
#define MAX_PERMISSIONS 4096

struct parser {
	struct policy *policy;
	struct policy_layer *layer;
	bool user;
	const char *name;
	struct line_reader reader;
	bool seen_version;
	struct wmac_error *error;
};

static int fail(struct parser *p, unsigned int column, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, unsigned int column, const char *fmt, ...)
{
	char message[sizeof(p->error->message)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	return set_error(p->error, -EINVAL, p->name, p->reader.line, column, "%s", message);
}

/* Reads the next token; *tok->text is NULL at the end of the line. */
static int take(struct parser *p, struct token *tok)
{
	const char *message = NULL;
	unsigned int column = 0;
	tok->text = NULL;
	int ret = next_token(&p->reader, tok, &message, &column);
	if (ret < 0) {
		set_error(p->error, ret, p->name, p->reader.line, column, "%s", message);
		return ret;
	}
	return 0;
}

static unsigned int end_column(struct parser *p)
{
	return (unsigned int)p->reader.cur_len + 1;
}

static int parse_version(struct parser *p, const struct token *keyword)
{
	if (p->seen_version)
		return fail(p, keyword->column, "'version' given twice");
	struct token v, extra;
	if (take(p, &v) < 0)
		return -EINVAL;
	if (!v.text)
		return fail(p, end_column(p), "missing number after 'version'");
	if (strcmp(v.text, "1") != 0) {
		int ret = fail(p, v.column,
			       "unsupported policy version '%s' (this library reads version 1)",
			       v.text);
		free(v.text);
		return ret;
	}
	free(v.text);
	if (take(p, &extra) < 0)
		return -EINVAL;
	if (extra.text) {
		int ret = fail(p, extra.column, "unexpected '%s' after 'version 1'", extra.text);
		free(extra.text);
		return ret;
	}
	p->seen_version = true;
	return 0;
}

static int parse_permission_declaration(struct parser *p, const struct token *keyword)
{
	if (p->user)
		return fail(p, keyword->column,
			    "permissions are declared in the system policy only");
	struct token name, extra;
	if (take(p, &name) < 0)
		return -EINVAL;
	if (!name.text)
		return fail(p, end_column(p), "missing name after 'permission'");
	int ret = 0;
	if (builtin_permission_index(name.text) >= 0)
		ret = fail(p, name.column, "permission '%s' is built in", name.text);
	else if (!custom_permission_name_valid(name.text))
		ret = fail(p, name.column,
			   "invalid permission name '%s' (declared permissions are lowercase "
			   "letters, digits and '-', with at least one dot: org.example.name)",
			   name.text);
	else if (policy_find_permission(p->policy, name.text) >= 0)
		ret = fail(p, name.column, "permission '%s' declared twice", name.text);
	else if (p->policy->permission_count >= MAX_PERMISSIONS)
		ret = fail(p, name.column, "too many permissions (at most %d)", MAX_PERMISSIONS);
	else if (policy_add_permission(p->policy, name.text) < 0)
		ret = set_error(p->error, -ENOMEM, p->name, p->reader.line, name.column,
				"out of memory");
	free(name.text);
	if (ret < 0)
		return ret;
	if (take(p, &extra) < 0)
		return -EINVAL;
	if (extra.text) {
		ret = fail(p, extra.column, "unexpected '%s' after the permission name",
			   extra.text);
		free(extra.text);
	}
	return ret;
}

/* "PERMISSION", "PERMISSION:OBJECT" or "PERMISSION:PREFIX*" */
static int parse_target(struct parser *p, struct rule *r, const struct token *tok)
{
	char *colon = strchr(tok->text, ':');
	if (colon)
		*colon = '\0';
	int index = policy_find_permission(p->policy, tok->text);
	if (index < 0) {
		if (tok->text[0] == '\0')
			return fail(p, tok->column, "missing permission name before ':'");
		return fail(p, tok->column, "unknown permission '%s'", tok->text);
	}
	r->permission = (unsigned int)index;
	if (!colon)
		return 0;
	const char *object = colon + 1;
	unsigned int column = tok->column + (unsigned int)(object - tok->text);
	size_t len = strlen(object);
	if (len == 0)
		return fail(p, column, "empty object after ':' (omit ':' to match any object)");
	const char *star = strchr(object, '*');
	if (star && star != object + len - 1)
		return fail(p, column + (unsigned int)(star - object),
			    "'*' is only allowed at the end of an object");
	if (star && len == 1) {
		r->object_match = OBJECT_ANY;
		return 0;
	}
	r->object = strndup(object, star ? len - 1 : len);
	if (!r->object)
		return set_error(p->error, -ENOMEM, p->name, p->reader.line, column,
				 "out of memory");
	r->object_len = strlen(r->object);
	r->object_match = star ? OBJECT_PREFIX : OBJECT_EXACT;
	r->object_rank = star ? 1 : 2;
	return 0;
}

static int set_string(struct parser *p, char **field, const char *key, const char *value,
		      unsigned int column)
{
	if (*field)
		return fail(p, column, "'%s' given twice in one rule", key);
	*field = strdup(value);
	if (!*field)
		return set_error(p->error, -ENOMEM, p->name, p->reader.line, column,
				 "out of memory");
	return 0;
}

static int parse_uid(struct parser *p, struct rule *r, const char *value, unsigned int column)
{
	if (r->has_uid)
		return fail(p, column, "'uid' given twice in one rule");
	char *end;
	errno = 0;
	unsigned long v = strtoul(value, &end, 10);
	if (value[0] < '0' || value[0] > '9' || *end || errno || v >= (unsigned long)UINT_MAX)
		return fail(p, column, "invalid uid '%s' (expected a number)", value);
	r->has_uid = true;
	r->uid = (uid_t)v;
	return 0;
}

static int parse_exe(struct parser *p, struct rule *r, const char *value, unsigned int column)
{
	if (value[0] != '/')
		return fail(p, column, "exe must be an absolute path, not '%s'", value);
	size_t len = strlen(value);
	const char *star = strchr(value, '*');
	if (star && star != value + len - 1)
		return fail(p, column + (unsigned int)(star - value),
			    "'*' is only allowed at the end of an exe path");
	if (set_string(p, &r->exe, "exe", value, column) < 0)
		return -EINVAL;
	if (star) {
		r->exe[len - 1] = '\0';
		r->exe_prefix = true;
	}
	r->exe_len = strlen(r->exe);
	return 0;
}

static int parse_remember(struct parser *p, struct rule *r, const char *value, unsigned int column)
{
	if (r->remember_given)
		return fail(p, column, "'remember' given twice in one rule");
	if (strcmp(value, "never") == 0)
		r->remember = REMEMBER_NEVER;
	else if (strcmp(value, "unsandboxed") == 0)
		r->remember = REMEMBER_UNSANDBOXED;
	else if (strcmp(value, "always") == 0)
		r->remember = REMEMBER_ALWAYS;
	else
		return fail(p, column,
			    "invalid remember value '%s' (expected never, unsandboxed or always)",
			    value);
	r->remember_given = true;
	return 0;
}

static int parse_matcher(struct parser *p, struct rule *r, const struct token *tok)
{
	char *eq = strchr(tok->text, '=');
	if (!eq)
		return fail(p, tok->column, "expected KEY=VALUE, got '%s'", tok->text);
	*eq = '\0';
	const char *key = tok->text, *value = eq + 1;
	unsigned int column = tok->column + (unsigned int)(value - tok->text);
	if (!*value)
		return fail(p, column, "empty value for '%s'", key);
	if (strcmp(key, "exe") == 0)
		return parse_exe(p, r, value, column);
	if (strcmp(key, "launcher") == 0)
		return set_string(p, &r->launcher, key, value, column);
	if (strcmp(key, "sandbox") == 0)
		return set_string(p, &r->engine, key, value, column);
	if (strcmp(key, "app-id") == 0)
		return set_string(p, &r->app_id, key, value, column);
	if (strcmp(key, "label") == 0)
		return set_string(p, &r->label, key, value, column);
	if (strcmp(key, "uid") == 0)
		return parse_uid(p, r, value, column);
	if (strcmp(key, "remember") == 0)
		return parse_remember(p, r, value, column);
	return fail(p, tok->column,
		    "unknown key '%s' (expected exe, launcher, sandbox, app-id, label, uid or "
		    "remember)",
		    key);
}

/* Checks that need the whole rule; column points at the decision keyword. */
static int check_rule(struct parser *p, struct rule *r, unsigned int column)
{
	if (r->exe && (r->engine || r->app_id))
		return fail(
			p, column,
			"exe= never matches a sandboxed subject: drop exe= or sandbox=/app-id=");
	if (r->remember_given && r->decision != WMAC_ASK)
		return fail(p, column, "remember= is only valid on ask rules");
	if (p->user && r->decision == WMAC_ALLOW)
		return fail(
			p, column,
			"a per-user policy may not grant: only deny and ask rules are accepted");
	if (p->user && r->remember_given && r->remember != REMEMBER_NEVER)
		return fail(p, column, "a per-user policy may only say remember=never");
	/* Weights: a launcher entry is the strongest identity, a uid the weakest. */
	r->subject_rank = (r->launcher ? 32 : 0) + (r->exe ? (r->exe_prefix ? 12 : 16) : 0) +
			  (r->app_id ? 16 : 0) + (r->engine ? 8 : 0) + (r->label ? 8 : 0) +
			  (r->has_uid ? 4 : 0);
	return 0;
}

static struct rule *new_rule(struct parser *p, unsigned int column)
{
	struct policy_layer *layer = p->layer;
	if (layer->count >= MAX_RULES) {
		fail(p, column, "too many rules (at most %d)", MAX_RULES);
		return NULL;
	}
	if (layer->count == layer->capacity) {
		size_t cap = layer->capacity ? layer->capacity * 2 : 64;
		struct rule *bigger = realloc(layer->rules, cap * sizeof(*bigger));
		if (!bigger) {
			set_error(p->error, -ENOMEM, p->name, p->reader.line, column,
				  "out of memory");
			return NULL;
		}
		layer->rules = bigger;
		layer->capacity = cap;
	}
	struct rule *r = &layer->rules[layer->count++];
	memset(r, 0, sizeof(*r));
	r->line = p->reader.line;
	return r;
}

static int parse_rule(struct parser *p, enum wmac_decision decision, const struct token *keyword)
{
	struct rule *r = new_rule(p, keyword->column);
	if (!r)
		return p->error ? p->error->code : -EINVAL;
	r->decision = decision;
	struct token tok;
	if (take(p, &tok) < 0)
		return -EINVAL;
	if (!tok.text)
		return fail(p, end_column(p), "missing permission after '%s'",
			    wmac_decision_name(decision));
	int ret = parse_target(p, r, &tok);
	free(tok.text);
	while (ret == 0) {
		if (take(p, &tok) < 0)
			return -EINVAL;
		if (!tok.text)
			break;
		ret = parse_matcher(p, r, &tok);
		free(tok.text);
	}
	if (ret < 0)
		return ret;
	return check_rule(p, r, keyword->column);
}

static int parse_statement(struct parser *p, const struct token *keyword)
{
	const char *k = keyword->text;
	if (strcmp(k, "version") == 0)
		return parse_version(p, keyword);
	if (!p->seen_version)
		return fail(p, keyword->column, "expected 'version 1' as the first statement");
	if (strcmp(k, "allow") == 0)
		return parse_rule(p, WMAC_ALLOW, keyword);
	if (strcmp(k, "deny") == 0)
		return parse_rule(p, WMAC_DENY, keyword);
	if (strcmp(k, "ask") == 0)
		return parse_rule(p, WMAC_ASK, keyword);
	if (strcmp(k, "permission") == 0)
		return parse_permission_declaration(p, keyword);
	return fail(p, keyword->column,
		    "unknown statement '%s' (expected allow, deny, ask, permission or version)", k);
}

int policy_parse(struct policy *policy, bool user, const char *name, const char *text, size_t len,
		 struct wmac_error *error)
{
	struct wmac_error scratch;
	struct parser p = {
		.policy = policy,
		.layer = user ? &policy->user : &policy->system,
		.user = user,
		.name = name,
		.error = error ? error : &scratch,
	};
	free(p.layer->file);
	p.layer->file = strdup(name);
	if (!p.layer->file)
		return set_error(error, -ENOMEM, name, 0, 0, "out of memory");
	if (user)
		policy->has_user = true;

	line_reader_init(&p.reader, text, len);
	while (line_reader_next(&p.reader)) {
		if (p.reader.cur_len > MAX_LINE)
			return fail(&p, MAX_LINE + 1, "line longer than %d bytes", MAX_LINE);
		struct token keyword;
		if (take(&p, &keyword) < 0)
			return p.error->code;
		if (!keyword.text)
			continue;
		int ret = parse_statement(&p, &keyword);
		free(keyword.text);
		if (ret < 0)
			return ret;
	}
	if (!p.seen_version)
		return set_error(error, -EINVAL, name, p.reader.line ? p.reader.line : 1, 1,
				 "empty policy: expected 'version 1' as the first statement");
	return 0;
}
