// SPDX-License-Identifier: MIT
// One X display per security domain: its sockets (abstract and /tmp/.X11-unix/X<n>, with the
// lock file), its cookie, and its Xwayland, started at the first connection on a Wayland
// connection garnet makes itself (so garnet knows which wl_client is that server) and started
// again at the next connection after it died.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/x-server-client.h"
#include "garnet/security.h"
#include "xwayland-private.h"
#include "xwayland-core.h"
#include "../core/surface.h"

extern char **environ;

#define SOCKET_DIR "/tmp/.X11-unix"
#define MAX_DISPLAY 256
/* A server that dies this soon after starting, this many times in a row, is not started
 * again: a client that makes it crash at once must not make garnet fork without end. */
#define QUICK_DEATH_MS 2000
#define MAX_QUICK_DEATHS 5
#define DEFAULT_IDLE_TIMEOUT_MS 60000

static void server_gone(struct wl_listener *listener, void *data);
static int on_listen(int fd, uint32_t mask, void *data);

struct garnet_xwayland_domain *xwayland_domain_of_client(const struct wl_client *client)
{
	struct wl_listener *l;
	struct garnet_xwayland_domain *d;

	if (!client)
		return NULL;
	l = wl_client_get_destroy_listener((struct wl_client *)client, server_gone);
	return l ? wl_container_of(l, d, client_destroy) : NULL;
}

bool garnet_xwayland_is_server(const struct wl_client *client)
{
	return xwayland_domain_of_client(client) != NULL;
}

static void log_domain(struct garnet_xwayland_domain *d, enum garnet_log_level level,
		       const char *fmt, const char *what)
{
	garnet_log(d->xwl->compositor, level, "xwayland", "domain %s (%s): %s: %s", d->name,
		   d->display, fmt, what);
}

/* ---- the display: lock file, sockets, cookie ---- */

static bool take_lock(int n, char *path, size_t size)
{
	char pid[16];
	int fd, len;

	snprintf(path, size, "/tmp/.X%d-lock", n);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
	if (fd < 0)
		return false;
	len = snprintf(pid, sizeof(pid), "%10d\n", (int)getpid());
	if (write(fd, pid, (size_t)len) != len) {
		close(fd);
		unlink(path);
		return false;
	}
	close(fd);
	return true;
}

