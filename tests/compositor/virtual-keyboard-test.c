// SPDX-License-Identifier: MIT
// zwp_virtual_keyboard_v1 through the seat: keys reach the focused client only, after the
// virtual keyboard's keymap; the seat's keymap comes back before the next hardware key; keys
// still held when the keyboard goes are released; misuse is an error.
#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xkbcommon/xkbcommon.h>

#include "harness.h"

#include "virtual-keyboard-unstable-v1-client-protocol.h"

/* A keymap unlike the seat's ("us"), in a memfd as a client would send it; its size out. */
static int keymap_fd(struct test_context *t, const char *layout, uint32_t *size)
{
	struct xkb_context *ctx = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	struct xkb_rule_names names = {.layout = layout};
	struct xkb_keymap *keymap = xkb_keymap_new_from_names(ctx, &names, 0);
	char *text = keymap ? xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) : NULL;
	int fd = memfd_create("test-keymap", MFD_CLOEXEC);

	check(t, text && fd >= 0);
	*size = (uint32_t)strlen(text) + 1;
	check_int(t, write(fd, text, *size), ==, *size);
	free(text);
	xkb_keymap_unref(keymap);
	xkb_context_unref(ctx);
	return fd;
}

static struct zwp_virtual_keyboard_v1 *virtual_keyboard(struct client *c)
{
	uint32_t name = client_find_global(c, "zwp_virtual_keyboard_manager_v1");
	struct zwp_virtual_keyboard_manager_v1 *m;
	struct zwp_virtual_keyboard_v1 *vk;

	check(c->test, name != 0);
	m = wl_registry_bind(c->registry, name, &zwp_virtual_keyboard_manager_v1_interface, 1);
	vk = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(m, c->seat);
	zwp_virtual_keyboard_manager_v1_destroy(m);
	return vk;
}

TEST(virtual_keys_reach_the_focused_client_after_their_keymap)
{
	struct client *a = client_create(t), *b = client_create(t), *typist = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xff0000ff, NULL);
	struct client_surface *sb = surface_create_placed(b, 200, 0, 100, 100, 0xff00ff00, NULL);
	struct zwp_virtual_keyboard_v1 *vk = virtual_keyboard(typist);
	int seat_keymap, keymaps;
	uint32_t size;
	int fd = keymap_fd(t, "de", &size);

	garnet_test_activate_surface(a->garnet_test, sa->wl_surface);
	client_roundtrip(a);
	client_roundtrip(b);
	seat_keymap = a->input.keymap_size;
	keymaps = a->input.keymaps;
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
	close(fd);
	zwp_virtual_keyboard_v1_key(vk, 10, KEY_Y, WL_KEYBOARD_KEY_STATE_PRESSED);
	zwp_virtual_keyboard_v1_key(vk, 20, KEY_Y, WL_KEYBOARD_KEY_STATE_RELEASED);
	client_roundtrip(typist);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, a->input.keymaps, ==, keymaps + 1);
	check_int(t, a->input.keymap_size, ==, size);
	check_int(t, a->input.keys, ==, 2);
	check_int(t, a->input.last_key, ==, KEY_Y);
	check_int(t, b->input.keys, ==, 0);
	/* A hardware key: the seat's keymap first. */
	client_tap_key(a, KEY_A);
	client_roundtrip(a);
	check_int(t, a->input.keymaps, ==, keymaps + 2);
	check_int(t, a->input.keymap_size, ==, seat_keymap);
	check_int(t, a->input.last_key, ==, KEY_A);
	/* A key held when the virtual keyboard goes is released for it. */
	zwp_virtual_keyboard_v1_key(vk, 30, KEY_Z, WL_KEYBOARD_KEY_STATE_PRESSED);
	zwp_virtual_keyboard_v1_destroy(vk);
	client_roundtrip(typist);
	client_roundtrip(a);
	check_int(t, a->input.last_key, ==, KEY_Z);
	check_int(t, a->input.last_key_state, ==, WL_KEYBOARD_KEY_STATE_RELEASED);
	check_int(t, a->input.keymap_size, ==, seat_keymap);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(typist);
	client_destroy(b);
	client_destroy(a);
}

TEST(virtual_key_before_a_keymap_is_an_error)
{
	struct client *c = client_create(t);
	struct zwp_virtual_keyboard_v1 *vk = virtual_keyboard(c);

	zwp_virtual_keyboard_v1_key(vk, 0, KEY_A, WL_KEYBOARD_KEY_STATE_PRESSED);
	client_expect_protocol_error(c, &zwp_virtual_keyboard_v1_interface,
				     ZWP_VIRTUAL_KEYBOARD_V1_ERROR_NO_KEYMAP);
	zwp_virtual_keyboard_v1_destroy(vk);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(keymap_that_does_not_compile_is_an_error)
{
	struct client *c = client_create(t);
	struct zwp_virtual_keyboard_v1 *vk = virtual_keyboard(c);
	int fd = memfd_create("garbage", MFD_CLOEXEC);

	check_int(t, write(fd, "xkb_keymap { garbage", 20), ==, 20);
	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, 20);
	close(fd);
	client_expect_display_error(c);
	zwp_virtual_keyboard_v1_destroy(vk);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(virtual_key_state_that_is_neither_is_an_error)
{
	struct client *c = client_create(t);
	struct zwp_virtual_keyboard_v1 *vk = virtual_keyboard(c);
	uint32_t size;
	int fd = keymap_fd(t, "us", &size);

	zwp_virtual_keyboard_v1_keymap(vk, WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1, fd, size);
	close(fd);
	zwp_virtual_keyboard_v1_key(vk, 0, KEY_A, 5);
	client_expect_display_error(c);
	zwp_virtual_keyboard_v1_destroy(vk);
	client_destroy(c);
	check_compositor_serves(t);
}
