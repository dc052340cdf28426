// SPDX-License-Identifier: MIT
/*
 * What a client at its limits pays and how it waits (issue 19). Written as the client that
 * queues 16 MiB batches behind a vgem fence that has not signalled: the kernel's copies of its
 * batches are charged to its own memory cgroup (memory.current of a cgroup v2 made for it) and
 * given back at retire; at the in-flight limit, libdrm's drmIoctl() (which tries again on
 * EAGAIN and EINTR) sleeps on a blocking file, and spins only on an O_NONBLOCK one, until one
 * of its own requests retires. CPU time is measured, not assumed.
 */
#include "gt_exec.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB		(1ll << 20)
#define BATCH_SIZE	(16 * MIB)
#define CGROUP_ROOT	"/sys/fs/cgroup"

static double now_s(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A 16 MiB batch object: MI_BATCH_BUFFER_END, then MI_NOOPs (zeros). Written whole, so that
 * its pages (the client's, charged when populated) are all there before anything is measured.
 */
static uint32_t big_batch(int fd)
{
	uint32_t batch = gt_create(fd, BATCH_SIZE), *dw = calloc(1, BATCH_SIZE);

	gt_assert(dw);
	dw[0] = 0x05000000;
	gt_pwrite(fd, batch, 0, dw, BATCH_SIZE);
	free(dw);
	return batch;
}

/* EXECBUFFER2 of the whole 16 MiB batch over the blocked buffer, through raw ioctl(). */
static int submit_big(int fd, uint32_t batch, uint32_t blocked)
{
	struct drm_i915_gem_exec_object2 obj[2] = { { .handle = blocked }, { .handle = batch } };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj,
		.buffer_count = 2,
		.batch_len = BATCH_SIZE,
		.flags = I915_EXEC_RENDER,
	};

	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb) ? -errno : 0;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		gt_fail(__FILE__, __LINE__, "writing '%s' to %s: %s", text, path, strerror(errno));
}

static long long read_ll(const char *path)
{
	FILE *f = fopen(path, "r");
	long long v = -1;

	gt_assert(f);
	gt_assert(fscanf(f, "%lld", &v) == 1);
	fclose(f);
	return v;
}

/* A cgroup v2 with the memory controller, this process moved into it; its memory.current path. */
static void enter_memory_cgroup(char *current, size_t size)
{
	char dir[128], pid[32];

	/* The guest mounts no cgroup hierarchy: mount v2 (EBUSY when already there). */
	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK) != 0 &&
	    mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL) != 0)
		gt_skip("cannot mount cgroup2 on " CGROUP_ROOT ": %s", strerror(errno));
	write_file(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	snprintf(dir, sizeof(dir), CGROUP_ROOT "/garnet-exec-limits-%d", (int)getpid());
	gt_assert(mkdir(dir, 0755) == 0 || errno == EEXIST);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(current, size, "%s/cgroup.procs", dir);
	write_file(current, pid);
	snprintf(current, size, "%s/memory.current", dir);
}

static void leave_memory_cgroup(void)
{
	char dir[128], pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	write_file(CGROUP_ROOT "/cgroup.procs", pid);
	snprintf(dir, sizeof(dir), CGROUP_ROOT "/garnet-exec-limits-%d", (int)getpid());
	rmdir(dir);
}

/*
 * The client's requests are held back by the vgem fence: every queued request's 16 MiB batch
 * copy is kernel memory the client caused, and its cgroup's memory.current must show it; once
 * the fence signals and the requests retire, it is given back.
 */
static void queued_batch_copies_are_charged_to_the_clients_cgroup(void)
{
	char current[192];
	struct gt_blocker bl;
	long long base, queued, after = 0;
	uint32_t batch;
	int fd, n = 0, ret = 0;
	int64_t t = -1;

	enter_memory_cgroup(current, sizeof(current));
	fd = gt_open_render();
	gt_blocker_init(&bl, fd);
	batch = big_batch(fd);
	gt_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	base = read_ll(current);
	while (n < 16 && (ret = submit_big(fd, batch, bl.imported)) == 0)
		n++;
	queued = read_ll(current);
	{
		/* The kernel's own count of what the file holds in flight (debugfs). */
		char *clients = gt_debugfs_read(fd, "garnet_exec_clients"), head[32], *at;
		unsigned long long inflight = 0, bytes = 0;

		snprintf(head, sizeof(head), "\n%llu ", (unsigned long long)gt_client_id(fd));
		at = strstr(clients, head);
		gt_assert(at);
		gt_assert(sscanf(at + strlen(head), "%*d %*d %*d %*d %llu %llu", &inflight,
				 &bytes) == 2);
		free(clients);
		gt_info("debugfs: %llu requests, %llu MiB in flight\n", inflight, bytes >> 20);
		gt_assert_eq(inflight, n);
		gt_assert(bytes >= (unsigned long long)n * BATCH_SIZE);
		gt_assert(bytes <= 64 * MIB);
	}
	gt_info("%d requests of a 16 MiB batch queued before %s; memory.current %+lld MiB\n", n,
		ret ? strerror(-ret) : "stopping", (queued - base) / MIB);
	/* The per-file limit is 64 MiB of copies and structs: three or four fit, not sixteen. */
	gt_assert_eq(ret, -EAGAIN);
	gt_assert(n >= 3 && n <= 4);
	gt_assert(queued - base >= n * BATCH_SIZE * 9 / 10);
	gt_assert(queued - base <= 64 * MIB + 16 * MIB);

	gt_blocker_signal(&bl);
	gt_assert_eq(gt_wait(fd, batch, &t), 0);
	/* Retire runs on a workqueue after the fences signal. */
	for (int i = 0; i < 100; i++) {
		after = read_ll(current);
		if (after - base < 4 * MIB)
			break;
		usleep(50 * 1000);
	}
	gt_info("after retire: memory.current %+lld MiB\n", (after - base) / MIB);
	gt_assert(after - base < 4 * MIB);
	gt_close(fd, batch);
	gt_blocker_finish(&bl);
	close(fd);
	leave_memory_cgroup();
}

