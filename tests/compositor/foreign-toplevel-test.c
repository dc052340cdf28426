// SPDX-License-Identifier: MIT
// zwlr_foreign_toplevel_management_v1 as a task bar sees it: the outputs a window is on follow
// it when it moves, when an output goes and comes back, and on a wl_output bound late; a parent
// that maps after its child is named; a window renaming itself in a loop reaches the task bar
// coalesced and truncated.
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "garnet/compositor.h"
#include "garnet/headless.h"
#include "garnet/output.h"
#include "harness.h"

#include "wlr-foreign-toplevel-management-unstable-v1-client-protocol.h"

#define MAX_OUTPUTS 8

struct handle {
	struct taskbar *bar;
	struct zwlr_foreign_toplevel_handle_v1 *proxy;
	struct wl_list link;
	char title[8192];
	int titles, dones;
	struct wl_output *outputs[MAX_OUTPUTS]; /* entered, not left */
	int enters, leaves;
	struct zwlr_foreign_toplevel_handle_v1 *parent;
	int parents;
	bool closed;
};

struct taskbar {
	struct client *c;
	struct zwlr_foreign_toplevel_manager_v1 *manager;
	struct wl_list handles; /* handle.link, in the order announced */
};

static void on_title(void *data, struct zwlr_foreign_toplevel_handle_v1 *p, const char *title)
{
	struct handle *h = data;

	snprintf(h->title, sizeof(h->title), "%s", title);
	h->titles++;
}

static void on_app_id(void *data, struct zwlr_foreign_toplevel_handle_v1 *p, const char *id)
{
}

static void on_output_enter(void *data, struct zwlr_foreign_toplevel_handle_v1 *p,
			    struct wl_output *output)
{
	struct handle *h = data;

	h->enters++;
	for (int i = 0; i < MAX_OUTPUTS; i++) {
		if (!h->outputs[i]) {
			h->outputs[i] = output;
			return;
		}
	}
}

static void on_output_leave(void *data, struct zwlr_foreign_toplevel_handle_v1 *p,
			    struct wl_output *output)
{
	struct handle *h = data;

	h->leaves++;
	for (int i = 0; i < MAX_OUTPUTS; i++) {
		if (h->outputs[i] == output) {
			h->outputs[i] = NULL;
			return;
		}
	}
	test_fail(h->bar->c->test, __FILE__, __LINE__, "output_leave of an output never entered");
}

static void on_state(void *data, struct zwlr_foreign_toplevel_handle_v1 *p, struct wl_array *s)
{
}

static void on_done(void *data, struct zwlr_foreign_toplevel_handle_v1 *p)
{
	struct handle *h = data;

	h->dones++;
}

static void on_closed(void *data, struct zwlr_foreign_toplevel_handle_v1 *p)
{
	struct handle *h = data;

	h->closed = true;
}

static void on_parent(void *data, struct zwlr_foreign_toplevel_handle_v1 *p,
		      struct zwlr_foreign_toplevel_handle_v1 *parent)
{
	struct handle *h = data;

	h->parent = parent;
	h->parents++;
}

static const struct zwlr_foreign_toplevel_handle_v1_listener handle_listener = {
	.title = on_title,
	.app_id = on_app_id,
	.output_enter = on_output_enter,
	.output_leave = on_output_leave,
	.state = on_state,
	.done = on_done,
	.closed = on_closed,
	.parent = on_parent,
};

static void on_toplevel(void *data, struct zwlr_foreign_toplevel_manager_v1 *m,
			struct zwlr_foreign_toplevel_handle_v1 *proxy)
{
	struct taskbar *bar = data;
	struct handle *h = calloc(1, sizeof(*h));

	h->bar = bar;
	h->proxy = proxy;
	wl_list_insert(bar->handles.prev, &h->link);
	zwlr_foreign_toplevel_handle_v1_add_listener(proxy, &handle_listener, h);
}

static void on_finished(void *data, struct zwlr_foreign_toplevel_manager_v1 *m)
{
}

