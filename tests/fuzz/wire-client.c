// SPDX-License-Identifier: MIT
// The fuzzer's hand-made Wayland client: requests framed from the interfaces' own signatures,
// arguments chosen by the fuzzer's bytes, events followed just enough to know which objects
// live and what serials and tokens the server handed out.
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-protocol.h>

#include "wire-client.h"

#define MAX_MESSAGE 4096
/* Request opcodes of the core interfaces (the client header is not for a server's build). */
#define DISPLAY_SYNC 0
#define DISPLAY_GET_REGISTRY 1
#define REGISTRY_BIND 0

struct message {
	uint32_t words[MAX_MESSAGE / 4];
	size_t len; /* in words */
	int fds[4];
	int nfds;
};

void wire_client_init(struct wire_client *wc, int fd, wire_interface_lookup lookup, void *data)
{
	memset(wc, 0, sizeof(*wc));
	wc->fd = fd;
	wc->lookup = lookup;
	wc->lookup_data = data;
	wc->next_id = 2;
	wc->objects[0] = (struct wire_object){1, &wl_display_interface, 1, true};
	wc->object_count = 1;
}

void wire_client_finish(struct wire_client *wc)
{
	for (int i = 0; i < wc->file_count; i++)
		close(wc->files[i]);
	wc->file_count = 0;
	if (wc->fd >= 0)
		close(wc->fd);
	wc->fd = -1;
	wc->dead = true;
}

static struct wire_object *find_object(struct wire_client *wc, uint32_t id)
{
	for (int i = 0; i < wc->object_count; i++)
		if (wc->objects[i].id == id)
			return &wc->objects[i];
	return NULL;
}

static void forget_object(struct wire_client *wc, uint32_t id)
{
	struct wire_object *o = find_object(wc, id);

	if (o)
		*o = wc->objects[--wc->object_count];
}

static struct wire_object *add_object(struct wire_client *wc, uint32_t id,
				      const struct wl_interface *interface, uint32_t version)
{
	struct wire_object *o = find_object(wc, id);

	if (!o) {
		if (wc->object_count == WIRE_MAX_OBJECTS)
			return NULL;
		o = &wc->objects[wc->object_count++];
	}
	*o = (struct wire_object){id, interface, version, true};
	return o;
}

/* ---- sending ---- */

static void put_word(struct message *m, uint32_t w)
{
	if (m->len < MAX_MESSAGE / 4)
		m->words[m->len++] = w;
}

static void put_string(struct message *m, const char *s, size_t n)
{
	size_t words = (n + 1 + 3) / 4;

	if (!s) {
		put_word(m, 0);
		return;
	}
	if (m->len + 1 + words > MAX_MESSAGE / 4)
		return;
	put_word(m, (uint32_t)(n + 1));
	memset(&m->words[m->len], 0, words * 4);
	memcpy(&m->words[m->len], s, n);
	m->len += words;
}

static void put_array(struct message *m, const void *data, size_t n)
{
	size_t words = (n + 3) / 4;

	if (m->len + 1 + words > MAX_MESSAGE / 4)
		return;
	put_word(m, (uint32_t)n);
	memset(&m->words[m->len], 0, words * 4);
	if (n)
		memcpy(&m->words[m->len], data, n);
	m->len += words;
}

/* GARNET_FUZZ_TRACE=1 prints every request sent, to read what an input does. */
static void trace(struct wire_client *wc, const struct message *m)
{
	static int on = -1;
	const struct wire_object *o;
	uint32_t opcode = m->words[1] & 0xffff;

	if (on < 0)
		on = getenv("GARNET_FUZZ_TRACE") != NULL;
	if (!on)
		return;
	o = find_object(wc, m->words[0]);
	fprintf(stderr, "fuzz client %d: %s@%u.%s", wc->fd,
		o && o->interface ? o->interface->name : "?", m->words[0],
		o && o->interface && opcode < (uint32_t)o->interface->method_count ?
			o->interface->methods[opcode].name :
			"?");
	for (size_t i = 2; i < m->len && i < 10; i++)
		fprintf(stderr, " %d", (int32_t)m->words[i]);
	fprintf(stderr, "%s\n", m->nfds ? " +fd" : "");
}

