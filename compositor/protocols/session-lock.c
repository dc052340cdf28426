// SPDX-License-Identifier: MIT
// ext-session-lock-v1: the lock lives in garnet. While locked only lock surfaces are drawn and
// only they get input (the seat asks their role's lock_owns). A locker that dies leaves
// the session locked: nothing but the trusted locker may take the abandoned lock over, because
// every lock request is asked of the security layer (the lock_session hook).
#include <stdlib.h>

#include "../core/compositor.h"
#include "../core/region.h"
#include "../core/output.h"
#include "../core/surface.h"
#include "../core/output-surface.h"
#include "../core/view.h"
#include "../core/seat.h"
#include "../core/consent.h"
#include "../core/lock-prompt.h"
#include "session-lock.h"
#include "../core/shell-hooks.h"
#include "ext-session-lock-v1-server-protocol.h"

/* The lock's state, this file's own (the compositor's session_lock). While locked only lock
 * surfaces are drawn and get input. */
struct session_lock {
	/* The locker's live lock object, NULL when none or when its client died (abandoned). */
	struct wl_resource *lock;
	struct wl_list surfaces; /* lock_surface.link */
	/* Outputs yet to show a frame painted since the lock; `locked` waits for them. */
	struct wl_list waits; /* lock_wait.link */
	bool locked_sent;
	bool shown; /* locked, and every powered output has shown a frame since */
	struct wl_signal changed, shown_signal; /* garnet_compositor_get_lock_*_signal */
	struct wl_listener compositor_destroy;
};

/* The core sees only whether a live locker holds the lock (lock_held): garnet's own lock
 * screen shows when none does. */
static void set_locker(struct garnet_compositor *c, struct wl_resource *lock)
{
	c->session_lock->lock = lock;
	c->lock_held = lock != NULL;
}

struct lock_surface {
	struct wl_resource *resource;
	struct wl_resource *lock; /* the lock it belongs to */
	struct garnet_compositor *compositor;
	struct garnet_output_surface base;
	uint32_t configure_serial;
	int32_t width, height;
	bool acked;
	struct wl_list link; /* session_lock.surfaces */
};

static const struct garnet_surface_role lock_surface_role;

bool garnet_session_lock_owns(struct garnet_surface *surface)
{
	struct lock_surface *ls = surface->role_data;

	return surface->role == &lock_surface_role && ls && ls->base.view.in_layer;
}

/* Leaves the scene and the surface; the object stays until the client destroys it. */
static void lock_surface_detach(struct lock_surface *ls)
{
	garnet_output_surface_detach(&ls->base);
	garnet_list_unlink(&ls->link);
}

static void lock_surface_handle_surface_destroy(struct wl_listener *l, void *data)
{
	struct lock_surface *ls = wl_container_of(l, ls, base.surface_destroy);

	lock_surface_detach(ls);
}

static void lock_surface_handle_output_destroy(struct wl_listener *l, void *data)
{
	struct lock_surface *ls = wl_container_of(l, ls, base.output_destroy);

	garnet_output_surface_drop_output(&ls->base);
	if (ls->base.surface)
		garnet_view_remove(&ls->base.view);
}

static bool lock_surface_precommit(struct garnet_surface *surface)
{
	struct lock_surface *ls = surface->role_data;

	if (!ls)
		return true;
	if (!ls->acked) {
		wl_resource_post_error(ls->resource,
				       EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK,
				       "commit before the first ack_configure");
		return false;
	}
	if (surface->pending.buffer_attached && !surface->pending.buffer) {
		wl_resource_post_error(ls->resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER,
				       "a lock surface cannot be unmapped with a null buffer");
		return false;
	}
	return true;
}

