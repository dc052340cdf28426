/* SPDX-License-Identifier: MIT */
/* The consent dialog (core layer): garnet asks the user when a security hook answers ASK. */
#ifndef GARNET_CORE_CONSENT_H
#define GARNET_CORE_CONSENT_H

#include "compositor.h"

/* garnet's consent dialog (consent.c): a hook answered GARNET_ASK, so the user decides.
 * garnet_consent_ask queues the question; done runs once with the answer (never when the
 * request is withdrawn first). NULL (and done never runs) when it is refused without asking:
 * the session is locked, this client already waits for an answer or was refused before, or
 * too many questions wait. */
struct garnet_consent_request;
struct garnet_consent_request *
garnet_consent_ask(struct garnet_compositor *c, struct wl_client *client, enum garnet_ask_act act,
		   const char *object, void (*done)(void *data, bool allowed), void *data);
/* The same for an application that client (the portal's backend) speaks for, shown as who:
 * the answer is for this request only and is not given to the security layer, and the
 * client is not held to a refusal (the next application may be another). */
struct garnet_consent_request *
garnet_consent_ask_for_app(struct garnet_compositor *c, struct wl_client *client,
			   enum garnet_ask_act act, const char *object, const char *who,
			   void (*done)(void *data, bool allowed), void *data);
/* A recording for an application, as garnet_consent_ask_for_app: the user shares output, or
 * chooses another output or one window instead in the dialog (Tab goes through the outputs,
 * then the windows), or drags a region of an output out with the pointer; done hears which:
 * the output's name (it may have gone since: look it up) with region (in the output's own
 * coordinates; NULL: all of it), or window (output NULL), a window that is still there. */
struct garnet_surface;
typedef void (*garnet_consent_cast_done)(void *data, bool allowed, const char *output,
					 const pixman_box32_t *region,
					 struct garnet_surface *window);
struct garnet_consent_request *
garnet_consent_ask_cast_for_app(struct garnet_compositor *c, struct wl_client *client,
				const char *output, const char *who,
				garnet_consent_cast_done done, void *data);
/* The act is gone (its object destroyed): the question is dropped unanswered. */
void garnet_consent_withdraw(struct garnet_consent_request *request);
/* An allowed act still has to happen on a frame without any dialog (a capture): the next
 * question is not shown until every hold is released. */
void garnet_consent_hold(struct garnet_compositor *c);
void garnet_consent_release(struct garnet_compositor *c);
/* True while the dialog is up: no client gets input, the dialog takes keys and clicks. */
bool garnet_consent_active(struct garnet_compositor *c);
/* A hardware key or a press (pointer button, touch) at x, y of the global space: true when
 * the dialog took it. */
bool garnet_consent_key(struct garnet_compositor *c, uint32_t key, bool pressed);
bool garnet_consent_press(struct garnet_compositor *c, double x, double y);
/* The same for a hardware pointer's button, pressed or released: a press off the panel of a
 * recording's question starts dragging out a region, its release ends it. */
bool garnet_consent_pointer_button(struct garnet_compositor *c, double x, double y,
				   bool pressed);
/* The hardware pointer moved to x, y: a region being dragged out follows it. */
void garnet_consent_pointer_moved(struct garnet_compositor *c, double x, double y);
/* The session locks: every waiting question is answered no (unasked). */
void garnet_consent_refuse_all(struct garnet_compositor *c);
/* Where the dialog's panel is on output o (global space; one in the middle of every output)
 * and how it looks now; false when not shown. */
bool garnet_consent_panel_box(struct garnet_output *o, pixman_box32_t *box);
pixman_image_t *garnet_consent_panel_image(struct garnet_compositor *c);
/* What dims every output while the dialog is up (a translucent black). */
pixman_image_t *garnet_consent_dim_image(struct garnet_compositor *c);
/* Where it dims output o (global space): all of it, or around the region the user dragged
 * out there (at most 4 boxes); the count. */
int garnet_consent_dim_boxes(struct garnet_output *o, pixman_box32_t dim[4]);
/* The frame drawn just inside that region (4 boxes) and its colour; false: no region on o. */
bool garnet_consent_region_frame(struct garnet_output *o, pixman_box32_t frame[4]);
pixman_image_t *garnet_consent_frame_image(struct garnet_compositor *c);
bool garnet_consent_init(struct garnet_compositor *c);
void garnet_consent_finish(struct garnet_compositor *c);

#endif
