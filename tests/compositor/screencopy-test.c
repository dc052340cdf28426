// SPDX-License-Identifier: MIT
// zwlr_screencopy_frame_v1.copy_with_damage: the copy waits for the output's next change of
// the captured rectangle and reports what changed; copy answers at once.
#include <string.h>

#include "screencopy-client.h"

TEST(copy_with_damage_waits_for_the_next_change)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = screencopy_bind(c);
	struct frame_state st = {0};
	struct buffer *shown, *target, *green;
	struct client_surface *s = surface_create_placed(c, 40, 30, 50, 20, 0xffff0000, &shown);
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	check(t, surface_commit_and_wait_frame(s));
	frame = screencopy_start(t, c, m, &st, &target);
	zwlr_screencopy_frame_v1_copy_with_damage(frame, target->wl_buffer);
	/* Nothing changes on screen: no answer, however long we wait. */
	client_dispatch_for(c, 3 * NEGATIVE_WAIT_MS);
	check(t, !st.ready && !st.failed);

	/* The surface turns green: the copy is made from that frame, its damage reported. */
	green = buffer_create(c, 50, 20, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(green, 0xff00ff00);
	surface_show(s, green);
	check(t, client_dispatch_until(c, &st.ready));
	check(t, !st.failed);
	check_int(t, st.damage_events, >=, 1);
	check(t, st.damage_x1 <= 40 && st.damage_y1 <= 30 && st.damage_x2 >= 90 &&
		 st.damage_y2 >= 50);
	/* Only what changed: not the whole output. */
	check(t, st.damage_x2 - st.damage_x1 < 320 || st.damage_y2 - st.damage_y1 < 240);
	check_int(t, image_pixel(target->image, 60, 40) & 0xffffff, ==, 0x00ff00);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	buffer_destroy(green);
	buffer_destroy(shown);
	surface_destroy(s);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}

TEST(copy_answers_at_once)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = screencopy_bind(c);
	struct frame_state st = {0};
	struct buffer *shown, *target;
	struct client_surface *s = surface_create_placed(c, 10, 10, 30, 30, 0xff0000ff, &shown);
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	check(t, surface_commit_and_wait_frame(s));
	frame = screencopy_start(t, c, m, &st, &target);
	check_int(t, st.width, ==, 320);
	zwlr_screencopy_frame_v1_copy(frame, target->wl_buffer);
	check(t, client_dispatch_until(c, &st.ready));
	check_int(t, st.damage_events, ==, 0);
	check_int(t, image_pixel(target->image, 20, 20) & 0xffffff, ==, 0x0000ff);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	buffer_destroy(shown);
	surface_destroy(s);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}

TEST(copy_with_damage_fails_when_the_buffer_goes)
{
	struct client *c = client_create(t);
	struct zwlr_screencopy_manager_v1 *m = screencopy_bind(c);
	struct frame_state st = {0};
	struct buffer *target;
	struct zwlr_screencopy_frame_v1 *frame;

	check(t, m != NULL);
	frame = screencopy_start(t, c, m, &st, &target);
	zwlr_screencopy_frame_v1_copy_with_damage(frame, target->wl_buffer);
	buffer_destroy(target);
	check(t, client_dispatch_until(c, &st.failed));
	check(t, !st.ready);
	zwlr_screencopy_frame_v1_destroy(frame);
	zwlr_screencopy_manager_v1_destroy(m);
	client_destroy(c);
}
