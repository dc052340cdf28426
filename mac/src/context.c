// SPDX-License-Identifier: MIT
/* The context: the active policy, atomic reloads, remembered answers. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"

/* Global so that a cache entry filled under one context can never look valid under another. */
static atomic_uint_fast64_t stamp_counter = 1;

uint64_t next_stamp(void)
{
	return atomic_fetch_add_explicit(&stamp_counter, 1, memory_order_relaxed) + 1;
}

WMAC_EXPORT struct wmac_context *wmac_context_create(void)
{
	struct wmac_context *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->policy = policy_create();
	if (!ctx->policy || policy_compile(ctx->policy, NULL) < 0 ||
	    pthread_mutex_init(&ctx->lock, NULL) != 0) {
		policy_unref(ctx->policy);
		free(ctx);
		errno = ENOMEM;
		return NULL;
	}
	ctx->stamp = next_stamp();
	return ctx;
}

WMAC_EXPORT void wmac_context_destroy(struct wmac_context *ctx)
{
	if (!ctx)
		return;
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	while (ctx->subjects) {
		struct wmac_subject *s = ctx->subjects;
		collect_pending(ctx, s, &out);
		unlink_subject(ctx, s);
	}
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
	policy_unref(ctx->policy);
	answer_set_finish(&ctx->session_answers);
	answer_set_finish(&ctx->forever_answers);
	free(ctx->answer_path);
	pthread_mutex_destroy(&ctx->lock);
	free(ctx);
}

WMAC_EXPORT void wmac_context_set_trusted_owner(struct wmac_context *ctx, uid_t uid)
{
	if (!ctx)
		return;
	pthread_mutex_lock(&ctx->lock);
	ctx->trusted_owner = uid;
	pthread_mutex_unlock(&ctx->lock);
}

/* Swaps in a compiled policy; the old one lives on until its last audit record is out. */
static void install_policy(struct wmac_context *ctx, struct policy *policy)
{
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	bump_stamp_locked(ctx, &out);
	struct policy *old = ctx->policy;
	ctx->policy = policy;
	ctx->loaded = true;
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
	policy_unref(old);
}

static int parse_text(struct policy *policy, bool user, const char *name, const char *text,
		      struct wmac_error *error)
{
	return policy_parse(policy, user, name, text, strlen(text), error);
}

WMAC_EXPORT int wmac_context_load_text(struct wmac_context *ctx, const char *system_name,
				       const char *system_text, const char *user_name,
				       const char *user_text, struct wmac_error *error)
{
	if (!ctx || !system_text)
		return set_error(error, -EINVAL, system_name, 0, 0, "no policy text given");
	struct policy *policy = policy_create();
	if (!policy)
		return set_error(error, -ENOMEM, system_name, 0, 0, "out of memory");
	int ret = parse_text(policy, false, system_name ? system_name : "(system policy)",
			     system_text, error);
	if (ret == 0 && user_text)
		ret = parse_text(policy, true, user_name ? user_name : "(user policy)", user_text,
				 error);
	if (ret == 0)
		ret = policy_compile(policy, error);
	if (ret < 0) {
		policy_unref(policy);
		return ret;
	}
	install_policy(ctx, policy);
	return 0;
}

static int read_policy_file(const char *path, bool system, uid_t trusted_owner, char **text,
			    size_t *len, struct wmac_error *error)
{
	/* O_NONBLOCK: a FIFO planted as a user policy must not hang the caller in open(). */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return set_error(error, -errno, path, 0, 0, "cannot open: %s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		int e = errno;
		close(fd);
		return set_error(error, -e, path, 0, 0, "cannot stat: %s", strerror(e));
	}
	/* Anyone who can write the system policy can grant anything: only its owner may. */
	if (system && (st.st_uid != trusted_owner || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		close(fd);
		return set_error(error, -EACCES, path, 0, 0,
				 "untrusted system policy: it must be owned by uid %u and not "
				 "writable by group or others (owner %u, mode %04o)",
				 (unsigned int)trusted_owner, (unsigned int)st.st_uid,
				 (unsigned int)(st.st_mode & 07777));
	}
	int ret = read_whole_file(fd, path, text, len, error);
	close(fd);
	return ret;
}

WMAC_EXPORT int wmac_context_load(struct wmac_context *ctx, const char *system_path,
				  const char *user_path, struct wmac_error *error)
{
	if (!ctx || !system_path)
		return set_error(error, -EINVAL, system_path, 0, 0, "no policy file given");
	pthread_mutex_lock(&ctx->lock);
	uid_t owner = ctx->trusted_owner;
	pthread_mutex_unlock(&ctx->lock);

	struct policy *policy = policy_create();
	if (!policy)
		return set_error(error, -ENOMEM, system_path, 0, 0, "out of memory");
	char *text = NULL;
	size_t len = 0;
	int ret = read_policy_file(system_path, true, owner, &text, &len, error);
	if (ret == 0)
		ret = policy_parse(policy, false, system_path, text, len, error);
	free(text);
	text = NULL;
	if (ret == 0 && user_path) {
		struct wmac_error scratch;
		ret = read_policy_file(user_path, false, owner, &text, &len, &scratch);
		if (ret == -ENOENT)
			ret = 0;
		else if (ret < 0 && error)
			*error = scratch;
		else if (ret == 0)
			ret = policy_parse(policy, true, user_path, text, len, error);
		free(text);
	}
	if (ret == 0)
		ret = policy_compile(policy, error);
	if (ret < 0) {
		policy_unref(policy);
		return ret;
	}
	install_policy(ctx, policy);
	return 0;
}

WMAC_EXPORT int wmac_context_set_answer_file(struct wmac_context *ctx, const char *path,
					     struct wmac_error *error)
{
	if (!ctx || !path)
		return set_error(error, -EINVAL, path, 0, 0, "no answer file given");
	struct answer_set loaded = {0};
	int ret = answer_file_load(&loaded, path, error);
	char *copy = strdup(path);
	if (ret == 0 && !copy)
		ret = set_error(error, -ENOMEM, path, 0, 0, "out of memory");
	if (ret < 0) {
		answer_set_finish(&loaded);
		free(copy);
		return ret;
	}
	struct outbox out;
	pthread_mutex_lock(&ctx->lock);
	outbox_init(&out, ctx);
	answer_set_finish(&ctx->forever_answers);
	ctx->forever_answers = loaded;
	free(ctx->answer_path);
	ctx->answer_path = copy;
	bump_stamp_locked(ctx, &out);
	pthread_mutex_unlock(&ctx->lock);
	outbox_deliver(&out);
	return 0;
}
