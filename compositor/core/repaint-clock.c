// SPDX-License-Identifier: MIT
// The repaint clock's estimator: a ring of recent render times and the window they call for.
// Pure arithmetic (no clock read here), so that tests/unit can drive it frame by frame.
#include <string.h>

#include "repaint-clock.h"

void garnet_repaint_clock_init(struct garnet_repaint_clock *clock, int64_t fixed_ns)
{
	memset(clock, 0, sizeof(*clock));
	clock->fixed_ns = fixed_ns;
}

void garnet_repaint_clock_record(struct garnet_repaint_clock *clock, int64_t render_ns)
{
	clock->render_ns[clock->next] = render_ns > 0 ? render_ns : 0;
	clock->next = (clock->next + 1) % GARNET_REPAINT_CLOCK_FRAMES;
	if (clock->count < GARNET_REPAINT_CLOCK_FRAMES)
		clock->count++;
}

int64_t garnet_repaint_clock_p90(const struct garnet_repaint_clock *clock)
{
	int64_t sorted[GARNET_REPAINT_CLOCK_FRAMES];
	uint32_t n = clock->count;

	if (n == 0)
		return -1;
	/* The ring holds the last n frames at [0, n) until it wraps, then all of it: the order
	 * does not matter once sorted. */
	for (uint32_t i = 0; i < n; i++) {
		int64_t v = clock->render_ns[i];
		uint32_t j = i;

		for (; j > 0 && sorted[j - 1] > v; j--)
			sorted[j] = sorted[j - 1];
		sorted[j] = v;
	}
	/* Nearest rank: the smallest value that at least 90% of the frames do not exceed. */
	return sorted[(9 * n + 9) / 10 - 1];
}

int64_t garnet_repaint_clock_window(const struct garnet_repaint_clock *clock, int64_t period_ns)
{
	int64_t p90, window;

	if (clock->fixed_ns >= 0) {
		window = clock->fixed_ns;
	} else {
		p90 = garnet_repaint_clock_p90(clock);
		if (p90 < 0)
			window = GARNET_REPAINT_WINDOW_PRIOR_NS;
		else
			window = p90 + p90 / 4 + GARNET_REPAINT_MARGIN_NS;
		if (window < GARNET_REPAINT_WINDOW_MIN_NS)
			window = GARNET_REPAINT_WINDOW_MIN_NS;
	}
	return window < period_ns ? window : period_ns;
}
