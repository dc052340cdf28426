// SPDX-License-Identifier: MIT
// garnet's consent dialog: when the policy says "ask", the user answers in a dialog garnet
// draws itself, above every client and dimming all of them. While it is up no client gets
// input, so none can answer it, click through it or take the keyboard from it; only hardware
// input reaches it (virtual keyboards and input methods go to clients, never here). Answers
// count only once the dialog has been up, with no key or click, for a moment, so a key or
// click meant for a window cannot land on it. One question at a time; a client asks one thing
// at a time, and one the user refused is not asked about again while it stays connected.
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <xkbcommon/xkbcommon.h>

#include "compositor.h"
#include "region.h"
#include "output.h"
#include "seat.h"
#include "consent.h"
#include "surface.h"
#include "view.h"
#include "../render/consent-dialog.h"
#include "shell-hooks.h"

/* Questions waiting at once; more are refused without asking. */
#define MAX_WAITING 8
/* A region dragged out narrower or lower than this is taken for a slip: all of the output. */
#define MIN_REGION 16
/* The width of the frame around a region being chosen. */
#define REGION_FRAME 2

struct garnet_consent_request {
	struct garnet_consent *consent;
	struct wl_client *client;
	enum garnet_ask_act act;
	char *object;
	char who[256];
	/* Asked for an application the client (the portal's backend) speaks for: the answer is
	 * this request's only, and a refusal is the application's, not the client's. */
	bool for_app;
	void (*done)(void *data, bool allowed);
	/* A recording for an application: the user may choose another output or one window
	 * instead of the output asked about (Tab goes through them); done_choice hears which. */
	garnet_consent_cast_done done_choice;
	struct garnet_surface *window; /* the chosen window, or NULL: an output */
	char *output; /* the chosen output's name (NULL: object), while window is NULL */
	/* A part of that output the user dragged out (the output's coordinates); empty: all. */
	pixman_box32_t region;
	struct wl_listener window_destroy;
	void *data;
	struct wl_list link; /* garnet_consent.waiting, the one shown first */
};

/* A client the user refused: not asked about again while it is connected. */
struct refused_client {
	struct wl_client *client;
	struct wl_listener destroy;
	struct wl_list link;
};

struct garnet_consent {
	struct garnet_compositor *compositor;
	struct wl_list waiting; /* garnet_consent_request.link */
	struct wl_list refused; /* refused_client.link */
	struct wl_event_source *arm_timer;
	bool armed;
	/* A question is on screen and has the input. */
	bool visible;
	/* Copies the user allowed, still to be made from a frame without any dialog: the next
	 * question waits for them. */
	int holds;
	pixman_image_t *panel; /* NULL: to be drawn again */
	pixman_image_t *dim, *frame;
	/* The pointer's button is down off the panel: the region follows the pointer from
	 * where it went down (global space). */
	bool dragging;
	double drag_x, drag_y;
};

static struct garnet_consent_request *shown(struct garnet_consent *cs)
{
	if (!cs || wl_list_empty(&cs->waiting))
		return NULL;
	return wl_container_of(cs->waiting.next, (struct garnet_consent_request *)NULL, link);
}

bool garnet_consent_active(struct garnet_compositor *c)
{
	return c->consent && c->consent->visible && !c->locked;
}

static void forget_panel(struct garnet_consent *cs)
{
	if (cs->panel)
		pixman_image_unref(cs->panel);
	cs->panel = NULL;
}

/* The dialog takes the input from the clients: a drag, a move or a popup grab ends (a drag
 * icon must not follow the pointer over it), and the leaves go out while clients may still
 * hear them (the dialog is not visible yet). */
static void take_input(struct garnet_consent *cs)
{
	garnet_seat_take_input(cs->compositor->seat);
	cs->visible = true;
	/* The question is not asked on a screen a client darkened. */
	garnet_compositor_power_on_for_prompt(cs->compositor);
}

/* How long the dialog is shown, with no key or click, before an answer counts. */
static uint32_t arm_ms(const struct garnet_consent *cs)
{
	uint32_t ms = cs->compositor->options.consent_arm_ms;

	/* 0 would disarm the timer (never armed); the timer takes an int. */
	return ms == 0 ? 1 : ms > INT_MAX ? INT_MAX : ms;
}

