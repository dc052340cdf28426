// SPDX-License-Identifier: MIT
// The repaint clock's estimator (compositor/core/repaint-clock.c), frame by frame with made-up
// render times: which window each history calls for. TAP.
#include <stdio.h>

#include "repaint-clock.h"

#define MS 1000000LL
#define PERIOD_60HZ (1000000000000LL / 60000)

static int failures, count;

static void ok(int cond, const char *name, long long got, long long want)
{
	count++;
	if (cond) {
		printf("ok %d - %s\n", count, name);
		return;
	}
	failures++;
	printf("not ok %d - %s\n# got %lld, want %lld\n", count, name, got, want);
}

static void is(long long got, long long want, const char *name)
{
	ok(got == want, name, got, want);
}

static void record_n(struct garnet_repaint_clock *clock, int n, int64_t render_ns)
{
	for (int i = 0; i < n; i++)
		garnet_repaint_clock_record(clock, render_ns);
}

int main(void)
{
	struct garnet_repaint_clock clock, light;

	garnet_repaint_clock_init(&clock, -1);
	is(garnet_repaint_clock_p90(&clock), -1, "nothing_measured_has_no_percentile");
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), GARNET_REPAINT_WINDOW_PRIOR_NS,
	   "nothing_measured_starts_at_the_prior_window");

	garnet_repaint_clock_init(&light, -1);
	record_n(&light, GARNET_REPAINT_CLOCK_FRAMES, MS / 2);
	is(garnet_repaint_clock_window(&light, PERIOD_60HZ), GARNET_REPAINT_WINDOW_MIN_NS,
	   "light_frames_start_at_the_minimum_window");
	ok(garnet_repaint_clock_window(&light, PERIOD_60HZ) < 7 * MS,
	   "light_frames_start_later_than_the_fixed_7ms",
	   garnet_repaint_clock_window(&light, PERIOD_60HZ), 7 * MS);

	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, GARNET_REPAINT_CLOCK_FRAMES, 8 * MS);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), 8 * MS + 2 * MS + 2 * MS,
	   "heavy_frames_start_at_p90_plus_a_quarter_plus_the_margin");
	ok(garnet_repaint_clock_window(&clock, PERIOD_60HZ) >
		   garnet_repaint_clock_window(&light, PERIOD_60HZ),
	   "heavy_frames_start_earlier_than_light_ones",
	   garnet_repaint_clock_window(&clock, PERIOD_60HZ),
	   garnet_repaint_clock_window(&light, PERIOD_60HZ));

	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, 4, 20 * MS);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), PERIOD_60HZ,
	   "frames_longer_than_the_period_start_one_period_early");

	/* 32 frames: the 90th percentile by nearest rank is the 29th smallest, so up to 3 slow
	 * frames are outliers and 4 are not. */
	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, 29, 1 * MS);
	record_n(&clock, 3, 12 * MS);
	is(garnet_repaint_clock_p90(&clock), 1 * MS, "three_slow_frames_in_32_are_outliers");
	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, 28, 1 * MS);
	record_n(&clock, 4, 12 * MS);
	is(garnet_repaint_clock_p90(&clock), 12 * MS, "four_slow_frames_in_32_set_the_window");

	/* Few frames: the percentile is their largest until there are ten. */
	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, 1, 1 * MS);
	record_n(&clock, 1, 9 * MS);
	is(garnet_repaint_clock_p90(&clock), 9 * MS, "two_frames_the_slower_counts");

	/* The ring forgets: a heavy past followed by a full ring of light frames is light. */
	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, GARNET_REPAINT_CLOCK_FRAMES, 14 * MS);
	record_n(&clock, GARNET_REPAINT_CLOCK_FRAMES, MS / 2);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), GARNET_REPAINT_WINDOW_MIN_NS,
	   "heavy_frames_out_of_the_ring_are_forgotten");
	/* ...and a change of scene is followed within a few frames. */
	record_n(&clock, 4, 10 * MS);
	is(garnet_repaint_clock_p90(&clock), 10 * MS, "four_heavy_frames_after_light_ones_count");

	garnet_repaint_clock_init(&clock, 7 * MS);
	record_n(&clock, GARNET_REPAINT_CLOCK_FRAMES, 12 * MS);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), 7 * MS,
	   "a_fixed_window_ignores_render_times");
	garnet_repaint_clock_init(&clock, 0);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), 0,
	   "a_fixed_window_of_zero_stays_zero");
	garnet_repaint_clock_init(&clock, 50 * MS);
	is(garnet_repaint_clock_window(&clock, PERIOD_60HZ), PERIOD_60HZ,
	   "a_fixed_window_is_at_most_one_period");

	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, 1, -5 * MS);
	is(garnet_repaint_clock_p90(&clock), 0, "a_negative_render_time_counts_as_zero");

	garnet_repaint_clock_init(&clock, -1);
	record_n(&clock, GARNET_REPAINT_CLOCK_FRAMES, 8 * MS);
	is(garnet_repaint_clock_window(&clock, 1000000000000LL / 144000), 1000000000000LL / 144000,
	   "at_144hz_the_same_frames_take_the_whole_period");

	printf("1..%d\n", count);
	return failures ? 1 : 0;
}
