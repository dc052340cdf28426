// SPDX-License-Identifier: MIT
// The small desktop protocols, each from the outside: content-type and tearing-control hints
// (one object per surface, inert after the surface), cursor-shape (only the client under the
// pointer with its enter serial), xdg-foreign (unguessable handles, imports that end with the
// export), keyboard-shortcuts-inhibit (bindings pass to the focused inhibitor, lock does not)
// and pointer gestures (to the surface under the pointer only).
#include <linux/input-event-codes.h>
#include <stdlib.h>
#include <string.h>

#include "garnet/compositor.h"
#include "harness.h"

#include "content-type-v1-client-protocol.h"
#include "cursor-shape-v1-client-protocol.h"
#include "ext-session-lock-v1-client-protocol.h"
#include "keyboard-shortcuts-inhibit-unstable-v1-client-protocol.h"
#include "pointer-gestures-unstable-v1-client-protocol.h"
#include "tearing-control-v1-client-protocol.h"
#include "xdg-foreign-unstable-v2-client-protocol.h"

#include "../../compositor/core/compositor.h"
#include "../../compositor/protocols/toplevel.h"
#include "../../compositor/shell/shell-private.h"

static void *bind(struct client *c, const struct wl_interface *iface, uint32_t version)
{
	uint32_t name = client_find_global(c, iface->name);

	check(c->test, name != 0);
	return wl_registry_bind(c->registry, name, iface, version);
}

/* ---- content type and tearing control ---- */

TEST(content_type_twice_on_one_surface_is_already_constructed)
{
	struct client *c = client_create(t);
	struct wp_content_type_manager_v1 *m = bind(c, &wp_content_type_manager_v1_interface, 1);
	struct client_surface *s = surface_create(c);
	struct wp_content_type_v1 *ct =
		wp_content_type_manager_v1_get_surface_content_type(m, s->wl_surface);

	/* Out-of-range values say nothing; destroying the surface first leaves the object inert. */
	wp_content_type_v1_set_content_type(ct, WP_CONTENT_TYPE_V1_TYPE_GAME);
	wp_content_type_v1_set_content_type(ct, 0xffffffff);
	wl_surface_commit(s->wl_surface);
	client_roundtrip(c);
	wp_content_type_v1_destroy(ct);
	ct = wp_content_type_manager_v1_get_surface_content_type(m, s->wl_surface);
	client_roundtrip(c);
	wp_content_type_v1_destroy(
		wp_content_type_manager_v1_get_surface_content_type(m, s->wl_surface));
	client_expect_protocol_error(c, &wp_content_type_manager_v1_interface,
				     WP_CONTENT_TYPE_MANAGER_V1_ERROR_ALREADY_CONSTRUCTED);
	wp_content_type_v1_destroy(ct);
	surface_destroy(s);
	wp_content_type_manager_v1_destroy(m);
	client_destroy(c);
	check_compositor_serves(t);
}

TEST(content_type_outlives_its_surface_inert)
{
	struct client *c = client_create(t);
	struct wp_content_type_manager_v1 *m = bind(c, &wp_content_type_manager_v1_interface, 1);
	struct client_surface *s = surface_create(c);
	struct wp_content_type_v1 *ct =
		wp_content_type_manager_v1_get_surface_content_type(m, s->wl_surface);

	surface_destroy(s);
	client_roundtrip(c);
	wp_content_type_v1_set_content_type(ct, WP_CONTENT_TYPE_V1_TYPE_VIDEO);
	client_roundtrip(c);
	wp_content_type_v1_destroy(ct);
	/* A new surface at the same id gets its own object. */
	s = surface_create(c);
	ct = wp_content_type_manager_v1_get_surface_content_type(m, s->wl_surface);
	client_roundtrip(c);
	check_int(t, wl_display_get_error(c->display), ==, 0);
	wp_content_type_v1_destroy(ct);
	surface_destroy(s);
	wp_content_type_manager_v1_destroy(m);
	client_destroy(c);
}

