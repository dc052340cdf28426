// SPDX-License-Identifier: MIT
// wp_security_context_manager_v1: a sandbox engine registers a listening socket with the
// identity (engine, app id, instance id) of the app it confines; every connection accepted on
// it is a sandboxed client. The global is privileged, because its user chooses the app id its
// connections carry; a sandboxed client never sees it, whatever the policy, so a sandbox
// cannot mint a second identity for itself.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../core/compositor.h"
#include "security-context.h"
#include "security-context-v1-server-protocol.h"

#define SECURITY_CONTEXT_VERSION 1
/* Each live context holds two fds and an event source; a trusted engine needs a handful. */
#define MAX_LISTENERS 128

struct context_metadata {
	char *engine, *app_id, *instance_id;
};

/* This file's state (the compositor's security_contexts). */
struct security_contexts {
	struct wl_list listeners; /* sandbox_listener.link */
	struct wl_global *global;
};

/* A committed context: lives until close_fd hangs up or garnet ends, independent of the
 * engine's connection. */
struct sandbox_listener {
	struct garnet_compositor *compositor;
	struct context_metadata metadata;
	int listen_fd, close_fd;
	struct wl_event_source *accept_source, *close_source;
	struct wl_list link; /* security_contexts.listeners */
};

/* The request object before commit. */
struct pending_context {
	struct garnet_compositor *compositor;
	struct context_metadata metadata;
	int listen_fd, close_fd;
	bool committed;
};

/* Marks a client accepted on a sandbox listener, for the lifetime of the client. */
struct sandboxed_client {
	struct wl_listener destroy;
};

static void metadata_free(struct context_metadata *m)
{
	free(m->engine);
	free(m->app_id);
	free(m->instance_id);
	*m = (struct context_metadata){0};
}

static void sandboxed_client_destroyed(struct wl_listener *listener, void *data)
{
	struct sandboxed_client *s = wl_container_of(listener, s, destroy);

	wl_list_remove(&s->destroy.link);
	free(s);
}

static bool client_is_sandboxed(const struct wl_client *client)
{
	return wl_client_get_destroy_listener((struct wl_client *)client,
					      sandboxed_client_destroyed) != NULL;
}

static void listener_destroy(struct sandbox_listener *l)
{
	wl_event_source_remove(l->accept_source);
	wl_event_source_remove(l->close_source);
	close(l->listen_fd);
	close(l->close_fd);
	metadata_free(&l->metadata);
	wl_list_remove(&l->link);
	free(l);
}

/* A client made here is marked sandboxed and handed to the security layer before it can send
 * a single request; if either fails it is dropped, never left with an ordinary identity. */
static void accept_client(struct sandbox_listener *l, int fd)
{
	struct garnet_compositor *c = l->compositor;
	struct sandboxed_client *mark = calloc(1, sizeof(*mark));
	struct wl_client *client;

	if (!mark) {
		close(fd);
		return;
	}
	client = wl_client_create(c->display, fd);
	if (!client) {
		free(mark);
		close(fd);
		return;
	}
	mark->destroy.notify = sandboxed_client_destroyed;
	wl_client_add_destroy_listener(client, &mark->destroy);
	if (c->hooks.client_sandboxed &&
	    !c->hooks.client_sandboxed(c->hooks.data, client, l->metadata.engine,
				       l->metadata.app_id, l->metadata.instance_id)) {
		garnet_log(c, GARNET_LOG_WARNING, "security",
			   "sandbox %s: cannot give a connection its identity; dropped",
			   l->metadata.engine);
		wl_client_destroy(client);
	}
}

static int on_listen_fd(int fd, uint32_t mask, void *data)
{
	struct sandbox_listener *l = data;
	int client_fd;

	if (mask & (WL_EVENT_HANGUP | WL_EVENT_ERROR)) {
		garnet_log(l->compositor, GARNET_LOG_WARNING, "security",
			   "sandbox %s: its listening socket failed; context closed",
			   l->metadata.engine);
		listener_destroy(l);
		return 0;
	}
	/* One connection per wakeup keeps a busy sandbox from monopolising the loop. */
	client_fd = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	if (client_fd >= 0)
		accept_client(l, client_fd);
	else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
		garnet_log(l->compositor, GARNET_LOG_WARNING, "security",
			   "sandbox %s: accept: %s", l->metadata.engine, strerror(errno));
	return 0;
}

static int on_close_fd(int fd, uint32_t mask, void *data)
{
	struct sandbox_listener *l = data;

	(void)fd;
	(void)mask;
	garnet_log(l->compositor, GARNET_LOG_DEBUG, "security",
		   "sandbox %s: close_fd closed; no more connections", l->metadata.engine);
	listener_destroy(l);
	return 0;
}

static struct pending_context *pending_of(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

/* Common checks of the set_* requests; false when an error was posted. */
static bool set_metadata(struct wl_resource *resource, char **field, const char *value)
{
	struct pending_context *p = pending_of(resource);

	if (p->committed) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED,
				       "the context was already committed");
		return false;
	}
	if (*field) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_SET,
				       "this metadata was already set");
		return false;
	}
	if (value[0] == '\0') {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA,
				       "empty metadata");
		return false;
	}
	*field = strdup(value);
	if (!*field) {
		wl_resource_post_no_memory(resource);
		return false;
	}
	return true;
}

static void context_set_sandbox_engine(struct wl_client *client, struct wl_resource *resource,
				       const char *name)
{
	set_metadata(resource, &pending_of(resource)->metadata.engine, name);
}

static void context_set_app_id(struct wl_client *client, struct wl_resource *resource,
			       const char *app_id)
{
	set_metadata(resource, &pending_of(resource)->metadata.app_id, app_id);
}