static int bind_socket(const char *path, bool abstract)
{
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t len = strlen(path);
	socklen_t size;
	int fd;

	if (len + 2 > sizeof(addr.sun_path))
		return -1;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (abstract) {
		memcpy(addr.sun_path + 1, path, len);
		size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + len);
	} else {
		memcpy(addr.sun_path, path, len + 1);
		size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len + 1);
		unlink(path); /* ours: we hold the display's lock */
	}
	if (bind(fd, (struct sockaddr *)&addr, size) < 0 || listen(fd, 16) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The first free display: its lock taken and both sockets bound. */
static bool open_display(struct garnet_xwayland_domain *d)
{
	mkdir(SOCKET_DIR, 01777);
	for (int n = 0; n < MAX_DISPLAY; n++) {
		if (!take_lock(n, d->lock_path, sizeof(d->lock_path)))
			continue;
		snprintf(d->socket_path, sizeof(d->socket_path), SOCKET_DIR "/X%d", n);
		d->listen_fd[0] = bind_socket(d->socket_path, true);
		if (d->listen_fd[0] < 0) {
			unlink(d->lock_path);
			continue; /* someone without a lock file holds it */
		}
		d->listen_fd[1] = bind_socket(d->socket_path, false);
		if (d->listen_fd[1] < 0) {
			close(d->listen_fd[0]);
			unlink(d->lock_path);
			continue;
		}
		d->number = n;
		snprintf(d->display, sizeof(d->display), ":%d", n);
		return true;
	}
	d->lock_path[0] = d->socket_path[0] = '\0';
	return false;
}

static bool put_field(FILE *f, const void *data, uint16_t len)
{
	unsigned char be[2] = {(unsigned char)(len >> 8), (unsigned char)len};

	return fwrite(be, 1, 2, f) == 2 && (len == 0 || fwrite(data, 1, len, f) == len);
}

/* An Xauthority file with one MIT-MAGIC-COOKIE-1 for this display (family Wild: any host
 * name), readable by the user only. The server checks it, so a process that was not given
 * the file cannot connect to the domain's display. */
static bool write_cookie(struct garnet_xwayland_domain *d)
{
	static const char name[] = "MIT-MAGIC-COOKIE-1";
	unsigned char cookie[16], wild[2] = {0xff, 0xff};
	char number[16];
	bool ok;
	FILE *f;
	int fd;

	if (getrandom(cookie, sizeof(cookie), 0) != sizeof(cookie))
		return false;
	if (snprintf(d->auth_path, sizeof(d->auth_path), "%s/xauth-%d", d->xwl->runtime_dir,
		     d->number) >= (int)sizeof(d->auth_path))
		return false;
	unlink(d->auth_path);
	fd = open(d->auth_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return false;
	}
	snprintf(number, sizeof(number), "%d", d->number);
	ok = fwrite(wild, 1, 2, f) == 2 && put_field(f, "", 0) &&
	     put_field(f, number, (uint16_t)strlen(number)) &&
	     put_field(f, name, sizeof(name) - 1) && put_field(f, cookie, sizeof(cookie));
	return fclose(f) == 0 && ok;
}

static bool listen_again(struct garnet_xwayland_domain *d)
{
	struct wl_event_loop *loop = d->xwl->compositor->loop;

	for (int i = 0; i < 2; i++) {
		if (d->listen_source[i])
			continue;
		d->listen_source[i] = wl_event_loop_add_fd(loop, d->listen_fd[i], WL_EVENT_READABLE,
							   on_listen, d);
		if (!d->listen_source[i])
			return false;
	}
	return true;
}

static void stop_listening(struct garnet_xwayland_domain *d)
{
	for (int i = 0; i < 2; i++) {
		if (d->listen_source[i])
			wl_event_source_remove(d->listen_source[i]);
		d->listen_source[i] = NULL;
	}
}

/* ---- the server ---- */

static char **server_environment(void)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(environ[i], "WAYLAND_", 8) != 0 &&
		    strncmp(environ[i], "DISPLAY=", 8) != 0 &&
		    strncmp(environ[i], "XAUTHORITY=", 11) != 0)
			env[k++] = environ[i];
	}
	env[k] = "WAYLAND_SOCKET=3";
	return env;
}

/* Child side, between fork and exec: only async-signal-safe calls. fds[] become 3.. in order
 * (moved above the targets first, so that no dup2 overwrites a source). */
static void exec_server(const char *path, char *const argv[], char **env, int *fds, int count,
			const struct rlimit *nofile)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (fork() != 0)
		_exit(0);
	setsid();
	for (int i = 0; i < count; i++) {
		fds[i] = fcntl(fds[i], F_DUPFD, 3 + count);
		if (fds[i] < 0)
			_exit(127);
	}
	for (int i = 0; i < count; i++) {
		if (dup2(fds[i], 3 + i) < 0)
			_exit(127);
	}
	close_range(3 + (unsigned int)count, ~0u, 0);
	if (nofile->rlim_cur)
		setrlimit(RLIMIT_NOFILE, nofile);
	execve(path, argv, env);
	_exit(127);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int on_ready(int fd, uint32_t mask, void *data)
{
	struct garnet_xwayland_domain *d = data;
	char buf[32];
	ssize_t n;

	(void)fd;
	(void)mask;
	/* Xwayland writes the display number, then a newline in a write of its own, once it
	 * accepts clients; closing the pipe before the newline would kill it (EPIPE). A pipe
	 * closed early means it died, which server_gone handles. */
	n = read(d->display_fd, buf, sizeof(buf));
	if ((n < 0 && errno == EAGAIN) || (n > 0 && !memchr(buf, '\n', (size_t)n)))
		return 0;
	wl_event_source_remove(d->ready_source);
	d->ready_source = NULL;
	close_fd(&d->display_fd);
	if (!d->client)
		return 0;
	d->xwm = xwm_create(d, d->wm_fd);
	d->wm_fd = -1;
	if (!d->xwm)
		log_domain(d, GARNET_LOG_ERROR, "no window manager", "its windows stay hidden");
	else
		garnet_log(d->xwl->compositor, GARNET_LOG_INFO, "xwayland",
			   "domain %s (%s): Xwayland ready", d->name, d->display);
	return 0;
}