TEST(tearing_control_twice_on_one_surface_is_an_error)
{
	struct client *c = client_create(t);
	struct wp_tearing_control_manager_v1 *m =
		bind(c, &wp_tearing_control_manager_v1_interface, 1);
	struct client_surface *s = surface_create(c);
	struct wp_tearing_control_v1 *tc =
		wp_tearing_control_manager_v1_get_tearing_control(m, s->wl_surface);

	wp_tearing_control_v1_set_presentation_hint(tc, 7);
	wp_tearing_control_v1_set_presentation_hint(tc,
						    WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC);
	wl_surface_commit(s->wl_surface);
	surface_destroy(s);
	client_roundtrip(c);
	wp_tearing_control_v1_set_presentation_hint(tc, 0);
	wp_tearing_control_v1_destroy(tc);
	s = surface_create(c);
	tc = wp_tearing_control_manager_v1_get_tearing_control(m, s->wl_surface);
	client_roundtrip(c);
	check_int(t, wl_display_get_error(c->display), ==, 0);
	wp_tearing_control_v1_destroy(
		wp_tearing_control_manager_v1_get_tearing_control(m, s->wl_surface));
	client_expect_protocol_error(c, &wp_tearing_control_manager_v1_interface,
				     WP_TEARING_CONTROL_MANAGER_V1_ERROR_TEARING_CONTROL_EXISTS);
	wp_tearing_control_v1_destroy(tc);
	surface_destroy(s);
	wp_tearing_control_manager_v1_destroy(m);
	client_destroy(c);
	check_compositor_serves(t);
}

/* ---- cursor shape ---- */

static bool arrow_drawn(struct client *c)
{
	pixman_image_t *image = capture_output(c, client_first_output(c));
	int32_t x, y;
	/* garnet's arrow has a black outline; the surface under it is blue */
	bool found = image_find(image, 0x000000, -1, -1, &x, &y);

	pixman_image_unref(image);
	return found;
}

TEST_WITH_BUILTIN_CURSOR(cursor_shape_needs_the_pointer_and_the_latest_enter_serial)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct wp_cursor_shape_manager_v1 *ma = bind(a, &wp_cursor_shape_manager_v1_interface, 1);
	struct wp_cursor_shape_manager_v1 *mb = bind(b, &wp_cursor_shape_manager_v1_interface, 1);
	struct wp_cursor_shape_device_v1 *da =
		wp_cursor_shape_manager_v1_get_pointer(ma, a->pointer);
	struct wp_cursor_shape_device_v1 *db =
		wp_cursor_shape_manager_v1_get_pointer(mb, b->pointer);
	uint32_t serial;
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	/* off screen */
	struct client_surface *sb = surface_create_placed(b, 400, 0, 10, 10, 0xff00ff00, NULL);

	client_roundtrip(a);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(100), wl_fixed_from_int(100));
	client_roundtrip(a);
	serial = a->input.pointer_enter_serial;
	check(t, a->input.pointer_focus != NULL);
	check(t, arrow_drawn(a));
	/* The focused client hides the cursor: no arrow. */
	wl_pointer_set_cursor(a->pointer, serial, NULL, 0, 0);
	client_roundtrip(a);
	check(t, !arrow_drawn(a));
	/* A forged serial, and another client's right one, change nothing. */
	wp_cursor_shape_device_v1_set_shape(da, serial + 1,
					    WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT);
	wp_cursor_shape_device_v1_set_shape(db, serial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT);
	client_roundtrip(b);
	client_roundtrip(a);
	check(t, !arrow_drawn(a));
	/* Positive control: the right serial shows the arrow again. */
	wp_cursor_shape_device_v1_set_shape(da, serial, WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_TEXT);
	client_roundtrip(a);
	check(t, arrow_drawn(a));
	/* A shape outside the enum is the protocol's error. */
	wp_cursor_shape_device_v1_set_shape(da, serial, 0);
	client_expect_protocol_error(a, &wp_cursor_shape_device_v1_interface,
				     WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE);
	wp_cursor_shape_device_v1_set_shape(db, 0, 35);
	client_expect_protocol_error(b, &wp_cursor_shape_device_v1_interface,
				     WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE);
	wp_cursor_shape_device_v1_destroy(da);
	wp_cursor_shape_device_v1_destroy(db);
	wp_cursor_shape_manager_v1_destroy(ma);
	wp_cursor_shape_manager_v1_destroy(mb);
	surface_destroy(sa);
	surface_destroy(sb);
	client_destroy(a);
	client_destroy(b);
	check_compositor_serves(t);
}