static void send_message(struct wire_client *wc, struct message *m)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * 4)];
		struct cmsghdr align;
	} control;
	struct iovec iov = {m->words, m->len * 4};
	struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
	struct cmsghdr *cmsg;

	if (wc->dead)
		goto out;
	trace(wc, m);
	if (m->nfds > 0) {
		memset(&control, 0, sizeof(control));
		msg.msg_control = control.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)m->nfds);
		cmsg = CMSG_FIRSTHDR(&msg);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)m->nfds);
		memcpy(CMSG_DATA(cmsg), m->fds, sizeof(int) * (size_t)m->nfds);
	}
	if (sendmsg(wc->fd, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN)
		wc->dead = true;
	wc->requests++;
out:
	for (int i = 0; i < m->nfds; i++)
		close(m->fds[i]);
	m->nfds = 0;
}

static void begin_message(struct message *m, uint32_t id, uint32_t opcode)
{
	m->len = 0;
	m->nfds = 0;
	put_word(m, id);
	put_word(m, opcode);
}

static void finish_message(struct message *m)
{
	m->words[1] = (uint32_t)(m->len * 4) << 16 | (m->words[1] & 0xffff);
}

/* Remembers our end of a file handed to the server; the oldest goes when full. */
void wire_client_keep_file(struct wire_client *wc, int fd)
{
	if (wc->file_count == WIRE_MAX_FDS) {
		close(wc->files[0]);
		memmove(wc->files, wc->files + 1, sizeof(int) * (WIRE_MAX_FDS - 1));
		wc->file_count--;
	}
	wc->files[wc->file_count++] = fd;
}

/* A file for an `h` argument: memfds of the sizes pools and keymaps come in (their first
 * bytes from the fuzzer), a pipe, or a keymap the server sent us. */
static int make_fd(struct wire_client *wc, struct fuzz_input *in)
{
	static const off_t sizes[] = {0, 1, 64, 4096, 65536, 1 << 20, 4 << 20};
	uint8_t kind = take_u8(in);
	uint8_t head[64];
	size_t n;
	int fd, p[2];

	if (kind % 8 == 7) {
		if (pipe2(p, O_CLOEXEC) < 0)
			return -1;
		wire_client_keep_file(wc, p[1]);
		return p[0];
	}
	fd = memfd_create("garnet-fuzz", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, sizes[kind % 7]) < 0) {
		close(fd);
		return -1;
	}
	n = take_bytes(in, head, sizeof(head));
	if (n && pwrite(fd, head, n, 0) < 0) {
		close(fd);
		return -1;
	}
	if (kind & 0x80)
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK);
	wire_client_keep_file(wc, dup(fd));
	return fd;
}

static const struct wire_object *pick_object(struct wire_client *wc,
					     const struct wl_interface *want,
					     struct fuzz_input *in)
{
	const struct wire_object *match[WIRE_MAX_OBJECTS];
	int n = 0;

	for (int i = 0; i < wc->object_count; i++)
		if (wc->objects[i].live && (!want || wc->objects[i].interface == want))
			match[n++] = &wc->objects[i];
	return n ? match[take_below(in, (uint32_t)n)] : NULL;
}

static uint32_t object_arg(struct wire_client *wc, const struct wl_interface *want,
			   bool nullable, struct fuzz_input *in)
{
	const struct wire_object *o;
	uint8_t kind = take_u8(in);

	switch (kind % 8) {
	case 0:
		return nullable ? 0 : take_interesting(in);
	case 1:
		o = pick_object(wc, NULL, in); /* any object: maybe of the wrong interface */
		return o ? o->id : 1;
	case 2: /* an id we destroyed, or one never used */
		for (int i = 0; i < wc->object_count; i++)
			if (!wc->objects[i].live)
				return wc->objects[i].id;
		return wc->next_id + 1;
	default:
		o = pick_object(wc, want, in);
		return o ? o->id : (nullable ? 0 : 1);
	}
}

static uint32_t new_id_arg(struct wire_client *wc, const struct wl_interface *interface,
			   uint32_t version, struct fuzz_input *in)
{
	uint8_t kind = take_u8(in);
	uint32_t id;

	if (kind == 0xff)
		return wc->objects[take_below(in, (uint32_t)wc->object_count)].id; /* in use */
	if (kind == 0xfe)
		return take_interesting(in);
	id = ++wc->next_id;
	if (!add_object(wc, id, interface, version))
		return id; /* not tracked: the server may still take it */
	return id;
}

static void string_arg(struct wire_client *wc, struct message *m, bool nullable,
		       struct fuzz_input *in)
{
	static const char *const known[] = {
		"text/plain", "text/plain;charset=utf-8", "UTF8_STRING", "garnet-fuzz",
		"HEADLESS-1", "org.example.App", "xdg_wm_base",
	};
	char buf[48];
	uint8_t kind = take_u8(in);
	size_t n;