static bool start_server(struct garnet_xwayland_domain *d)
{
	struct garnet_compositor *c = d->xwl->compositor;
	int wl[2] = {-1, -1}, wm[2] = {-1, -1}, ready[2] = {-1, -1};
	char fd_args[4][12];
	char **env = NULL;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, wl) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, wm) < 0 ||
	    pipe2(ready, O_CLOEXEC | O_NONBLOCK) < 0)
		goto err_fds;
	env = server_environment();
	if (!env)
		goto err_fds;
	for (int i = 0; i < 4; i++)
		snprintf(fd_args[i], sizeof(fd_args[i]), "%d", 4 + i);
	/* fd 3: Wayland; 4, 5: the display's sockets; 6: the window manager; 7: readiness. */
	char *argv[] = {d->xwl->xwayland_path,
			d->display,
			"-rootless",
			"-core",
			"-nolisten",
			"tcp",
			"-listenfd",
			fd_args[0],
			"-listenfd",
			fd_args[1],
			"-wm",
			fd_args[2],
			"-displayfd",
			fd_args[3],
			"-auth",
			d->auth_path,
			NULL};
	int child_fds[] = {wl[1], d->listen_fd[0], d->listen_fd[1], wm[1], ready[1]};

	d->client = wl_client_create(c->display, wl[0]);
	if (!d->client)
		goto err_fds;
	wl[0] = -1; /* the client's now */
	d->client_destroy.notify = server_gone;
	wl_client_add_destroy_listener(d->client, &d->client_destroy);
	if (!garnet_client_mark_x_server(d->client))
		goto err_client;
	/* The security layer makes the domain its subject before the server can send a
	 * request; a refusal means this server must not run at all. */
	if (c->hooks.client_xwayland &&
	    !c->hooks.client_xwayland(c->hooks.data, d->client, d->xwl->xwayland_path, d->name))
		goto err_client;
	pid = fork();
	if (pid < 0)
		goto err_client;
	if (pid == 0)
		exec_server(argv[0], argv, env, child_fds, 5, &c->nofile);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	free(env);
	close(wl[1]);
	close(wm[1]);
	close(ready[1]);
	d->wm_fd = wm[0];
	d->display_fd = ready[0];
	d->ready_source =
		wl_event_loop_add_fd(c->loop, d->display_fd, WL_EVENT_READABLE, on_ready, d);
	clock_gettime(CLOCK_MONOTONIC, &d->started);
	garnet_log(c, GARNET_LOG_INFO, "xwayland", "domain %s (%s): Xwayland started", d->name,
		   d->display);
	return true;

err_client:
	/* server_gone must not count this as a death or listen again on its own. */
	wl_list_remove(&d->client_destroy.link);
	wl_client_destroy(d->client);
	d->client = NULL;
err_fds:
	log_domain(d, GARNET_LOG_ERROR, "cannot start Xwayland", strerror(errno));
	free(env);
	close_fd(&wl[0]);
	close_fd(&wl[1]);
	close_fd(&wm[0]);
	close_fd(&wm[1]);
	close_fd(&ready[0]);
	close_fd(&ready[1]);
	return false;
}

/* The server's Wayland connection ended: it exited or crashed. Its windows go; the display
 * waits for the next client, unless the server keeps dying at once. */
static void server_gone(struct wl_listener *listener, void *data)
{
	struct garnet_xwayland_domain *d = wl_container_of(listener, d, client_destroy);
	struct timespec now;
	long ms;

	(void)data;
	wl_list_remove(&d->client_destroy.link);
	d->client = NULL;
	xwm_destroy(d->xwm);
	d->xwm = NULL;
	close_fd(&d->wm_fd);
	if (d->ready_source)
		wl_event_source_remove(d->ready_source);
	d->ready_source = NULL;
	close_fd(&d->display_fd);
	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (now.tv_sec - d->started.tv_sec) * 1000 + (now.tv_nsec - d->started.tv_nsec) / 1000000;
	d->quick_deaths = ms < QUICK_DEATH_MS ? d->quick_deaths + 1 : 0;
	if (d->quick_deaths >= MAX_QUICK_DEATHS) {
		log_domain(d, GARNET_LOG_ERROR, "Xwayland keeps dying at start",
			   "the display stays closed");
		return;
	}
	garnet_log(d->xwl->compositor, GARNET_LOG_WARNING, "xwayland",
		   "domain %s (%s): Xwayland exited; the next X client starts a new one", d->name,
		   d->display);
	if (!listen_again(d))
		log_domain(d, GARNET_LOG_ERROR, "cannot listen again", strerror(errno));
}