TEST(cursor_shape_device_outlives_its_pointer_inert)
{
	struct client *a = client_create(t);
	struct wp_cursor_shape_manager_v1 *m = bind(a, &wp_cursor_shape_manager_v1_interface, 1);
	struct wp_cursor_shape_device_v1 *d = wp_cursor_shape_manager_v1_get_pointer(m, a->pointer);
	struct client_surface *s = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);

	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	client_roundtrip(a);
	wl_pointer_release(a->pointer);
	a->pointer = NULL;
	wp_cursor_shape_manager_v1_destroy(m);
	wp_cursor_shape_device_v1_set_shape(d, a->input.pointer_enter_serial,
					    WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_WAIT);
	client_roundtrip(a);
	check_int(t, wl_display_get_error(a->display), ==, 0);
	wp_cursor_shape_device_v1_destroy(d);
	surface_destroy(s);
	client_destroy(a);
}

/* ---- xdg-foreign ---- */

struct export_state {
	char handle[128];
	bool got;
};

static void exported_handle(void *data, struct zxdg_exported_v2 *e, const char *handle)
{
	struct export_state *s = data;

	(void)e;
	snprintf(s->handle, sizeof(s->handle), "%s", handle);
	s->got = true;
}

static const struct zxdg_exported_v2_listener exported_listener = {exported_handle};

static void imported_destroyed(void *data, struct zxdg_imported_v2 *i)
{
	(void)i;
	*(bool *)data = true;
}

static const struct zxdg_imported_v2_listener imported_listener = {imported_destroyed};

struct parent_query {
	struct client_surface *child;
	bool has_parent;
};

/* Only the importer's dialog can have a parent in these tests: is there one with a parent? */
static void query_parent(struct garnet_compositor *c, void *data)
{
	struct parent_query *q = data;
	struct garnet_toplevel *tl;

	q->has_parent = false;
	wl_list_for_each(tl, &c->shell->toplevels, link)
		if (tl->parent)
			q->has_parent = true;
}