	if (kind % 8 == 0 && nullable) {
		put_string(m, NULL, 0);
	} else if (kind % 8 == 1 && wc->recent_string_count) {
		const char *s = wc->recent_strings[take_below(in, WIRE_RECENT) %
						   (wc->recent_string_count < WIRE_RECENT ?
							    wc->recent_string_count :
							    WIRE_RECENT)];
		put_string(m, s, strlen(s));
	} else if (kind % 8 == 2) {
		const char *s = known[take_below(in, sizeof(known) / sizeof(known[0]))];
		put_string(m, s, strlen(s));
	} else {
		n = take_bytes(in, buf, sizeof(buf) - 1);
		buf[n] = 0;
		put_string(m, buf, strnlen(buf, n));
	}
}

static uint32_t uint_arg(struct wire_client *wc, struct fuzz_input *in)
{
	unsigned n = wc->recent_uint_count < WIRE_RECENT ? wc->recent_uint_count : WIRE_RECENT;

	/* Serials the server sent (configure, enter, button...) so that acks and grabs can be
	 * right; the most recent one most often. */
	if (n && take_u8(in) < 96)
		return wc->recent_uints[(wc->recent_uint_count - 1 - take_below(in, n)) %
					WIRE_RECENT];
	return take_interesting(in);
}

/* The version a message needs: the digits its signature starts with. */
static uint32_t message_since(const struct wl_message *msg)
{
	uint32_t since = 0;

	for (const char *s = msg->signature; *s >= '0' && *s <= '9'; s++)
		since = since * 10 + (uint32_t)(*s - '0');
	return since ? since : 1;
}

static bool is_destructor(const struct wl_message *msg)
{
	return strstr(msg->name, "destroy") || strcmp(msg->name, "release") == 0;
}

void wire_client_fuzz_request(struct wire_client *wc, struct fuzz_input *in)
{
	static struct message m;
	const struct wire_object *target;
	const struct wl_message *msg;
	const struct wl_interface *iface;
	uint32_t opcode, target_id, version;
	int type = 0;
	bool nullable = false;
	uint8_t array[64];
	int fd;

	target = pick_object(wc, NULL, in);
	if (!target || !target->interface || !target->interface->method_count)
		return;
	iface = target->interface;
	target_id = target->id;
	version = target->version;
	opcode = take_below(in, (uint32_t)iface->method_count);
	msg = &iface->methods[opcode];
	/* Requests newer than the object are a protocol error; mostly send ones that exist. */
	if (message_since(msg) > version && take_u8(in) < 224)
		return;
	begin_message(&m, target_id, opcode);
	for (const char *s = msg->signature; *s; s++) {
		switch (*s) {
		case '?':
			nullable = true;
			continue;
		case 'i':
		case 'f':
			put_word(&m, take_interesting(in));
			break;
		case 'u':
			put_word(&m, uint_arg(wc, in));
			break;
		case 's':
			string_arg(wc, &m, nullable, in);
			break;
		case 'o':
			put_word(&m, object_arg(wc, msg->types[type], nullable, in));
			break;
		case 'n':
			put_word(&m, new_id_arg(wc, msg->types[type], version, in));
			break;
		case 'a':
			put_array(&m, array, take_bytes(in, array, sizeof(array)));
			break;
		case 'h':
			fd = make_fd(wc, in);
			if (fd >= 0 && m.nfds < 4)
				m.fds[m.nfds++] = fd;
			else if (fd >= 0)
				close(fd);
			break;
		default: /* the since-version digits */
			continue;
		}
		type++;
		nullable = false;
	}
	finish_message(&m);
	send_message(wc, &m);
	if (is_destructor(msg)) {
		struct wire_object *o = find_object(wc, target_id);
		if (o)
			o->live = false;
	}
}

void wire_client_fuzz_bind(struct wire_client *wc, struct fuzz_input *in)
{
	static struct message m;
	const struct wire_global *g;
	const struct wl_interface *interface;
	uint32_t version, id;
	uint8_t kind;

	if (!wc->global_count)
		return;
	g = &wc->globals[take_below(in, (uint32_t)wc->global_count)];
	interface = wc->lookup(wc->lookup_data, g->interface);
	kind = take_u8(in);
	version = kind < 200 ? g->version : kind < 240 ? 1 : take_interesting(in);
	id = ++wc->next_id;
	add_object(wc, id, interface, version ? version : 1);
	begin_message(&m, 2, REGISTRY_BIND);
	put_word(&m, kind == 0xff ? take_interesting(in) : g->name);
	put_string(&m, g->interface, strlen(g->interface));
	put_word(&m, version);
	put_word(&m, id);
	finish_message(&m);
	send_message(wc, &m);
}