static void lock_surface_commit(struct garnet_surface *surface)
{
	struct lock_surface *ls = surface->role_data;
	struct garnet_compositor *c = surface->compositor;

	if (!ls || !garnet_surface_is_mapped(surface))
		return;
	if (surface->width != ls->width || surface->height != ls->height) {
		wl_resource_post_error(ls->resource,
				       EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH,
				       "the surface is %dx%d, configured %dx%d", surface->width,
				       surface->height, ls->width, ls->height);
		return;
	}
	if (!ls->base.output || ls->base.view.in_layer || c->session_lock->lock != ls->lock)
		return;
	garnet_view_move(&ls->base.view, ls->base.output->x, ls->base.output->y);
	garnet_view_raise(&ls->base.view, GARNET_LAYER_LOCK);
	c->shell_hooks->focus_lock_surface(c->shell, surface);
}

static bool lock_surface_position(struct garnet_surface *surface, int32_t *x, int32_t *y)
{
	struct lock_surface *ls = surface->role_data;

	if (!ls || !ls->base.view.in_layer)
		return false;
	*x = ls->base.view.x;
	*y = ls->base.view.y;
	return true;
}

static const struct garnet_surface_role lock_surface_role = {
	.name = "ext_session_lock_surface_v1",
	.precommit = lock_surface_precommit,
	.commit = lock_surface_commit,
	.position = lock_surface_position,
	.lock_owns = garnet_session_lock_owns,
};

static void lock_surface_resource_destroy(struct wl_resource *resource)
{
	struct lock_surface *ls = wl_resource_get_user_data(resource);

	lock_surface_detach(ls);
	free(ls);
}

static void lock_surface_ack_configure(struct wl_client *client, struct wl_resource *resource,
				       uint32_t serial)
{
	struct lock_surface *ls = wl_resource_get_user_data(resource);

	if (serial != ls->configure_serial) {
		wl_resource_post_error(resource, EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL,
				       "serial %u was never sent", serial);
		return;
	}
	ls->acked = true;
}

static const struct ext_session_lock_surface_v1_interface lock_surface_impl = {
	.destroy = garnet_resource_destroy_request,
	.ack_configure = lock_surface_ack_configure,
};

/* ---- the lock ---- */

/* ---- `locked` only once every output shows the locked scene ---- */

struct lock_wait {
	struct garnet_compositor *compositor;
	struct garnet_output *output;
	uint32_t renders_at_lock;
	struct wl_listener frame, destroy, power;
	struct wl_list link; /* session_lock.waits */
};

static void wait_free(struct lock_wait *w)
{
	wl_list_remove(&w->frame.link);
	wl_list_remove(&w->destroy.link);
	wl_list_remove(&w->power.link);
	wl_list_remove(&w->link);
	free(w);
}

static void waits_clear(struct garnet_compositor *c)
{
	struct lock_wait *w, *tmp;

	wl_list_for_each_safe(w, tmp, &c->session_lock->waits, link)
		wait_free(w);
}

static void send_locked_when_shown(struct garnet_compositor *c)
{
	if (!wl_list_empty(&c->session_lock->waits) || !c->locked)
		return;
	if (!c->session_lock->shown) {
		c->session_lock->shown = true;
		garnet_log(c, GARNET_LOG_DEBUG, "lock", "every output shows the lock");
		wl_signal_emit_mutable(&c->session_lock->shown_signal, c);
	}
	if (!c->session_lock->lock || c->session_lock->locked_sent)
		return;
	c->session_lock->locked_sent = true;
	garnet_log(c, GARNET_LOG_DEBUG, "lock", "every output shows the lock: locked");
	ext_session_lock_v1_send_locked(c->session_lock->lock);
}

/* A frame rendered after the lock is on screen (the one in flight at lock time is not). */
static void wait_frame(struct wl_listener *listener, void *data)
{
	struct lock_wait *w = wl_container_of(listener, w, frame);
	struct garnet_compositor *c = w->compositor;

	if (w->output->renders == w->renders_at_lock)
		return;
	wait_free(w);
	send_locked_when_shown(c);
}

/* Darkened while the lock was on its way: it shows nothing, and lit again the lock first. */
static void wait_output_power(struct wl_listener *listener, void *data)
{
	struct lock_wait *w = wl_container_of(listener, w, power);
	struct garnet_compositor *c = w->compositor;

	if (!w->output->power_off)
		return;
	wait_free(w);
	send_locked_when_shown(c);
}

