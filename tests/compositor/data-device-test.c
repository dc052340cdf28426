// SPDX-License-Identifier: MIT
// Clipboard, primary selection and drag and drop between two real clients.
#include <fcntl.h>
#include <linux/input-event-codes.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define MIME "text/plain;charset=utf-8"

struct source_state {
	const char *text;
	int sends, cancelled;
	bool drop_performed, finished;
	char target[64];
};

static void write_and_close(const char *text, int32_t fd)
{
	if (write(fd, text, strlen(text)) < 0) {
		/* the reader went away; nothing to do */
	}
	close(fd);
}

static void source_target(void *data, struct wl_data_source *s, const char *mime)
{
	struct source_state *st = data;

	snprintf(st->target, sizeof(st->target), "%s", mime ? mime : "");
}

static void source_send(void *data, struct wl_data_source *s, const char *mime, int32_t fd)
{
	struct source_state *st = data;

	st->sends++;
	write_and_close(st->text, fd);
}

static void source_cancelled(void *data, struct wl_data_source *s)
{
	struct source_state *st = data;

	st->cancelled++;
}

static void source_drop_performed(void *data, struct wl_data_source *s)
{
	struct source_state *st = data;

	st->drop_performed = true;
}

static void source_finished(void *data, struct wl_data_source *s)
{
	struct source_state *st = data;

	st->finished = true;
}

static void source_action(void *data, struct wl_data_source *s, uint32_t action)
{
}

static const struct wl_data_source_listener source_listener = {
	source_target,	       source_send,	 source_cancelled,
	source_drop_performed, source_finished, source_action,
};

/* Reads what the owner writes for an offer: the owner's client must dispatch in between. */
static void read_offer(struct test_context *t, struct client *reader, struct client *owner,
		       struct wl_data_offer *offer, char *out, size_t size)
{
	int fds[2];
	ssize_t n;

	check(t, pipe2(fds, O_CLOEXEC) == 0);
	wl_data_offer_receive(offer, MIME, fds[1]);
	close(fds[1]);
	client_roundtrip(reader);
	client_roundtrip(owner);
	n = read(fds[0], out, size - 1);
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
}

TEST(copy_and_paste_between_two_clients)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct client_surface *sb = toplevel_create(b, 40, 40, 0xff00ff00, NULL);
	struct source_state st = {.text = "garnet clipboard"};
	struct wl_data_source *source;
	char got[64];

	/* a copies while focused. */
	garnet_test_activate_surface(a->garnet_test, sa->wl_surface);
	client_roundtrip(a);
	source = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, &st);
	wl_data_source_offer(source, MIME);
	wl_data_device_set_selection(a->data_device, source, 0);
	client_roundtrip(a);

	/* b gets the offer only once it has focus, then pastes. */
	client_roundtrip(b);
	check(t, b->selection_offer == NULL);
	garnet_test_activate_surface(b->garnet_test, sb->wl_surface);
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, b->selection_offer != NULL);
	check(t, strcmp(b->selection_mime, MIME) == 0);
	read_offer(t, b, a, b->selection_offer, got, sizeof(got));
	check(t, strcmp(got, "garnet clipboard") == 0);
	check_int(t, st.sends, ==, 1);

	wl_data_source_destroy(source);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(unfocused_client_cannot_set_selection)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct client_surface *sb = toplevel_create(b, 40, 40, 0xff00ff00, NULL);
	struct source_state st = {.text = "forged"};
	struct wl_data_source *source;

	client_roundtrip(b);
	check(t, b->input.keyboard_focus == sb->wl_surface);
	source = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, &st);
	wl_data_source_offer(source, MIME);
	wl_data_device_set_selection(a->data_device, source, 0);
	client_roundtrip(a);
	client_roundtrip(b);
	check_int(t, st.cancelled, ==, 1);
	check(t, b->selection_offer == NULL);
	wl_data_source_destroy(source);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(new_selection_cancels_the_old_source)
{
	struct client *a = client_create(t);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct source_state st1 = {.text = "one"}, st2 = {.text = "two"};
	struct wl_data_source *s1, *s2;

	s1 = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(s1, &source_listener, &st1);
	wl_data_source_offer(s1, MIME);
	wl_data_device_set_selection(a->data_device, s1, 0);
	s2 = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(s2, &source_listener, &st2);
	wl_data_source_offer(s2, MIME);
	wl_data_device_set_selection(a->data_device, s2, 0);
	client_roundtrip(a);
	check_int(t, st1.cancelled, ==, 1);
	check_int(t, st2.cancelled, ==, 0);
	check_int(t, a->selection_events, >=, 2);
	wl_data_source_destroy(s1);
	wl_data_source_destroy(s2);
	surface_destroy(sa);
	client_destroy(a);
}