/* What is on screen follows the queue: the first question, armed after arm_ms, unless copies
 * the user allowed are still to be made; with none, the clients get the input back. */
static void show_next(struct garnet_consent *cs)
{
	struct garnet_compositor *c = cs->compositor;
	struct garnet_consent_request *r = shown(cs);

	forget_panel(cs);
	cs->armed = false;
	cs->dragging = false;
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
	if (!r || cs->holds > 0) {
		bool was_visible = cs->visible;

		cs->visible = false;
		wl_event_source_timer_update(cs->arm_timer, 0);
		if (was_visible && !c->locked) {
			c->shell_hooks->return_keyboard(c->shell);
		}
		garnet_seat_repick(c->seat);
		return;
	}
	if (!cs->visible)
		take_input(cs);
	garnet_log(c, GARNET_LOG_INFO, "consent", "asking the user: %s, %s", r->who,
		   r->object);
	wl_event_source_timer_update(cs->arm_timer, arm_ms(cs));
}

void garnet_consent_hold(struct garnet_compositor *c)
{
	if (c->consent)
		c->consent->holds++;
}

void garnet_consent_release(struct garnet_compositor *c)
{
	struct garnet_consent *cs = c->consent;

	if (cs && cs->holds > 0 && --cs->holds == 0 && shown(cs))
		show_next(cs);
}

/* A key or click before the dialog is armed starts the wait again: someone typing or clicking
 * on and on (or lured into it) cannot answer; the dialog arms once they pause. */
static void wait_for_a_pause(struct garnet_consent *cs)
{
	wl_event_source_timer_update(cs->arm_timer, arm_ms(cs));
}

/* What the answer would share changed (Tab, or the chosen window went): a key already on its
 * way must not answer for the new subject, so the dialog waits for a pause again. */
static void rearm(struct garnet_consent *cs)
{
	cs->armed = false;
	wait_for_a_pause(cs);
}

static int arm(void *data)
{
	struct garnet_consent *cs = data;

	cs->armed = true;
	forget_panel(cs);
	garnet_compositor_damage_box(cs->compositor, &garnet_region_everywhere);
	return 0;
}

static bool is_refused(struct garnet_consent *cs, struct wl_client *client)
{
	struct refused_client *rc;

	wl_list_for_each(rc, &cs->refused, link) {
		if (rc->client == client)
			return true;
	}
	return false;
}

static void refused_client_gone(struct wl_listener *listener, void *data)
{
	struct refused_client *rc = wl_container_of(listener, rc, destroy);

	wl_list_remove(&rc->destroy.link);
	wl_list_remove(&rc->link);
	free(rc);
}

static void remember_refusal(struct garnet_consent *cs, struct wl_client *client)
{
	struct refused_client *rc;

	if (is_refused(cs, client))
		return;
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return; /* only the nagging protection is lost */
	rc->client = client;
	rc->destroy.notify = refused_client_gone;
	wl_client_add_destroy_listener(client, &rc->destroy);
	wl_list_insert(&cs->refused, &rc->link);
}

static void request_free(struct garnet_consent_request *r)
{
	garnet_list_unlink(&r->window_destroy.link);
	wl_list_remove(&r->link);
	free(r->object);
	free(r->output);
	free(r);
}

static void describe(struct garnet_compositor *c, struct wl_client *client, char *buf,
		     size_t size)
{
	pid_t pid = 0;

	if (c->hooks.describe_client) {
		c->hooks.describe_client(c->hooks.data, client, buf, size);
		return;
	}
	wl_client_get_credentials(client, &pid, NULL, NULL);
	snprintf(buf, size, "pid %d", (int)pid);
}

