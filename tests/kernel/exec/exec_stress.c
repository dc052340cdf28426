// SPDX-License-Identifier: MIT
/*
 * Ten processes submit at once for ten seconds: fills, copies and stores on their own
 * objects, every result checked. The VM harness fails the run on any kernel warning.
 */
#include "gt_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PROCS 10
#define SECONDS 10

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One round: fill a, copy part of a into b, store a marker; check every pixel of b. */
static void round_trip(int fd, unsigned int seed, int w, int h)
{
	uint32_t pitch = (uint32_t)w * 4, size = pitch * (uint32_t)h;
	uint32_t a = gt_create(fd, size), b2 = gt_create(fd, size), handles[2] = { a, b2 };
	uint32_t ca = 0xff000000u | seed, cb = ~seed, *px = malloc(size);
	int cw = w / 2, ch = h / 2;
	struct gt_batch b;

	gtb_init(&b);
	gtb_fill(&b, a, pitch, 0, 0, w, h, ca);
	gtb_fill(&b, b2, pitch, 0, 0, w, h, cb);
	gtb_copy(&b, b2, pitch, w - cw, h - ch, cw, ch, a, pitch, 0, 0);
	gtb_store(&b, b2, 0, seed);
	/* One write domain per object: the store writes b2 through the render cache too. */
	b.relocs[b.nreloc - 1].read_domains = I915_GEM_DOMAIN_RENDER;
	b.relocs[b.nreloc - 1].write_domain = I915_GEM_DOMAIN_RENDER;
	gtb_end(&b);
	gt_run(fd, &b, handles, 2);

	gt_pread(fd, b2, 0, px, size);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			uint32_t want = x >= w - cw && y >= h - ch ? ca : cb;

			if (x == 0 && y == 0)
				want = seed;
			if (px[y * w + x] != want)
				gt_fail(__FILE__, __LINE__, "pid %d: pixel %d,%d is 0x%08x, want 0x%08x",
					getpid(), x, y, px[y * w + x], want);
		}
	free(px);
	gt_close(fd, a);
	gt_close(fd, b2);
}

static void child(int index, int seconds)
{
	int fd = gt_open_render();
	double end = now() + seconds;
	unsigned int rounds = 0;

	srand((unsigned int)getpid());
	while (now() < end) {
		int w = 16 + rand() % 256, h = 16 + rand() % 64;

		round_trip(fd, (unsigned int)index << 24 | rounds, w, h);
		rounds++;
	}
	printf("process %d: %u rounds\n", index, rounds);
	close(fd);
	/* _exit: the parent's exit handlers (parameters to restore) are the parent's. */
	fflush(stdout);
	_exit(rounds > 0 ? 0 : 1);
}

static void run_processes(int seconds)
{
	pid_t pids[PROCS];
	long long completed;
	int fd = gt_open_render(), failed = 0;

	completed = gt_exec_counter(fd, "completed");
	fflush(stdout);
	for (int i = 0; i < PROCS; i++) {
		pids[i] = fork();
		gt_assert(pids[i] >= 0);
		if (pids[i] == 0)
			child(i, seconds);
	}
	for (int i = 0; i < PROCS; i++) {
		int status;

		gt_assert(waitpid(pids[i], &status, 0) == pids[i]);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			failed++;
	}
	gt_assert_eq(failed, 0);
	gt_info("requests completed: %lld\n", gt_exec_counter(fd, "completed") - completed);
	close(fd);
}

static void ten_processes(void)
{
	run_processes(SECONDS);
}

/* The same in isolation mode: ten address spaces with random placement, side by side. */
static void ten_processes_isolated(void)
{
	gt_require_param("isolation", 1);
	run_processes(SECONDS / 2);
}

GT_MAIN(
	GT_SUBTEST(ten_processes, "ten-processes-ten-seconds"),
	GT_SUBTEST_BOOT(ten_processes_isolated, "ten-processes-isolated", "isolation=1")
)
