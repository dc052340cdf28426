/* SPDX-License-Identifier: MIT */
/* garnet-portal's bookkeeping of its copies (copies.c), apart from PipeWire so that it can be
 * tested alone: which buffer each of garnet's answers is for, and the damage a buffer
 * carries. */
#ifndef GARNET_PORTAL_COPIES_H
#define GARNET_PORTAL_COPIES_H

#include <stdint.h>

/* The changed boxes garnet-portal keeps of one frame; more are the whole frame. */
#define COPIES_MAX_DAMAGE 16

/* garnet answers every copy with one ready or failed, in order. The buffer of a copy may
 * go (PipeWire renegotiates the stream's buffers) before its answer comes: that answer is
 * then for nobody, and the next copy may already wait. */
struct copy_ledger {
	void *waiting; /* the buffer garnet fills next, or NULL */
	unsigned forgotten; /* answers still to come for buffers that went */
};

/* A copy into buffer was asked for (nothing waits: copy_ledger_idle). */
void copy_ledger_sent(struct copy_ledger *l, void *buffer);
/* buffer goes away: an answer still to come for it is for nobody. */
void copy_ledger_forget(struct copy_ledger *l, void *buffer);
/* An answer came: the buffer it is for, or NULL. */
void *copy_ledger_answered(struct copy_ledger *l);
/* True when no copy waits (the next may be asked for). */
int copy_ledger_idle(const struct copy_ledger *l);
/* The capture stopped: no answer comes any more. */
void copy_ledger_clear(struct copy_ledger *l);

/* The count boxes (x, y, w, h) of a frame of width x height as at most capacity boxes in
 * out: the boxes themselves when they fit, else one box of the whole frame (a consumer that
 * believed the dropped ones unchanged would show stale pixels). count may exceed
 * COPIES_MAX_DAMAGE (only that many were kept). Returns how many were written. */
int damage_fit(const int32_t (*boxes)[4], int count, int capacity, int32_t width, int32_t height,
	       int32_t (*out)[4]);

#endif