static const struct zwlr_foreign_toplevel_manager_v1_listener manager_listener = {
	on_toplevel,
	on_finished,
};

static struct taskbar *taskbar_create(struct test_context *t)
{
	struct taskbar *bar = calloc(1, sizeof(*bar));
	uint32_t name;

	bar->c = client_create(t);
	wl_list_init(&bar->handles);
	name = client_find_global(bar->c, "zwlr_foreign_toplevel_manager_v1");
	check(t, name != 0);
	bar->manager = wl_registry_bind(bar->c->registry, name,
					&zwlr_foreign_toplevel_manager_v1_interface, 3);
	zwlr_foreign_toplevel_manager_v1_add_listener(bar->manager, &manager_listener, bar);
	client_roundtrip(bar->c);
	return bar;
}

static struct handle *nth_handle(struct taskbar *bar, int n)
{
	struct handle *h;

	wl_list_for_each(h, &bar->handles, link) {
		if (n-- == 0)
			return h;
	}
	test_fail(bar->c->test, __FILE__, __LINE__, "no handle %d", n);
}

static int entered(struct handle *h)
{
	int n = 0;

	for (int i = 0; i < MAX_OUTPUTS; i++)
		n += h->outputs[i] != NULL;
	return n;
}

static bool has_entered(struct handle *h, struct wl_output *output)
{
	for (int i = 0; i < MAX_OUTPUTS; i++) {
		if (h->outputs[i] == output)
			return true;
	}
	return false;
}

static struct client_output *output_named(struct client *c, const char *name)
{
	struct client_output *out;

	wl_list_for_each(out, &c->outputs, link) {
		if (strcmp(out->name, name) == 0)
			return out;
	}
	test_fail(c->test, __FILE__, __LINE__, "no output %s", name);
}

static void taskbar_destroy(struct taskbar *bar)
{
	struct handle *h, *tmp;

	wl_list_for_each_safe(h, tmp, &bar->handles, link) {
		zwlr_foreign_toplevel_handle_v1_destroy(h->proxy);
		free(h);
	}
	zwlr_foreign_toplevel_manager_v1_destroy(bar->manager);
	client_destroy(bar->c);
	free(bar);
}

static void sync(struct client *app, struct taskbar *bar)
{
	client_roundtrip(app);
	client_roundtrip(bar->c);
}

TEST_WITH(a_window_moved_to_another_output_is_announced_there_at_once, NULL, {320, 240, 1, 0, 0},
	  {320, 240, 1, 0, 0})
{
	struct client *app = client_create(t);
	struct client_surface *win = toplevel_create(app, 60, 40, 0xffff0000, NULL);
	struct taskbar *bar = taskbar_create(t);
	struct handle *h = nth_handle(bar, 0);
	int dones;

	garnet_test_move_surface(app->garnet_test, win->wl_surface, 10, 10);
	sync(app, bar);
	check_int(t, entered(h), ==, 1);
	check(t, has_entered(h, output_named(bar->c, "HEADLESS-1")->wl_output));
	dones = h->dones;
	/* Nothing else about the window changes: the move alone must reach the task bar. */
	garnet_test_move_surface(app->garnet_test, win->wl_surface, 500, 50);
	sync(app, bar);
	check_int(t, entered(h), ==, 1);
	check(t, has_entered(h, output_named(bar->c, "HEADLESS-2")->wl_output));
	check_int(t, h->dones, ==, dones + 1);
	/* Across both: on both. */
	garnet_test_move_surface(app->garnet_test, win->wl_surface, 300, 50);
	sync(app, bar);
	check_int(t, entered(h), ==, 2);
	taskbar_destroy(bar);
	surface_destroy(win);
	client_destroy(app);
}

static void unplug_second_output(struct garnet_compositor *c, void *data)
{
	garnet_output_destroy(garnet_compositor_find_output(c, "HEADLESS-2"));
}