TEST(xdg_foreign_handle_is_unguessable_and_parents_only_the_importers_window)
{
	struct client *exporter = client_create(t), *importer = client_create(t);
	struct zxdg_exporter_v2 *ex = bind(exporter, &zxdg_exporter_v2_interface, 1);
	struct zxdg_importer_v2 *im = bind(importer, &zxdg_importer_v2_interface, 1);
	struct client_surface *win = toplevel_create(exporter, 100, 100, 0xffff0000, NULL);
	struct client_surface *dialog = toplevel_create(importer, 50, 50, 0xff00ff00, NULL);
	struct export_state es = {0}, es2 = {0};
	struct zxdg_exported_v2 *e = zxdg_exporter_v2_export_toplevel(ex, win->wl_surface);
	struct zxdg_exported_v2 *e2 = zxdg_exporter_v2_export_toplevel(ex, win->wl_surface);
	struct zxdg_imported_v2 *guess, *imp, *imp1;
	bool guess_gone = false, imp_gone = false;
	struct parent_query q = {dialog, false};

	zxdg_exported_v2_add_listener(e, &exported_listener, &es);
	zxdg_exported_v2_add_listener(e2, &exported_listener, &es2);
	client_roundtrip(exporter);
	check(t, es.got && es2.got);
	/* 128 random bits as 32 hex digits, a new one per export. */
	check_int(t, strlen(es.handle), ==, 32);
	check_int(t, strspn(es.handle, "0123456789abcdef"), ==, 32);
	check(t, strcmp(es.handle, es2.handle) != 0);

	/* A guessed handle (another export's with one digit changed) imports nothing. */
	char guessed[128];
	snprintf(guessed, sizeof(guessed), "%s", es.handle);
	guessed[31] = guessed[31] == '0' ? '1' : '0';
	guess = zxdg_importer_v2_import_toplevel(im, guessed);
	zxdg_imported_v2_add_listener(guess, &imported_listener, &guess_gone);
	client_roundtrip(importer);
	check(t, guess_gone);
	zxdg_imported_v2_set_parent_of(guess, dialog->wl_surface);
	client_roundtrip(importer);
	test_run_on_compositor(t, query_parent, &q);
	check(t, !q.has_parent);

	/* Positive control: the real handle makes the importer's own dialog a child. */
	imp = zxdg_importer_v2_import_toplevel(im, es.handle);
	zxdg_imported_v2_add_listener(imp, &imported_listener, &imp_gone);
	zxdg_imported_v2_set_parent_of(imp, dialog->wl_surface);
	client_roundtrip(importer);
	check(t, !imp_gone);
	test_run_on_compositor(t, query_parent, &q);
	check(t, q.has_parent);

	/* Destroying the export ends the import and the relationship. */
	zxdg_exported_v2_destroy(e);
	client_roundtrip(exporter);
	client_roundtrip(importer);
	check(t, imp_gone);
	test_run_on_compositor(t, query_parent, &q);
	check(t, !q.has_parent);

	/* The other export still works until its window goes. */
	imp1 = imp;
	imp_gone = false;
	imp = zxdg_importer_v2_import_toplevel(im, es2.handle);
	zxdg_imported_v2_add_listener(imp, &imported_listener, &imp_gone);
	zxdg_imported_v2_set_parent_of(imp, dialog->wl_surface);
	client_roundtrip(importer);
	test_run_on_compositor(t, query_parent, &q);
	check(t, q.has_parent);
	surface_destroy(win);
	client_roundtrip(exporter);
	client_roundtrip(importer);
	check(t, imp_gone);
	test_run_on_compositor(t, query_parent, &q);
	check(t, !q.has_parent);
	/* Set on an inert import: nothing, no error. */
	zxdg_imported_v2_set_parent_of(imp, dialog->wl_surface);
	client_roundtrip(importer);
	check_int(t, wl_display_get_error(importer->display), ==, 0);
	zxdg_imported_v2_destroy(guess);
	zxdg_imported_v2_destroy(imp1);
	zxdg_imported_v2_destroy(imp);
	zxdg_exported_v2_destroy(e2);
	zxdg_importer_v2_destroy(im);
	zxdg_exporter_v2_destroy(ex);
	surface_destroy(dialog);
	client_destroy(exporter);
	client_destroy(importer);
}

TEST(xdg_foreign_only_toplevels_export_and_take_a_parent)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct zxdg_exporter_v2 *ex = bind(a, &zxdg_exporter_v2_interface, 1);
	struct zxdg_importer_v2 *im = bind(b, &zxdg_importer_v2_interface, 1);
	struct client_surface *win = toplevel_create(a, 100, 100, 0xffff0000, NULL);
	struct client_surface *plain = surface_create(b);
	struct export_state es = {0};
	struct zxdg_exported_v2 *e = zxdg_exporter_v2_export_toplevel(ex, win->wl_surface);
	struct zxdg_imported_v2 *imp, *empty, *overlong;
	struct client_surface *plain_a;
	struct zxdg_exported_v2 *bad;

	zxdg_exported_v2_add_listener(e, &exported_listener, &es);
	client_roundtrip(a);
	/* Extreme handles: empty, overlong. */
	empty = zxdg_importer_v2_import_toplevel(im, "");
	char big[1000];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	overlong = zxdg_importer_v2_import_toplevel(im, big);
	imp = zxdg_importer_v2_import_toplevel(im, es.handle);
	client_roundtrip(b);
	zxdg_imported_v2_set_parent_of(imp, plain->wl_surface);
	client_expect_protocol_error(b, &zxdg_imported_v2_interface,
				     ZXDG_IMPORTED_V2_ERROR_INVALID_SURFACE);
	plain_a = surface_create(a);
	bad = zxdg_exporter_v2_export_toplevel(ex, plain_a->wl_surface);
	client_expect_protocol_error(a, &zxdg_exporter_v2_interface,
				     ZXDG_EXPORTER_V2_ERROR_INVALID_SURFACE);
	zxdg_exported_v2_destroy(bad);
	zxdg_exported_v2_destroy(e);
	zxdg_imported_v2_destroy(imp);
	zxdg_imported_v2_destroy(empty);
	zxdg_imported_v2_destroy(overlong);
	zxdg_importer_v2_destroy(im);
	zxdg_exporter_v2_destroy(ex);
	surface_destroy(plain_a);
	surface_destroy(plain);
	surface_destroy(win);
	client_destroy(a);
	client_destroy(b);
	check_compositor_serves(t);
}