static struct garnet_consent_request *
ask(struct garnet_compositor *c, struct wl_client *client, enum garnet_ask_act act,
    const char *object, const char *for_app, void (*done)(void *data, bool allowed), void *data)
{
	struct garnet_consent *cs = c->consent;
	struct garnet_consent_request *r;
	const char *why = NULL;
	bool was_idle, repeated = false;
	int count = 0;

	if (!cs)
		return NULL;
	wl_list_for_each(r, &cs->waiting, link) {
		count++;
		repeated = repeated || r->client == client;
	}
	repeated = repeated || (!for_app && is_refused(cs, client));
	if (c->locked)
		why = "the session is locked";
	else if (repeated)
		why = "it was asked already";
	else if (count >= MAX_WAITING)
		why = "too many questions wait";
	if (why) {
		/* A client asking again and again must not fill the log: its first question, or
		 * the user's answer, is there already. */
		garnet_log(c, repeated && !c->locked ? GARNET_LOG_DEBUG : GARNET_LOG_WARNING,
			   "consent", "not asking for a client: %s", why);
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r || !(r->object = strdup(object ? object : ""))) {
		free(r);
		return NULL;
	}
	r->consent = cs;
	wl_list_init(&r->window_destroy.link);
	r->client = client;
	r->act = act;
	r->done = done;
	r->data = data;
	r->for_app = for_app != NULL;
	if (for_app)
		snprintf(r->who, sizeof(r->who), "%s", for_app);
	else
		describe(c, client, r->who, sizeof(r->who));
	was_idle = wl_list_empty(&cs->waiting);
	wl_list_insert(cs->waiting.prev, &r->link);
	if (was_idle)
		show_next(cs);
	return r;
}

struct garnet_consent_request *garnet_consent_ask(struct garnet_compositor *c,
						  struct wl_client *client,
						  enum garnet_ask_act act, const char *object,
						  void (*done)(void *data, bool allowed), void *data)
{
	return ask(c, client, act, object, NULL, done, data);
}

struct garnet_consent_request *garnet_consent_ask_for_app(struct garnet_compositor *c,
							  struct wl_client *client,
							  enum garnet_ask_act act,
							  const char *object, const char *who,
							  void (*done)(void *data, bool allowed),
							  void *data)
{
	return ask(c, client, act, object, who, done, data);
}

struct garnet_consent_request *
garnet_consent_ask_cast_for_app(struct garnet_compositor *c, struct wl_client *client,
				const char *output, const char *who,
				garnet_consent_cast_done done, void *data)
{
	struct garnet_consent_request *r =
		ask(c, client, GARNET_ASK_RECORD_OUTPUT, output, who, NULL, data);

	if (r)
		r->done_choice = done;
	return r;
}

void garnet_consent_withdraw(struct garnet_consent_request *r)
{
	struct garnet_consent *cs = r->consent;
	bool was_shown = shown(cs) == r;

	request_free(r);
	if (was_shown)
		show_next(cs);
}

/* A window the user may choose (never a popup or a menu); without the protocols' word, any
 * surface of a window layer with a role. */
static bool is_window(struct garnet_compositor *c, struct garnet_surface *surface)
{
	const char *title;

	return !c->protocol_hooks.window_of || c->protocol_hooks.window_of(surface, &title);
}

/* The chosen window's title as its client set it ("" for none). */
static const char *window_title(struct garnet_compositor *c, struct garnet_surface *window)
{
	const char *title = NULL;

	if (!c->protocol_hooks.window_of || !c->protocol_hooks.window_of(window, &title))
		return "";
	return title ? title : "";
}

static const char *chosen_output(const struct garnet_consent_request *r)
{
	return r->output ? r->output : r->object;
}

static bool has_region(const struct garnet_consent_request *r)
{
	return !r->window && r->region.x2 > r->region.x1 && r->region.y2 > r->region.y1;
}

static void finish(struct garnet_consent_request *r, bool allowed)
{
	if (r->done_choice)
		r->done_choice(r->data, allowed, r->window ? NULL : chosen_output(r),
			       has_region(r) ? &r->region : NULL, allowed ? r->window : NULL);
	else
		r->done(r->data, allowed);
}

/* The chosen window went: the choice falls back to the output (the panel says so). */
static void chosen_window_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_consent_request *r = wl_container_of(listener, r, window_destroy);

	garnet_list_unlink(&r->window_destroy.link);
	r->window = NULL;
	rearm(r->consent);
	forget_panel(r->consent);
	garnet_compositor_damage_box(r->consent->compositor, &garnet_region_everywhere);
}

/* A window the user may share: a mapped root surface of the windows' layers. */
static struct garnet_surface *next_window(struct garnet_compositor *c, struct garnet_surface *after)
{
	static const enum garnet_layer_id layers[] = {GARNET_LAYER_FULLSCREEN, GARNET_LAYER_NORMAL};
	struct garnet_view *view;
	bool passed = after == NULL;

