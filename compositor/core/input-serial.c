// SPDX-License-Identifier: MIT
// The serials of the latest button, key and touch events garnet delivered, per client: the
// proof of user action that popup grabs and activation tokens must show. Serials are a counter
// anyone can guess, so a serial counts only for the client it was sent to.
#include "seat.h"

static void entry_clear(struct garnet_input_serial *e)
{
	wl_list_remove(&e->client_destroy.link);
	wl_list_init(&e->client_destroy.link);
	e->client = NULL;
	e->serial = 0;
}

/* A later client at the same address must not inherit the serials of one that left. */
static void entry_client_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_input_serial *e = wl_container_of(listener, e, client_destroy);

	(void)data;
	entry_clear(e);
}

void garnet_seat_input_serials_init(struct garnet_seat *seat)
{
	for (int i = 0; i < GARNET_INPUT_SERIALS; i++) {
		seat->input_serials[i].client = NULL;
		seat->input_serials[i].client_destroy.notify = entry_client_destroyed;
		wl_list_init(&seat->input_serials[i].client_destroy.link);
	}
	seat->input_serial_next = 0;
}

void garnet_seat_input_serials_finish(struct garnet_seat *seat)
{
	for (int i = 0; i < GARNET_INPUT_SERIALS; i++)
		entry_clear(&seat->input_serials[i]);
}

void garnet_seat_record_input_serial(struct garnet_seat *seat, struct wl_client *client,
				     uint32_t serial)
{
	struct garnet_input_serial *e;

	if (garnet_seat_input_last_client(seat) != client)
		seat->input_generation++;
	e = &seat->input_serials[seat->input_serial_next++ % GARNET_INPUT_SERIALS];
	entry_clear(e);
	e->client = client;
	e->serial = serial;
	wl_client_add_destroy_listener(client, &e->client_destroy);
}

struct wl_client *garnet_seat_input_last_client(struct garnet_seat *seat)
{
	unsigned int last = (seat->input_serial_next + GARNET_INPUT_SERIALS - 1) %
			    GARNET_INPUT_SERIALS;

	return seat->input_serial_next ? seat->input_serials[last].client : NULL;
}

bool garnet_seat_input_serial_valid(struct garnet_seat *seat, struct wl_client *client,
				    uint32_t serial)
{
	for (int i = 0; i < GARNET_INPUT_SERIALS; i++) {
		if (client && seat->input_serials[i].client == client &&
		    seat->input_serials[i].serial == serial)
			return true;
	}
	return false;
}