struct dnd_state {
	struct wl_data_offer *offer;
	struct wl_surface *entered;
	bool dropped, left;
};

static void dnd_data_offer(void *data, struct wl_data_device *d, struct wl_data_offer *offer)
{
}

static void dnd_enter(void *data, struct wl_data_device *d, uint32_t serial,
		      struct wl_surface *surface, wl_fixed_t x, wl_fixed_t y,
		      struct wl_data_offer *offer)
{
	struct dnd_state *st = data;

	st->entered = surface;
	st->offer = offer;
	if (offer) {
		wl_data_offer_accept(offer, serial, MIME);
		wl_data_offer_set_actions(offer, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY,
					  WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	}
}

static void dnd_leave(void *data, struct wl_data_device *d)
{
	struct dnd_state *st = data;

	st->left = true;
}

static void dnd_motion(void *data, struct wl_data_device *d, uint32_t t, wl_fixed_t x,
		       wl_fixed_t y)
{
}

static void dnd_drop(void *data, struct wl_data_device *d)
{
	struct dnd_state *st = data;

	st->dropped = true;
}

static void dnd_selection(void *data, struct wl_data_device *d, struct wl_data_offer *o)
{
}

static const struct wl_data_device_listener dnd_listener = {
	dnd_data_offer, dnd_enter, dnd_leave, dnd_motion, dnd_drop, dnd_selection,
};

TEST(drag_and_drop_between_two_clients)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 150, 0, 100, 100, 0xff00ff00, NULL);
	struct source_state st = {.text = "dragged"};
	struct dnd_state dnd = {0};
	struct wl_data_device *device_b;
	struct wl_data_source *source;
	char got[64];

	device_b = wl_data_device_manager_get_data_device(b->data_device_manager, b->seat);
	wl_data_device_add_listener(device_b, &dnd_listener, &dnd);
	client_roundtrip(b);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(a);
	source = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, &st);
	wl_data_source_offer(source, MIME);
	wl_data_source_set_actions(source, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	wl_data_device_start_drag(a->data_device, source, sa->wl_surface, NULL,
				  a->input.last_button_serial);
	client_roundtrip(a);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(170), wl_fixed_from_int(20));
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, dnd.entered == sb->wl_surface);
	check(t, dnd.offer != NULL);
	client_roundtrip(b); /* accept and actions reach the compositor */
	client_roundtrip(a);
	check(t, strcmp(st.target, MIME) == 0);
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, dnd.dropped);
	client_roundtrip(a);
	check(t, st.drop_performed);
	read_offer(t, b, a, dnd.offer, got, sizeof(got));
	check(t, strcmp(got, "dragged") == 0);
	wl_data_offer_finish(dnd.offer);
	client_roundtrip(b);
	client_roundtrip(a);
	check(t, st.finished);
	wl_data_offer_destroy(dnd.offer);
	wl_data_device_destroy(device_b);
	wl_data_source_destroy(source);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

/* Starts a drag from a's surface at (10, 10) with icon (may be NULL); the button stays held. */
static struct wl_data_source *start_drag_with_icon(struct client *a, struct client_surface *from,
						   struct wl_surface *icon,
						   struct source_state *st)
{
	struct wl_data_source *source;

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_PRESSED);
	client_roundtrip(a);
	source = wl_data_device_manager_create_data_source(a->data_device_manager);
	wl_data_source_add_listener(source, &source_listener, st);
	wl_data_source_offer(source, MIME);
	wl_data_source_set_actions(source, WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY);
	wl_data_device_start_drag(a->data_device, source, from->wl_surface, icon,
				  a->input.last_button_serial);
	return source;
}