static void wait_output_destroyed(struct wl_listener *listener, void *data)
{
	struct lock_wait *w = wl_container_of(listener, w, destroy);
	struct garnet_compositor *c = w->compositor;

	wait_free(w);
	send_locked_when_shown(c);
}

/* The protocol's promise to the locker: when `locked` arrives, no output shows anything of
 * the session any more. */
static void wait_for_outputs(struct garnet_compositor *c)
{
	struct garnet_output *output;
	struct lock_wait *w;

	waits_clear(c);
	c->session_lock->locked_sent = false;
	c->session_lock->shown = false;
	wl_list_for_each(output, &c->outputs, link) {
		/* A dark output shows nothing; lit again, its first frame is the lock's. */
		if (output->power_off)
			continue;
		w = calloc(1, sizeof(*w));
		if (!w)
			continue; /* that output is then not waited for; it repaints anyway */
		w->compositor = c;
		w->output = output;
		w->renders_at_lock = output->renders;
		w->frame.notify = wait_frame;
		wl_signal_add(&output->events.frame, &w->frame);
		w->destroy.notify = wait_output_destroyed;
		wl_signal_add(&output->events.destroy, &w->destroy);
		w->power.notify = wait_output_power;
		wl_signal_add(&output->events.power, &w->power);
		wl_list_insert(&c->session_lock->waits, &w->link);
	}
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
	send_locked_when_shown(c);
}

static bool lock_is_active(struct wl_resource *lock)
{
	struct garnet_compositor *c = wl_resource_get_user_data(lock);

	return c && c->session_lock->lock == lock;
}

static void lock_get_lock_surface(struct wl_client *client, struct wl_resource *lock,
				  uint32_t id, struct wl_resource *surface_resource,
				  struct wl_resource *output_resource)
{
	struct garnet_compositor *c = wl_resource_get_user_data(lock);
	struct garnet_surface *surface = garnet_surface_from_resource(surface_resource);
	struct garnet_output *output = garnet_output_from_resource(output_resource);
	struct lock_surface *ls = calloc(1, sizeof(*ls)), *other;

	if (!ls) {
		wl_client_post_no_memory(client);
		return;
	}
	ls->resource = wl_resource_create(client, &ext_session_lock_surface_v1_interface,
					  wl_resource_get_version(lock), id);
	if (!ls->resource) {
		free(ls);
		wl_client_post_no_memory(client);
		return;
	}
	wl_list_init(&ls->link);
	ls->lock = lock;
	wl_resource_set_implementation(ls->resource, &lock_surface_impl, ls,
				       lock_surface_resource_destroy);
	/* A refused lock hands out inert surfaces: the client was told finished already. */
	if (!lock_is_active(lock))
		return;
	wl_list_for_each(other, &c->session_lock->surfaces, link) {
		if (other->lock == lock && other->base.output == output && output) {
			wl_resource_post_error(lock, EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT,
					       "this lock already has a surface on %s",
					       output->name);
			return;
		}
	}
	if (garnet_surface_is_mapped(surface) ||
	    (surface->role == &lock_surface_role && surface->role_data)) {
		wl_resource_post_error(lock, EXT_SESSION_LOCK_V1_ERROR_ROLE,
				       "wl_surface@%u already has content or a lock surface",
				       wl_resource_get_id(surface_resource));
		return;
	}
	if (!garnet_surface_set_role(surface, &lock_surface_role, ls, lock,
				     EXT_SESSION_LOCK_V1_ERROR_ROLE))
		return;
	ls->compositor = c;
	garnet_output_surface_init(&ls->base, surface, lock_surface_handle_surface_destroy);
	wl_list_insert(&c->session_lock->surfaces, &ls->link);
	if (!output)
		return;
	garnet_output_surface_set_output(&ls->base, output, lock_surface_handle_output_destroy);
	ls->width = output->width;
	ls->height = output->height;
	ls->configure_serial = wl_display_next_serial(c->display);
	ext_session_lock_surface_v1_send_configure(ls->resource, ls->configure_serial,
						   (uint32_t)ls->width, (uint32_t)ls->height);
}