static void plug_an_output(struct garnet_compositor *c, void *data)
{
	struct garnet_output_mode mode = {.width = 320, .height = 240, .scale = 1};

	garnet_headless_add_output(c, &mode);
}

TEST_WITH(an_output_that_goes_is_left_and_its_successor_is_entered, NULL, {320, 240, 1, 0, 0},
	  {320, 240, 1, 0, 0})
{
	struct client *app = client_create(t);
	struct client_surface *win = toplevel_create(app, 100, 40, 0xffff0000, NULL);
	struct taskbar *bar = taskbar_create(t);
	struct handle *h = nth_handle(bar, 0);
	struct wl_output *second = output_named(bar->c, "HEADLESS-2")->wl_output;

	/* Mostly on the first output, so that the shell leaves it where it is when the second
	 * goes. */
	garnet_test_move_surface(app->garnet_test, win->wl_surface, 250, 50);
	sync(app, bar);
	check_int(t, entered(h), ==, 2);
	test_run_on_compositor(t, unplug_second_output, NULL);
	sync(app, bar);
	check(t, !has_entered(h, second));
	check_int(t, entered(h), ==, 1);
	/* The new output takes the old one's place (and its number inside garnet). */
	test_run_on_compositor(t, plug_an_output, NULL);
	sync(app, bar);
	garnet_test_move_surface(app->garnet_test, win->wl_surface, 260, 50);
	sync(app, bar);
	check_int(t, win->entered_outputs, ==, 2);
	check_int(t, entered(h), ==, 2);
	check(t, has_entered(h, output_named(bar->c, "HEADLESS-3")->wl_output));
	taskbar_destroy(bar);
	surface_destroy(win);
	client_destroy(app);
}

static void no_output(void *data, struct wl_output *o)
{
}
static void no_geometry(void *data, struct wl_output *o, int32_t x, int32_t y, int32_t pw,
			int32_t ph, int32_t sp, const char *make, const char *model, int32_t tr)
{
}
static void no_mode(void *data, struct wl_output *o, uint32_t flags, int32_t w, int32_t h,
		    int32_t refresh)
{
}
static void no_scale(void *data, struct wl_output *o, int32_t scale)
{
}
static void no_string(void *data, struct wl_output *o, const char *s)
{
}
static const struct wl_output_listener quiet_output = {
	no_geometry, no_mode, no_output, no_scale, no_string, no_string,
};

TEST(a_wl_output_bound_after_the_window_is_announced_is_entered)
{
	struct client *app = client_create(t);
	struct client_surface *win = toplevel_create(app, 60, 40, 0xffff0000, NULL);
	struct taskbar *bar = taskbar_create(t);
	struct handle *h = nth_handle(bar, 0);
	struct wl_output *late;
	int dones;

	sync(app, bar);
	check_int(t, entered(h), ==, 1);
	dones = h->dones;
	late = wl_registry_bind(bar->c->registry, client_find_global(bar->c, "wl_output"),
				&wl_output_interface, 4);
	wl_output_add_listener(late, &quiet_output, NULL);
	client_roundtrip(bar->c);
	check(t, has_entered(h, late));
	check_int(t, h->dones, ==, dones + 1);
	wl_output_release(late);
	taskbar_destroy(bar);
	surface_destroy(win);
	client_destroy(app);
}

