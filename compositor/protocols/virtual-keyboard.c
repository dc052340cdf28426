// SPDX-License-Identifier: MIT
// zwp_virtual_keyboard_manager_v1: keys a trusted client makes up (an on-screen keyboard,
// wtype launched by garnet). The manager is a privileged global, and every keyboard it makes is
// asked of the security layer (inject_keys). Keys go through the seat like hardware keys, to
// the keyboard focus only; the focused client gets the virtual keyboard's keymap first.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "../core/compositor.h"
#include "../core/seat.h"
#include "../core/sealed-memfd.h"
#include "client-protocols.h"
#include "virtual-keyboard-unstable-v1-server-protocol.h"

/* Far beyond any real keymap (a full one is ~100 KiB); bounds what a client can make garnet
 * read and parse. */
#define MAX_KEYMAP_SIZE (4u << 20)
/* Keys a client may hold down at once; released for it when it goes. */
#define MAX_HELD_KEYS 32

struct virtual_keyboard {
	struct garnet_compositor *compositor;
	struct wl_resource *resource;
	struct garnet_virtual_keys keys; /* keymap_fd -1 until a keymap came */
	uint32_t held[MAX_HELD_KEYS];
	int held_count;
};

static struct virtual_keyboard *from_resource(struct wl_resource *resource)
{
	return wl_resource_get_user_data(resource);
}

/* The client's keymap is read with pread, never mapped (a file shorter than it claims would be
 * a SIGBUS in garnet), compiled (a broken one would break the focused client, not this one),
 * and what the focused client gets is garnet's own sealed copy of it (the client could change
 * or truncate its file under the reader). Returns the sealed fd, or -1 with *why set. */
static int copy_keymap(struct garnet_compositor *c, int fd, uint32_t size, const char **why)
{
	struct xkb_keymap *keymap = NULL;
	char *text = NULL, *normal = NULL;
	struct stat st;
	size_t len;
	ssize_t got;
	int sealed = -1;

	*why = "not an xkb v1 keymap that compiles";
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)size) {
		*why = "a size larger than its file";
		return -1;
	}
	text = malloc((size_t)size + 1);
	if (!text)
		goto out;
	for (len = 0; len < size; len += (size_t)got) {
		got = pread(fd, text + len, size - len, (off_t)len);
		if (got <= 0) {
			*why = "a file that could not be read to its size";
			goto out;
		}
	}
	text[size] = '\0';
	keymap = xkb_keymap_new_from_buffer(c->seat->xkb, text, strlen(text),
					    XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS);
	if (!keymap)
		goto out;
	normal = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
	if (!normal)
		goto out;
	len = strlen(normal) + 1;
	sealed = garnet_sealed_memfd("garnet-virtual-keymap", normal, len);
	if (sealed < 0) {
		garnet_log(c, GARNET_LOG_ERROR, "seat", "sealed copy of a virtual keymap: %s",
			   strerror(errno));
		*why = "a keymap garnet had no memory to copy";
	}
out:
	free(normal);
	xkb_keymap_unref(keymap);
	free(text);
	return sealed;
}

static void vk_keymap(struct wl_client *client, struct wl_resource *resource, uint32_t format,
		      int32_t fd, uint32_t size)
{
	struct virtual_keyboard *vk = from_resource(resource);
	const char *why = "not an xkb v1 keymap";
	uint32_t sealed_size;
	int sealed = -1;

	if (format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1 && size > 0 && size <= MAX_KEYMAP_SIZE)
		sealed = copy_keymap(vk->compositor, fd, size, &why);
	close(fd);
	if (sealed < 0) {
		wl_resource_post_error(wl_client_get_object(client, 1),
				       WL_DISPLAY_ERROR_INVALID_METHOD,
				       "zwp_virtual_keyboard_v1.keymap: %s (1 to %u bytes)", why,
				       MAX_KEYMAP_SIZE);
		return;
	}
	sealed_size = (uint32_t)lseek(sealed, 0, SEEK_END);
	/* A new keymap is a new keyboard layout for the focused client. */
	garnet_seat_virtual_keyboard_gone(vk->compositor->seat, vk);
	if (vk->keys.keymap_fd >= 0)
		close(vk->keys.keymap_fd);
	vk->keys.keymap_fd = sealed;
	vk->keys.keymap_size = sealed_size;
}