/* Fills the file up to its in-flight limit behind the fence; returns how many were queued. */
static int fill_to_the_limit(int fd, struct gt_blocker *bl, uint32_t batch)
{
	int flags = fcntl(fd, F_GETFL), n = 0;

	gt_assert_ok(fcntl(fd, F_SETFL, flags | O_NONBLOCK));
	while (n < 16 && submit_big(fd, batch, bl->imported) == 0)
		n++;
	gt_assert_ok(fcntl(fd, F_SETFL, flags));
	return n;
}

struct later {
	struct gt_blocker *bl;
	double after_s;
};

static void *signal_later(void *arg)
{
	struct later *l = arg;

	usleep((useconds_t)(l->after_s * 1e6));
	gt_blocker_signal(l->bl);
	return NULL;
}

/* One drmIoctl() submission at the limit, freed 2 s later: wall time and this thread's CPU time, in seconds. */
static void drmioctl_at_the_limit(bool nonblock, double *wall, double *cpu)
{
	int fd = gt_open_render();
	struct gt_blocker bl;
	struct later l = { .bl = &bl, .after_s = 2.0 };
	uint32_t batch;
	pthread_t thread;
	double w0, c0;
	int n;

	gt_blocker_init(&bl, fd);
	batch = big_batch(fd);
	n = fill_to_the_limit(fd, &bl, batch);
	gt_assert(n >= 1);
	if (nonblock)
		gt_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	{
		struct drm_i915_gem_exec_object2 obj[2] = {
			{ .handle = bl.imported }, { .handle = batch },
		};
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = (uintptr_t)obj,
			.buffer_count = 2,
			.batch_len = BATCH_SIZE,
			.flags = I915_EXEC_RENDER,
		};

		gt_assert_ok(pthread_create(&thread, NULL, signal_later, &l));
		w0 = now_s(CLOCK_MONOTONIC);
		c0 = now_s(CLOCK_THREAD_CPUTIME_ID);
		/* libdrm's own loop: again on EINTR and EAGAIN. */
		gt_assert_ok(drmIoctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb));
		*cpu = now_s(CLOCK_THREAD_CPUTIME_ID) - c0;
		*wall = now_s(CLOCK_MONOTONIC) - w0;
		gt_assert_ok(pthread_join(thread, NULL));
	}
	{
		int64_t t = -1;

		gt_assert_eq(gt_wait(fd, batch, &t), 0);
	}
	gt_close(fd, batch);
	gt_blocker_finish(&bl);
	close(fd);
}

/* On a blocking file, a client at its limit sleeps in the kernel: no CPU spent waiting. */
static void drmioctl_at_the_limit_sleeps(void)
{
	double wall, cpu;

	drmioctl_at_the_limit(false, &wall, &cpu);
	gt_info("drmIoctl at the in-flight limit, blocking file: %.2f s waited, %.3f s of CPU\n",
		wall, cpu);
	/* The submission itself (a 16 MiB copy and its validation) costs some CPU; a spin all. */
	gt_assert(wall >= 1.9);
	gt_assert(cpu < wall / 4);
}

/*
 * On an O_NONBLOCK file the kernel says EAGAIN and drmIoctl() asks again at once: it spins,
 * as it does on i915, but only until one of its own requests retires (here, when the fence
 * signals; at worst garnet's 10 s limit on foreign fences, or the watchdog). Measured.
 */
static void drmioctl_nonblocking_spins_only_until_a_retire(void)
{
	double wall, cpu;

	drmioctl_at_the_limit(true, &wall, &cpu);
	gt_info("drmIoctl at the in-flight limit, O_NONBLOCK file: %.2f s waited, %.3f s of CPU\n",
		wall, cpu);
	gt_assert(wall >= 1.9);
	gt_assert(wall < 6);
}

GT_MAIN(
	GT_SUBTEST(queued_batch_copies_are_charged_to_the_clients_cgroup,
		   "queued-batch-copies-are-charged-to-the-clients-memory-cgroup"),
	GT_SUBTEST(drmioctl_at_the_limit_sleeps, "drmioctl-at-the-in-flight-limit-sleeps"),
	GT_SUBTEST(drmioctl_nonblocking_spins_only_until_a_retire,
		   "drmioctl-on-a-nonblocking-file-spins-only-until-a-retire")
)