	for (size_t i = 0; i < sizeof(layers) / sizeof(layers[0]); i++) {
		wl_list_for_each (view, &c->layers[layers[i]], layer_link) {
			if (!garnet_surface_is_mapped(view->surface) ||
			    view->surface->role == NULL || view->surface->subsurface ||
			    !is_window(c, view->surface))
				continue;
			if (passed)
				return view->surface;
			passed = view->surface == after;
		}
	}
	return NULL; /* after the last window: the output again */
}

/* The output after the one named (NULL: the first), or NULL after the last. */
static struct garnet_output *next_output(struct garnet_compositor *c, const char *after)
{
	struct garnet_output *o;
	bool passed = after == NULL;

	wl_list_for_each (o, &c->outputs, link) {
		if (passed)
			return o;
		passed = strcmp(o->name, after) == 0;
	}
	return NULL;
}

/* Tab: the next thing to share: the outputs in their order, then each window top to bottom,
 * then the first output again. An output is held by its name: it may go meanwhile, and then
 * the answer finds it gone. */
static void choose_next(struct garnet_consent *cs, struct garnet_consent_request *r)
{
	struct garnet_compositor *c = cs->compositor;
	struct garnet_output *output = NULL;
	char who[256], *name = NULL;
	pid_t pid = 0;

	if (!r->window)
		output = next_output(c, chosen_output(r));
	if (output && !(name = strdup(output->name)))
		return; /* out of memory: the choice stays */
	garnet_list_unlink(&r->window_destroy.link);
	rearm(cs);
	free(r->output);
	r->output = name;
	r->region = (pixman_box32_t){0};
	r->window = output ? NULL : next_window(c, r->window);
	if (!output && !r->window && (output = next_output(c, NULL)))
		r->output = strdup(output->name); /* NULL (no memory): the question's own */
	if (r->window) {
		r->window_destroy.notify = chosen_window_destroyed;
		wl_signal_add(&r->window->events.destroy, &r->window_destroy);
		describe(c, wl_resource_get_client(r->window->resource), who, sizeof(who));
		wl_client_get_credentials(wl_resource_get_client(r->window->resource), &pid, NULL,
					  NULL);
		garnet_log(c, GARNET_LOG_INFO, "consent",
			   "to share: the window of pid %d (%s), %dx%d, titled \"%s\"", (int)pid,
			   who, r->window->width, r->window->height, window_title(c, r->window));
	} else {
		garnet_log(c, GARNET_LOG_INFO, "consent", "to share: everything on %s",
			   chosen_output(r));
	}
	forget_panel(cs);
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
}

/* The output under x, y of the global space, or NULL. */
static struct garnet_output *output_at(struct garnet_compositor *c, double x, double y)
{
	struct garnet_output *o;

	wl_list_for_each (o, &c->outputs, link) {
		if (x >= o->x && x < o->x + o->width && y >= o->y && y < o->y + o->height)
			return o;
	}
	return NULL;
}

static int32_t clamp_to(double v, int32_t low, int32_t high)
{
	return v < low ? low : v > high ? high : (int32_t)v;
}

/* The region is the box between where the drag began and x, y, inside the output it began
 * on (which may have gone: then the choice is that output's name alone). */
static void drag_to(struct garnet_consent *cs, struct garnet_consent_request *r, double x,
		    double y)
{
	struct garnet_output *o = garnet_compositor_find_output(cs->compositor, chosen_output(r));

	r->region = (pixman_box32_t){0};
	if (o) {
		r->region.x1 = clamp_to(floor(fmin(cs->drag_x, x)) - o->x, 0, o->width);
		r->region.y1 = clamp_to(floor(fmin(cs->drag_y, y)) - o->y, 0, o->height);
		r->region.x2 = clamp_to(ceil(fmax(cs->drag_x, x)) - o->x, 0, o->width);
		r->region.y2 = clamp_to(ceil(fmax(cs->drag_y, y)) - o->y, 0, o->height);
	}
	forget_panel(cs);
	garnet_compositor_damage_box(cs->compositor, &garnet_region_everywhere);
}