TEST(a_parent_that_maps_after_its_child_is_named_as_its_parent)
{
	struct client *app = client_create(t);
	struct taskbar *bar = taskbar_create(t);
	struct client_surface *parent = toplevel_create_uncommitted(app);
	struct client_surface *child = toplevel_create_uncommitted(app);
	struct buffer *b = buffer_create(app, 50, 50, WL_SHM_FORMAT_ARGB8888);
	struct client_surface *other;
	struct handle *hc, *hp;

	xdg_toplevel_set_title(parent->xdg_toplevel, "parent");
	xdg_toplevel_set_title(child->xdg_toplevel, "child");
	xdg_toplevel_set_parent(child->xdg_toplevel, parent->xdg_toplevel);
	buffer_fill(b, 0xff00ff00);
	wl_surface_commit(child->wl_surface);
	check(t, toplevel_wait_configure(child));
	xdg_surface_ack_configure(child->xdg_surface, child->configure_serial);
	surface_show(child, b);
	sync(app, bar);
	hc = nth_handle(bar, 0);
	check(t, strcmp(hc->title, "child") == 0);
	check(t, hc->parent == NULL);
	/* Another window takes the keyboard, so that nothing else about the child changes when
	 * its parent maps. */
	other = toplevel_create(app, 30, 30, 0xff0000ff, NULL);
	sync(app, bar);
	wl_surface_commit(parent->wl_surface);
	check(t, toplevel_wait_configure(parent));
	xdg_surface_ack_configure(parent->xdg_surface, parent->configure_serial);
	surface_show(parent, b);
	sync(app, bar);
	hp = nth_handle(bar, 2);
	check(t, strcmp(hp->title, "parent") == 0);
	check(t, hc->parent == hp->proxy);
	/* The parent goes: the child has none again. */
	surface_destroy(parent);
	sync(app, bar);
	check(t, hp->closed);
	check(t, hc->parent == NULL);
	taskbar_destroy(bar);
	surface_destroy(other);
	surface_destroy(child);
	buffer_destroy(b);
	client_destroy(app);
}

/* Every request out, however long the socket takes to drain (libwayland 1.21 drops a client
 * whose buffer overflows). */
static void flush_all(struct client *c)
{
	struct pollfd pfd = {wl_display_get_fd(c->display), POLLOUT, 0};

	while (wl_display_flush(c->display) < 0 && errno == EAGAIN)
		poll(&pfd, 1, 1000);
}

/* The most a title or app id can carry in one message (libwayland's 4096-byte buffer). */
#define HUGE 4000

TEST(a_window_renaming_itself_in_a_loop_reaches_the_task_bar_coalesced_and_truncated)
{
	struct client *app = client_create(t);
	struct client_surface *win = toplevel_create(app, 60, 40, 0xffff0000, NULL);
	struct taskbar *bar = taskbar_create(t);
	struct handle *h = nth_handle(bar, 0);
	static char title[HUGE + 1];
	int titles;

	sync(app, bar);
	titles = h->titles;
	/* Thousands of renames, each huge, as fast as the socket takes them. */
	for (int i = 0; i < 3000; i++) {
		memset(title, 'a' + i % 26, HUGE);
		title[HUGE] = '\0';
		xdg_toplevel_set_title(win->xdg_toplevel, title);
		flush_all(app);
		xdg_toplevel_set_app_id(win->xdg_toplevel, title);
		flush_all(app);
	}
	client_roundtrip(app);
	/* The last title comes, at the pace garnet allows a window that renames itself. */
	for (int i = 0; i < 100 && h->title[0] != 'a' + 2999 % 26; i++)
		client_dispatch_for(bar->c, 20);
	/* The task bar is still connected, heard the last title, not every one... */
	check_int(t, wl_display_get_error(bar->c->display), ==, 0);
	check_int(t, h->title[0], ==, 'a' + 2999 % 26);
	check_int(t, h->titles - titles, <, 300);
	/* ...and at most the documented length of it (garnet's doc/foreign-toplevel.md). */
	check_int(t, strlen(h->title), ==, 512);
	/* A title cut inside a UTF-8 character is cut before it. */
	memset(title, 'x', 511);
	strcpy(title + 511, "\xc3\xa9tail");
	xdg_toplevel_set_title(win->xdg_toplevel, title);
	client_roundtrip(app);
	for (int i = 0; i < 100 && h->title[0] != 'x'; i++)
		client_dispatch_for(bar->c, 20);
	check_int(t, strlen(h->title), ==, 511);
	check_compositor_serves(t);
	taskbar_destroy(bar);
	surface_destroy(win);
	client_destroy(app);
}
