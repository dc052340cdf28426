// SPDX-License-Identifier: MIT
// When a buffer no surface shows is given back. The moment it is replaced would be correct
// (the frame on screen holds its pixels already), but then the release and the frame done that
// follows reach the client in two messages, each a sendmsg for garnet and a wake-up for the
// client, every frame: with ten animating windows, a third of garnet's system time. Instead the
// release waits for the next frame any output completes, whose events go out with it. A buffer
// committed anew meanwhile is held again and not released; one destroyed is forgotten.
#include <stdlib.h>

#include "buffer.h"
#include "compositor.h"
#include "output.h"

struct pending_release {
	struct wl_resource *buffer;
	struct wl_listener buffer_destroy;
	struct wl_list link; /* garnet_compositor.pending_releases */
};

static void pending_free(struct pending_release *p)
{
	wl_list_remove(&p->buffer_destroy.link);
	wl_list_remove(&p->link);
	free(p);
}

static void pending_buffer_destroyed(struct wl_listener *listener, void *data)
{
	struct pending_release *p = wl_container_of(listener, p, buffer_destroy);

	(void)data;
	pending_free(p);
}

void garnet_buffer_send_pending_releases(struct garnet_compositor *c)
{
	struct pending_release *p, *tmp;

	wl_list_for_each_safe(p, tmp, &c->pending_releases, link) {
		struct wl_resource *buffer = p->buffer;

		pending_free(p);
		if (!garnet_buffer_is_held(c, buffer))
			wl_buffer_send_release(buffer);
	}
}

/* An output whose frame is on its way: its completion sends the frame events. */
static bool frame_coming(struct garnet_compositor *c)
{
	struct garnet_output *output;

	wl_list_for_each(output, &c->outputs, link)
		if (output->repaint_state != GARNET_REPAINT_IDLE && !output->disabled &&
		    !output->power_off)
			return true;
	return false;
}

/* The end of the turn of the loop that released buffers: the commits of this turn have
 * scheduled their repaints by now. */
static void release_idle(void *data)
{
	struct garnet_compositor *c = data;

	c->release_idle = NULL;
	if (!frame_coming(c))
		garnet_buffer_send_pending_releases(c);
}

void garnet_buffer_release_soon(struct garnet_compositor *c, struct wl_resource *buffer)
{
	struct pending_release *p;

	if (wl_resource_get_destroy_listener(buffer, pending_buffer_destroyed))
		return; /* already waiting */
	p = calloc(1, sizeof(*p));
	if (!p) {
		wl_buffer_send_release(buffer);
		return;
	}
	p->buffer = buffer;
	p->buffer_destroy.notify = pending_buffer_destroyed;
	wl_resource_add_destroy_listener(buffer, &p->buffer_destroy);
	wl_list_insert(c->pending_releases.prev, &p->link);
	if (!c->release_idle)
		c->release_idle = wl_event_loop_add_idle(c->loop, release_idle, c);
	if (!c->release_idle)
		garnet_buffer_send_pending_releases(c);
}