/* The button went down off the panel: a region of the output under the pointer is chosen
 * from here; what the answer would share changes, so the dialog waits for a pause again. */
static void start_drag(struct garnet_consent *cs, struct garnet_consent_request *r, double x,
		       double y)
{
	struct garnet_output *o = output_at(cs->compositor, x, y);
	char *name = o ? strdup(o->name) : NULL;

	if (!name)
		return;
	garnet_list_unlink(&r->window_destroy.link);
	r->window = NULL;
	free(r->output);
	r->output = name;
	cs->dragging = true;
	cs->drag_x = x;
	cs->drag_y = y;
	rearm(cs);
	drag_to(cs, r, x, y);
}

/* The button came up: a region too small to mean anything is all of the output. */
static void end_drag(struct garnet_consent *cs, struct garnet_consent_request *r, double x,
		     double y)
{
	drag_to(cs, r, x, y);
	cs->dragging = false;
	rearm(cs);
	if (r->region.x2 - r->region.x1 < MIN_REGION || r->region.y2 - r->region.y1 < MIN_REGION) {
		r->region = (pixman_box32_t){0};
		garnet_log(cs->compositor, GARNET_LOG_INFO, "consent", "to share: everything on %s",
			   chosen_output(r));
		return;
	}
	garnet_log(cs->compositor, GARNET_LOG_INFO, "consent",
		   "to share: a region %dx%d at %d,%d of %s", r->region.x2 - r->region.x1,
		   r->region.y2 - r->region.y1, r->region.x1, r->region.y1, chosen_output(r));
}

static void answer(struct garnet_consent *cs, bool allowed, enum garnet_answer_scope scope)
{
	struct garnet_compositor *c = cs->compositor;
	struct garnet_consent_request *r = shown(cs);

	if (!r)
		return;
	if (cs->dragging)
		return; /* the choice is not made yet */
	garnet_log(c, allowed ? GARNET_LOG_INFO : GARNET_LOG_WARNING, "consent",
		   "the user %s %s for %s%s", allowed ? "allowed" : "refused", r->object, r->who,
		   allowed && scope == GARNET_ANSWER_SESSION && !r->for_app ? " for the session" : "");
	if (c->hooks.user_answered && !r->for_app)
		c->hooks.user_answered(c->hooks.data, r->client, r->act, r->object, allowed,
				       scope);
	if (!allowed && !r->for_app)
		remember_refusal(cs, r->client);
	/* Out of the queue first: done may ask anew, and that question queues behind. */
	garnet_list_unlink(&r->link);
	finish(r, allowed);
	request_free(r);
	show_next(cs);
}

bool garnet_consent_key(struct garnet_compositor *c, uint32_t key, bool pressed)
{
	struct garnet_consent *cs = c->consent;
	xkb_keysym_t sym;

	if (!garnet_consent_active(c))
		return false;
	/* Releases pass: a key that went down for a window before the dialog came up must come
	 * up (the seat drops releases of keys no client saw go down). */
	if (!pressed)
		return false;
	if (!cs->armed) {
		wait_for_a_pause(cs);
		return true;
	}
	sym = xkb_keysym_to_lower(xkb_state_key_get_one_sym(c->seat->xkb_state, key + 8));
	if (sym == XKB_KEY_Tab && shown(cs) && shown(cs)->done_choice)
		choose_next(cs, shown(cs));
	else if (sym == XKB_KEY_n || sym == XKB_KEY_Escape)
		answer(cs, false, GARNET_ANSWER_ONCE);
	else if (sym == XKB_KEY_y)
		answer(cs, true, GARNET_ANSWER_ONCE);
	else if (sym == XKB_KEY_s)
		answer(cs, true, GARNET_ANSWER_SESSION);
	return true;
}