TEST(drag_icon_follows_the_pointer_above_windows_until_the_drop)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *sb = surface_create_placed(b, 150, 0, 100, 100, 0xff00ff00, NULL);
	struct client_surface *icon = surface_create(a);
	struct buffer *ib = buffer_create(a, 8, 8, WL_SHM_FORMAT_ARGB8888);
	struct source_state st = {.text = "dragged"};
	struct wl_data_source *source;
	pixman_image_t *shot;

	buffer_fill(ib, 0xff0000ffu);
	wl_surface_attach(icon->wl_surface, ib->wl_buffer, 0, 0);
	wl_surface_damage(icon->wl_surface, 0, 0, 8, 8);
	wl_surface_commit(icon->wl_surface);
	source = start_drag_with_icon(a, sa, icon->wl_surface, &st);
	client_roundtrip(a);
	/* An icon that animates waits for its frame callback: it must come. */
	check(t, surface_commit_and_wait_frame(icon));
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(170), wl_fixed_from_int(20));
	shot = capture_output(a, client_first_output(a));
	/* Top-left corner on the pointer, over the other client's window. */
	check_int(t, image_pixel(shot, 170, 20), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 177, 27), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 178, 28), ==, 0xff00ff00u);
	check_int(t, image_pixel(shot, 169, 19), ==, 0xff00ff00u);
	/* Where the pointer was, the icon is gone. */
	check_int(t, image_pixel(shot, 12, 12), ==, 0xffff0000u);
	pixman_image_unref(shot);
	/* wl_surface.offset moves the icon relative to the pointer. */
	wl_surface_offset(icon->wl_surface, -4, -4);
	wl_surface_attach(icon->wl_surface, ib->wl_buffer, 0, 0);
	wl_surface_damage(icon->wl_surface, 0, 0, 8, 8);
	check(t, surface_commit_and_wait_frame(icon));
	shot = capture_output(a, client_first_output(a));
	check_int(t, image_pixel(shot, 166, 16), ==, 0xff0000ffu);
	check_int(t, image_pixel(shot, 174, 24), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	/* The drop ends the drag: the icon is no longer drawn. */
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(a);
	shot = capture_output(a, client_first_output(a));
	check_int(t, image_pixel(shot, 166, 16), ==, 0xff00ff00u);
	pixman_image_unref(shot);
	wl_data_source_destroy(source);
	buffer_destroy(ib);
	surface_destroy(icon);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}

TEST(drag_icon_with_another_role_is_a_protocol_error)
{
	struct client *a = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct source_state st = {.text = "dragged"};
	struct wl_data_source *source;

	/* The window itself already has a role: it cannot also be the icon. */
	source = start_drag_with_icon(a, sa, sa->wl_surface, &st);
	client_expect_protocol_error(a, &wl_data_device_interface, WL_DATA_DEVICE_ERROR_ROLE);
	wl_data_source_destroy(source);
	surface_destroy(sa);
	client_destroy(a);
	check_compositor_serves(t);
}

TEST(destroying_the_drag_icon_mid_drag_is_harmless)
{
	struct client *a = client_create(t);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 100, 100, 0xffff0000, NULL);
	struct client_surface *icon = surface_create(a);
	struct buffer *ib = buffer_create(a, 8, 8, WL_SHM_FORMAT_ARGB8888);
	struct source_state st = {.text = "dragged"};
	struct wl_data_source *source;
	pixman_image_t *shot;

	buffer_fill(ib, 0xff0000ffu);
	source = start_drag_with_icon(a, sa, icon->wl_surface, &st);
	client_roundtrip(a);
	wl_surface_attach(icon->wl_surface, ib->wl_buffer, 0, 0);
	wl_surface_damage(icon->wl_surface, 0, 0, 8, 8);
	check(t, surface_commit_and_wait_frame(icon));
	surface_destroy(icon);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(40), wl_fixed_from_int(40));
	shot = capture_output(a, client_first_output(a));
	check_int(t, image_pixel(shot, 10, 10), ==, 0xffff0000u);
	check_int(t, image_pixel(shot, 42, 42), ==, 0xffff0000u);
	pixman_image_unref(shot);
	garnet_test_pointer_button(a->garnet_test, BTN_LEFT, WL_POINTER_BUTTON_STATE_RELEASED);
	client_roundtrip(a);
	wl_data_source_destroy(source);
	buffer_destroy(ib);
	surface_destroy(sa);
	client_destroy(a);
}

