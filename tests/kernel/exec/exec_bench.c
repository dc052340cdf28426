// SPDX-License-Identifier: MIT
/*
 * Figures for the execution path, printed one per line ("name: value unit"):
 * empty-batch round trips (beside the guest's own cross-CPU round trip), XY_SRC_COPY_BLT
 * against memcpy, the cost of validation and of isolation mode, and relocation processing
 * with and without the presumed_offset fast path.
 * Run inside the VM (meson benchmark kernel-exec-bench); absolute numbers are TCG's.
 */
#include "gt_exec.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void wait_idle(int fd, uint32_t handle)
{
	int64_t t = -1;

	gt_assert_eq(gt_wait(fd, handle, &t), 0);
}

static double empty_round_trips(void)
{
	int fd = gt_open_render();
	static struct gt_batch b;
	static struct gt_exec x;
	double start = now(), end = start + 2;
	long n = 0;

	gtb_init(&b);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, NULL, 0);
	while (now() < end) {
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		wait_idle(fd, x.batch_handle);
		n++;
	}
	gt_exec_finish(fd, &x);
	close(fd);
	return n / (now() - start);
}

/* This process on one CPU, or on all of them again (cpu < 0). */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < CPU_SETSIZE; i++)
		if (cpu < 0 || i == cpu)
			CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/*
 * The guest's own price of an empty round trip: a byte sent to a process on the other CPU
 * and back (two cross-CPU wake-ups, as submit-then-WAIT costs when the engine runs on the
 * other CPU). Under TCG on a loaded host it is what bounds the empty-batch figure: a sleeping
 * vCPU is a host thread that waits for the host's scheduler.
 */
static double cross_cpu_round_trips(void)
{
	int ping[2], pong[2];
	double start, end;
	long n = 0;
	char c = 0;
	pid_t child;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	gt_assert_ok(pipe(ping));
	gt_assert_ok(pipe(pong));
	child = fork();
	gt_assert(child >= 0);
	if (!child) {
		close(ping[1]);
		close(pong[0]);
		pin(1);
		while (read(ping[0], &c, 1) == 1 && write(pong[1], &c, 1) == 1)
			;
		_exit(0);
	}
	close(ping[0]);
	close(pong[1]);
	pin(0);
	start = now();
	end = start + 2;
	while (now() < end) {
		gt_assert_eq(write(ping[1], &c, 1), 1);
		gt_assert_eq(read(pong[0], &c, 1), 1);
		n++;
	}
	end = now();
	close(ping[1]);
	waitpid(child, NULL, 0);
	close(pong[0]);
	pin(-1);
	return n / (end - start);
}

/* MB/s of 4 MiB XY_SRC_COPY_BLTs, and of memcpy of the same size in this process. */
static void copy_throughput(double *blit, double *cpu)
{
	enum { SIZE = 4 << 20, ROUNDS = 20 };
	int fd = gt_open_render();
	uint32_t src = gt_create(fd, SIZE), dst = gt_create(fd, SIZE), h[2] = { src, dst };
	static struct gt_batch b;
	static struct gt_exec x;
	char *a = malloc(SIZE), *c = malloc(SIZE);
	double start;

	gtb_init(&b);
	gtb_copy(&b, dst, 4096, 0, 0, 1024, 1024, src, 4096, 0, 0);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, h, 2);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);	/* binds and relocates once */
	wait_idle(fd, dst);
	start = now();
	for (int i = 0; i < ROUNDS; i++)
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
	wait_idle(fd, dst);
	*blit = (double)SIZE * ROUNDS / (now() - start) / 1e6;

	memset(a, 1, SIZE);
	memset(c, 0, SIZE);
	start = now();
	for (int i = 0; i < ROUNDS; i++) {
		memcpy(c, a, SIZE);
		__asm__ volatile("" : : "r"(c) : "memory");
	}
	*cpu = (double)SIZE * ROUNDS / (now() - start) / 1e6;
	free(a);
	free(c);
	gt_exec_finish(fd, &x);
	close(fd);
}

