// SPDX-License-Identifier: MIT
// garnet's consent dialog for captures the policy asks about: the copy waits for the user, the
// dialog is on top of every client and takes all input, only hardware input armed after a
// moment answers it, and the answer reaches the security layer.
#include <linux/input-event-codes.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "garnet/compositor.h"
#include "garnet/security.h"
#include "screencopy-client.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"
#include "wlr-output-power-management-unstable-v1-client-protocol.h"

/* The panel on an 800x600 output, and its "Allow once" button's middle. */
#define PANEL_X 120
#define PANEL_Y 200
#define ALLOW_ONCE_X 399
#define ALLOW_ONCE_Y 362
#define ARMED_MS 700

struct answers {
	int count;
	enum garnet_ask_act act;
	bool allowed;
	enum garnet_answer_scope scope;
	char object[64];
};

static enum garnet_decision always_ask(void *data, struct wl_client *client,
				       const char *output_name, bool stream)
{
	return GARNET_ASK;
}

static void describe(void *data, struct wl_client *client, char *buf, size_t size)
{
	pid_t pid = 0;

	wl_client_get_credentials(client, &pid, NULL, NULL);
	snprintf(buf, size, "pid %d exe /usr/bin/consent-test", (int)pid);
}

/* An executable's path is any bytes: broken UTF-8, and long enough to be cut. */
static void describe_odd(void *data, struct wl_client *client, char *buf, size_t size)
{
	snprintf(buf, size, "pid 7 exe /tmp/\xff\xfe\xc3(%s", "/very/long/path/of/an/odd/program/that/"
		 "goes/on/and/on/beyond/the/width/of/the/panel/\xe2\x82");
}

static void record_answer(void *data, struct wl_client *client, enum garnet_ask_act act,
			  const char *object, bool allowed, enum garnet_answer_scope scope)
{
	struct answers *a = data;

	a->count++;
	a->act = act;
	a->allowed = allowed;
	a->scope = scope;
	snprintf(a->object, sizeof(a->object), "%s", object);
}

static void install_hooks(struct garnet_compositor *c, struct test_context *t,
			  void (*describe_fn)(void *, struct wl_client *, char *, size_t))
{
	struct answers *a = calloc(1, sizeof(*a));

	test_set_data(t, a);
	garnet_compositor_set_security_hooks(c, &(struct garnet_security_hooks){
		.capture_output = always_ask,
		.describe_client = describe_fn,
		.user_answered = record_answer,
		.data = a,
	});
}

static void ask_hooks(struct garnet_compositor *c, struct test_context *t)
{
	install_hooks(c, t, describe);
}

static void ask_hooks_odd_name(struct garnet_compositor *c, struct test_context *t)
{
	install_hooks(c, t, describe_odd);
}

static void click(struct client *c, int32_t x, int32_t y)
{
	garnet_test_pointer_motion(c->garnet_test, wl_fixed_from_int(x), wl_fixed_from_int(y));
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	garnet_test_pointer_button(c->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
}

static bool dialog_shown(struct client *c)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	bool shown = (image_pixel(shot, PANEL_X + 4, PANEL_Y + 4) & 0xffffff) == 0x202428;

	pixman_image_unref(shot);
	return shown;
}

/* A client with a red window over the whole output and a copy of it waiting for the user. */
struct asker {
	struct client *client;
	struct client_surface *window;
	struct buffer *shown, *target;
	struct zwlr_screencopy_manager_v1 *manager;
	struct zwlr_screencopy_frame_v1 *frame;
	struct frame_state st;
};

static void asker_start(struct test_context *t, struct asker *a)
{
	a->client = client_create(t);
	a->window = surface_create_placed(a->client, 0, 0, 800, 600, 0xffff0000, &a->shown);
	check(t, surface_commit_and_wait_frame(a->window));
	a->manager = screencopy_bind(a->client);
	check(t, a->manager != NULL);
	a->frame = screencopy_start(t, a->client, a->manager, &a->st, &a->target);
	zwlr_screencopy_frame_v1_copy(a->frame, a->target->wl_buffer);
	client_roundtrip(a->client);
}

