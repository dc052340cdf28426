// SPDX-License-Identifier: MIT
/* Audit delivery: every decision is reported or counted, and counts are never lost. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context.h"

uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void outbox_init(struct outbox *out, struct wmac_context *ctx)
{
	memset(out, 0, sizeof(*out));
	out->func = ctx->audit;
	out->data = ctx->audit_data;
	out->items = out->local;
	out->capacity = sizeof(out->local) / sizeof(out->local[0]);
}

static struct audit_item *outbox_add(struct outbox *out)
{
	if (out->count == out->capacity) {
		size_t cap = out->capacity * 2;
		struct audit_item *bigger = malloc(cap * sizeof(*bigger));
		if (!bigger)
			return NULL;
		memcpy(bigger, out->items, out->count * sizeof(*bigger));
		if (out->items != out->local)
			free(out->items);
		/* Records point into their own item's object buffer: re-aim them. */
		for (size_t i = 0; i < out->count; i++)
			bigger[i].record.object = bigger[i].object;
		out->items = bigger;
		out->capacity = cap;
	}
	return &out->items[out->count++];
}

void outbox_push_pending(struct outbox *out, struct wmac_context *ctx, struct wmac_subject *s,
			 struct cache_entry *e)
{
	if (e->pending == 0)
		return;
	unsigned long pending = e->pending;
	e->pending = 0;
	if (!out->func)
		return;
	struct audit_item *item = outbox_add(out);
	if (!item)
		return;
	memcpy(item->object, e->object, e->object_len);
	item->object[e->object_len] = '\0';
	item->policy = policy_ref(ctx->policy);
	item->record = (struct wmac_audit_record){
		.subject = s,
		.permission = ctx->policy->permissions[e->permission],
		.object = item->object,
		.decision = e->decision,
		.rule_file = e->rule ? e->rule->file : NULL,
		.rule_line = e->rule ? e->rule->line : 0,
		.reason = e->reason,
		.count = pending,
	};
}

void outbox_deliver(struct outbox *out)
{
	for (size_t i = 0; i < out->count; i++) {
		struct audit_item *item = &out->items[i];
		if (out->func)
			out->func(&item->record, out->data);
		policy_unref(item->policy);
	}
	if (out->items != out->local)
		free(out->items);
	out->items = out->local;
	out->count = 0;
}

void collect_pending(struct wmac_context *ctx, struct wmac_subject *s, struct outbox *out)
{
	for (size_t i = 0; i < CACHE_SLOTS; i++) {
		struct cache_entry *e = &s->cache[i];
		if (e->stamp == ctx->stamp)
			outbox_push_pending(out, ctx, s, e);
	}
}

/* Cached results die with the stamp; report what they counted first. */
void bump_stamp_locked(struct wmac_context *ctx, struct outbox *out)
{
	for (struct wmac_subject *s = ctx->subjects; s; s = s->next)
		collect_pending(ctx, s, out);
	ctx->stamp = next_stamp();
}

void unlink_subject(struct wmac_context *ctx, struct wmac_subject *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		ctx->subjects = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->prev = s->next = NULL;
	s->ctx = NULL;
}

void context_forget_subject(struct wmac_context *ctx, struct wmac_subject *s)
{
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	collect_pending(ctx, s, &out);
	unlink_subject(ctx, s);
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
}

WMAC_EXPORT void wmac_context_set_audit(struct wmac_context *ctx, wmac_audit_func func, void *data,
					unsigned int interval_ms)
{
	if (!ctx)
		return;
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	/* Counts gathered for the old callback go to the old callback. */
	outbox_init(&out, ctx);
	for (struct wmac_subject *s = ctx->subjects; s; s = s->next)
		collect_pending(ctx, s, &out);
	ctx->audit = func;
	ctx->audit_data = data;
	ctx->audit_interval_ms = interval_ms;
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
}

WMAC_EXPORT void wmac_context_flush_audit(struct wmac_context *ctx, struct wmac_subject *s)
{
	if (!ctx || !s)
		return;
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	if (s->ctx == ctx)
		collect_pending(ctx, s, &out);
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
}