/* A first client knocks: the server starts and accepts it (and every later one) itself. */
static int on_listen(int fd, uint32_t mask, void *data)
{
	struct garnet_xwayland_domain *d = data;

	(void)mask;
	stop_listening(d);
	if (start_server(d))
		return 0;
	/* Turn the client away, or its pending connection would wake us again at once. */
	close_fd(&(int){accept4(fd, NULL, NULL, SOCK_CLOEXEC)});
	listen_again(d);
	return 0;
}

void xwayland_domain_lost_wm(struct garnet_xwayland_domain *d)
{
	if (!d->client)
		return;
	log_domain(d, GARNET_LOG_WARNING, "the window manager's connection ended",
		   "stopping the server; the next X client starts a new one");
	/* server_gone runs, and destroys the manager. */
	wl_client_destroy(d->client);
}

/* ---- idle private domains ---- */

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

void xwayland_domain_clients(struct garnet_xwayland_domain *d, int count)
{
	if (count > 0)
		clock_gettime(CLOCK_MONOTONIC, &d->active);
}

static void domain_destroy(struct garnet_xwayland_domain *d);

/* A private domain is closed once nothing uses it: no X client on its server, or its display
 * never used, for the idle timeout. A program that asks for domains in a loop then holds only
 * those it keeps X clients in, and display numbers come back. */
static int on_idle_check(void *data)
{
	struct garnet_xwayland_domain *d = data;
	int timeout = d->xwl->idle_timeout_ms;

	if (timeout <= 0)
		return 0;
	if (d->client && !d->xwm)
		clock_gettime(CLOCK_MONOTONIC, &d->active); /* starting */
	else if (d->xwm)
		xwm_count_clients(d->xwm); /* the answer counts at the next check */
	if (ms_since(&d->active) >= timeout) {
		log_domain(d, GARNET_LOG_INFO, "closed", "no X client for the idle timeout");
		domain_destroy(d);
		return 0;
	}
	wl_event_source_timer_update(d->idle_timer, timeout / 3 > 100 ? timeout / 3 : 100);
	return 0;
}

void garnet_xwayland_set_idle_timeout(struct garnet_xwayland *xwl, int seconds)
{
	struct garnet_xwayland_domain *d;

	xwl->idle_timeout_ms = seconds > 0 ? seconds * 1000 : 0;
	wl_list_for_each (d, &xwl->domains, link) {
		if (d->idle_timer)
			wl_event_source_timer_update(d->idle_timer, xwl->idle_timeout_ms ? 100 : 0);
	}
}

static void creator_gone(struct wl_listener *listener, void *data)
{
	struct garnet_xwayland_domain *d = wl_container_of(listener, d, creator_destroy);

	(void)data;
	wl_list_remove(&d->creator_destroy.link);
	d->creator = NULL;
}

void xwayland_domain_set_creator(struct garnet_xwayland_domain *d, struct wl_client *client)
{
	if (d->creator || !d->private_domain)
		return;
	d->creator = client;
	d->creator_destroy.notify = creator_gone;
	wl_client_add_destroy_listener(client, &d->creator_destroy);
}

int xwayland_domains_of_creator(struct garnet_xwayland *xwl, struct wl_client *client)
{
	struct garnet_xwayland_domain *d;
	int n = 0;

	wl_list_for_each (d, &xwl->domains, link)
		n += d->creator == client;
	return n;
}

/* ---- domains ---- */

static void domain_destroy(struct garnet_xwayland_domain *d)
{
	if (d->client) {
		struct wl_client *client = d->client;

		wl_list_remove(&d->client_destroy.link);
		d->client = NULL;
		xwm_destroy(d->xwm);
		wl_client_destroy(client);
	}
	if (d->ready_source)
		wl_event_source_remove(d->ready_source);
	close_fd(&d->display_fd);
	close_fd(&d->wm_fd);
	stop_listening(d);
	if (d->idle_timer)
		wl_event_source_remove(d->idle_timer);
	if (d->creator)
		wl_list_remove(&d->creator_destroy.link);
	for (int i = 0; i < 2; i++)
		close_fd(&d->listen_fd[i]);
	if (d->socket_path[0])
		unlink(d->socket_path);
	if (d->lock_path[0])
		unlink(d->lock_path);
	if (d->auth_path[0])
		unlink(d->auth_path);
	wl_list_remove(&d->link);
	free(d->name);
	free(d);
}

