// SPDX-License-Identifier: MIT
// Scenes for the wire fuzzer: each a short, valid sequence of requests, its sizes and targets
// still chosen by the fuzzer's bytes.
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "wire-scenes.h"

#define CALL(wc, id, name, ...)                                                                    \
	wire_client_call(wc, id, name, (const uint32_t[]){__VA_ARGS__},                          \
			 sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t), -1)

/* wl_compositor.create_surface, then xdg_surface and xdg_toplevel, then the initial commit. */
static void window(struct wire_client *wc, struct fuzz_input *in)
{
	uint32_t compositor = wire_client_global(wc, "wl_compositor");
	uint32_t wm_base = wire_client_global(wc, "xdg_wm_base");
	uint32_t surface, xdg_surface;

	if (!compositor || !wm_base)
		return;
	surface = CALL(wc, compositor, "create_surface", 0);
	xdg_surface = CALL(wc, wm_base, "get_xdg_surface", 0, surface);
	CALL(wc, xdg_surface, "get_toplevel", 0);
	if (take_u8(in) & 1)
		CALL(wc, xdg_surface, "set_window_geometry", take_interesting(in),
		     take_interesting(in), take_interesting(in), take_interesting(in));
	CALL(wc, surface, "commit", 0);
}

/* A buffer of a size the fuzzer picks, from a pool of its own, attached and damaged. */
static void attach_buffer(struct wire_client *wc, uint32_t surface, struct fuzz_input *in)
{
	uint32_t shm = wire_client_global(wc, "wl_shm");
	uint32_t width = 1 + take_below(in, 96), height = 1 + take_below(in, 96);
	uint32_t size = width * height * 4, pool, buffer;
	int fd;

	if (!shm)
		return;
	fd = memfd_create("garnet-fuzz-pool", MFD_CLOEXEC);
	if (fd < 0)
		return;
	if (ftruncate(fd, size) < 0) {
		close(fd);
		return;
	}
	wire_client_keep_file(wc, dup(fd));
	pool = wire_client_call(wc, shm, "create_pool", (const uint32_t[]){0, 0, size}, 3, fd);
	buffer = CALL(wc, pool, "create_buffer", 0, 0, width, height, width * 4,
		      take_u8(in) & 1);
	if (take_u8(in) & 1)
		CALL(wc, pool, "destroy", 0);
	CALL(wc, surface, "attach", buffer, take_below(in, 3) - 1, take_below(in, 3) - 1);
	CALL(wc, surface, "damage_buffer", 0, 0, 0x7fffffff, 0x7fffffff);
}

/* Acks the newest configure and shows a buffer: the window maps. */
static void show(struct wire_client *wc, struct fuzz_input *in)
{
	uint32_t xdg_surface = wire_client_find(wc, "xdg_surface", in);
	uint32_t surface = wire_client_find(wc, "wl_surface", in);
	unsigned n = wc->recent_uint_count;

	if (!surface)
		return;
	if (xdg_surface && n)
		CALL(wc, xdg_surface, "ack_configure", wc->recent_uints[(n - 1) % WIRE_RECENT]);
	attach_buffer(wc, surface, in);
	if (take_u8(in) & 1)
		CALL(wc, surface, "frame", 0);
	CALL(wc, surface, "commit", 0);
}

/* A new surface made a subsurface of an existing one, with a buffer. */
static void subsurface(struct wire_client *wc, struct fuzz_input *in)
{
	uint32_t compositor = wire_client_global(wc, "wl_compositor");
	uint32_t subcompositor = wire_client_global(wc, "wl_subcompositor");
	uint32_t parent = wire_client_find(wc, "wl_surface", in);
	uint32_t surface, sub;

	if (!compositor || !subcompositor || !parent)
		return;
	surface = CALL(wc, compositor, "create_surface", 0);
	sub = CALL(wc, subcompositor, "get_subsurface", 0, surface, parent);
	CALL(wc, sub, "set_position", take_interesting(in), take_interesting(in));
	if (take_u8(in) & 1)
		CALL(wc, sub, "set_desync", 0);
	attach_buffer(wc, surface, in);
	CALL(wc, surface, "commit", 0);
	CALL(wc, parent, "commit", 0);
}

/* A popup on an existing xdg_surface, with a grab on the newest serial the client got. */
static void popup(struct wire_client *wc, struct fuzz_input *in)
{
	uint32_t compositor = wire_client_global(wc, "wl_compositor");
	uint32_t wm_base = wire_client_global(wc, "xdg_wm_base");
	uint32_t seat = wire_client_global(wc, "wl_seat");
	uint32_t parent = wire_client_find(wc, "xdg_surface", in);
	uint32_t positioner, surface, xdg_surface, popup;
	unsigned n = wc->recent_uint_count;

	if (!compositor || !wm_base || !seat)
		return;
	positioner = CALL(wc, wm_base, "create_positioner", 0);
	CALL(wc, positioner, "set_size", 1 + take_below(in, 64), 1 + take_below(in, 64));
	CALL(wc, positioner, "set_anchor_rect", take_interesting(in), take_interesting(in), 1, 1);
	if (take_u8(in) & 1)
		CALL(wc, positioner, "set_offset", take_interesting(in), take_interesting(in));
	surface = CALL(wc, compositor, "create_surface", 0);
	xdg_surface = CALL(wc, wm_base, "get_xdg_surface", 0, surface);
	popup = CALL(wc, xdg_surface, "get_popup", 0, take_u8(in) & 1 ? parent : 0, positioner);
	if (take_u8(in) & 1)
		CALL(wc, popup, "grab", seat, n ? wc->recent_uints[(n - 1) % WIRE_RECENT] : 0);
	CALL(wc, surface, "commit", 0);
}

/* The seat's devices and the clipboard's, so that input events have somewhere to go. */
static void devices(struct wire_client *wc, struct fuzz_input *in)
{
	uint32_t seat = wire_client_global(wc, "wl_seat");
	uint32_t manager = wire_client_global(wc, "wl_data_device_manager");

	if (!seat)
		return;
	CALL(wc, seat, "get_pointer", 0);
	CALL(wc, seat, "get_keyboard", 0);
	if (take_u8(in) & 1)
		CALL(wc, seat, "get_touch", 0);
	if (manager)
		CALL(wc, manager, "get_data_device", 0, seat);
}

void wire_scene(struct wire_client *wc, struct fuzz_input *in)
{
	switch (take_u8(in) % 5) {
	case 0:
		window(wc, in);
		break;
	case 1:
		show(wc, in);
		break;
	case 2:
		subsurface(wc, in);
		break;
	case 3:
		popup(wc, in);
		break;
	default:
		devices(wc, in);
		break;
	}
}