/* A press at x, y; may_drag: a hardware pointer's, which may start dragging out a region. */
static bool press(struct garnet_compositor *c, double x, double y, bool may_drag)
{
	struct garnet_consent *cs = c->consent;
	struct garnet_output *o;
	pixman_box32_t panel = {0}, b;
	bool found = false;

	if (!garnet_consent_active(c))
		return false;
	/* The panel of the output the press is on. */
	wl_list_for_each(o, &c->outputs, link) {
		if (!found && garnet_consent_panel_box(o, &panel) && x >= panel.x1 &&
		    x < panel.x2 && y >= panel.y1 && y < panel.y2)
			found = true;
	}
	if (!cs->armed) {
		wait_for_a_pause(cs);
		return true;
	}
	if (!found) {
		if (may_drag && shown(cs) && shown(cs)->done_choice && !cs->dragging)
			start_drag(cs, shown(cs), x, y);
		return true;
	}
	for (int i = 0; i < GARNET_CONSENT_BUTTONS; i++) {
		b = garnet_consent_button_box((enum garnet_consent_button)i);
		if (x < panel.x1 + b.x1 || x >= panel.x1 + b.x2 || y < panel.y1 + b.y1 ||
		    y >= panel.y1 + b.y2)
			continue;
		if (i == GARNET_CONSENT_DENY)
			answer(cs, false, GARNET_ANSWER_ONCE);
		else
			answer(cs, true,
			       i == GARNET_CONSENT_ALLOW_SESSION ? GARNET_ANSWER_SESSION
								 : GARNET_ANSWER_ONCE);
		break;
	}
	return true;
}

bool garnet_consent_press(struct garnet_compositor *c, double x, double y)
{
	return press(c, x, y, false);
}

bool garnet_consent_pointer_button(struct garnet_compositor *c, double x, double y,
				   bool pressed)
{
	struct garnet_consent *cs = c->consent;

	if (pressed)
		return press(c, x, y, true);
	if (!garnet_consent_active(c) || !cs->dragging || !shown(cs))
		return false;
	end_drag(cs, shown(cs), x, y);
	return true;
}

void garnet_consent_pointer_moved(struct garnet_compositor *c, double x, double y)
{
	struct garnet_consent *cs = c->consent;

	if (!garnet_consent_active(c) || !cs->dragging || !shown(cs))
		return;
	/* Still choosing: no answer counts until the pointer rests. */
	wait_for_a_pause(cs);
	drag_to(cs, shown(cs), x, y);
}

void garnet_consent_refuse_all(struct garnet_compositor *c)
{
	struct garnet_consent *cs = c->consent;
	struct garnet_consent_request *r;

	if (!cs || wl_list_empty(&cs->waiting))
		return;
	garnet_log(c, GARNET_LOG_INFO, "consent", "the session locks: waiting questions refused");
	while ((r = shown(cs))) {
		garnet_list_unlink(&r->link);
		finish(r, false);
		request_free(r);
	}
	show_next(cs);
}

bool garnet_consent_panel_box(struct garnet_output *o, pixman_box32_t *box)
{
	if (!garnet_consent_active(o->compositor))
		return false;
	garnet_output_center_box(o, GARNET_CONSENT_WIDTH, GARNET_CONSENT_HEIGHT, box);
	return true;
}

pixman_image_t *garnet_consent_panel_image(struct garnet_compositor *c)
{
	struct garnet_consent *cs = c->consent;
	struct garnet_consent_request *r = shown(cs);
	char what[320];

	if (!r)
		return NULL;
	if (!cs->panel) {
		bool record = r->act == GARNET_ASK_RECORD_OUTPUT;

		/* The title is the window's client's to choose: quoted, last, cut to fit. */
		if (r->window)
			snprintf(what, sizeof(what),
				 "wants to record one window (%dx%d; Tab: something else): \"%s\"",
				 r->window->width, r->window->height,
				 window_title(cs->compositor, r->window));
		else if (has_region(r))
			snprintf(what, sizeof(what),
				 "wants to record a video of a part of %s, %dx%d at %d,%d "
				 "(Tab: something else)",
				 chosen_output(r), r->region.x2 - r->region.x1,
				 r->region.y2 - r->region.y1, r->region.x1, r->region.y1);
		else
			snprintf(what, sizeof(what), "wants %s of everything on %s%s",
				 record ? "to record a video" : "a picture", chosen_output(r),
				 r->done_choice ? "; Tab: something else; drag: a part" : "");
		cs->panel = garnet_consent_draw(&(struct garnet_consent_text){
			.title = record ? "Allow screen recording?" : "Allow a screenshot?",
			.who = r->who,
			.what = what,
			.armed = cs->armed,
		});
	}
	return cs->panel;
}

