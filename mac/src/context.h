/* SPDX-License-Identifier: MIT */
/* The context's state, shared by context.c (loading), check.c (deciding) and audit.c. */
#ifndef WMAC_CONTEXT_H
#define WMAC_CONTEXT_H

#include "private.h"

struct wmac_context {
	/* Guards everything below and the caches of the subjects in the list. */
	pthread_mutex_t lock;
	struct policy *policy;
	bool loaded;
	/* Changes whenever a cached decision could change: reload, new remembered answer. */
	uint64_t stamp;
	uid_t trusted_owner;
	wmac_audit_func audit;
	void *audit_data;
	unsigned int audit_interval_ms;
	struct answer_set session_answers, forever_answers;
	char *answer_path;
	struct wmac_subject *subjects;
};

uint64_t next_stamp(void);

/* Audit records gathered under the lock and delivered after it is released. */
struct audit_item {
	struct wmac_audit_record record;
	struct policy *policy; /* keeps the rule's file name and the permission name alive */
	char object[CACHE_OBJECT_MAX + 1];
};

struct outbox {
	wmac_audit_func func;
	void *data;
	struct audit_item *items;
	size_t count, capacity;
	struct audit_item local[2];
};

void outbox_init(struct outbox *out, struct wmac_context *ctx);
void outbox_deliver(struct outbox *out);
/* Queues a record for the repetitions a cache entry has counted but not reported. */
void outbox_push_pending(struct outbox *out, struct wmac_context *ctx, struct wmac_subject *s,
			 struct cache_entry *e);
void collect_pending(struct wmac_context *ctx, struct wmac_subject *s, struct outbox *out);
void bump_stamp_locked(struct wmac_context *ctx, struct outbox *out);
void unlink_subject(struct wmac_context *ctx, struct wmac_subject *s);
uint64_t now_ms(void);

#endif