static void asker_finish(struct asker *a)
{
	if (a->frame)
		zwlr_screencopy_frame_v1_destroy(a->frame);
	buffer_destroy(a->target);
	buffer_destroy(a->shown);
	surface_destroy(a->window);
	zwlr_screencopy_manager_v1_destroy(a->manager);
	client_destroy(a->client);
}

TEST_WITH(asking_holds_the_copy_until_the_user_allows_it, ask_hooks, {800, 600, 1, 0, 0})
{
	struct answers *answers = test_data(t);
	struct asker a = {0};
	pixman_image_t *shot;
	int identity_pixels = 0;

	asker_start(t, &a);
	/* A key already on its way when the dialog appears does not answer it. */
	client_tap_key(a.client, KEY_Y);
	client_dispatch_for(a.client, NEGATIVE_WAIT_MS);
	check(t, !a.st.ready && !a.st.failed);
	check_int(t, answers->count, ==, 0);

	/* garnet's panel, with the asker's identity written on it, over a dimmed screen. */
	shot = capture_output(a.client, client_first_output(a.client));
	check_int(t, image_pixel(shot, PANEL_X + 4, PANEL_Y + 4) & 0xffffff, ==, 0x202428);
	check_int(t, image_pixel(shot, 10, 10) & 0xffffff, <, 0x600000);
	check_int(t, image_pixel(shot, 10, 10) & 0xffffff, >, 0x200000);
	for (int y = PANEL_Y + 58; y < PANEL_Y + 78; y++) {
		for (int x = PANEL_X + 20; x < PANEL_X + 540; x++) {
			uint32_t p = image_pixel(shot, x, y);

			identity_pixels += ((p >> 16) & 0xff) > 0x80 && (p & 0xff) < 0x90;
		}
	}
	check_int(t, identity_pixels, >, 50);
	pixman_image_unref(shot);

	client_dispatch_for(a.client, ARMED_MS);
	client_tap_key(a.client, KEY_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	check(t, !a.st.failed);
	/* The picture is the screen without the dialog. */
	check_int(t, image_pixel(a.target->image, 10, 10) & 0xffffff, ==, 0xff0000);
	check_int(t, image_pixel(a.target->image, PANEL_X + 4, PANEL_Y + 4) & 0xffffff, ==,
		  0xff0000);
	check_int(t, answers->count, ==, 1);
	check(t, answers->allowed);
	check_int(t, answers->scope, ==, GARNET_ANSWER_ONCE);
	check(t, strcmp(answers->object, "HEADLESS-1") == 0);
	check(t, !dialog_shown(a.client));
	asker_finish(&a);
}

TEST_WITH(no_fails_the_copy_and_that_client_is_not_asked_again, ask_hooks, {800, 600, 1, 0, 0})
{
	struct answers *answers = test_data(t);
	struct asker a = {0};
	struct frame_state again = {0};
	struct zwlr_screencopy_frame_v1 *frame;
	struct buffer *target;

	asker_start(t, &a);
	client_dispatch_for(a.client, ARMED_MS);
	client_tap_key(a.client, KEY_N);
	check(t, client_dispatch_until(a.client, &a.st.failed));
	check(t, !a.st.ready);
	check_int(t, answers->count, ==, 1);
	check(t, !answers->allowed);

	frame = screencopy_start(t, a.client, a.manager, &again, &target);
	zwlr_screencopy_frame_v1_copy(frame, target->wl_buffer);
	check(t, client_dispatch_until(a.client, &again.failed));
	check(t, !dialog_shown(a.client));
	check_int(t, answers->count, ==, 1);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	asker_finish(&a);
}

TEST_WITH(a_click_on_allow_once_answers, ask_hooks, {800, 600, 1, 0, 0})
{
	struct asker a = {0};

	asker_start(t, &a);
	client_dispatch_for(a.client, ARMED_MS);
	click(a.client, ALLOW_ONCE_X, ALLOW_ONCE_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	asker_finish(&a);
}

/* A virtual pointer (a trusted on-screen keyboard's, or a remote desktop's) is no hand of the
 * user's: it moves and clicks on the dialog's button, and the question is still open. */
TEST_WITH(a_virtual_pointer_click_does_not_answer, ask_hooks, {800, 600, 1, 0, 0})
{
	struct answers *answers = test_data(t);
	struct asker a = {0};
	struct client *maker;
	struct zwlr_virtual_pointer_manager_v1 *m;
	struct zwlr_virtual_pointer_v1 *vp;

	asker_start(t, &a);
	maker = client_create(t);
	m = wl_registry_bind(maker->registry,
			     client_find_global(maker, "zwlr_virtual_pointer_manager_v1"),
			     &zwlr_virtual_pointer_manager_v1_interface, 1);
	vp = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(m, maker->seat);
	client_dispatch_for(a.client, ARMED_MS);
	zwlr_virtual_pointer_v1_motion_absolute(vp, 0, ALLOW_ONCE_X, ALLOW_ONCE_Y, 800, 600);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	zwlr_virtual_pointer_v1_button(vp, 0, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_virtual_pointer_v1_frame(vp);
	client_roundtrip(maker);
	client_dispatch_for(a.client, 200);
	check(t, !a.st.ready && !a.st.failed);
	check_int(t, answers->count, ==, 0);
	check(t, dialog_shown(a.client));
	/* The user's own click still answers. */
	click(a.client, ALLOW_ONCE_X, ALLOW_ONCE_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	check_int(t, answers->count, ==, 1);
	zwlr_virtual_pointer_v1_destroy(vp);
	zwlr_virtual_pointer_manager_v1_destroy(m);
	client_destroy(maker);
	asker_finish(&a);
}

TEST_WITH(no_client_covers_the_dialog_or_gets_input_while_it_is_up, ask_hooks,
	  {800, 600, 1, 0, 0})
{
	struct client *b = client_create(t);
	struct client_surface *win = toplevel_create(b, 100, 100, 0xff00ff00, NULL);
	struct client_surface *late, *cover;
	struct buffer *cover_buffer;
	struct asker a = {0};
	int keys, buttons, leaves;

	client_roundtrip(b);
	check(t, b->input.keyboard_focus == win->wl_surface);
	leaves = b->input.keyboard_leaves;
	asker_start(t, &a);
	client_roundtrip(b);
	check(t, dialog_shown(b));
	/* The dialog took the keyboard from the focused window. */
	check_int(t, b->input.keyboard_leaves, ==, leaves + 1);
	check(t, b->input.keyboard_focus == NULL);

	/* A new window, and a surface put right over the panel, neither cover it nor get the
	 * keyboard. */
	late = toplevel_create(b, 100, 100, 0xff0000ff, NULL);
	cover = surface_create_placed(b, PANEL_X, PANEL_Y, 560, 200, 0xff00ff00, &cover_buffer);
	check(t, surface_commit_and_wait_frame(cover));
	check(t, dialog_shown(b));
	check(t, b->input.keyboard_focus == NULL);

	/* Typing and clicking reach nobody while the dialog is up. */
	keys = b->input.keys + a.client->input.keys;
	buttons = b->input.buttons + a.client->input.buttons;
	client_tap_key(b, KEY_A);
	click(b, 50, 50);
	click(b, PANEL_X + 10, PANEL_Y + 10);
	client_roundtrip(b);
	client_roundtrip(a.client);
	check_int(t, b->input.keys + a.client->input.keys, ==, keys);
	check_int(t, b->input.buttons + a.client->input.buttons, ==, buttons);
	check(t, !a.st.ready && !a.st.failed);

	client_dispatch_for(b, ARMED_MS);
	client_tap_key(b, KEY_Y);
	client_roundtrip(b);
	check(t, !dialog_shown(b));
	check_int(t, ((struct answers *)test_data(t))->count, ==, 1);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	/* Afterwards the keyboard comes back to a window. */
	client_roundtrip(b);
	check(t, b->input.keyboard_focus != NULL);
	asker_finish(&a);
	buffer_destroy(cover_buffer);
	surface_destroy(cover);
	surface_destroy(late);
	surface_destroy(win);
	client_destroy(b);
}

TEST_WITH(a_question_goes_with_its_client, ask_hooks, {800, 600, 1, 0, 0})
{
	struct answers *answers = test_data(t);
	struct client *b = client_create(t);
	struct client_surface *win = toplevel_create(b, 100, 100, 0xff00ff00, NULL);
	struct asker a = {0};
	int keys;

	asker_start(t, &a);
	check(t, dialog_shown(b));
	asker_finish(&a);
	client_roundtrip(b);
	check(t, !dialog_shown(b));
	check(t, b->input.keyboard_focus == win->wl_surface);
	keys = b->input.keys;
	client_tap_key(b, KEY_A);
	client_roundtrip(b);
	check_int(t, b->input.keys, ==, keys + 2);
	check_int(t, answers->count, ==, 0);
	surface_destroy(win);
	client_destroy(b);
}

TEST_WITH(a_client_asks_one_thing_at_a_time, ask_hooks, {800, 600, 1, 0, 0})
{
	struct asker a = {0};
	struct frame_state second = {0};
	struct zwlr_screencopy_frame_v1 *frame;
	struct buffer *target;

	asker_start(t, &a);
	frame = screencopy_start(t, a.client, a.manager, &second, &target);
	zwlr_screencopy_frame_v1_copy(frame, target->wl_buffer);
	check(t, client_dispatch_until(a.client, &second.failed));
	check(t, !a.st.ready && !a.st.failed);
	check(t, dialog_shown(a.client));
	/* Destroying the waiting frame withdraws the question. */
	zwlr_screencopy_frame_v1_destroy(a.frame);
	a.frame = NULL;
	client_roundtrip(a.client);
	check(t, !dialog_shown(a.client));
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	asker_finish(&a);
}

TEST_WITH(a_finger_on_a_window_is_cancelled_when_the_dialog_comes, ask_hooks,
	  {800, 600, 1, 0, 0})
{
	struct client *b = client_create(t);
	struct client_surface *win = toplevel_create(b, 100, 100, 0xff00ff00, NULL);
	pixman_image_t *shot;
	struct asker a = {0};
	int32_t wx, wy;

	client_roundtrip(b);
	shot = capture_output(b, client_first_output(b));
	check(t, image_find(shot, 0x00ff00, 0, 0, &wx, &wy));
	pixman_image_unref(shot);
	wx += 5;
	wy += 5;
	garnet_test_touch_down(b->garnet_test, 0, wl_fixed_from_int(wx), wl_fixed_from_int(wy));
	garnet_test_touch_frame(b->garnet_test);
	client_roundtrip(b);
	check_int(t, b->input.touch_downs, ==, 1);

	asker_start(t, &a);
	client_roundtrip(b);
	check_int(t, b->input.touch_cancels, ==, 1);
	/* The finger's later moves and lift go nowhere, not even after the dialog. */
	garnet_test_touch_motion(b->garnet_test, 0, wl_fixed_from_int(wx + 1),
				 wl_fixed_from_int(wy));
	garnet_test_touch_up(b->garnet_test, 0);
	garnet_test_touch_frame(b->garnet_test);
	client_roundtrip(b);
	check_int(t, b->input.touch_ups, ==, 0);
	check_int(t, b->input.touch_motions, ==, 0);
	asker_finish(&a);
	surface_destroy(win);
	client_destroy(b);
}

TEST_WITH(a_recording_allowed_once_goes_on_until_its_client_leaves, ask_hooks,
	  {800, 600, 1, 0, 0})
{
	struct answers *answers = test_data(t);
	struct client *c = client_create(t);
	struct buffer *shown, *blue, *targets[3];
	struct client_surface *win = surface_create_placed(c, 0, 0, 800, 600, 0xffff0000, &shown);
	struct zwlr_screencopy_manager_v1 *m = screencopy_bind(c);
	struct zwlr_screencopy_frame_v1 *frames[3];
	struct frame_state st[3] = {{0}};

	check(t, surface_commit_and_wait_frame(win));
	/* The first frame of a recording asks, about a recording. */
	frames[0] = screencopy_start(t, c, m, &st[0], &targets[0]);
	zwlr_screencopy_frame_v1_copy_with_damage(frames[0], targets[0]->wl_buffer);
	client_roundtrip(c);
	check(t, dialog_shown(c));
	client_dispatch_for(c, ARMED_MS);
	client_tap_key(c, KEY_Y);
	check(t, client_dispatch_until(c, &st[0].ready));
	check_int(t, answers->count, ==, 1);
	check_int(t, answers->act, ==, GARNET_ASK_RECORD_OUTPUT);
	check_int(t, answers->scope, ==, GARNET_ANSWER_ONCE);

	/* The next frames of the recording do not ask again. */
	frames[1] = screencopy_start(t, c, m, &st[1], &targets[1]);
	zwlr_screencopy_frame_v1_copy_with_damage(frames[1], targets[1]->wl_buffer);
	client_roundtrip(c);
	check(t, !dialog_shown(c));
	blue = buffer_create(c, 800, 600, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(blue, 0xff0000ff);
	surface_show(win, blue);
	check(t, client_dispatch_until(c, &st[1].ready));
	check_int(t, image_pixel(targets[1]->image, 10, 10) & 0xffffff, ==, 0x0000ff);
	check_int(t, answers->count, ==, 1);

	/* A picture is another question. */
	frames[2] = screencopy_start(t, c, m, &st[2], &targets[2]);
	zwlr_screencopy_frame_v1_copy(frames[2], targets[2]->wl_buffer);
	client_roundtrip(c);
	check(t, dialog_shown(c));
	client_dispatch_for(c, ARMED_MS);
	client_tap_key(c, KEY_N);
	check(t, client_dispatch_until(c, &st[2].failed));
	check_int(t, answers->act, ==, GARNET_ASK_CAPTURE_OUTPUT);
	for (int i = 0; i < 3; i++) {
		zwlr_screencopy_frame_v1_destroy(frames[i]);
		buffer_destroy(targets[i]);
	}
	zwlr_screencopy_manager_v1_destroy(m);
	buffer_destroy(blue);
	buffer_destroy(shown);
	surface_destroy(win);
	client_destroy(c);
}

TEST_WITH(every_output_shows_the_dialog_and_each_answers_it, ask_hooks, {800, 600, 1, 0, 0},
	  {800, 600, 1, 0, 0})
{
	struct asker a = {0};
	struct client_output *out;
	int shown = 0;

	asker_start(t, &a);
	wl_list_for_each(out, &a.client->outputs, link) {
		pixman_image_t *shot = capture_output(a.client, out);

		shown += (image_pixel(shot, PANEL_X + 4, PANEL_Y + 4) & 0xffffff) == 0x202428;
		pixman_image_unref(shot);
	}
	check_int(t, shown, ==, 2);
	/* "Allow once" on the second output (right of the first). */
	client_dispatch_for(a.client, ARMED_MS);
	click(a.client, 800 + ALLOW_ONCE_X, ALLOW_ONCE_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	asker_finish(&a);
}

TEST_WITH(an_identity_of_any_bytes_still_draws_the_whole_dialog, ask_hooks_odd_name,
	  {800, 600, 1, 0, 0})
{
	struct asker a = {0};
	pixman_image_t *shot;
	int identity_pixels = 0;

	asker_start(t, &a);
	client_dispatch_for(a.client, ARMED_MS);
	shot = capture_output(a.client, client_first_output(a.client));
	for (int y = PANEL_Y + 58; y < PANEL_Y + 78; y++) {
		for (int x = PANEL_X + 20; x < PANEL_X + 540; x++)
			identity_pixels += ((image_pixel(shot, x, y) >> 16) & 0xff) > 0x80;
	}
	check_int(t, identity_pixels, >, 50);
	/* Everything after the identity is drawn too: the left edge of "Deny", armed. */
	check_int(t, image_pixel(shot, PANEL_X + 20, PANEL_Y + 160) & 0xffffff, ==, 0xd0d0d0);
	pixman_image_unref(shot);
	client_tap_key(a.client, KEY_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	asker_finish(&a);
}

static int magenta_pixels(struct client *c)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	int n = 0;

	for (int y = 0; y < 600; y++) {
		for (int x = 0; x < 800; x++)
			n += (image_pixel(shot, x, y) & 0xffffff) == 0xff00ff;
	}
	pixman_image_unref(shot);
	return n;
}

/* With garnet's arrow drawn (the harness leaves it out by default). */
static void drag_icon_is_not_drawn_over_the_dialog(struct test_context *t);
__attribute__((constructor)) static void register_drag_icon_test(void)
{
	static const struct test test = {"drag_icon_is_not_drawn_over_the_dialog",
					 drag_icon_is_not_drawn_over_the_dialog, ask_hooks,
					 {{800, 600, 1, 0, 0}}, true};
	test_register(&test);
}

static void drag_icon_is_not_drawn_over_the_dialog(struct test_context *t)
{
	struct client *b = client_create(t);
	struct client_surface *win = surface_create_placed(b, 0, 0, 800, 600, 0xff00ff00, NULL);
	struct client_surface *icon = surface_create(b);
	struct buffer *big = buffer_create(b, 64, 64, WL_SHM_FORMAT_ARGB8888);
	struct zwlr_screencopy_manager_v1 *m = screencopy_bind(b);
	struct zwlr_screencopy_frame_v1 *frame;
	struct wl_data_source *source;
	struct frame_state st = {0};
	struct buffer *target;

	check(t, surface_commit_and_wait_frame(win));
	/* A drag with a big icon, under way when the dialog comes. */
	buffer_fill(big, 0xffff00ff);
	wl_surface_attach(icon->wl_surface, big->wl_buffer, 0, 0);
	wl_surface_damage(icon->wl_surface, 0, 0, 64, 64);
	wl_surface_commit(icon->wl_surface);
	garnet_test_pointer_motion(b->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(b->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(b);
	source = wl_data_device_manager_create_data_source(b->data_device_manager);
	wl_data_source_offer(source, "text/plain");
	wl_data_device_start_drag(b->data_device, source, win->wl_surface, icon->wl_surface,
				  b->input.last_button_serial);
	client_roundtrip(b);
	garnet_test_pointer_motion(b->garnet_test, wl_fixed_from_int(300), wl_fixed_from_int(250));
	check(t, surface_commit_and_wait_frame(icon));
	/* All of it but where garnet's arrow is drawn over it. */
	check_int(t, magenta_pixels(b), >, 64 * 64 - 12 * 19);

	/* Over the dialog the pointer is garnet's arrow: the drag is over, its icon nowhere. */
	frame = screencopy_start(t, b, m, &st, &target);
	zwlr_screencopy_frame_v1_copy(frame, target->wl_buffer);
	client_roundtrip(b);
	check(t, dialog_shown(b));
	check_int(t, magenta_pixels(b), ==, 0);
	garnet_test_pointer_motion(b->garnet_test, wl_fixed_from_int(320), wl_fixed_from_int(260));
	check_int(t, magenta_pixels(b), ==, 0);
	garnet_test_pointer_button(b->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	zwlr_screencopy_frame_v1_destroy(frame);
	buffer_destroy(target);
	zwlr_screencopy_manager_v1_destroy(m);
	wl_data_source_destroy(source);
	buffer_destroy(big);
	surface_destroy(icon);
	surface_destroy(win);
	client_destroy(b);
}

TEST_WITH(the_next_question_waits_for_the_allowed_picture, ask_hooks, {800, 600, 1, 0, 0})
{
	struct asker a = {0}, b = {0};

	asker_start(t, &a);
	/* b's window is the top one now, the same size: its red is what a's picture shows. */
	asker_start(t, &b);
	client_dispatch_for(a.client, ARMED_MS);
	client_tap_key(a.client, KEY_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	/* The picture has neither a's dialog nor b's, which comes up after it. */
	check_int(t, image_pixel(a.target->image, PANEL_X + 4, PANEL_Y + 4) & 0xffffff, ==,
		  0xff0000);
	check_int(t, image_pixel(a.target->image, 10, 10) & 0xffffff, ==, 0xff0000);
	client_roundtrip(b.client);
	check(t, dialog_shown(b.client));
	client_dispatch_for(b.client, ARMED_MS);
	client_tap_key(b.client, KEY_N);
	check(t, client_dispatch_until(b.client, &b.st.failed));
	asker_finish(&b);
	asker_finish(&a);
}

TEST_WITH(clicking_on_and_on_does_not_answer, ask_hooks, {800, 600, 1, 0, 0})
{
	struct asker a = {0};

	asker_start(t, &a);
	/* Someone clicks where "Allow once" is, again and again, for longer than the dialog
	 * takes to arm: as long as the clicks go on, it stays unarmed. */
	for (int i = 0; i < 8; i++) {
		click(a.client, ALLOW_ONCE_X, ALLOW_ONCE_Y);
		client_dispatch_for(a.client, 150);
	}
	check(t, !a.st.ready && !a.st.failed);
	/* After a pause, a click answers. */
	client_dispatch_for(a.client, ARMED_MS);
	click(a.client, ALLOW_ONCE_X, ALLOW_ONCE_Y);
	check(t, client_dispatch_until(a.client, &a.st.ready));
	asker_finish(&a);
}

static void note_power_mode(void *data, struct zwlr_output_power_v1 *control, uint32_t mode)
{
	*(int *)data = (int)mode;
}

static void note_power_failed(void *data, struct zwlr_output_power_v1 *control)
{
	*(int *)data = -1;
}

static const struct zwlr_output_power_v1_listener power_listener = {note_power_mode,
								     note_power_failed};

TEST_WITH(a_client_cannot_keep_the_screen_dark_while_the_dialog_asks, ask_hooks,
	  {800, 600, 1, 0, 0})
{
	struct asker a = {0};
	struct client *daemon;
	struct zwlr_output_power_manager_v1 *m;
	struct zwlr_output_power_v1 *power;
	int mode = -2;

	a.client = client_create(t);
	a.window = surface_create_placed(a.client, 0, 0, 800, 600, 0xffff0000, &a.shown);
	check(t, surface_commit_and_wait_frame(a.window));
	/* An idle daemon darkens the screen. */
	daemon = client_create(t);
	m = wl_registry_bind(daemon->registry,
			     client_find_global(daemon, "zwlr_output_power_manager_v1"),
			     &zwlr_output_power_manager_v1_interface, 1);
	power = zwlr_output_power_manager_v1_get_output_power(
		m, client_first_output(daemon)->wl_output);
	zwlr_output_power_v1_add_listener(power, &power_listener, &mode);
	client_roundtrip(daemon);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	zwlr_output_power_v1_set_mode(power, ZWLR_OUTPUT_POWER_V1_MODE_OFF);
	client_roundtrip(daemon);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_OFF);

	/* The dialog appears lit, and stays lit while it asks. */
	a.manager = screencopy_bind(a.client);
	a.frame = screencopy_start(t, a.client, a.manager, &a.st, &a.target);
	zwlr_screencopy_frame_v1_copy(a.frame, a.target->wl_buffer);
	client_roundtrip(a.client);
	client_roundtrip(daemon);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	zwlr_output_power_v1_set_mode(power, ZWLR_OUTPUT_POWER_V1_MODE_OFF);
	client_roundtrip(daemon);
	check_int(t, mode, ==, ZWLR_OUTPUT_POWER_V1_MODE_ON);
	check(t, dialog_shown(a.client));

	zwlr_output_power_v1_destroy(power);
	zwlr_output_power_manager_v1_destroy(m);
	client_destroy(daemon);
	asker_finish(&a);
}

TEST_WITH(no_more_than_eight_questions_wait, ask_hooks, {800, 600, 1, 0, 0})
{
	struct asker askers[9] = {{0}};

	/* One on screen and seven behind it: the ninth is refused at once, unasked. */
	for (int i = 0; i < 9; i++)
		asker_start(t, &askers[i]);
	check(t, client_dispatch_until(askers[8].client, &askers[8].st.failed));
	for (int i = 0; i < 8; i++)
		check(t, !askers[i].st.ready && !askers[i].st.failed);
	check(t, dialog_shown(askers[0].client));
	for (int i = 8; i >= 0; i--)
		asker_finish(&askers[i]);
}