static struct garnet_xwayland_domain *domain_create(struct garnet_xwayland *xwl, const char *name)
{
	struct garnet_xwayland_domain *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->xwl = xwl;
	d->listen_fd[0] = d->listen_fd[1] = d->display_fd = d->wm_fd = -1;
	wl_list_insert(&xwl->domains, &d->link);
	d->name = strdup(name);
	if (!d->name || !open_display(d)) {
		garnet_log(xwl->compositor, GARNET_LOG_ERROR, "xwayland",
			   "domain %s: no free X display: %s", name, strerror(errno));
		domain_destroy(d);
		return NULL;
	}
	if (!write_cookie(d) || !listen_again(d)) {
		log_domain(d, GARNET_LOG_ERROR, "cannot set up the display", strerror(errno));
		domain_destroy(d);
		return NULL;
	}
	garnet_log(xwl->compositor, GARNET_LOG_INFO, "xwayland", "domain %s has display %s", name,
		   d->display);
	return d;
}

static struct garnet_xwayland_domain *find_domain(struct garnet_xwayland *xwl, const char *name)
{
	struct garnet_xwayland_domain *d;

	wl_list_for_each (d, &xwl->domains, link) {
		if (strcmp(d->name, name) == 0)
			return d;
	}
	return NULL;
}

/* A private domain's name is the program's with a number no other domain has: a '#' that no
 * shared domain's name may hold, so a private domain can never be one of them. */
struct garnet_xwayland_domain *garnet_xwayland_domain_get(struct garnet_xwayland *xwl,
							  const char *name, const char *program)
{
	struct garnet_xwayland_domain *d;
	char private[96];
	const char *base;

	if (name && name[0]) {
		d = find_domain(xwl, name);
		return d ? d : domain_create(xwl, name);
	}
	base = program ? strrchr(program, '/') : NULL;
	base = base ? base + 1 : program && program[0] ? program : "x11";
	snprintf(private, sizeof(private), "%.80s#%u", base, ++xwl->next_private);
	d = domain_create(xwl, private);
	if (!d)
		return NULL;
	d->private_domain = true;
	clock_gettime(CLOCK_MONOTONIC, &d->active);
	d->idle_timer = wl_event_loop_add_timer(xwl->compositor->loop, on_idle_check, d);
	if (d->idle_timer && xwl->idle_timeout_ms)
		wl_event_source_timer_update(d->idle_timer, xwl->idle_timeout_ms / 3);
	return d;
}

static bool valid_domain_name(const char *name)
{
	if (!name[0] || strlen(name) > 64)
		return false;
	for (const char *p = name; *p; p++) {
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '-' && *p != '_' && *p != '.')
			return false;
	}
	return true;
}

bool garnet_xwayland_declare_domain(struct garnet_xwayland *xwl, const char *name,
				    const char *const *programs)
{
	struct shared_domain *s;
	size_t n = 0;

	if (!valid_domain_name(name))
		return false;
	while (programs[n])
		n++;
	s = calloc(1, sizeof(*s));
	if (!s)
		return false;
	s->name = strdup(name);
	s->programs = calloc(n + 1, sizeof(*s->programs));
	if (!s->name || !s->programs)
		goto err;
	for (size_t i = 0; i < n; i++) {
		s->programs[i] = strdup(programs[i]);
		if (!s->programs[i])
			goto err;
	}
	wl_list_insert(&xwl->shared, &s->link);
	return true;
err:
	for (size_t i = 0; s->programs && s->programs[i]; i++)
		free(s->programs[i]);
	free(s->programs);
	free(s->name);
	free(s);
	return false;
}

/* Is name a shared domain garnet.ini declares? Only those may be joined by name. */
bool xwayland_is_shared_domain(struct garnet_xwayland *xwl, const char *name)
{
	struct shared_domain *s;

	wl_list_for_each (s, &xwl->shared, link) {
		if (strcmp(s->name, name) == 0)
			return true;
	}
	return false;
}

/* Only programs garnet.ini names: a domain for every Wayland program launched would leave
 * sockets behind for servers that never start. */
