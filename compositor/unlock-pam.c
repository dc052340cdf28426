// SPDX-License-Identifier: MIT
// PAM behind garnet's own lock screen. One check at a time runs on its own thread; its answer
// comes back to the compositor's loop through an eventfd.
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <security/pam_appl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wayland-server-core.h>

#include "garnet/compositor.h"
#include "garnet/log.h"
#include "unlock-pam.h"

struct garnet_unlock_pam {
	struct garnet_compositor *compositor;
	char *service, *confdir, *user;
	int done_fd;
	struct wl_event_source *done_source;
	pthread_t thread;
	bool running;
	char *password; /* owned by the check while it runs */
	int result;
};

/* Every prompt PAM makes is answered with the password typed; messages are ignored. */
static int converse(int count, const struct pam_message **messages,
		    struct pam_response **responses, void *data)
{
	struct garnet_unlock_pam *p = data;
	struct pam_response *r = calloc((size_t)count, sizeof(*r));

	if (!r)
		return PAM_BUF_ERR;
	for (int i = 0; i < count; i++) {
		int style = messages[i]->msg_style;

		if (style != PAM_PROMPT_ECHO_OFF && style != PAM_PROMPT_ECHO_ON)
			continue;
		r[i].resp = strdup(p->password);
		if (!r[i].resp) {
			for (int j = 0; j < i; j++)
				free(r[j].resp);
			free(r);
			return PAM_BUF_ERR;
		}
	}
	*responses = r;
	return PAM_SUCCESS;
}

static void *check(void *data)
{
	struct garnet_unlock_pam *p = data;
	struct pam_conv conv = {converse, p};
	pam_handle_t *pam = NULL;
	uint64_t one = 1;
	int ret;

	ret = pam_start_confdir(p->service, p->user, &conv, p->confdir, &pam);
	if (ret == PAM_SUCCESS)
		ret = pam_authenticate(pam, 0);
	if (ret == PAM_SUCCESS)
		ret = pam_acct_mgmt(pam, 0);
	if (pam)
		pam_end(pam, ret);
	p->result = ret;
	if (write(p->done_fd, &one, sizeof(one)) != sizeof(one))
		abort(); /* the loop would wait forever */
	return NULL;
}

static void check_joined(struct garnet_unlock_pam *p)
{
	pthread_join(p->thread, NULL);
	p->running = false;
	explicit_bzero(p->password, strlen(p->password));
	free(p->password);
	p->password = NULL;
}

static int check_done(int fd, uint32_t mask, void *data)
{
	struct garnet_unlock_pam *p = data;
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0 || !p->running)
		return 0;
	check_joined(p);
	if (p->result != PAM_SUCCESS)
		garnet_log(p->compositor, GARNET_LOG_WARNING, "lock", "PAM (%s) for %s: %s",
			   p->service, p->user, pam_strerror(NULL, p->result));
	garnet_compositor_unlock_result(p->compositor, p->result == PAM_SUCCESS);
	return 0;
}

static void authenticate(void *data, const char *password)
{
	struct garnet_unlock_pam *p = data;

	if (p->running)
		return; /* the lock screen asks once at a time */
	p->password = strdup(password);
	if (!p->password) {
		garnet_compositor_unlock_result(p->compositor, false);
		return;
	}
	p->running = true;
	if (pthread_create(&p->thread, NULL, check, p) != 0) {
		p->running = false;
		free(p->password);
		p->password = NULL;
		garnet_compositor_unlock_result(p->compositor, false);
	}
}

/* Whoever may write a PAM service chooses the password that unlocks: the directory garnet.ini
 * names and the service in it must be root's and writable by root only, as /etc/pam.d is. */
static bool root_only(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

static bool confdir_is_root_only(const char *confdir, const char *service)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", confdir, service) >= (int)sizeof(path))
		return false;
	return root_only(confdir) && root_only(path);
}

struct garnet_unlock_pam *garnet_unlock_pam_create(struct garnet_compositor *c, const char *service,
						   const char *confdir)
{
	struct garnet_unlock_pam *p = calloc(1, sizeof(*p));
	struct passwd *pw = getpwuid(getuid());

	if (!p)
		return NULL;
	if (confdir && !confdir_is_root_only(confdir, service)) {
		garnet_log(c, GARNET_LOG_ERROR, "lock",
			   "no lock screen: PAM service %s/%s is not root's alone", confdir,
			   service);
		free(p);
		return NULL;
	}
	p->compositor = c;
	p->service = strdup(service);
	p->confdir = confdir ? strdup(confdir) : NULL;
	p->user = pw ? strdup(pw->pw_name) : NULL;
	p->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (!p->service || (confdir && !p->confdir) || !p->user || p->done_fd < 0)
		goto err;
	p->done_source = wl_event_loop_add_fd(garnet_compositor_get_loop(c), p->done_fd,
					      WL_EVENT_READABLE, check_done, p);
	if (!p->done_source)
		goto err;
	garnet_compositor_set_authenticator(c, authenticate, p);
	return p;

err:
	garnet_log(c, GARNET_LOG_ERROR, "lock", "no lock screen: %s",
		   !p->user ? "the user has no name" : strerror(errno));
	if (p->done_fd >= 0)
		close(p->done_fd);
	free(p->service);
	free(p->confdir);
	free(p->user);
	free(p);
	return NULL;
}

void garnet_unlock_pam_destroy(struct garnet_unlock_pam *p)
{
	if (!p)
		return;
	garnet_compositor_set_authenticator(p->compositor, NULL, NULL);
	if (p->running)
		check_joined(p);
	wl_event_source_remove(p->done_source);
	close(p->done_fd);
	free(p->service);
	free(p->confdir);
	free(p->user);
	free(p);
}