uint32_t wire_client_call(struct wire_client *wc, uint32_t id, const char *name,
			  const uint32_t *args, int nargs, int fd)
{
	static struct message m;
	const struct wire_object *o = find_object(wc, id);
	const struct wl_message *msg = NULL;
	uint32_t opcode, made = 0;
	int type = 0, arg = 0;

	if (!o || !o->interface)
		goto fail;
	for (opcode = 0; opcode < (uint32_t)o->interface->method_count; opcode++)
		if (strcmp(o->interface->methods[opcode].name, name) == 0) {
			msg = &o->interface->methods[opcode];
			break;
		}
	if (!msg)
		goto fail;
	begin_message(&m, id, opcode);
	for (const char *s = msg->signature; *s; s++) {
		uint32_t word = arg < nargs ? args[arg] : 0;
		switch (*s) {
		case 'i':
		case 'u':
		case 'f':
		case 'o':
			put_word(&m, word);
			break;
		case 'n':
			made = ++wc->next_id;
			add_object(wc, made, msg->types[type], o->version);
			put_word(&m, made);
			break;
		case 's':
			put_string(&m, "", 0);
			break;
		case 'a':
			put_array(&m, NULL, 0);
			break;
		case 'h':
			if (fd >= 0 && m.nfds < 4) {
				m.fds[m.nfds++] = fd;
				fd = -1;
			}
			break;
		default:
			continue;
		}
		type++;
		arg++;
	}
	finish_message(&m);
	send_message(wc, &m);
	if (is_destructor(msg)) {
		struct wire_object *gone = find_object(wc, id);
		if (gone)
			gone->live = false;
	}
	return made ? made : 1;
fail:
	if (fd >= 0)
		close(fd);
	return 0;
}

uint32_t wire_client_find(struct wire_client *wc, const char *interface, struct fuzz_input *in)
{
	uint32_t found[WIRE_MAX_OBJECTS];
	uint32_t n = 0;

	for (int i = 0; i < wc->object_count; i++) {
		const struct wire_object *o = &wc->objects[i];
		if (o->live && o->interface && strcmp(o->interface->name, interface) == 0)
			found[n++] = o->id;
	}
	if (!n)
		return 0;
	if (!in || take_u8(in) < 160) {
		uint32_t newest = found[0];
		for (uint32_t i = 1; i < n; i++)
			newest = found[i] > newest ? found[i] : newest;
		return newest;
	}
	return found[take_below(in, n)];
}

uint32_t wire_client_global(struct wire_client *wc, const char *interface)
{
	static struct message m;
	uint32_t id = wire_client_find(wc, interface, NULL);
	const struct wire_global *g = NULL;

	if (id)
		return id;
	for (int i = 0; i < wc->global_count && !g; i++)
		if (strcmp(wc->globals[i].interface, interface) == 0)
			g = &wc->globals[i];
	if (!g || !wc->lookup(wc->lookup_data, interface))
		return 0;
	id = ++wc->next_id;
	add_object(wc, id, wc->lookup(wc->lookup_data, interface), g->version);
	begin_message(&m, 2, REGISTRY_BIND);
	put_word(&m, g->name);
	put_string(&m, g->interface, strlen(g->interface));
	put_word(&m, g->version);
	put_word(&m, id);
	finish_message(&m);
	send_message(wc, &m);
	return id;
}

void wire_client_start(struct wire_client *wc)
{
	static struct message m;

	add_object(wc, 2, &wl_registry_interface, 1);
	begin_message(&m, 1, DISPLAY_GET_REGISTRY);
	put_word(&m, 2);
	finish_message(&m);
	send_message(wc, &m);
	wc->next_id = 2;
}

void wire_client_send_raw(struct wire_client *wc, struct fuzz_input *in)
{
	static struct message m;
	uint8_t bytes[256];
	size_t n = take_bytes(in, bytes, sizeof(bytes));

	if (!n)
		return;
	memcpy(m.words, bytes, n);
	m.len = (n + 3) / 4;
	m.nfds = 0;
	if (take_u8(in) & 1) {
		int fd = make_fd(wc, in);
		if (fd >= 0)
			m.fds[m.nfds++] = fd;
	}
	send_message(wc, &m);
}

