// SPDX-License-Identifier: MIT
/* A compiled policy: permission table, rules sorted by precedence, reference counting. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

static void layer_finish(struct policy_layer *layer, size_t permission_count)
{
	for (size_t i = 0; i < layer->count; i++) {
		struct rule *r = &layer->rules[i];
		free(r->object);
		free(r->exe);
		free(r->launcher);
		free(r->engine);
		free(r->app_id);
		free(r->label);
	}
	free(layer->rules);
	if (layer->by_permission) {
		for (size_t i = 0; i < permission_count; i++)
			free(layer->by_permission[i].rules);
		free(layer->by_permission);
	}
	free(layer->file);
}

struct policy *policy_create(void)
{
	struct policy *policy = calloc(1, sizeof(*policy));
	if (!policy)
		return NULL;
	atomic_init(&policy->refs, 1);
	for (int i = 0; i < BUILTIN_PERMISSION_COUNT; i++) {
		if (policy_add_permission(policy, builtin_permissions[i]) < 0) {
			policy_unref(policy);
			return NULL;
		}
	}
	return policy;
}

struct policy *policy_ref(struct policy *policy)
{
	atomic_fetch_add_explicit(&policy->refs, 1, memory_order_relaxed);
	return policy;
}

void policy_unref(struct policy *policy)
{
	if (!policy || atomic_fetch_sub_explicit(&policy->refs, 1, memory_order_acq_rel) != 1)
		return;
	layer_finish(&policy->system, policy->permission_count);
	layer_finish(&policy->user, policy->permission_count);
	for (size_t i = 0; i < policy->permission_count; i++)
		free(policy->permissions[i]);
	free(policy->permissions);
	free(policy->permission_hash_slots);
	free(policy);
}

static int rehash_permissions(struct policy *policy, size_t size)
{
	uint32_t *slots = calloc(size, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < policy->permission_count; i++) {
		const char *name = policy->permissions[i];
		size_t at = hash_string(name, strlen(name)) & (size - 1);
		while (slots[at])
			at = (at + 1) & (size - 1);
		slots[at] = (uint32_t)i + 1;
	}
	free(policy->permission_hash_slots);
	policy->permission_hash_slots = slots;
	policy->permission_hash_size = size;
	return 0;
}

int policy_add_permission(struct policy *policy, const char *name)
{
	if (policy->permission_count == policy->permission_capacity) {
		size_t cap = policy->permission_capacity ? policy->permission_capacity * 2 : 16;
		char **bigger = realloc(policy->permissions, cap * sizeof(*bigger));
		if (!bigger)
			return -ENOMEM;
		policy->permissions = bigger;
		policy->permission_capacity = cap;
	}
	char *copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	policy->permissions[policy->permission_count++] = copy;
	/* Keep the table at most half full so probes stay short; grow by doubling. */
	size_t size = policy->permission_hash_size;
	if (size >= policy->permission_count * 2) {
		size_t at = hash_string(copy, strlen(copy)) & (size - 1);
		while (policy->permission_hash_slots[at])
			at = (at + 1) & (size - 1);
		policy->permission_hash_slots[at] = (uint32_t)policy->permission_count;
		return 0;
	}
	size = size ? size : 32;
	while (size < policy->permission_count * 2)
		size *= 2;
	return rehash_permissions(policy, size);
}

int policy_find_permission(const struct policy *policy, const char *name)
{
	size_t size = policy->permission_hash_size;
	size_t at = hash_string(name, strlen(name)) & (size - 1);
	while (policy->permission_hash_slots[at]) {
		uint32_t index = policy->permission_hash_slots[at] - 1;
		if (strcmp(policy->permissions[index], name) == 0)
			return (int)index;
		at = (at + 1) & (size - 1);
	}
	return -1;
}

static int strictness(enum wmac_decision d)
{
	return d == WMAC_DENY ? 2 : d == WMAC_ASK ? 1 : 0;
}

/*
 * Precedence, documented in wmac.policy(5): the more specific subject match first, then the
 * more specific object, then the stricter decision, then the earlier line.
 */
static int compare_rules(const void *a, const void *b)
{
	const struct rule *x = *(const struct rule *const *)a;
	const struct rule *y = *(const struct rule *const *)b;
	if (x->subject_rank != y->subject_rank)
		return x->subject_rank > y->subject_rank ? -1 : 1;
	if (x->object_rank != y->object_rank)
		return x->object_rank > y->object_rank ? -1 : 1;
	if (x->object_match == OBJECT_PREFIX && y->object_match == OBJECT_PREFIX &&
	    x->object_len != y->object_len)
		return x->object_len > y->object_len ? -1 : 1;
	if (strictness(x->decision) != strictness(y->decision))
		return strictness(x->decision) > strictness(y->decision) ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int compile_layer(struct policy_layer *layer, size_t permission_count)
{
	layer->by_permission = calloc(permission_count, sizeof(*layer->by_permission));
	if (!layer->by_permission)
		return -ENOMEM;
	for (size_t i = 0; i < layer->count; i++)
		layer->by_permission[layer->rules[i].permission].count++;
	for (size_t p = 0; p < permission_count; p++) {
		struct rule_list *list = &layer->by_permission[p];
		if (list->count == 0)
			continue;
		list->rules = calloc(list->count, sizeof(*list->rules));
		if (!list->rules)
			return -ENOMEM;
		list->count = 0;
	}
	for (size_t i = 0; i < layer->count; i++) {
		struct rule *r = &layer->rules[i];
		r->file = layer->file;
		struct rule_list *list = &layer->by_permission[r->permission];
		list->rules[list->count++] = r;
	}
	for (size_t p = 0; p < permission_count; p++) {
		struct rule_list *list = &layer->by_permission[p];
		if (list->count > 1)
			qsort(list->rules, list->count, sizeof(*list->rules), compare_rules);
	}
	return 0;
}

int policy_compile(struct policy *policy, struct wmac_error *error)
{
	int ret = compile_layer(&policy->system, policy->permission_count);
	if (ret == 0)
		ret = compile_layer(&policy->user, policy->permission_count);
	if (ret < 0)
		return set_error(error, ret, policy->system.file, 0, 0, "out of memory");
	return 0;
}
