// SPDX-License-Identifier: MIT
// wl_subsurface: position and stacking applied with the parent's commit, synchronized state held
// until the parent commits, desynchronized state applied at once.
#include "harness.h"

#define RED 0xffff0000u
#define GREEN 0xff00ff00u
#define BLUE 0xff0000ffu

struct family {
	struct client_surface *parent, *child;
	struct wl_subsurface *sub;
	struct buffer *child_buffer;
};

static void make_family(struct client *c, struct family *f)
{
	f->parent = surface_create_placed(c, 0, 0, 100, 100, RED, NULL);
	f->child = surface_create(c);
	f->sub = wl_subcompositor_get_subsurface(c->subcompositor, f->child->wl_surface,
						 f->parent->wl_surface);
	f->child_buffer = buffer_create(c, 40, 40, WL_SHM_FORMAT_XRGB8888);
	buffer_fill(f->child_buffer, GREEN);
}

static void free_family(struct family *f)
{
	wl_subsurface_destroy(f->sub);
	buffer_destroy(f->child_buffer);
	surface_destroy(f->child);
	surface_destroy(f->parent);
}

static uint32_t pixel_at(struct client *c, int32_t x, int32_t y)
{
	pixman_image_t *shot = capture_output(c, client_first_output(c));
	uint32_t p = image_pixel(shot, x, y);

	pixman_image_unref(shot);
	return p;
}

TEST(synchronized_subsurface_waits_for_parent_commit)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	wl_subsurface_set_position(f.sub, 20, 20);
	surface_show(f.child, f.child_buffer);
	/* Committed, but synchronized: nothing shows until the parent commits. */
	check_int(t, pixel_at(c, 30, 30), ==, RED);
	wl_surface_commit(f.parent->wl_surface);
	check_int(t, pixel_at(c, 30, 30), ==, GREEN);
	check_int(t, pixel_at(c, 19, 19), ==, RED);
	free_family(&f);
	client_destroy(c);
}

TEST(desynchronized_subsurface_applies_at_once)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	wl_subsurface_set_position(f.sub, 10, 10);
	wl_subsurface_set_desync(f.sub);
	wl_surface_commit(f.parent->wl_surface); /* applies the position */
	surface_show(f.child, f.child_buffer);
	check_int(t, pixel_at(c, 15, 15), ==, GREEN);
	free_family(&f);
	client_destroy(c);
}

TEST(set_desync_applies_cached_state)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	surface_show(f.child, f.child_buffer);
	check_int(t, pixel_at(c, 5, 5), ==, RED);
	wl_subsurface_set_desync(f.sub);
	check_int(t, pixel_at(c, 5, 5), ==, GREEN);
	free_family(&f);
	client_destroy(c);
}

TEST(position_changes_with_parent_commit_only)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	wl_subsurface_set_desync(f.sub);
	surface_show(f.child, f.child_buffer);
	check_int(t, pixel_at(c, 5, 5), ==, GREEN);
	wl_subsurface_set_position(f.sub, 50, 50);
	check_int(t, pixel_at(c, 5, 5), ==, GREEN);
	wl_surface_commit(f.parent->wl_surface);
	check_int(t, pixel_at(c, 5, 5), ==, RED);
	check_int(t, pixel_at(c, 55, 55), ==, GREEN);
	free_family(&f);
	client_destroy(c);
}

TEST(place_below_parent_puts_child_under_it)
{
	struct client *c = client_create(t);
	struct family f;
	pixman_image_t *shot;

	make_family(c, &f);
	wl_subsurface_set_position(f.sub, 80, 80);
	surface_show(f.child, f.child_buffer);
	wl_subsurface_place_below(f.sub, f.parent->wl_surface);
	wl_surface_commit(f.parent->wl_surface);
	shot = capture_output(c, client_first_output(c));
	check_int(t, image_pixel(shot, 90, 90), ==, RED);    /* parent covers child */
	check_int(t, image_pixel(shot, 110, 110), ==, GREEN); /* child outside parent */
	check_screenshot(t, shot, "subsurface-below");
	pixman_image_unref(shot);
	wl_subsurface_place_above(f.sub, f.parent->wl_surface);
	wl_surface_commit(f.parent->wl_surface);
	check_int(t, pixel_at(c, 90, 90), ==, GREEN);
	free_family(&f);
	client_destroy(c);
}

TEST(sibling_stacking_orders_children)
{
	struct client *c = client_create(t);
	struct family f;
	struct client_surface *second = surface_create(c);
	struct wl_subsurface *sub2;
	struct buffer *b2 = buffer_create(c, 40, 40, WL_SHM_FORMAT_XRGB8888);

	make_family(c, &f);
	sub2 = wl_subcompositor_get_subsurface(c->subcompositor, second->wl_surface,
					       f.parent->wl_surface);
	buffer_fill(b2, BLUE);
	wl_subsurface_set_position(sub2, 20, 20);
	surface_show(second, b2);
	surface_show(f.child, f.child_buffer);
	wl_surface_commit(f.parent->wl_surface);
	/* Newer subsurfaces start on top. */
	check_int(t, pixel_at(c, 30, 30), ==, BLUE);
	wl_subsurface_place_below(sub2, f.child->wl_surface);
	check_int(t, pixel_at(c, 30, 30), ==, BLUE);
	wl_surface_commit(f.parent->wl_surface);
	check_int(t, pixel_at(c, 30, 30), ==, GREEN);
	check_int(t, pixel_at(c, 50, 50), ==, BLUE);
	wl_subsurface_destroy(sub2);
	buffer_destroy(b2);
	surface_destroy(second);
	free_family(&f);
	client_destroy(c);
}