void wire_client_truncate_file(struct wire_client *wc, struct fuzz_input *in)
{
	static const off_t sizes[] = {0, 1, 4095, 4096};

	if (!wc->file_count)
		return;
	/* Fails on sealed files and pipes, as it would for an attacker. */
	if (ftruncate(wc->files[take_below(in, (uint32_t)wc->file_count)], sizes[take_u8(in) % 4]))
		return;
}

void wire_client_hang_up_mid_request(struct wire_client *wc)
{
	uint32_t half[2] = {1, 64u << 16 | DISPLAY_SYNC};

	if (!wc->dead && send(wc->fd, half, sizeof(half), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		wc->dead = true;
	wire_client_finish(wc);
}

/* ---- receiving ---- */

static void remember_uint(struct wire_client *wc, uint32_t v)
{
	wc->recent_uints[wc->recent_uint_count++ % WIRE_RECENT] = v;
}

static void remember_string(struct wire_client *wc, const char *s, size_t n)
{
	char *slot = wc->recent_strings[wc->recent_string_count++ % WIRE_RECENT];

	n = n < sizeof(wc->recent_strings[0]) - 1 ? n : sizeof(wc->recent_strings[0]) - 1;
	memcpy(slot, s, n);
	slot[n] = 0;
}

static void handle_registry_global(struct wire_client *wc, const uint32_t *args, size_t words)
{
	struct wire_global *g;
	uint32_t len;

	if (words < 3 || wc->global_count == WIRE_MAX_GLOBALS)
		return;
	len = args[1];
	if (len == 0 || len > sizeof(g->interface) || (len + 3) / 4 + 3 > words)
		return;
	g = &wc->globals[wc->global_count++];
	g->name = args[0];
	memcpy(g->interface, &args[2], len);
	g->interface[len - 1] = 0;
	g->version = args[2 + (len + 3) / 4];
}

static void handle_event(struct wire_client *wc, uint32_t id, uint32_t opcode,
			 const uint32_t *args, size_t words)
{
	const struct wire_object *o = find_object(wc, id);
	const struct wl_message *msg;
	size_t at = 0;
	int type = 0;

	wc->events++;
	if (id == 1 && opcode == WL_DISPLAY_ERROR) {
		wc->dead = true;
		return;
	}
	if (id == 1 && opcode == WL_DISPLAY_DELETE_ID) {
		if (words >= 1)
			forget_object(wc, args[0]);
		return;
	}
	if (!o || !o->interface || opcode >= (uint32_t)o->interface->event_count)
		return;
	if (o->interface == &wl_registry_interface && opcode == WL_REGISTRY_GLOBAL) {
		handle_registry_global(wc, args, words);
		return;
	}
	msg = &o->interface->events[opcode];
	for (const char *s = msg->signature; *s && at < words; s++) {
		switch (*s) {
		case 'u':
		case 'i':
			remember_uint(wc, args[at++]);
			break;
		case 'f':
		case 'o':
			at++;
			break;
		case 'n':
			add_object(wc, args[at++], msg->types[type], o->version);
			break;
		case 's':
		case 'a': {
			uint32_t len = args[at++];
			size_t w = ((size_t)len + 3) / 4;
			if (w > words - at)
				return;
			if (*s == 's' && len > 1)
				remember_string(wc, (const char *)&args[at], len - 1);
			at += w;
			break;
		}
		case 'h':
			break;
		default:
			continue;
		}
		type++;
	}
}

static void close_received_fds(struct msghdr *msg)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			close(fd);
		}
	}
}

void wire_client_read(struct wire_client *wc)
{
	static uint32_t buf[16384];
	union {
		char b[CMSG_SPACE(sizeof(int) * 28)];
		struct cmsghdr align;
	} control;
	size_t have = 0;

	while (!wc->dead) {
		struct iovec iov = {(char *)buf + have, sizeof(buf) - have};
		struct msghdr msg = {.msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = control.b,
				     .msg_controllen = sizeof(control.b)};
		ssize_t r = recvmsg(wc->fd, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		size_t at = 0;

		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
			wc->dead = true;
			return;
		}
		if (r < 0)
			return;
		close_received_fds(&msg);
		have += (size_t)r;
		while (have - at >= 8) {
			uint32_t id = buf[at / 4], size = buf[at / 4 + 1] >> 16;
			uint32_t opcode = buf[at / 4 + 1] & 0xffff;
			if (size < 8 || size % 4) {
				wc->dead = true; /* the server never frames like this */
				return;
			}
			if (size > have - at)
				break;
			handle_event(wc, id, opcode, &buf[at / 4 + 2], (size - 8) / 4);
			at += size;
		}
		memmove(buf, (char *)buf + at, have - at);
		have -= at;
	}
}
