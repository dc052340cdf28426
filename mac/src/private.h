/* SPDX-License-Identifier: MIT */
/* libwmac internals shared between its source files; nothing here is exported. */
#ifndef WMAC_PRIVATE_H
#define WMAC_PRIVATE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "wmac.h"

#define WMAC_EXPORT __attribute__((visibility("default")))

/* ---- permissions (permission.c) ---- */
enum { BUILTIN_PERMISSION_COUNT = 13 };
extern const char *const builtin_permissions[BUILTIN_PERMISSION_COUNT];
int builtin_permission_index(const char *name);
bool custom_permission_name_valid(const char *name);

/* ---- errors (error.c) ---- */
int set_error(struct wmac_error *error, int code, const char *file, unsigned int line,
	      unsigned int column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* ---- policy (policy.c, parse.c, match.c) ---- */
enum remember {
	REMEMBER_UNSANDBOXED = 0,
	REMEMBER_NEVER,
	REMEMBER_ALWAYS,
};

enum object_match {
	OBJECT_ANY = 0,
	OBJECT_EXACT,
	OBJECT_PREFIX,
};

struct rule {
	enum wmac_decision decision;
	unsigned int permission;
	enum object_match object_match;
	char *object;
	size_t object_len;
	char *exe;
	bool exe_prefix;
	size_t exe_len;
	char *launcher;
	char *engine;
	char *app_id;
	char *label;
	bool has_uid;
	uid_t uid;
	enum remember remember;
	bool remember_given;
	unsigned int subject_rank;
	unsigned int object_rank;
	const char *file;
	unsigned int line;
};

/* The rules for one permission, most specific first. */
struct rule_list {
	struct rule **rules;
	size_t count;
};

struct policy_layer {
	char *file;
	struct rule *rules;
	size_t count, capacity;
	/* Indexed by permission, built by policy_compile(). */
	struct rule_list *by_permission;
};

struct policy {
	atomic_uint refs;
	/* Permission names: the built-in ones first, then those the system policy declares. */
	char **permissions;
	size_t permission_count, permission_capacity;
	uint32_t *permission_hash_slots; /* index + 1; 0 = empty */
	size_t permission_hash_size;
	bool has_user;
	struct policy_layer system, user;
};

struct policy *policy_create(void);
struct policy *policy_ref(struct policy *policy);
void policy_unref(struct policy *policy);
int policy_add_permission(struct policy *policy, const char *name);
int policy_find_permission(const struct policy *policy, const char *name);
/* Parses text into the system (user = false) or user layer. */
int policy_parse(struct policy *policy, bool user, const char *name, const char *text, size_t len,
		 struct wmac_error *error);
int policy_compile(struct policy *policy, struct wmac_error *error);
const struct rule *policy_first_match(const struct rule_list *list,
				      const struct wmac_subject *subject, const char *object,
				      size_t object_len);
bool rule_matches_subject(const struct rule *rule, const struct wmac_subject *subject);

/* ---- subjects (subject.c, peer.c, sockdiag.c) ---- */
#define CACHE_SLOTS 64
#define CACHE_OBJECT_MAX 56

struct cache_entry {
	uint64_t stamp; /* context stamp when filled; 0 = empty */
	uint32_t hash;
	uint32_t permission;
	enum wmac_decision decision;
	const char *reason;
	const struct rule *rule;
	uint64_t last_report_ms;
	unsigned long pending;
	uint8_t object_len;
	char object[CACHE_OBJECT_MAX];
};

struct wmac_subject {
	pid_t pid;
	uid_t uid;
	gid_t gid;
	int pidfd;
	bool verified;
	bool launched;
	const char *unverified_reason;
	char *executable;
	char *entry;
	char *argv0;
	char *engine;
	char *app_id;
	char *instance_id;
	char *label;
	/* Set on first check; the context keeps a list of its subjects for audit flushes. */
	struct wmac_context *ctx;
	struct wmac_subject *prev, *next;
	struct cache_entry cache[CACHE_SLOTS];
};

struct wmac_subject *subject_alloc(void);
/* Detaches a subject from its context, delivering its pending audit counts (audit.c). */
void context_forget_subject(struct wmac_context *ctx, struct wmac_subject *subject);
/* "launcher:NAME", "sandbox:ENGINE:APP" or "exe:PATH"; NULL if answers may not be kept. */
char *subject_identity_key(const struct wmac_subject *subject);

/* The inode of the other end of a connected AF_UNIX socket, through NETLINK_SOCK_DIAG. */
int unix_peer_inode(int fd, uint64_t *peer_ino);

/*
 * Test hooks: called between resolving a peer through /proc and checking it again, so tests
 * can make a process exec or exit at the worst moment; and a switch that pretends the kernel
 * lacks SO_PEERPIDFD (as Linux before 6.5 does).
 */
extern void (*peer_resolve_hook)(pid_t pid, void *data);
extern void *peer_resolve_hook_data;
extern bool peer_pretend_no_peerpidfd;

/* ---- answers (answers.c) ---- */
struct answer {
	char *identity;
	char *permission;
	char *object;
	enum wmac_decision decision;
};

struct answer_set {
	struct answer *items;
	size_t count, capacity;
};

void answer_set_finish(struct answer_set *set);
const struct answer *answer_set_find(const struct answer_set *set, const char *identity,
				     const char *permission, const char *object);
int answer_set_put(struct answer_set *set, const char *identity, const char *permission,
		   const char *object, enum wmac_decision decision);
int answer_file_load(struct answer_set *set, const char *path, struct wmac_error *error);
int answer_text_parse(struct answer_set *set, const char *name, const char *text, size_t len,
		      struct wmac_error *error);
int answer_file_save(const struct answer_set *set, const char *path);

/* ---- text (text.c) ---- */
/* One whitespace-separated token, with "quoted" parts unquoted. */
struct token {
	char *text; /* NUL-terminated copy, owned by the caller of next_token() */
	unsigned int column;
};

struct line_reader {
	const char *text;
	size_t len, pos;
	unsigned int line;
	const char *cur;
	size_t cur_len;
	size_t col; /* offset of the next unread byte in the current line */
};

void line_reader_init(struct line_reader *reader, const char *text, size_t len);
bool line_reader_next(struct line_reader *reader);
/* Returns 1 with a token, 0 at end of line or comment, -EINVAL with *message set on error. */
int next_token(struct line_reader *reader, struct token *token, const char **message,
	       unsigned int *column);
int read_whole_file(int fd, const char *name, char **text, size_t *len, struct wmac_error *error);
uint32_t hash_string(const char *s, size_t len);
char *quote_token(const char *s);

#endif
