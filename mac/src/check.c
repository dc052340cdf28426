// SPDX-License-Identifier: MIT
/* Deciding: cache, system then user policy, remembered answers, and the user's answers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"

/* How many neighbouring cache slots a key may use before one is evicted. */
#define CACHE_PROBES 4

struct verdict {
	enum wmac_decision decision;
	const struct rule *rule;
	const char *reason;
	enum remember remember;
};

static int strictness(enum wmac_decision d)
{
	return d == WMAC_DENY ? 2 : d == WMAC_ASK ? 1 : 0;
}

/* What the policy files say, before remembered answers. */
static struct verdict decide(const struct policy *policy, const struct wmac_subject *s,
			     unsigned int permission, const char *object, size_t len)
{
	struct verdict v = {.decision = WMAC_DENY, .reason = "no rule matched"};
	const struct rule *sys =
		policy_first_match(&policy->system.by_permission[permission], s, object, len);
	if (!sys)
		return v;
	v = (struct verdict){sys->decision, sys, "rule", sys->remember};
	if (v.decision == WMAC_DENY || !policy->has_user)
		return v;
	/* The user's file can only tighten: the stricter of the two decisions wins. */
	const struct rule *user =
		policy_first_match(&policy->user.by_permission[permission], s, object, len);
	if (!user)
		return v;
	if (strictness(user->decision) > strictness(v.decision)) {
		v.decision = user->decision;
		v.rule = user;
		v.reason = "user policy";
	}
	if (user->remember_given)
		v.remember = REMEMBER_NEVER;
	return v;
}

static bool may_remember(const struct wmac_subject *s, enum remember remember)
{
	if (remember == REMEMBER_NEVER || !(s->verified || s->launched))
		return false;
	return !s->engine || remember == REMEMBER_ALWAYS;
}

static void apply_remembered(struct wmac_context *ctx, const struct wmac_subject *s,
			     const char *permission, const char *object, struct verdict *v)
{
	if (v->decision != WMAC_ASK || !may_remember(s, v->remember))
		return;
	char *key = subject_identity_key(s);
	if (!key)
		return;
	const struct answer *a = answer_set_find(&ctx->session_answers, key, permission, object);
	if (!a)
		a = answer_set_find(&ctx->forever_answers, key, permission, object);
	free(key);
	if (a) {
		v->decision = a->decision;
		v->reason = "remembered answer";
	}
}

static uint32_t cache_hash(unsigned int permission, const char *object, size_t len)
{
	return hash_string(object, len) ^ (permission * 0x9e3779b1u);
}

static struct cache_entry *cache_find(struct wmac_subject *s, uint64_t stamp, uint32_t hash,
				      unsigned int permission, const char *object, size_t len)
{
	for (unsigned int i = 0; i < CACHE_PROBES; i++) {
		struct cache_entry *e = &s->cache[(hash + i) & (CACHE_SLOTS - 1)];
		if (e->stamp != stamp)
			return NULL;
		if (e->hash == hash && e->permission == permission && e->object_len == len &&
		    memcmp(e->object, object, len) == 0)
			return e;
	}
	return NULL;
}

static void cache_store(struct wmac_context *ctx, struct wmac_subject *s, uint32_t hash,
			unsigned int permission, const char *object, size_t len,
			const struct verdict *v, struct outbox *out)
{
	struct cache_entry *e = NULL;
	for (unsigned int i = 0; i < CACHE_PROBES && !e; i++) {
		struct cache_entry *c = &s->cache[(hash + i) & (CACHE_SLOTS - 1)];
		if (c->stamp != ctx->stamp)
			e = c;
	}
	if (!e) {
		e = &s->cache[hash & (CACHE_SLOTS - 1)];
		outbox_push_pending(out, ctx, s, e);
	}
	*e = (struct cache_entry){
		.stamp = ctx->stamp,
		.hash = hash,
		.permission = permission,
		.decision = v->decision,
		.reason = v->reason,
		.rule = v->rule,
		.last_report_ms = now_ms(),
		.object_len = (uint8_t)len,
	};
	memcpy(e->object, object, len);
}

/* Under the lock: the verdict, and whether to report it now (false: counted in the cache). */
static bool check_locked(struct wmac_context *ctx, struct wmac_subject *s, const char *permission,
			 const char *object, size_t len, struct verdict *v, unsigned long *folded,
			 struct outbox *out)
{
	if (!ctx->loaded) {
		v->reason = "no policy";
		return true;
	}
	int p = policy_find_permission(ctx->policy, permission);
	if (p < 0) {
		v->reason = "unknown permission";
		return true;
	}
	if (!s->ctx) {
		s->ctx = ctx;
		s->next = ctx->subjects;
		if (s->next)
			s->next->prev = s;
		ctx->subjects = s;
	}
	uint32_t hash = cache_hash((unsigned int)p, object, len);
	bool cacheable = len < CACHE_OBJECT_MAX;
	struct cache_entry *e =
		cacheable ? cache_find(s, ctx->stamp, hash, (unsigned int)p, object, len) : NULL;
	if (e) {
		*v = (struct verdict){e->decision, e->rule, e->reason, REMEMBER_NEVER};
		uint64_t now = now_ms();
		if (ctx->audit_interval_ms && now - e->last_report_ms < ctx->audit_interval_ms) {
			e->pending++;
			return false;
		}
		/* Report this decision together with the repetitions counted since the last. */
		*folded = e->pending;
		e->pending = 0;
		e->last_report_ms = now;
		return true;
	}
	*v = decide(ctx->policy, s, (unsigned int)p, object, len);
	apply_remembered(ctx, s, permission, object, v);
	if (cacheable)
		cache_store(ctx, s, hash, (unsigned int)p, object, len, v, out);
	return true;
}