static void context_set_instance_id(struct wl_client *client, struct wl_resource *resource,
				    const char *instance_id)
{
	set_metadata(resource, &pending_of(resource)->metadata.instance_id, instance_id);
}

static void context_commit(struct wl_client *client, struct wl_resource *resource)
{
	struct pending_context *p = pending_of(resource);
	struct garnet_compositor *c = p->compositor;
	struct sandbox_listener *l;

	if (p->committed) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_ALREADY_USED,
				       "the context was already committed");
		return;
	}
	if (!p->metadata.engine) {
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_V1_ERROR_INVALID_METADATA,
				       "a context needs a sandbox engine name");
		return;
	}
	if (wl_list_length(&c->security_contexts->listeners) >= MAX_LISTENERS) {
		wl_client_post_implementation_error(client, "more than %d security contexts",
						    MAX_LISTENERS);
		return;
	}
	l = calloc(1, sizeof(*l));
	if (!l) {
		wl_resource_post_no_memory(resource);
		return;
	}
	l->compositor = c;
	l->listen_fd = p->listen_fd;
	l->close_fd = p->close_fd;
	l->accept_source = wl_event_loop_add_fd(c->loop, l->listen_fd, WL_EVENT_READABLE,
						on_listen_fd, l);
	/* No event asked for: epoll still reports the hangup, which is all we wait for. */
	l->close_source = wl_event_loop_add_fd(c->loop, l->close_fd, 0, on_close_fd, l);
	if (!l->accept_source || !l->close_source) {
		if (l->accept_source)
			wl_event_source_remove(l->accept_source);
		if (l->close_source)
			wl_event_source_remove(l->close_source);
		free(l);
		wl_resource_post_no_memory(resource);
		return;
	}
	l->metadata = p->metadata;
	p->metadata = (struct context_metadata){0};
	p->listen_fd = p->close_fd = -1;
	p->committed = true;
	wl_list_insert(&c->security_contexts->listeners, &l->link);
	garnet_log(c, GARNET_LOG_INFO, "security", "sandbox %s: context for app %s committed",
		   l->metadata.engine, l->metadata.app_id ? l->metadata.app_id : "(none)");
}

static const struct wp_security_context_v1_interface context_impl = {
	.destroy = garnet_resource_destroy_request,
	.set_sandbox_engine = context_set_sandbox_engine,
	.set_app_id = context_set_app_id,
	.set_instance_id = context_set_instance_id,
	.commit = context_commit,
};

static void context_resource_destroy(struct wl_resource *resource)
{
	struct pending_context *p = pending_of(resource);

	if (p->listen_fd >= 0)
		close(p->listen_fd);
	if (p->close_fd >= 0)
		close(p->close_fd);
	metadata_free(&p->metadata);
	free(p);
}

static bool is_listening_unix_socket(int fd)
{
	int listening = 0, domain = 0;
	socklen_t len = sizeof(listening);

	if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) < 0 || !listening)
		return false;
	len = sizeof(domain);
	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 && domain == AF_UNIX;
}

static void manager_create_listener(struct wl_client *client, struct wl_resource *resource,
				    uint32_t id, int32_t listen_fd, int32_t close_fd)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct pending_context *p;
	struct wl_resource *context;

	if (client_is_sandboxed(client)) {
		close(listen_fd);
		close(close_fd);
		wl_resource_post_error(resource, WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_NESTED,
				       "a sandboxed client cannot make a security context");
		return;
	}
	if (!is_listening_unix_socket(listen_fd)) {
		close(listen_fd);
		close(close_fd);
		wl_resource_post_error(resource,
				       WP_SECURITY_CONTEXT_MANAGER_V1_ERROR_INVALID_LISTEN_FD,
				       "listen_fd is not a listening Unix socket");
		return;
	}
	p = calloc(1, sizeof(*p));
	context = p ? wl_resource_create(client, &wp_security_context_v1_interface,
					 wl_resource_get_version(resource), id)
		    : NULL;
	if (!context) {
		free(p);
		close(listen_fd);
		close(close_fd);
		wl_client_post_no_memory(client);
		return;
	}
	p->compositor = c;
	p->listen_fd = listen_fd;
	p->close_fd = close_fd;
	wl_resource_set_implementation(context, &context_impl, p, context_resource_destroy);
}

static const struct wp_security_context_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.create_listener = manager_create_listener,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (client_is_sandboxed(client)) {
		wl_client_post_implementation_error(
			client, "a sandboxed client cannot bind wp_security_context_manager_v1");
		return;
	}
	if (!garnet_global_check_bind(c, client, &wp_security_context_manager_v1_interface))
		return;
	garnet_resource_create(client, &wp_security_context_manager_v1_interface, version, id,
			       &manager_impl, c, NULL);
}

bool garnet_security_context_init(struct garnet_compositor *c)
{
	struct security_contexts *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return false;
	wl_list_init(&sc->listeners);
	c->security_contexts = sc;
	sc->global = garnet_global_create(c, &wp_security_context_manager_v1_interface,
					  SECURITY_CONTEXT_VERSION, c, manager_bind, true);
	if (!sc->global)
		return false;
	/* A sandbox cannot make a sandbox (and so give itself a new app id). */
	garnet_global_hide_from(c, sc->global, client_is_sandboxed);
	return true;
}

void garnet_security_context_finish(struct garnet_compositor *c)
{
	struct sandbox_listener *l, *tmp;

	if (!c->security_contexts)
		return;
	wl_list_for_each_safe(l, tmp, &c->security_contexts->listeners, link)
		listener_destroy(l);
	free(c->security_contexts);
	c->security_contexts = NULL;
}