/*
 * Microseconds spent in EXECBUFFER2 for a batch of 600 one-pixel fills (binding, copying,
 * validating, queueing), and for the whole round trip including execution.
 */
static void small_fills_us(double *ioctl_us, double *round_trip_us)
{
	enum { FILLS = 600, ROUNDS = 20 };
	int fd = gt_open_render();
	uint32_t dst = gt_create(fd, 1 << 20);
	static struct gt_batch b;
	static struct gt_exec x;
	double in_ioctl = 0, total = 0;

	gtb_init(&b);
	for (int i = 0; i < FILLS; i++)
		gtb_fill(&b, dst, 4096, i % 1024, i / 1024, i % 1024 + 1, i / 1024 + 1, (uint32_t)i);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &dst, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	wait_idle(fd, dst);
	for (int i = 0; i < ROUNDS; i++) {
		double t0 = now();

		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		in_ioctl += now() - t0;
		wait_idle(fd, dst);
		total += now() - t0;
	}
	gt_exec_finish(fd, &x);
	close(fd);
	*ioctl_us = in_ioctl / ROUNDS * 1e6;
	*round_trip_us = total / ROUNDS * 1e6;
}

/* Microseconds in EXECBUFFER2 for 1,000 relocations, fast path taken or not (idle target). */
static double relocations_us(bool fast)
{
	enum { RELOCS = 1000, ROUNDS = 20 };
	int fd = gt_open_render();
	uint32_t dst = gt_create(fd, 4096);
	static struct gt_batch b;
	static struct gt_exec x;
	double in_ioctl = 0;

	gtb_init(&b);
	for (int i = 0; i < RELOCS; i++)
		gtb_store(&b, dst, (uint32_t)(i % 1024) * 4, (uint32_t)i);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &dst, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	wait_idle(fd, dst);
	for (int i = 0; i < ROUNDS; i++) {
		double t0;

		if (!fast)
			for (int r = 0; r < RELOCS; r++)
				b.relocs[r].presumed_offset = ~0ull;
		t0 = now();
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		in_ioctl += now() - t0;
		wait_idle(fd, dst);
	}
	gt_exec_finish(fd, &x);
	close(fd);
	return in_ioctl / ROUNDS * 1e6;
}

static void fills_figures(const char *label, double *ioctl_us)
{
	double round_trip;

	small_fills_us(ioctl_us, &round_trip);
	printf("600 fills, %s: %.0f us in EXECBUFFER2, %.0f us round trip\n", label, *ioctl_us,
	       round_trip);
}

static void benchmarks(void)
{
	double blit, cpu, checked, fast, slow;

	double empty = empty_round_trips(), cross = cross_cpu_round_trips();

	printf("empty-batch round trips: %.0f /s\n", empty);
	printf("cross-CPU pipe round trips (the guest's wake-up cost): %.0f /s\n", cross);
	copy_throughput(&blit, &cpu);
	printf("XY_SRC_COPY_BLT 4 MiB: %.0f MB/s\n", blit);
	printf("memcpy 4 MiB: %.0f MB/s\n", cpu);
	printf("blit / memcpy: %.3f\n", blit / cpu);

	fills_figures("validated, global GTT", &checked);

	fast = relocations_us(true);
	slow = relocations_us(false);
	printf("1000 relocations, fast path: %.0f us in EXECBUFFER2\n", fast);
	printf("1000 relocations, written: %.0f us in EXECBUFFER2\n", slow);
	printf("relocation fast path speed-up: %.2f\n", slow / fast);
}

/*
 * The same fills with garnet loaded with validate=0 or isolation=1 (benchmarks of their own
 * boots: the parameters are read-only after load); compare with the default boot's figure.
 */
static void fills(void)
{
	char label[64];
	double us;

	snprintf(label, sizeof(label), "%s, %s", gt_param("validate") ? "validated" : "not validated",
		 gt_param("isolation") ? "isolation mode" : "global GTT");
	fills_figures(label, &us);
}

GT_MAIN(
	GT_SUBTEST(benchmarks, "benchmarks"),
	GT_SUBTEST(fills, "fills")
)
