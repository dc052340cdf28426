// SPDX-License-Identifier: MIT
/*
 * Figures for the execution path, printed one per line ("name: value unit"):
 * empty-batch round trips, XY_SRC_COPY_BLT against memcpy, the cost of validation and of
 * isolation mode, and relocation processing with and without the presumed_offset fast path.
 * Run inside the VM (meson benchmark kernel-exec-bench); absolute numbers are TCG's.
 */
#include "gt_exec.h"

#include <stdio.h>
#include <stdlib.h>
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

/* Microseconds per execbuffer of 1,000 one-pixel fills (submit and wait). */
static double small_fills_us(void)
{
	enum { FILLS = 600, ROUNDS = 20 };
	int fd = gt_open_render();
	uint32_t dst = gt_create(fd, 1 << 20);
	static struct gt_batch b;
	static struct gt_exec x;
	double start;

	gtb_init(&b);
	for (int i = 0; i < FILLS; i++)
		gtb_fill(&b, dst, 4096, i % 1024, i / 1024, i % 1024 + 1, i / 1024 + 1, (uint32_t)i);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &dst, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	wait_idle(fd, dst);
	start = now();
	for (int i = 0; i < ROUNDS; i++) {
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		wait_idle(fd, dst);
	}
	gt_exec_finish(fd, &x);
	close(fd);
	return (now() - start) / ROUNDS * 1e6;
}

/* Microseconds per execbuffer carrying 1,000 relocations, fast path taken or not. */
static double relocations_us(bool fast)
{
	enum { RELOCS = 1000, ROUNDS = 20 };
	int fd = gt_open_render();
	uint32_t dst = gt_create(fd, 4096);
	static struct gt_batch b;
	static struct gt_exec x;
	double start;

	gtb_init(&b);
	for (int i = 0; i < RELOCS; i++)
		gtb_store(&b, dst, (uint32_t)(i % 1024) * 4, (uint32_t)i);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &dst, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	wait_idle(fd, dst);
	start = now();
	for (int i = 0; i < ROUNDS; i++) {
		if (!fast)
			for (int r = 0; r < RELOCS; r++)
				b.relocs[r].presumed_offset = ~0ull;
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		wait_idle(fd, dst);
	}
	gt_exec_finish(fd, &x);
	close(fd);
	return (now() - start) / ROUNDS * 1e6;
}

static void benchmarks(void)
{
	double blit, cpu, checked, unchecked, shared, isolated;
	long validate, isolation;

	printf("empty-batch round trips: %.0f /s\n", empty_round_trips());
	copy_throughput(&blit, &cpu);
	printf("XY_SRC_COPY_BLT 4 MiB: %.0f MB/s\n", blit);
	printf("memcpy 4 MiB: %.0f MB/s\n", cpu);

	checked = small_fills_us();
	validate = gt_set_param("validate", 0);
	unchecked = small_fills_us();
	gt_set_param("validate", validate);
	printf("600 fills, validated: %.0f us\n", checked);
	printf("600 fills, not validated: %.0f us\n", unchecked);
	printf("validation cost ratio: %.3f\n", checked / unchecked);

	isolation = gt_set_param("isolation", 1);
	isolated = small_fills_us();
	gt_set_param("isolation", 0);
	shared = small_fills_us();
	gt_set_param("isolation", isolation);
	printf("600 fills, isolation mode: %.0f us\n", isolated);
	printf("600 fills, global GTT: %.0f us\n", shared);
	printf("isolation cost ratio: %.3f\n", isolated / shared);

	printf("1000 relocations, fast path: %.0f us\n", relocations_us(true));
	printf("1000 relocations, written: %.0f us\n", relocations_us(false));
}

GT_MAIN(
	GT_SUBTEST(benchmarks, "benchmarks")
)