static void lock_unlock_and_destroy(struct wl_client *client, struct wl_resource *lock)
{
	struct garnet_compositor *c = wl_resource_get_user_data(lock);
	struct lock_surface *ls, *tmp;

	if (!lock_is_active(lock) || !c->session_lock->locked_sent) {
		wl_resource_post_error(lock, EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK,
				       "this lock never locked the session");
		return;
	}
	wl_list_for_each_safe(ls, tmp, &c->session_lock->surfaces, link) {
		if (ls->lock == lock)
			lock_surface_detach(ls);
	}
	garnet_session_lock_release(c);
	garnet_log(c, GARNET_LOG_INFO, "lock", "session unlocked");
	wl_resource_destroy(lock);
}

void garnet_session_lock_release(struct garnet_compositor *c)
{
	set_locker(c, NULL);
	c->session_lock->locked_sent = false;
	c->session_lock->shown = false;
	waits_clear(c);
	c->locked = false;
	c->shell_hooks->return_keyboard(c->shell);
	garnet_seat_repick(c->seat);
	garnet_compositor_damage_box(c, &garnet_region_everywhere);
	wl_signal_emit_mutable(&c->session_lock->changed, c);
}

/* The lock is above everything: no client's grab, drag, cursor or drag icon outlives it
 * (they are drawn no more once locked), and the pointer goes to what the lock shows. */
static void lock_take_input(struct garnet_compositor *c)
{
	bool was_locked = c->locked;

	garnet_seat_take_input(c->seat);
	c->locked = true;
	/* The lock screen shows on every output a client darkened (garnet's own idle darkening
	 * stays: the user's input lights it, with the lock on it). */
	garnet_compositor_power_on_for_prompt(c);
	garnet_consent_refuse_all(c);
	garnet_seat_repick(c->seat);
	if (!was_locked)
		wl_signal_emit_mutable(&c->session_lock->changed, c);
}

/* Locked by garnet itself: an abandoned lock from the start, so garnet's own lock screen
 * shows, and the trusted locker may take it over as it would a dead locker's. */
static bool lock_with_own_screen(struct garnet_compositor *c)
{
	if (!garnet_lock_prompt_available(c))
		return false;
	set_locker(c, NULL);
	c->session_lock->locked_sent = false;
	lock_take_input(c);
	wait_for_outputs(c);
	return true;
}

bool garnet_compositor_lock_session(struct garnet_compositor *c, const char *reason)
{
	if (c->locked)
		return true;
	garnet_log(c, GARNET_LOG_INFO, "lock", "%s: locking", reason);
	if (c->launch && c->launch(c->launch_data, "lock-screen"))
		return true;
	if (lock_with_own_screen(c)) {
		garnet_log(c, GARNET_LOG_WARNING, "lock",
			   "no locker could start: locked with garnet's own lock screen");
		return true;
	}
	garnet_log(c, GARNET_LOG_ERROR, "lock", "%s, but nothing can lock the session", reason);
	return false;
}

bool garnet_compositor_lock_session_now(struct garnet_compositor *c, const char *reason)
{
	if (c->locked)
		return true;
	if (!lock_with_own_screen(c))
		return garnet_compositor_lock_session(c, reason);
	garnet_log(c, GARNET_LOG_INFO, "lock", "%s: locked with garnet's own lock screen", reason);
	/* The locker takes the lock over as it would a dead locker's. */
	if (c->launch)
		c->launch(c->launch_data, "lock-screen");
	return true;
}

bool garnet_compositor_is_locked(struct garnet_compositor *c)
{
	return c->locked;
}

struct wl_signal *garnet_compositor_get_lock_signal(struct garnet_compositor *c)
{
	return &c->session_lock->changed;
}

bool garnet_compositor_lock_shown(struct garnet_compositor *c)
{
	return c->locked && c->session_lock->shown;
}

struct wl_signal *garnet_compositor_get_lock_shown_signal(struct garnet_compositor *c)
{
	return &c->session_lock->shown_signal;
}

/* The protocol makes destroy an error only once `locked` was sent. Before that the locker
 * gives the lock up without unlocking: like a locker that died, the session stays locked. */