/* ---- keyboard shortcuts inhibitor ---- */

struct inhibit_state {
	int active, inactive;
};

static void inhibitor_active(void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *i)
{
	(void)i;
	((struct inhibit_state *)data)->active++;
}

static void inhibitor_inactive(void *data, struct zwp_keyboard_shortcuts_inhibitor_v1 *i)
{
	(void)i;
	((struct inhibit_state *)data)->inactive++;
}

static const struct zwp_keyboard_shortcuts_inhibitor_v1_listener inhibitor_listener = {
	inhibitor_active, inhibitor_inactive};

/* Stands in for garnet's launcher: records that the lock screen was asked for. */
static bool record_launch(void *data, const char *entry)
{
	if (strcmp(entry, "lock-screen") == 0)
		*(bool *)data = true;
	return false;
}

static void add_bindings(struct garnet_compositor *c, struct test_context *t)
{
	char error[128];
	bool *lock_asked = calloc(1, sizeof(*lock_asked));

	check(t, lock_asked != NULL);
	test_set_data(t, lock_asked);
	garnet_compositor_set_launch_handler(c, record_launch, lock_asked);

	check(t, garnet_compositor_add_binding(c, "super", "f", "fullscreen", NULL, error,
					       sizeof(error)));
	check(t,
	      garnet_compositor_add_binding(c, "super", "l", "lock", NULL, error, sizeof(error)));
	check(t, garnet_compositor_add_binding(c, "super", "escape", "stop-casts", NULL, error,
					       sizeof(error)));
}

struct lock_query {
	struct test_context *t;
	bool asked;
};

static void query_lock_asked(struct garnet_compositor *c, void *data)
{
	struct lock_query *q = data;

	(void)c;
	q->asked = *(bool *)test_data(q->t);
}

static void press_with_super(struct client *c, uint32_t key)
{
	garnet_test_key(c->garnet_test, KEY_LEFTMETA, WL_KEYBOARD_KEY_STATE_PRESSED);
	client_tap_key(c, key);
	garnet_test_key(c->garnet_test, KEY_LEFTMETA, WL_KEYBOARD_KEY_STATE_RELEASED);
	client_roundtrip(c);
}