static bool has_keymap(struct virtual_keyboard *vk)
{
	if (vk->keys.keymap_fd >= 0)
		return true;
	wl_resource_post_error(vk->resource, ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP,
			       "keys or modifiers before a keymap");
	return false;
}

static void note_held(struct virtual_keyboard *vk, uint32_t key, bool pressed)
{
	for (int i = 0; i < vk->held_count; i++) {
		if (vk->held[i] != key)
			continue;
		if (!pressed)
			vk->held[i] = vk->held[--vk->held_count];
		return;
	}
	if (pressed && vk->held_count < MAX_HELD_KEYS)
		vk->held[vk->held_count++] = key;
}

static void vk_key(struct wl_client *client, struct wl_resource *resource, uint32_t time,
		   uint32_t key, uint32_t state)
{
	struct virtual_keyboard *vk = from_resource(resource);
	bool pressed = state == WL_KEYBOARD_KEY_STATE_PRESSED;

	if (!has_keymap(vk))
		return;
	if (state > WL_KEYBOARD_KEY_STATE_PRESSED) {
		wl_resource_post_error(wl_client_get_object(client, 1),
				       WL_DISPLAY_ERROR_INVALID_METHOD,
				       "zwp_virtual_keyboard_v1.key: state %u is neither released "
				       "nor pressed", state);
		return;
	}
	note_held(vk, key, pressed);
	garnet_seat_virtual_key(vk->compositor->seat, &vk->keys, time, key, pressed);
}

static void vk_modifiers(struct wl_client *client, struct wl_resource *resource,
			 uint32_t depressed, uint32_t latched, uint32_t locked, uint32_t group)
{
	struct virtual_keyboard *vk = from_resource(resource);

	if (!has_keymap(vk))
		return;
	garnet_seat_virtual_modifiers(vk->compositor->seat, &vk->keys, depressed, latched, locked,
				      group);
}

static const struct zwp_virtual_keyboard_v1_interface vk_impl = {
	.keymap = vk_keymap,
	.key = vk_key,
	.modifiers = vk_modifiers,
	.destroy = garnet_resource_destroy_request,
};

/* Keys it still holds are let go, so the focused client is not left with a key down. */
static void vk_resource_destroy(struct wl_resource *resource)
{
	struct virtual_keyboard *vk = from_resource(resource);
	struct garnet_seat *seat = vk->compositor->seat;

	for (int i = 0; i < vk->held_count; i++)
		garnet_seat_virtual_key(seat, &vk->keys, garnet_now_msec(vk->compositor),
					vk->held[i], false);
	garnet_seat_virtual_keyboard_gone(seat, vk);
	if (vk->keys.keymap_fd >= 0)
		close(vk->keys.keymap_fd);
	free(vk);
}

static void manager_create(struct wl_client *client, struct wl_resource *resource,
			   struct wl_resource *seat, uint32_t id)
{
	struct garnet_compositor *c = wl_resource_get_user_data(resource);
	struct virtual_keyboard *vk;

	if (c->hooks.inject_keys && !c->hooks.inject_keys(c->hooks.data, client)) {
		wl_resource_post_error(resource, ZWP_VIRTUAL_KEYBOARD_MANAGER_V1_ERROR_UNAUTHORIZED,
				       "this client may not type as a keyboard");
		return;
	}
	vk = calloc(1, sizeof(*vk));
	if (!vk) {
		wl_client_post_no_memory(client);
		return;
	}
	vk->resource = wl_resource_create(client, &zwp_virtual_keyboard_v1_interface,
					  wl_resource_get_version(resource), id);
	if (!vk->resource) {
		free(vk);
		wl_client_post_no_memory(client);
		return;
	}
	vk->compositor = c;
	vk->keys.owner = vk;
	vk->keys.keymap_fd = -1;
	wl_resource_set_implementation(vk->resource, &vk_impl, vk, vk_resource_destroy);
}

static const struct zwp_virtual_keyboard_manager_v1_interface manager_impl = {
	.create_virtual_keyboard = manager_create,
};

static void manager_bind(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (!garnet_global_check_bind(c, client, &zwp_virtual_keyboard_manager_v1_interface))
		return;
	garnet_resource_create(client, &zwp_virtual_keyboard_manager_v1_interface, (int)version, id,
			       &manager_impl, c, NULL);
}

bool garnet_virtual_keyboard_init(struct garnet_compositor *c)
{
	return garnet_global_create(c, &zwp_virtual_keyboard_manager_v1_interface, 1, c,
				    manager_bind, true) != NULL;
}
