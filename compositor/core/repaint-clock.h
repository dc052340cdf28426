/* SPDX-License-Identifier: MIT */
/* When an output's repaint starts: early enough before the vblank for the frames it has been
 * rendering lately (a high percentile of their render times and a margin), and no earlier, so
 * that commits arriving meanwhile still make the frame. */
#ifndef GARNET_CORE_REPAINT_CLOCK_H
#define GARNET_CORE_REPAINT_CLOCK_H

#include <stdint.h>

/* Frames remembered: about half a second at 60 Hz, so that a change of scene is followed. */
#define GARNET_REPAINT_CLOCK_FRAMES 32
/* The window before any frame was measured (Weston's fixed default). */
#define GARNET_REPAINT_WINDOW_PRIOR_NS 7000000LL
/* Never later than this before the vblank: the loop's timer has millisecond steps and other
 * work (a client's requests) may run first when it fires. */
#define GARNET_REPAINT_WINDOW_MIN_NS 3000000LL
/* What is added to the percentile: a fixed part for the timer's lateness and a quarter of it
 * for frames slower than most of the recent ones. */
#define GARNET_REPAINT_MARGIN_NS 2000000LL

struct garnet_repaint_clock {
	/* A ring of the last frames' render times. */
	int64_t render_ns[GARNET_REPAINT_CLOCK_FRAMES];
	uint32_t count, next;
	int64_t fixed_ns; /* >= 0: a fixed window (garnet.ini repaint-window=N); < 0: measured */
};

/* fixed_ns < 0: the window follows the render times recorded. */
void garnet_repaint_clock_init(struct garnet_repaint_clock *clock, int64_t fixed_ns);
/* One frame took render_ns from the start of its repaint to its submission to the backend. */
void garnet_repaint_clock_record(struct garnet_repaint_clock *clock, int64_t render_ns);
/* The 90th percentile of the recorded render times; -1 when none is recorded. */
int64_t garnet_repaint_clock_p90(const struct garnet_repaint_clock *clock);
/* How long before the vblank the next repaint starts, for a frame period of period_ns: the p90
 * and the margin, within [GARNET_REPAINT_WINDOW_MIN_NS, period_ns]; a fixed window as it is
 * (but never beyond the period). */
int64_t garnet_repaint_clock_window(const struct garnet_repaint_clock *clock, int64_t period_ns);

#endif