TEST_WITH(shortcuts_inhibitor_takes_bindings_but_never_lock, add_bindings, DEFAULT_OUTPUT)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct zwp_keyboard_shortcuts_inhibit_manager_v1 *m =
		bind(a, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface, 1);
	struct client_surface *other = toplevel_create(b, 60, 60, 0xff00ff00, NULL);
	struct client_surface *win = toplevel_create(a, 100, 100, 0xffff0000, NULL);
	struct zwp_keyboard_shortcuts_inhibitor_v1 *inh;
	struct inhibit_state st = {0};
	struct lock_query lock = {t, false};
	int keys;

	client_roundtrip(b);
	check(t, a->input.keyboard_focus == win->wl_surface);
	/* Positive control: without an inhibitor super+f is garnet's. */
	keys = a->input.keys;
	press_with_super(a, KEY_F);
	toplevel_wait_configure(win);
	check(t, win->fullscreen);
	check_int(t, a->input.keys, ==, keys + 2); /* only super down and up */
	press_with_super(a, KEY_F);
	toplevel_wait_configure(win);
	check(t, !win->fullscreen);

	inh = zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(m, win->wl_surface,
									  a->seat);
	zwp_keyboard_shortcuts_inhibitor_v1_add_listener(inh, &inhibitor_listener, &st);
	client_roundtrip(a);
	check_int(t, st.active, ==, 1);
	keys = a->input.keys;
	press_with_super(a, KEY_F);
	client_dispatch_for(a, NEGATIVE_WAIT_MS);
	check(t, !win->fullscreen);
	check_int(t, a->input.keys, ==, keys + 4); /* f reached the client */

	/* Focus elsewhere: the inhibitor is inactive and b's keys are garnet's again. */
	garnet_test_activate_surface(b->garnet_test, other->wl_surface);
	client_roundtrip(b);
	client_roundtrip(a);
	check_int(t, st.inactive, ==, 1);
	keys = b->input.keys;
	press_with_super(b, KEY_F);
	toplevel_wait_configure(other);
	check(t, other->fullscreen);

	/* Back on the inhibitor, the stop-casts binding is still garnet's (Escape never reaches
	 * the client), and the lock binding still locks. */
	garnet_test_activate_surface(a->garnet_test, win->wl_surface);
	client_roundtrip(a);
	check_int(t, st.active, ==, 2);
	keys = a->input.keys;
	press_with_super(a, KEY_ESC);
	client_dispatch_for(a, NEGATIVE_WAIT_MS);
	check_int(t, a->input.keys, ==, keys + 2);
	press_with_super(a, KEY_L);
	test_run_on_compositor(t, query_lock_asked, &lock);
	check(t, lock.asked);

	/* A second inhibitor on the surface is the protocol's error. */
	zwp_keyboard_shortcuts_inhibitor_v1_destroy(
		zwp_keyboard_shortcuts_inhibit_manager_v1_inhibit_shortcuts(m, win->wl_surface,
									    a->seat));
	client_expect_protocol_error(
		a, &zwp_keyboard_shortcuts_inhibit_manager_v1_interface,
		ZWP_KEYBOARD_SHORTCUTS_INHIBIT_MANAGER_V1_ERROR_ALREADY_INHIBITED);
	zwp_keyboard_shortcuts_inhibitor_v1_destroy(inh);
	zwp_keyboard_shortcuts_inhibit_manager_v1_destroy(m);
	surface_destroy(win);
	surface_destroy(other);
	client_destroy(a);
	client_destroy(b);
}

/* ---- pointer gestures ---- */

struct gesture_log {
	int begins, updates, ends;
	uint32_t fingers;
	double scale;
	int cancelled;
};

static void swipe_begin(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial,
			uint32_t time, struct wl_surface *surface, uint32_t fingers)
{
	struct gesture_log *l = data;

	l->begins++;
	l->fingers = fingers;
}

static void swipe_update(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t time,
			 wl_fixed_t dx, wl_fixed_t dy)
{
	((struct gesture_log *)data)->updates++;
}

static void swipe_end(void *data, struct zwp_pointer_gesture_swipe_v1 *g, uint32_t serial,
		      uint32_t time, int32_t cancelled)
{
	struct gesture_log *l = data;

	l->ends++;
	l->cancelled = cancelled;
}

static const struct zwp_pointer_gesture_swipe_v1_listener swipe_listener = {
	swipe_begin, swipe_update, swipe_end};

static void pinch_begin(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial,
			uint32_t time, struct wl_surface *surface, uint32_t fingers)
{
	((struct gesture_log *)data)->begins++;
}

static void pinch_update(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t time,
			 wl_fixed_t dx, wl_fixed_t dy, wl_fixed_t scale, wl_fixed_t rotation)
{
	struct gesture_log *l = data;

	l->updates++;
	l->scale = wl_fixed_to_double(scale);
}

static void pinch_end(void *data, struct zwp_pointer_gesture_pinch_v1 *g, uint32_t serial,
		      uint32_t time, int32_t cancelled)
{
	((struct gesture_log *)data)->ends++;
	((struct gesture_log *)data)->cancelled = cancelled;
}

static const struct zwp_pointer_gesture_pinch_v1_listener pinch_listener = {
	pinch_begin, pinch_update, pinch_end};

static void hold_begin(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial,
		       uint32_t time, struct wl_surface *surface, uint32_t fingers)
{
	((struct gesture_log *)data)->begins++;
}

