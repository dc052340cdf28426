/* SPDX-License-Identifier: MIT */
/* A Wayland client that speaks the wire format by hand, for the fuzzer: it knows each of its
 * objects' interfaces (from the generated wl_interface tables, so every protocol garnet builds
 * is covered), follows the events that create, delete and name objects, and sends whatever
 * requests the fuzzer's bytes choose, well framed or not. */
#ifndef GARNET_WIRE_CLIENT_H
#define GARNET_WIRE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-util.h>

#include "fuzz-input.h"

#define WIRE_MAX_OBJECTS 192
#define WIRE_MAX_GLOBALS 64
#define WIRE_MAX_FDS 8
#define WIRE_RECENT 8

struct wire_object {
	uint32_t id;
	const struct wl_interface *interface; /* NULL: id in use, interface unknown */
	uint32_t version;
	bool live; /* false: destroyed by us, the server has not said delete_id yet */
};

struct wire_global {
	uint32_t name, version;
	char interface[64];
};

/* Interfaces of the globals as garnet advertises them, found by name. */
typedef const struct wl_interface *(*wire_interface_lookup)(void *data, const char *name);

struct wire_client {
	int fd;
	bool dead; /* the server hung up or sent an error */
	struct wire_object objects[WIRE_MAX_OBJECTS];
	int object_count;
	uint32_t next_id;
	struct wire_global globals[WIRE_MAX_GLOBALS];
	int global_count;
	/* What the server said lately: serials and tokens to send back. */
	uint32_t recent_uints[WIRE_RECENT];
	char recent_strings[WIRE_RECENT][48];
	unsigned recent_uint_count, recent_string_count;
	/* Our ends of files handed to the server (pools, keymaps), to truncate later. */
	int files[WIRE_MAX_FDS];
	int file_count;
	wire_interface_lookup lookup;
	void *lookup_data;
	uint64_t events, requests;
};

/* fd is our end of a connected socket pair. */
void wire_client_init(struct wire_client *wc, int fd, wire_interface_lookup lookup, void *data);
void wire_client_finish(struct wire_client *wc);
/* wl_display.get_registry (new id 2) and wl_display.sync, well formed. */
void wire_client_start(struct wire_client *wc);
/* Reads and follows every event waiting on the socket. */
void wire_client_read(struct wire_client *wc);
/* One request on a live object, arguments chosen by in. */
void wire_client_fuzz_request(struct wire_client *wc, struct fuzz_input *in);
/* wl_registry.bind of one advertised global, with a version chosen by in. */
void wire_client_fuzz_bind(struct wire_client *wc, struct fuzz_input *in);
/* Bytes from in, written as they are (malformed messages). */
void wire_client_send_raw(struct wire_client *wc, struct fuzz_input *in);
/* Shrinks one of the files we gave the server (a pool, a keymap) under its feet. */
void wire_client_truncate_file(struct wire_client *wc, struct fuzz_input *in);
/* A well-formed request by name on object id: args are its words in order (a new_id's word is
 * ignored: an id is made here, of the interface the signature names, and returned), strings
 * are sent empty, fd (or -1) goes with an `h`. 0 when nothing new was made or sent. */
uint32_t wire_client_call(struct wire_client *wc, uint32_t id, const char *name,
			  const uint32_t *args, int nargs, int fd);
/* The id of a live object bound to the global of that interface, bound now if need be;
 * 0 when garnet does not advertise it to this client. */
uint32_t wire_client_global(struct wire_client *wc, const char *interface);
/* A live object of that interface (the newest, or one chosen by in), or 0. */
uint32_t wire_client_find(struct wire_client *wc, const char *interface, struct fuzz_input *in);
/* Keeps a dup of a file we send, to truncate later (the oldest is closed when full). */
void wire_client_keep_file(struct wire_client *wc, int fd);
/* Half a request, then the connection closed. */
void wire_client_hang_up_mid_request(struct wire_client *wc);

#endif
