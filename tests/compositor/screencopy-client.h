/* SPDX-License-Identifier: MIT */
/* A zwlr_screencopy client for compositor tests: the frame's events recorded in a struct. */
#ifndef GARNET_TEST_SCREENCOPY_CLIENT_H
#define GARNET_TEST_SCREENCOPY_CLIENT_H

#include "harness.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"

struct frame_state {
	uint32_t width, height, stride;
	bool buffer_done, ready, failed;
	int damage_events;
	int32_t damage_x1, damage_y1, damage_x2, damage_y2; /* union of damage events */
};

/* The manager at version 3, NULL when garnet does not offer it to this client. */
struct zwlr_screencopy_manager_v1 *screencopy_bind(struct client *c);
/* Starts a capture of the first output and makes the buffer it asks for. */
struct zwlr_screencopy_frame_v1 *screencopy_start(struct test_context *t, struct client *c,
						  struct zwlr_screencopy_manager_v1 *m,
						  struct frame_state *st, struct buffer **b);

/* The same for output. */
struct zwlr_screencopy_frame_v1 *screencopy_start_on(struct test_context *t, struct client *c,
						     struct zwlr_screencopy_manager_v1 *m,
						     struct wl_output *output, struct frame_state *st,
						     struct buffer **b);

#endif