static void hold_end(void *data, struct zwp_pointer_gesture_hold_v1 *g, uint32_t serial,
		     uint32_t time, int32_t cancelled)
{
	((struct gesture_log *)data)->ends++;
	((struct gesture_log *)data)->cancelled = cancelled;
}

static const struct zwp_pointer_gesture_hold_v1_listener hold_listener = {hold_begin, hold_end};

struct gesture_client {
	struct gesture_log swipe, pinch, hold;
	struct zwp_pointer_gesture_swipe_v1 *swipe_obj;
	struct zwp_pointer_gesture_pinch_v1 *pinch_obj;
	struct zwp_pointer_gesture_hold_v1 *hold_obj;
};

static void listen_gestures(struct client *c, struct gesture_client *gc)
{
	struct zwp_pointer_gestures_v1 *m = bind(c, &zwp_pointer_gestures_v1_interface, 3);

	gc->swipe_obj = zwp_pointer_gestures_v1_get_swipe_gesture(m, c->pointer);
	gc->pinch_obj = zwp_pointer_gestures_v1_get_pinch_gesture(m, c->pointer);
	gc->hold_obj = zwp_pointer_gestures_v1_get_hold_gesture(m, c->pointer);
	zwp_pointer_gesture_swipe_v1_add_listener(gc->swipe_obj, &swipe_listener, &gc->swipe);
	zwp_pointer_gesture_pinch_v1_add_listener(gc->pinch_obj, &pinch_listener, &gc->pinch);
	zwp_pointer_gesture_hold_v1_add_listener(gc->hold_obj, &hold_listener, &gc->hold);
	zwp_pointer_gestures_v1_release(m);
}

static void forget_gestures(struct gesture_client *gc)
{
	zwp_pointer_gesture_swipe_v1_destroy(gc->swipe_obj);
	zwp_pointer_gesture_pinch_v1_destroy(gc->pinch_obj);
	zwp_pointer_gesture_hold_v1_destroy(gc->hold_obj);
}

static void gesture(struct client *c, uint32_t kind, uint32_t phase, double scale)
{
	garnet_test_pointer_gesture(c->garnet_test, kind, phase, 3, wl_fixed_from_int(5),
				    wl_fixed_from_int(-5), wl_fixed_from_double(scale), 0, 0);
}

TEST(gestures_reach_only_the_surface_under_the_pointer)
{
	struct client *a = client_create(t), *b = client_create(t);
	struct gesture_client ga = {0}, gb = {0};

	listen_gestures(a, &ga);
	listen_gestures(b, &gb);
	struct client_surface *sa = surface_create_placed(a, 0, 0, 160, 240, 0xff0000ff, NULL);
	struct client_surface *sb = surface_create_placed(b, 160, 0, 160, 240, 0xff00ff00, NULL);

	client_roundtrip(b);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	for (uint32_t kind = 0; kind < 3; kind++) {
		gesture(a, kind, 0, 1);
		if (kind != 2)
			gesture(a, kind, 1, 1.5);
		gesture(a, kind, 2, 1);
	}
	client_roundtrip(a);
	client_dispatch_for(b, NEGATIVE_WAIT_MS);
	check_int(t, ga.swipe.begins, ==, 1);
	check_int(t, ga.swipe.updates, ==, 1);
	check_int(t, ga.swipe.ends, ==, 1);
	check_int(t, ga.swipe.fingers, ==, 3);
	check_int(t, ga.pinch.updates, ==, 1);
	check(t, ga.pinch.scale > 1.4 && ga.pinch.scale < 1.6);
	check_int(t, ga.hold.begins + ga.hold.ends, ==, 2);
	check_int(t, gb.swipe.begins + gb.pinch.begins + gb.hold.begins, ==, 0);

	/* A swipe begun over a stays a's when the pointer moves over b, and b hears nothing. */
	gesture(a, 0, 0, 1);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(200), wl_fixed_from_int(10));
	gesture(a, 0, 1, 1);
	gesture(a, 0, 2, 1);
	client_roundtrip(a);
	client_dispatch_for(b, NEGATIVE_WAIT_MS);
	check_int(t, ga.swipe.ends, ==, 2);
	check_int(t, gb.swipe.begins + gb.swipe.updates + gb.swipe.ends, ==, 0);

	/* Out-of-range kind or phase is garnet_test's own error, not a crash. */
	garnet_test_pointer_gesture(a->garnet_test, 3, 0, 1, 0, 0, 0, 0, 0);
	client_expect_protocol_error(a, &garnet_test_interface, GARNET_TEST_ERROR_BAD_GESTURE);
	forget_gestures(&ga);
	forget_gestures(&gb);
	surface_destroy(sa);
	surface_destroy(sb);
	client_destroy(a);
	client_destroy(b);
	check_compositor_serves(t);
}