struct primary_state {
	struct zwp_primary_selection_offer_v1 *offer;
	int sends;
};

static void primary_source_send(void *data, struct zwp_primary_selection_source_v1 *s,
				const char *mime, int32_t fd)
{
	struct primary_state *st = data;

	st->sends++;
	write_and_close("primary text", fd);
}

static void primary_source_cancelled(void *data, struct zwp_primary_selection_source_v1 *s)
{
}

static const struct zwp_primary_selection_source_v1_listener primary_source_listener = {
	primary_source_send, primary_source_cancelled,
};

static void primary_offer_offer(void *data, struct zwp_primary_selection_offer_v1 *o,
				const char *mime)
{
}

static const struct zwp_primary_selection_offer_v1_listener primary_offer_listener = {
	primary_offer_offer,
};

static void primary_data_offer(void *data, struct zwp_primary_selection_device_v1 *d,
			       struct zwp_primary_selection_offer_v1 *offer)
{
	zwp_primary_selection_offer_v1_add_listener(offer, &primary_offer_listener, data);
}

static void primary_selection(void *data, struct zwp_primary_selection_device_v1 *d,
			      struct zwp_primary_selection_offer_v1 *offer)
{
	struct primary_state *st = data;

	if (st->offer && st->offer != offer)
		zwp_primary_selection_offer_v1_destroy(st->offer);
	st->offer = offer;
}

static const struct zwp_primary_selection_device_v1_listener primary_device_listener = {
	primary_data_offer, primary_selection,
};

TEST(primary_selection_between_two_clients)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct client_surface *sa = toplevel_create(a, 40, 40, 0xffff0000, NULL);
	struct client_surface *sb = toplevel_create(b, 40, 40, 0xff00ff00, NULL);
	struct primary_state sta = {0}, stb = {0};
	struct zwp_primary_selection_device_v1 *da, *db;
	struct zwp_primary_selection_source_v1 *source;
	char got[64] = "";
	int fds[2];
	ssize_t n;

	da = zwp_primary_selection_device_manager_v1_get_device(a->primary_manager, a->seat);
	db = zwp_primary_selection_device_manager_v1_get_device(b->primary_manager, b->seat);
	zwp_primary_selection_device_v1_add_listener(da, &primary_device_listener, &sta);
	zwp_primary_selection_device_v1_add_listener(db, &primary_device_listener, &stb);
	garnet_test_activate_surface(a->garnet_test, sa->wl_surface);
	client_roundtrip(a);
	source = zwp_primary_selection_device_manager_v1_create_source(a->primary_manager);
	zwp_primary_selection_source_v1_add_listener(source, &primary_source_listener, &sta);
	zwp_primary_selection_source_v1_offer(source, MIME);
	zwp_primary_selection_device_v1_set_selection(da, source, 0);
	client_roundtrip(a);
	garnet_test_activate_surface(b->garnet_test, sb->wl_surface);
	client_roundtrip(a);
	client_roundtrip(b);
	check(t, stb.offer != NULL);
	check(t, pipe2(fds, O_CLOEXEC) == 0);
	zwp_primary_selection_offer_v1_receive(stb.offer, MIME, fds[1]);
	close(fds[1]);
	client_roundtrip(b);
	client_roundtrip(a);
	n = read(fds[0], got, sizeof(got) - 1);
	got[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	check(t, strcmp(got, "primary text") == 0);
	zwp_primary_selection_offer_v1_destroy(stb.offer);
	if (sta.offer)
		zwp_primary_selection_offer_v1_destroy(sta.offer);
	zwp_primary_selection_source_v1_destroy(source);
	zwp_primary_selection_device_v1_destroy(da);
	zwp_primary_selection_device_v1_destroy(db);
	surface_destroy(sb);
	surface_destroy(sa);
	client_destroy(b);
	client_destroy(a);
}
