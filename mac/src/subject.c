// SPDX-License-Identifier: MIT
/* Subjects: lifetime, attributes, launcher records, descriptions for logs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

struct wmac_subject *subject_alloc(void)
{
	struct wmac_subject *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->pidfd = -1;
	return s;
}

static void subject_free(struct wmac_subject *s)
{
	if (s->pidfd >= 0)
		close(s->pidfd);
	free(s->executable);
	free(s->entry);
	free(s->argv0);
	free(s->engine);
	free(s->app_id);
	free(s->instance_id);
	free(s->label);
	free(s);
}

WMAC_EXPORT void wmac_subject_destroy(struct wmac_subject *s)
{
	if (!s)
		return;
	if (s->ctx)
		context_forget_subject(s->ctx, s);
	subject_free(s);
}

static bool dup_optional(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return true;
	*dst = strdup(src);
	return *dst != NULL;
}

WMAC_EXPORT struct wmac_subject *wmac_subject_from_launch(const struct wmac_launch_record *record)
{
	if (!record || !record->entry || !record->entry[0] || !record->executable ||
	    record->executable[0] != '/') {
		errno = EINVAL;
		return NULL;
	}
	struct wmac_subject *s = subject_alloc();
	if (!s)
		return NULL;
	s->pid = record->pid;
	s->uid = record->uid;
	s->gid = record->gid;
	s->launched = true;
	s->verified = true;
	if (!dup_optional(&s->entry, record->entry) ||
	    !dup_optional(&s->executable, record->executable) ||
	    !dup_optional(&s->argv0, record->argv0 ? record->argv0 : record->executable)) {
		subject_free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

WMAC_EXPORT int wmac_subject_set_sandbox(struct wmac_subject *s, const char *engine,
					 const char *app_id, const char *instance_id)
{
	if (!s || !engine || !engine[0])
		return -EINVAL;
	if (s->engine)
		return -EEXIST;
	char *e = NULL, *a = NULL, *i = NULL;
	if (!dup_optional(&e, engine) || !dup_optional(&a, app_id) ||
	    !dup_optional(&i, instance_id)) {
		free(e);
		free(a);
		free(i);
		return -ENOMEM;
	}
	s->engine = e;
	s->app_id = a;
	s->instance_id = i;
	/* Cached decisions were made for an unsandboxed subject: report their counts, drop them. */
	if (s->ctx)
		wmac_context_flush_audit(s->ctx, s);
	memset(s->cache, 0, sizeof(s->cache));
	return 0;
}

char *subject_identity_key(const struct wmac_subject *s)
{
	char *key = NULL;
	int n = -1;
	if (s->engine) {
		if (s->app_id && s->app_id[0])
			n = asprintf(&key, "sandbox:%s:%s", s->engine, s->app_id);
	} else if (s->launched) {
		n = asprintf(&key, "launcher:%s", s->entry);
	} else if (s->verified && s->executable) {
		n = asprintf(&key, "exe:%s", s->executable);
	}
	return n < 0 ? NULL : key;
}

WMAC_EXPORT bool wmac_subject_is_verified(const struct wmac_subject *s)
{
	return s && s->verified;
}

WMAC_EXPORT const char *wmac_subject_get_unverified_reason(const struct wmac_subject *s)
{
	if (!s)
		return "no subject";
	return s->verified ? NULL : s->unverified_reason;
}

WMAC_EXPORT bool wmac_subject_is_launched(const struct wmac_subject *s)
{
	return s && s->launched;
}

WMAC_EXPORT pid_t wmac_subject_get_pid(const struct wmac_subject *s)
{
	return s ? s->pid : 0;
}

WMAC_EXPORT uid_t wmac_subject_get_uid(const struct wmac_subject *s)
{
	return s ? s->uid : (uid_t)-1;
}

WMAC_EXPORT gid_t wmac_subject_get_gid(const struct wmac_subject *s)
{
	return s ? s->gid : (gid_t)-1;
}

WMAC_EXPORT int wmac_subject_get_pidfd(const struct wmac_subject *s)
{
	return s ? s->pidfd : -1;
}

WMAC_EXPORT const char *wmac_subject_get_executable(const struct wmac_subject *s)
{
	return s && s->verified ? s->executable : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_launcher_entry(const struct wmac_subject *s)
{
	return s ? s->entry : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_argv0(const struct wmac_subject *s)
{
	return s ? s->argv0 : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_sandbox_engine(const struct wmac_subject *s)
{
	return s ? s->engine : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_app_id(const struct wmac_subject *s)
{
	return s ? s->app_id : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_instance_id(const struct wmac_subject *s)
{
	return s ? s->instance_id : NULL;
}

WMAC_EXPORT const char *wmac_subject_get_lsm_label(const struct wmac_subject *s)
{
	return s ? s->label : NULL;
}

WMAC_EXPORT int wmac_subject_describe(const struct wmac_subject *s, char *buf, size_t size)
{
	if (!s)
		return snprintf(buf, size, "(no subject)");
	char sandbox[256] = "";
	if (s->engine)
		snprintf(sandbox, sizeof(sandbox), " sandbox %s app %s", s->engine,
			 s->app_id ? s->app_id : "?");
	if (s->launched)
		return snprintf(buf, size, "pid %d uid %u launcher %s exe %s%s", (int)s->pid,
				(unsigned int)s->uid, s->entry, s->executable, sandbox);
	if (!s->verified)
		return snprintf(buf, size, "pid %d uid %u%s (unverified: %s)", (int)s->pid,
				(unsigned int)s->uid, sandbox, s->unverified_reason);
	return snprintf(buf, size, "pid %d uid %u exe %s%s", (int)s->pid, (unsigned int)s->uid,
			s->executable, sandbox);
}
