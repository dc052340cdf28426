// SPDX-License-Identifier: MIT
/* Does a rule apply to a subject and an object? The hot path of an uncached check. */
#include <string.h>

#include "private.h"

bool rule_matches_subject(const struct rule *r, const struct wmac_subject *s)
{
	if (r->has_uid && r->uid != s->uid)
		return false;
	if (r->launcher && (!s->launched || strcmp(r->launcher, s->entry) != 0))
		return false;
	if (r->exe) {
		/* Inside a sandbox the executable path names the sandbox's runtime, not the app. */
		if (!s->verified || !s->executable || s->engine)
			return false;
		if (r->exe_prefix ? strncmp(r->exe, s->executable, r->exe_len) != 0
				  : strcmp(r->exe, s->executable) != 0)
			return false;
	}
	if (r->engine && (!s->engine || strcmp(r->engine, s->engine) != 0))
		return false;
	if (r->app_id && (!s->app_id || strcmp(r->app_id, s->app_id) != 0))
		return false;
	if (r->label && (!s->label || strcmp(r->label, s->label) != 0))
		return false;
	return true;
}

static bool rule_matches_object(const struct rule *r, const char *object, size_t len)
{
	switch (r->object_match) {
	case OBJECT_ANY:
		return true;
	case OBJECT_EXACT:
		return r->object_len == len && memcmp(r->object, object, len) == 0;
	case OBJECT_PREFIX:
		return r->object_len <= len && memcmp(r->object, object, r->object_len) == 0;
	}
	return false;
}

const struct rule *policy_first_match(const struct rule_list *list,
				      const struct wmac_subject *subject, const char *object,
				      size_t object_len)
{
	for (size_t i = 0; i < list->count; i++) {
		const struct rule *r = list->rules[i];
		if (rule_matches_object(r, object, object_len) && rule_matches_subject(r, subject))
			return r;
	}
	return NULL;
}