static void lock_destroy(struct wl_client *client, struct wl_resource *lock)
{
	struct garnet_compositor *c = wl_resource_get_user_data(lock);

	if (lock_is_active(lock) && c->session_lock->locked_sent) {
		wl_resource_post_error(lock, EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY,
				       "destroying a lock that holds the session; unlock first");
		return;
	}
	wl_resource_destroy(lock);
}

static const struct ext_session_lock_v1_interface lock_impl = {
	.destroy = lock_destroy,
	.get_lock_surface = lock_get_lock_surface,
	.unlock_and_destroy = lock_unlock_and_destroy,
};

/* The locker went away without unlocking (crash, kill): the session stays locked. */
static void lock_resource_destroy(struct wl_resource *lock)
{
	struct garnet_compositor *c = wl_resource_get_user_data(lock);
	struct lock_surface *ls, *tmp;

	if (!lock_is_active(lock))
		return;
	wl_list_for_each_safe(ls, tmp, &c->session_lock->surfaces, link) {
		if (ls->lock == lock)
			lock_surface_detach(ls);
	}
	set_locker(c, NULL);
	c->session_lock->locked_sent = false;
	/* garnet's own lock screen replaces the lock surfaces. */
	wait_for_outputs(c);
	garnet_log(c, GARNET_LOG_WARNING, "lock",
		   "the locker went away without unlocking: the session stays locked");
}

static void manager_lock(struct wl_client *client, struct wl_resource *manager, uint32_t id)
{
	struct garnet_compositor *c = wl_resource_get_user_data(manager);
	struct wl_resource *lock = wl_resource_create(client, &ext_session_lock_v1_interface,
						      wl_resource_get_version(manager), id);
	bool allowed;

	if (!lock) {
		wl_client_post_no_memory(client);
		return;
	}
	allowed = !c->hooks.lock_session || c->hooks.lock_session(c->hooks.data, client);
	if (!allowed || c->session_lock->lock) {
		/* Refused: the object answers nothing but destroy. */
		wl_resource_set_implementation(lock, &lock_impl, NULL, NULL);
		garnet_log(c, GARNET_LOG_WARNING, "lock", "lock request refused: %s",
			   allowed ? "the session is already locked" : "not permitted");
		ext_session_lock_v1_send_finished(lock);
		return;
	}
	wl_resource_set_implementation(lock, &lock_impl, c, lock_resource_destroy);
	garnet_log(c, GARNET_LOG_INFO, "lock", "%s",
		   c->locked ? "the abandoned lock was taken over" : "session locked");
	set_locker(c, lock);
	lock_take_input(c);
	wait_for_outputs(c);
}

static const struct ext_session_lock_manager_v1_interface manager_impl = {
	.destroy = garnet_resource_destroy_request,
	.lock = manager_lock,
};

static void bind_manager(struct wl_client *client, void *data, uint32_t version, uint32_t id)
{
	struct garnet_compositor *c = data;

	if (!garnet_global_check_bind(c, client, &ext_session_lock_manager_v1_interface))
		return;
	garnet_resource_create(client, &ext_session_lock_manager_v1_interface, (int)version, id,
			       &manager_impl, c, NULL);
}

static void compositor_destroyed(struct wl_listener *listener, void *data)
{
	struct garnet_compositor *c = data;

	waits_clear(c);
	wl_list_remove(&c->session_lock->compositor_destroy.link);
	free(c->session_lock);
	c->session_lock = NULL;
}

bool garnet_session_lock_init(struct garnet_compositor *c)
{
	struct session_lock *sl = calloc(1, sizeof(*sl));

	if (!sl)
		return false;
	wl_list_init(&sl->surfaces);
	wl_list_init(&sl->waits);
	wl_signal_init(&sl->changed);
	wl_signal_init(&sl->shown_signal);
	sl->compositor_destroy.notify = compositor_destroyed;
	wl_signal_add(&c->events.destroy, &sl->compositor_destroy);
	c->session_lock = sl;
	return garnet_global_create(c, &ext_session_lock_manager_v1_interface, 1, c, bind_manager,
				    true) != NULL;
}