bool garnet_xwayland_launch_env(struct garnet_compositor *c, const char *command, char *display_var,
				size_t display_size, char *auth_var, size_t auth_size)
{
	struct garnet_xwayland *xwl = c->xwayland;
	struct garnet_xwayland_domain *d;
	struct shared_domain *s;
	char program[256];
	const char *base;
	size_t len;

	if (!xwl)
		return false;
	command += strspn(command, " \t");
	len = strcspn(command, " \t");
	if (len == 0 || len >= sizeof(program))
		return false;
	memcpy(program, command, len);
	program[len] = '\0';
	base = strrchr(program, '/');
	base = base ? base + 1 : program;
	wl_list_for_each (s, &xwl->shared, link) {
		for (char **p = s->programs; *p; p++) {
			if (strcmp(*p, base) != 0)
				continue;
			d = garnet_xwayland_domain_get(xwl, s->name, NULL);
			if (!d)
				return false;
			snprintf(display_var, display_size, "DISPLAY=%s", d->display);
			snprintf(auth_var, auth_size, "XAUTHORITY=%s", d->auth_path);
			return true;
		}
	}
	return false;
}

const char *garnet_xwayland_domain_display(struct garnet_xwayland_domain *d)
{
	return d->display;
}

const char *garnet_xwayland_domain_authority(struct garnet_xwayland_domain *d)
{
	return d->auth_path;
}

const char *garnet_xwayland_domain_name(struct garnet_xwayland_domain *d)
{
	return d->name;
}

static void on_new_surface(struct wl_listener *listener, void *data)
{
	struct garnet_surface *surface = data;
	struct garnet_xwayland_domain *d =
		xwayland_domain_of_client(wl_resource_get_client(surface->resource));

	(void)listener;
	if (d && d->xwm)
		xwm_new_surface(d->xwm, surface);
}

struct garnet_xwayland *garnet_xwayland_create(struct garnet_compositor *c,
					       const char *xwayland_path)
{
	struct garnet_xwayland *xwl = calloc(1, sizeof(*xwl));
	const char *runtime = getenv("XDG_RUNTIME_DIR");

	if (!xwl)
		return NULL;
	xwl->compositor = c;
	xwl->idle_timeout_ms = DEFAULT_IDLE_TIMEOUT_MS;
	wl_list_init(&xwl->domains);
	wl_list_init(&xwl->shared);
	xwl->xwayland_path = strdup(xwayland_path);
	if (!xwl->xwayland_path || !runtime || runtime[0] != '/') {
		garnet_log(c, GARNET_LOG_ERROR, "xwayland", "no X11 support: %s",
			   runtime ? "out of memory" : "XDG_RUNTIME_DIR is not set");
		goto err;
	}
	snprintf(xwl->runtime_dir, sizeof(xwl->runtime_dir), "%s/garnet-xwayland-%d", runtime,
		 (int)getpid());
	if (mkdir(xwl->runtime_dir, 0700) < 0 && errno != EEXIST) {
		garnet_log(c, GARNET_LOG_ERROR, "xwayland", "no X11 support: %s: %s",
			   xwl->runtime_dir, strerror(errno));
		goto err;
	}
	if (!xwayland_domain_protocol_init(xwl))
		goto err_dir;
	xwl->new_surface.notify = on_new_surface;
	wl_signal_add(&c->events.new_surface, &xwl->new_surface);
	c->xwayland = xwl;
	return xwl;
err_dir:
	rmdir(xwl->runtime_dir);
err:
	free(xwl->xwayland_path);
	free(xwl);
	return NULL;
}

void garnet_xwayland_destroy(struct garnet_xwayland *xwl)
{
	struct garnet_xwayland_domain *d, *dtmp;
	struct shared_domain *s, *stmp;

	if (!xwl)
		return;
	wl_list_for_each_safe (d, dtmp, &xwl->domains, link)
		domain_destroy(d);
	wl_list_for_each_safe (s, stmp, &xwl->shared, link) {
		for (char **p = s->programs; *p; p++)
			free(*p);
		free(s->programs);
		free(s->name);
		wl_list_remove(&s->link);
		free(s);
	}
	if (xwl->global)
		wl_global_destroy(xwl->global);
	wl_list_remove(&xwl->new_surface.link);
	rmdir(xwl->runtime_dir);
	xwl->compositor->xwayland = NULL;
	free(xwl->xwayland_path);
	free(xwl);
}