WMAC_EXPORT enum wmac_decision wmac_check(struct wmac_context *ctx, struct wmac_subject *s,
					  const char *permission, const char *object)
{
	if (!ctx)
		return WMAC_DENY;
	if (!object)
		object = "";
	size_t len = strlen(object);
	struct verdict v = {.decision = WMAC_DENY};
	struct outbox out;
	bool report = true;
	unsigned long folded = 0;

	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	if (!permission)
		v.reason = "invalid argument";
	else if (!s)
		v.reason = "no subject";
	else if (s->ctx && s->ctx != ctx)
		v.reason = "invalid argument";
	else
		report = check_locked(ctx, s, permission, object, len, &v, &folded, &out);
	struct policy *policy = report && out.func ? policy_ref(ctx->policy) : NULL;
	pthread_mutex_unlock(&ctx->lock);

	outbox_deliver(&out);
	if (policy) {
		struct wmac_audit_record record = {
			.subject = s,
			.permission = permission ? permission : "",
			.object = object,
			.decision = v.decision,
			.rule_file = v.rule ? v.rule->file : NULL,
			.rule_line = v.rule ? v.rule->line : 0,
			.reason = v.reason,
			.count = 1 + folded,
		};
		out.func(&record, out.data);
		policy_unref(policy);
	}
	/* Only the three defined values leave this function; anything else would be a bug. */
	return v.decision == WMAC_ALLOW || v.decision == WMAC_ASK ? v.decision : WMAC_DENY;
}

static bool printable(const char *object)
{
	for (const unsigned char *c = (const unsigned char *)object; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			return false;
	return true;
}

static int remember_answer(struct wmac_context *ctx, struct wmac_subject *s, const char *permission,
			   const char *object, enum wmac_decision answer, enum wmac_scope scope)
{
	char *key = subject_identity_key(s);
	/* An executable named with a newline must not corrupt the answer file. */
	if (!key || !printable(key)) {
		free(key);
		return -EPERM;
	}
	int ret;
	if (scope == WMAC_SCOPE_SESSION) {
		ret = answer_set_put(&ctx->session_answers, key, permission, object, answer);
	} else {
		ret = answer_set_put(&ctx->forever_answers, key, permission, object, answer);
		if (ret == 0)
			ret = answer_file_save(&ctx->forever_answers, ctx->answer_path);
		/* Whatever the disk says, the user's answer holds for this session. */
		if (ret < 0)
			answer_set_put(&ctx->session_answers, key, permission, object, answer);
	}
	free(key);
	return ret;
}

WMAC_EXPORT int wmac_answer(struct wmac_context *ctx, struct wmac_subject *s,
			    const char *permission, const char *object, enum wmac_decision answer,
			    enum wmac_scope scope)
{
	if (!ctx || !s || !permission || (answer != WMAC_ALLOW && answer != WMAC_DENY) ||
	    (scope != WMAC_SCOPE_ONCE && scope != WMAC_SCOPE_SESSION &&
	     scope != WMAC_SCOPE_FOREVER))
		return -EINVAL;
	if (!object)
		object = "";
	if (!printable(object))
		return -EINVAL;

	struct outbox out;
	int ret = 0;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	int p = ctx->loaded ? policy_find_permission(ctx->policy, permission) : -1;
	struct verdict v = {0};
	bool accepted = false;
	if (p < 0 || (s->ctx && s->ctx != ctx)) {
		ret = -EPERM;
	} else {
		v = decide(ctx->policy, s, (unsigned int)p, object, strlen(object));
		if (v.decision != WMAC_ASK)
			ret = -EPERM;
		else if (scope != WMAC_SCOPE_ONCE && !may_remember(s, v.remember))
			ret = -EPERM;
		else if (scope == WMAC_SCOPE_FOREVER && !ctx->answer_path)
			ret = -ENOENT;
	}
	accepted = ret == 0;
	if (accepted && scope != WMAC_SCOPE_ONCE) {
		ret = remember_answer(ctx, s, permission, object, answer, scope);
		bump_stamp_locked(ctx, &out);
	}
	struct policy *policy = accepted && out.func ? policy_ref(ctx->policy) : NULL;
	pthread_mutex_unlock(&ctx->lock);

	outbox_deliver(&out);
	if (policy) {
		struct wmac_audit_record record = {
			.subject = s,
			.permission = permission,
			.object = object,
			.decision = answer,
			.rule_file = v.rule ? v.rule->file : NULL,
			.rule_line = v.rule ? v.rule->line : 0,
			.reason = "user answer",
			.count = 1,
		};
		out.func(&record, out.data);
		policy_unref(policy);
	}
	return ret;
}
