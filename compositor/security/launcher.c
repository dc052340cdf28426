// SPDX-License-Identifier: MIT
// The trusted launcher: starts the [launcher] entries of garnet.ini on sockets of their own,
// without a shell, each client's subject made from its launch record (the identity no other
// client can obtain), and starts them again when they exit.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wmac.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "garnet-security.h"
#include "security-private.h"

/* The absolute path of the program a word names (through PATH when it has no slash). */
static char *resolve_executable(const char *word)
{
	char candidate[PATH_MAX], resolved[PATH_MAX], *path, *dir, *save;

	if (!*word)
		return NULL;
	if (strchr(word, '/'))
		return realpath(word, resolved) && access(resolved, X_OK) == 0 ? strdup(resolved)
									     : NULL;
	path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	if (!path)
		return NULL;
	for (dir = strtok_r(path, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		int n = snprintf(candidate, sizeof(candidate), "%s/%s", dir, word);

		if (n < 0 || (size_t)n >= sizeof(candidate))
			continue;
		if (access(candidate, X_OK) == 0 && realpath(candidate, resolved)) {
			free(path);
			return strdup(resolved);
		}
	}
	free(path);
	return NULL;
}

static void free_words(char **words)
{
	if (!words)
		return;
	for (char **w = words; *w; w++)
		free(*w);
	free(words);
}

/*
 * The words of a [launcher] command, as a shell would split them but with nothing else a shell
 * does: '...' and "..." group (a backslash escapes " and \ inside "..." and any character
 * outside quotes), and ; | & $ ` * > < are ordinary characters. The command is run without a
 * shell, so what the policy trusts is the program named here and no other. NULL on an
 * unterminated quote or an empty line (why says which).
 */
static char **split_words(const char *line, const char **why)
{
	size_t len = strlen(line), count = 0;
	char **words = calloc(len / 2 + 2, sizeof(*words));
	char *word = malloc(len + 1);
	const char *p = line;

	if (!words || !word)
		goto err;
	while (*p) {
		size_t n = 0;
		bool quoted = false;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		while (*p && *p != ' ' && *p != '\t') {
			char q = *p;

			if (q == '\'' || q == '"') {
				quoted = true;
				for (p++; *p && *p != q; p++) {
					if (q == '"' && *p == '\\' && (p[1] == '"' || p[1] == '\\'))
						p++;
					word[n++] = *p;
				}
				if (!*p) {
					*why = "an unterminated quote";
					goto err;
				}
				p++;
			} else if (q == '\\' && p[1]) {
				word[n++] = p[1];
				p += 2;
			} else {
				word[n++] = *p++;
			}
		}
		if (n == 0 && !quoted)
			continue;
		word[n] = '\0';
		words[count] = strdup(word);
		if (!words[count++])
			goto err;
	}
	if (count == 0) {
		*why = "no program";
		goto err;
	}
	free(word);
	return words;
err:
	free(word);
	free_words(words);
	return NULL;
}

static bool start(struct launched *l)
{
	struct garnet_security *s = l->security;
	struct wmac_launch_record record = {
		.entry = l->entry,
		.executable = l->executable,
		.uid = getuid(),
		.gid = getgid(),
	};
	struct wmac_subject *subject;
	struct client_subject *cs;
	struct wl_client *client;

	client = garnet_compositor_spawn_client(s->compositor, l->executable, l->argv);
	if (!client)
		return false;
	/* The subject the client-created listener made names garnet (the peer of our own
	 * socketpair); the launch record replaces it. */
	cs = security_subject_of(client);
	subject = wmac_subject_from_launch(&record);
	if (!cs || !subject) {
		wmac_subject_destroy(subject);
		wl_client_destroy(client);
		return false;
	}
	wmac_subject_destroy(cs->subject);
	cs->subject = subject;
	cs->launched = l;
	l->client = client;
	return true;
}

void security_relaunch(struct launched *l)
{
	struct garnet_compositor *c = l->security->compositor;

	if (l->restarts_left <= 0) {
		garnet_log(c, GARNET_LOG_ERROR, "security",
			   "launcher %s exited and has no restarts left", l->entry);
		return;
	}
	l->restarts_left--;
	garnet_log(c, GARNET_LOG_WARNING, "security",
		   "launcher %s exited; starting it again (%d restarts left)", l->entry,
		   l->restarts_left);
	if (!start(l))
		garnet_log(c, GARNET_LOG_ERROR, "security", "launcher %s: cannot restart",
			   l->entry);
}

bool garnet_security_launch(struct garnet_security *s, const char *entry, const char *command,
			    int max_restarts, bool on_demand)
{
	struct launched *l = calloc(1, sizeof(*l));
	const char *why = "out of memory";

	if (!l)
		return false;
	l->security = s;
	l->restarts_left = max_restarts;
	l->on_demand = on_demand;
	l->entry = strdup(entry);
	l->command = strdup(command);
	l->argv = split_words(command, &why);
	wl_list_insert(s->launched.prev, &l->link);
	if (!l->entry || !l->command || !l->argv) {
		garnet_log(s->compositor, GARNET_LOG_ERROR, "security", "launcher %s: '%s': %s",
			   entry, command, why);
		return false;
	}
	/* The program run is the one resolved here, executed by this path: it is the identity
	 * recorded, whatever PATH or the file system say later. */
	l->executable = resolve_executable(l->argv[0]);
	if (!l->executable) {
		garnet_log(s->compositor, GARNET_LOG_ERROR, "security",
			   "launcher %s: no executable program '%s'", entry, l->argv[0]);
		return false;
	}

	if (on_demand)
		return true;
	if (!start(l)) {
		garnet_log(s->compositor, GARNET_LOG_ERROR, "security", "launcher %s: cannot start",
			   entry);
		return false;
	}
	garnet_log(s->compositor, GARNET_LOG_INFO, "security", "launcher %s: started %s", entry,
		   l->executable);
	return true;
}

bool garnet_security_start_on_demand(struct garnet_security *s, const char *entry)
{
	struct launched *l;

	wl_list_for_each(l, &s->launched, link) {
		if (strcmp(l->entry, entry) != 0 || !l->on_demand || !l->executable)
			continue;
		/* One at a time: a second press while it runs (a locker locking) does nothing. */
		if (l->client)
			return true;
		if (!start(l)) {
			garnet_log(s->compositor, GARNET_LOG_ERROR, "security",
				   "launcher %s: cannot start", entry);
			return false;
		}
		garnet_log(s->compositor, GARNET_LOG_INFO, "security",
			   "launcher %s: started %s on demand", entry, l->executable);
		return true;
	}
	garnet_log(s->compositor, GARNET_LOG_WARNING, "security",
		   "%s was asked for (by a binding, or a lock on idle or sleep), but garnet.ini has "
		   "no such [launcher] entry", entry);
	return false;
}

void security_launched_free_all(struct garnet_security *s)
{
	struct launched *l, *tmp;

	wl_list_for_each_safe(l, tmp, &s->launched, link) {
		wl_list_remove(&l->link);
		free(l->entry);
		free(l->command);
		free(l->executable);
		free_words(l->argv);
		free(l);
	}
}