pixman_image_t *garnet_consent_dim_image(struct garnet_compositor *c)
{
	return c->consent->dim;
}

pixman_image_t *garnet_consent_frame_image(struct garnet_compositor *c)
{
	return c->consent->frame;
}

/* The region the user is choosing on output o, in the global space; false: none there. */
static bool region_on(struct garnet_output *o, pixman_box32_t *box)
{
	struct garnet_consent_request *r = shown(o->compositor->consent);

	if (!garnet_consent_active(o->compositor) || !r || !has_region(r) ||
	    strcmp(chosen_output(r), o->name) != 0)
		return false;
	*box = (pixman_box32_t){o->x + r->region.x1, o->y + r->region.y1, o->x + r->region.x2,
				o->y + r->region.y2};
	return true;
}

int garnet_consent_dim_boxes(struct garnet_output *o, pixman_box32_t dim[4])
{
	pixman_box32_t all = {o->x, o->y, o->x + o->width, o->y + o->height}, r;
	int n = 0;

	if (!region_on(o, &r)) {
		dim[0] = all;
		return 1;
	}
	/* Above, below, then left and right of it: the region itself stays as it is. */
	pixman_box32_t around[4] = {{all.x1, all.y1, all.x2, r.y1},
				    {all.x1, r.y2, all.x2, all.y2},
				    {all.x1, r.y1, r.x1, r.y2},
				    {r.x2, r.y1, all.x2, r.y2}};
	for (int i = 0; i < 4; i++) {
		if (around[i].x2 > around[i].x1 && around[i].y2 > around[i].y1)
			dim[n++] = around[i];
	}
	return n;
}

bool garnet_consent_region_frame(struct garnet_output *o, pixman_box32_t frame[4])
{
	pixman_box32_t r;
	const int32_t f = REGION_FRAME;

	if (!region_on(o, &r))
		return false;
	frame[0] = (pixman_box32_t){r.x1, r.y1, r.x2, MIN(r.y1 + f, r.y2)};
	frame[1] = (pixman_box32_t){r.x1, MAX(r.y2 - f, r.y1), r.x2, r.y2};
	frame[2] = (pixman_box32_t){r.x1, r.y1, MIN(r.x1 + f, r.x2), r.y2};
	frame[3] = (pixman_box32_t){MAX(r.x2 - f, r.x1), r.y1, r.x2, r.y2};
	return true;
}

bool garnet_consent_init(struct garnet_compositor *c)
{
	struct garnet_consent *cs = calloc(1, sizeof(*cs));
	pixman_color_t dim = {0, 0, 0, 0xc000}, frame = {0xffff, 0xffff, 0xffff, 0xffff};

	if (!cs)
		return false;
	cs->compositor = c;
	wl_list_init(&cs->waiting);
	wl_list_init(&cs->refused);
	cs->arm_timer = wl_event_loop_add_timer(c->loop, arm, cs);
	cs->dim = pixman_image_create_solid_fill(&dim);
	cs->frame = pixman_image_create_solid_fill(&frame);
	if (!cs->arm_timer || !cs->dim || !cs->frame) {
		if (cs->arm_timer)
			wl_event_source_remove(cs->arm_timer);
		if (cs->dim)
			pixman_image_unref(cs->dim);
		if (cs->frame)
			pixman_image_unref(cs->frame);
		free(cs);
		return false;
	}
	c->consent = cs;
	return true;
}

void garnet_consent_finish(struct garnet_compositor *c)
{
	struct garnet_consent *cs = c->consent;
	struct garnet_consent_request *r, *rtmp;
	struct refused_client *rc, *ctmp;

	if (!cs)
		return;
	/* Clients are gone by now, and their requests with them; this is what is left. */
	wl_list_for_each_safe(r, rtmp, &cs->waiting, link)
		request_free(r);
	wl_list_for_each_safe(rc, ctmp, &cs->refused, link)
		refused_client_gone(&rc->destroy, NULL);
	wl_event_source_remove(cs->arm_timer);
	forget_panel(cs);
	pixman_image_unref(cs->dim);
	pixman_image_unref(cs->frame);
	free(cs);
	c->consent = NULL;
}