static void lock_locked(void *data, struct ext_session_lock_v1 *lock)
{
}

static void lock_finished(void *data, struct ext_session_lock_v1 *lock)
{
}

static const struct ext_session_lock_v1_listener gesture_lock_listener = {lock_locked,
									   lock_finished};

/* A swipe, a pinch and a hold under way when the session locks: each ends, cancelled, for
 * the client that had it, and the rest of them (libinput's updates and ends) reaches nobody;
 * a begin with no end of the gesture before ends that one, cancelled. */
TEST(gestures_cut_off_by_the_lock_end_cancelled)
{
	struct client *a = client_create(t), *locker = client_create(t);
	struct gesture_client ga = {0};
	struct gesture_log *logs[3] = {&ga.swipe, &ga.pinch, &ga.hold};
	struct client_surface *sa = surface_create_placed(a, 0, 0, 320, 240, 0xff0000ff, NULL);
	struct ext_session_lock_manager_v1 *m;
	struct ext_session_lock_v1 *lock;

	listen_gestures(a, &ga);
	client_roundtrip(a);
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(10), wl_fixed_from_int(10));
	for (uint32_t kind = 0; kind < 3; kind++)
		gesture(a, kind, 0, 1);
	client_roundtrip(a);
	m = wl_registry_bind(locker->registry,
			     client_find_global(locker, "ext_session_lock_manager_v1"),
			     &ext_session_lock_manager_v1_interface, 1);
	lock = ext_session_lock_manager_v1_lock(m);
	ext_session_lock_v1_add_listener(lock, &gesture_lock_listener, NULL);
	client_roundtrip(locker);
	client_roundtrip(a);
	for (int k = 0; k < 3; k++) {
		check_int(t, logs[k]->begins, ==, 1);
		check_int(t, logs[k]->ends, ==, 1);
		check_int(t, logs[k]->cancelled, ==, 1);
	}
	/* The touchpad's own update and end come later: nobody hears them. */
	gesture(a, 0, 1, 1);
	gesture(a, 0, 2, 1);
	gesture(a, 1, 2, 1);
	gesture(a, 2, 2, 1);
	client_roundtrip(a);
	check_int(t, ga.swipe.updates, ==, 0);
	for (int k = 0; k < 3; k++)
		check_int(t, logs[k]->ends, ==, 1);
	ext_session_lock_v1_unlock_and_destroy(lock);
	ext_session_lock_manager_v1_destroy(m);
	client_roundtrip(locker);
	/* Unlocked: a swipe begun twice ends the first one, cancelled. */
	garnet_test_pointer_motion(a->garnet_test, wl_fixed_from_int(12), wl_fixed_from_int(10));
	gesture(a, 0, 0, 1);
	gesture(a, 0, 0, 1);
	client_roundtrip(a);
	check_int(t, ga.swipe.begins, ==, 3);
	check_int(t, ga.swipe.ends, ==, 2);
	check_int(t, ga.swipe.cancelled, ==, 1);
	gesture(a, 0, 2, 1);
	client_roundtrip(a);
	check_int(t, ga.swipe.ends, ==, 3);
	check_int(t, ga.swipe.cancelled, ==, 0);
	forget_gestures(&ga);
	surface_destroy(sa);
	client_destroy(locker);
	client_destroy(a);
	check_compositor_serves(t);
}