TEST(subsurface_enters_and_leaves_outputs_with_its_parent)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	wl_subsurface_set_desync(f.sub);
	surface_show(f.child, f.child_buffer);
	client_roundtrip(c);
	check_int(t, f.child->entered_outputs, ==, 1);
	garnet_test_move_surface(c->garnet_test, f.parent->wl_surface, 2000, 2000);
	client_roundtrip(c);
	check_int(t, f.child->entered_outputs, ==, 0);
	garnet_test_move_surface(c->garnet_test, f.parent->wl_surface, 0, 0);
	client_roundtrip(c);
	check_int(t, f.child->entered_outputs, ==, 1);
	free_family(&f);
	client_destroy(c);
}

TEST(subsurface_of_itself_is_an_error)
{
	struct client *c = client_create(t);
	struct client_surface *s = surface_create(c);
	struct wl_subsurface *sub =
		wl_subcompositor_get_subsurface(c->subcompositor, s->wl_surface, s->wl_surface);

	client_expect_protocol_error(c, &wl_subcompositor_interface,
				     WL_SUBCOMPOSITOR_ERROR_BAD_SURFACE);
	wl_subsurface_destroy(sub);
	surface_destroy(s);
	client_destroy(c);
}

TEST(place_above_non_sibling_is_an_error)
{
	struct client *c = client_create(t);
	struct family f;
	struct client_surface *stranger = surface_create(c);

	make_family(c, &f);
	wl_subsurface_place_above(f.sub, stranger->wl_surface);
	client_expect_protocol_error(c, &wl_subsurface_interface, WL_SUBSURFACE_ERROR_BAD_SURFACE);
	surface_destroy(stranger);
	free_family(&f);
	client_destroy(c);
}

TEST(destroying_parent_hides_child_and_compositor_survives)
{
	struct client *c = client_create(t);
	struct family f;

	make_family(c, &f);
	wl_subsurface_set_desync(f.sub);
	surface_show(f.child, f.child_buffer);
	check_int(t, pixel_at(c, 5, 5), ==, GREEN);
	surface_destroy(f.parent);
	check_int(t, pixel_at(c, 5, 5), ==, 0xff203040u);
	/* The child and its wl_subsurface outlive the parent as inert objects. */
	wl_subsurface_set_position(f.sub, 1, 1);
	surface_show(f.child, f.child_buffer);
	client_roundtrip(c);
	wl_subsurface_destroy(f.sub);
	buffer_destroy(f.child_buffer);
	surface_destroy(f.child);
	client_destroy(c);
}

TEST(nested_subsurfaces_stack_and_match_reference)
{
	struct client *c = client_create(t);
	struct client_surface *root = surface_create_placed(c, 20, 20, 200, 150, RED, NULL);
	struct client_surface *mid = surface_create(c), *leaf = surface_create(c);
	struct wl_subsurface *sub_mid =
		wl_subcompositor_get_subsurface(c->subcompositor, mid->wl_surface, root->wl_surface);
	struct wl_subsurface *sub_leaf =
		wl_subcompositor_get_subsurface(c->subcompositor, leaf->wl_surface, mid->wl_surface);
	struct buffer *bm = buffer_create(c, 120, 80, WL_SHM_FORMAT_ARGB8888);
	struct buffer *bl = buffer_create(c, 60, 60, WL_SHM_FORMAT_ARGB8888);
	pixman_image_t *shot;

	buffer_fill(bm, GREEN);
	buffer_fill(bl, 0x80000080); /* half-transparent blue, premultiplied */
	wl_subsurface_set_position(sub_mid, 40, 30);
	wl_subsurface_set_position(sub_leaf, 90, 50);
	surface_show(leaf, bl);
	surface_show(mid, bm);
	wl_surface_commit(root->wl_surface);
	shot = capture_output(c, client_first_output(c));
	/* leaf at 20+40+90, 20+30+50 over mid (green) and over root (red) */
	check_int(t, image_pixel(shot, 155, 105), ==, 0xff007f80u);
	check_int(t, image_pixel(shot, 205, 105), ==, 0xff7f0080u);
	check_screenshot(t, shot, "subsurface-nested");
	pixman_image_unref(shot);
	wl_subsurface_destroy(sub_leaf);
	wl_subsurface_destroy(sub_mid);
	buffer_destroy(bl);
	buffer_destroy(bm);
	surface_destroy(leaf);
	surface_destroy(mid);
	surface_destroy(root);
	client_destroy(c);
}
