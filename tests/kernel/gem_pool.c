// SPDX-License-Identifier: MIT
/*
 * Reuse of freed object memory (garnet_pool.c): whichever zero_policy is in force, memory a
 * victim filled and freed comes back to the next client as zeros, and memory someone else
 * can still reach is never reused. The pool's parameters are read-only after load, so the tests
 * of each setting run in a boot of their own: this file is built three times, as gem_pool
 * (the defaults, in the kernel boot), gem_pool_idle (zero_policy=idle) and gem_pool_off
 * (pool_mb=0), each listing the subtests of its setting (see meson.build).
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Each build lists only its setting's subtests; the others' are compiled but unused. */
#pragma GCC diagnostic ignored "-Wunused-function"

#define SECRET	"pool-secret-51c4e2"
/* An unusual size, so only this test's objects match in the pool. */
#define SIZE	(75 * 4096)
#define COUNT	8

/* The module was loaded with this value: the boot's --module-param, or the default. */
static void expect_param(const char *name, const char *value)
{
	char path[128], buf[32] = "";
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/garnet/parameters/%s", name);
	fd = open(path, O_RDONLY);
	gt_assert(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	gt_assert(n > 0);
	buf[strcspn(buf, "\n")] = 0;
	if (strcmp(buf, value) != 0)
		gt_fail(__FILE__, __LINE__, "%s is %s, this test needs a boot with %s=%s", name,
			buf, name, value);
}

static void fill_secret(char *buf, size_t size)
{
	for (size_t i = 0; i + sizeof(SECRET) <= size; i += sizeof(SECRET))
		memcpy(buf + i, SECRET, sizeof(SECRET));
}

/* A victim process fills COUNT objects with the secret (pwrite and mmap) and frees them. */
static void victim_fills_and_frees(void)
{
	pid_t pid = fork();
	int status;

	gt_assert(pid >= 0);
	if (pid == 0) {
		int fd = gt_open_render();
		char *buf = malloc(SIZE);

		fill_secret(buf, SIZE);
		for (int i = 0; i < COUNT; i++) {
			uint32_t h = gt_create(fd, SIZE);
			char *map = gt_mmap_offset(fd, h, SIZE);

			gt_pwrite(fd, h, 0, buf, SIZE / 2);
			memcpy(map + SIZE / 2, buf, SIZE / 2);
			munmap(map, SIZE);
		}
		close(fd);
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void expect_zero_objects(int fd)
{
	char *buf = malloc(SIZE);

	for (int i = 0; i < COUNT; i++) {
		uint32_t h = gt_create(fd, SIZE);
		char *map = i % 2 ? gt_mmap_cpu(fd, h, 0, SIZE) : gt_mmap_offset(fd, h, SIZE);

		gt_pread(fd, h, 0, buf, SIZE);
		for (size_t j = 0; j < SIZE; j++)
			if (buf[j] || map[j])
				gt_fail(__FILE__, __LINE__, "object %d byte %zu is not zero", i, j);
		munmap(map, SIZE);
	}
	free(buf);
}

static void reused_memory_is_zeroed_at_allocation(void)
{
	int fd = gt_open_render();
	long long reused, zeroed;

	expect_param("pool_mb", "64");
	expect_param("zero_policy", "alloc");
	victim_fills_and_frees();
	reused = gt_counter(fd, "pool_reused");
	zeroed = gt_counter(fd, "pool_zeroed_alloc");
	expect_zero_objects(fd);
	gt_assert_eq(gt_counter(fd, "pool_reused"), reused + COUNT);
	gt_assert_eq(gt_counter(fd, "pool_zeroed_alloc"), zeroed + COUNT);
	close(fd);
}

static void reused_memory_is_zeroed_ahead_of_time(void)
{
	int fd = gt_open_render();
	long long reused, zeroed = gt_counter(fd, "pool_zeroed_idle");
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	expect_param("pool_mb", "64");
	expect_param("zero_policy", "idle");
	victim_fills_and_frees();
	for (int i = 0; i < 250 && gt_counter(fd, "pool_zeroed_idle") < zeroed + COUNT; i++)
		nanosleep(&pause, NULL);
	gt_assert(gt_counter(fd, "pool_zeroed_idle") >= zeroed + COUNT);
	reused = gt_counter(fd, "pool_reused");
	expect_zero_objects(fd);
	gt_assert_eq(gt_counter(fd, "pool_reused"), reused + COUNT);
	close(fd);
}

/*
 * A GEM_MMAP mapping outlives the object: that memory must never go to someone else, or the
 * old mapping would read (and write) the new owner's data.
 */
static void memory_still_mapped_is_never_reused(void)
{
	enum { MAPPED_SIZE = 77 * 4096 };	/* a size no other test frees */
	int victim = gt_open_render(), fd = gt_open_render();
	uint32_t h = gt_create(victim, MAPPED_SIZE);
	char *old_map = gt_mmap_cpu(victim, h, 0, MAPPED_SIZE);
	long long reused;
	char out[64];

	expect_param("pool_mb", "64");
	expect_param("zero_policy", "alloc");
	gt_close(victim, h);
	close(victim);
	reused = gt_counter(fd, "pool_reused");
	h = gt_create(fd, MAPPED_SIZE);
	gt_assert_eq(gt_counter(fd, "pool_reused"), reused);
	strcpy(old_map, SECRET);
	gt_pread(fd, h, 0, out, sizeof(out));
	gt_assert(memcmp(out, SECRET, sizeof(SECRET)) != 0);
	munmap(old_map, MAPPED_SIZE);
	close(fd);
}

/*
 * vmsplice() from an old mapping leaves the pipe holding the object's page after the mapping
 * and the object are gone. If that page were cleared in place and handed to the next owner,
 * reading the pipe would show the new owner's data.
 */
static void page_held_by_a_pipe_is_never_reused(void)
{
	enum { PIPE_SIZE = 79 * 4096 };	/* a size no other test frees */
	int attacker = gt_open_render(), victim = gt_open_render();
	uint32_t h = gt_create(attacker, PIPE_SIZE);
	char *map = gt_mmap_cpu(attacker, h, 0, PIPE_SIZE);
	struct iovec iov = { .iov_base = map, .iov_len = 4096 };
	char out[4096], back[sizeof(SECRET)];
	long long reused;
	int p[2];

	expect_param("pool_mb", "64");
	expect_param("zero_policy", "alloc");
	gt_assert_ok(pipe(p));
	memset(map, 'A', PIPE_SIZE);
	gt_assert_eq(vmsplice(p[1], &iov, 1, 0), 4096);
	munmap(map, PIPE_SIZE);
	gt_close(attacker, h);

	reused = gt_counter(victim, "pool_reused");
	h = gt_create(victim, PIPE_SIZE);
	/* The file itself was reused: the page the pipe holds must not be part of it. */
	gt_assert_eq(gt_counter(victim, "pool_reused"), reused + 1);
	gt_pwrite(victim, h, 0, SECRET, sizeof(SECRET));
	gt_assert_eq(read(p[0], out, sizeof(out)), sizeof(out));
	gt_assert(memcmp(out, SECRET, sizeof(SECRET)) != 0);
	gt_assert_eq(out[0], 'A');
	/* The victim sees its own data, and zeros where the attacker's bytes were. */
	gt_pread(victim, h, 0, back, sizeof(back));
	gt_assert(memcmp(back, SECRET, sizeof(SECRET)) == 0);
	gt_pread(victim, h, 8192, out, sizeof(out));
	for (size_t i = 0; i < sizeof(out); i++)
		gt_assert_eq(out[i], 0);
	close(p[0]);
	close(p[1]);
	close(victim);
	close(attacker);
}

/*
 * root opens the mapped shmem file again through /proc/PID/map_files: a second struct file of
 * the same inode, which the pool's check of the object's own file does not count. Once the
 * mapping and the object are gone, that reader must not see the next owner's data.
 */
static void file_reopened_through_map_files_is_never_reused(void)
{
	enum { MF_SIZE = 83 * 4096 };	/* a size no other test frees */
	int attacker = gt_open_render(), victim = gt_open_render();
	uint32_t h = gt_create(attacker, MF_SIZE);
	char *map = gt_mmap_cpu(attacker, h, 0, MF_SIZE);
	char path[96], out[sizeof(SECRET)];
	long long reused;
	int reader;

	expect_param("pool_mb", "64");
	expect_param("zero_policy", "alloc");
	memset(map, 'A', MF_SIZE);
	snprintf(path, sizeof(path), "/proc/self/map_files/%lx-%lx", (unsigned long)map,
		 (unsigned long)map + MF_SIZE);
	reader = open(path, O_RDONLY);
	if (reader < 0)
		gt_fail(__FILE__, __LINE__, "open %s: %s", path, strerror(errno));
	munmap(map, MF_SIZE);
	gt_close(attacker, h);

	reused = gt_counter(victim, "pool_reused");
	h = gt_create(victim, MF_SIZE);
	gt_pwrite(victim, h, 0, SECRET, sizeof(SECRET));
	gt_assert_eq(pread(reader, out, sizeof(out), 0), (ssize_t)sizeof(out));
	gt_info("pool_reused %lld -> %lld; the reader sees \"%.*s\"\n", reused,
		gt_counter(victim, "pool_reused"), (int)sizeof(out) - 1, out);
	gt_assert(memcmp(out, SECRET, sizeof(SECRET)) != 0);
	gt_assert_eq(out[0], 'A');
	gt_assert_eq(gt_counter(victim, "pool_reused"), reused);
	close(reader);
	close(victim);
	close(attacker);
}

static void pool_is_emptied_under_memory_pressure(void)
{
	int fd = gt_open_render();
	int dc;

	expect_param("pool_mb", "64");
	victim_fills_and_frees();
	gt_assert(gt_counter(fd, "pool_bytes") > 0);
	dc = open("/proc/sys/vm/drop_caches", O_WRONLY);
	gt_assert(dc >= 0);
	gt_assert_eq(write(dc, "3\n", 2), 2);
	close(dc);
	gt_assert_eq(gt_counter(fd, "pool_bytes"), 0);
	close(fd);
}

static void pool_mb_zero_turns_reuse_off(void)
{
	int fd = gt_open_render();
	long long reused = gt_counter(fd, "pool_reused");

	expect_param("pool_mb", "0");
	victim_fills_and_frees();
	expect_zero_objects(fd);
	gt_assert_eq(gt_counter(fd, "pool_reused"), reused);
	close(fd);
}

struct churn {
	int fd;
	int dirty;	/* objects that did not read zero when new */
	char tag;
};

/* Create, check all zero, fill with this thread's tag, free: round and round. */
static void *churn_loop(void *data)
{
	struct churn *c = data;
	enum { CHURN_SIZE = 16 * 4096 };
	static __thread char buf[CHURN_SIZE];

	for (int i = 0; i < 300; i++) {
		struct drm_i915_gem_create create = { .size = CHURN_SIZE };
		struct drm_i915_gem_pread pr = { .size = CHURN_SIZE, .data_ptr = (uintptr_t)buf };
		struct drm_i915_gem_pwrite pw = { .size = CHURN_SIZE, .data_ptr = (uintptr_t)buf };
		struct drm_gem_close cl = { 0 };

		if (gt_ioctl(c->fd, DRM_IOCTL_I915_GEM_CREATE, &create))
			continue;
		pr.handle = pw.handle = cl.handle = create.handle;
		if (gt_ioctl(c->fd, DRM_IOCTL_I915_GEM_PREAD, &pr) == 0) {
			for (size_t j = 0; j < CHURN_SIZE; j++) {
				if (buf[j]) {
					c->dirty++;
					break;
				}
			}
		}
		memset(buf, c->tag, CHURN_SIZE);
		gt_ioctl(c->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw);
		gt_ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &cl);
	}
	return NULL;
}

static void churn(const char *policy)
{
	struct churn workers[8];
	pthread_t threads[8];
	int fds[2] = { gt_open_render(), gt_open_render() };
	long long reused = gt_counter(fds[0], "pool_reused");

	expect_param("pool_mb", "64");
	expect_param("zero_policy", policy);
	for (int i = 0; i < 8; i++) {
		workers[i] = (struct churn){ .fd = fds[i % 2], .tag = (char)('a' + i) };
		gt_assert_ok(pthread_create(&threads[i], NULL, churn_loop, &workers[i]));
	}
	for (int i = 0; i < 8; i++) {
		gt_assert_ok(pthread_join(threads[i], NULL));
		gt_assert_eq(workers[i].dirty, 0);
	}
	gt_assert(gt_counter(fds[0], "pool_reused") > reused);
	close(fds[0]);
	close(fds[1]);
}

/* Eight threads in two files create and free at once: every new object still reads zero. */
static void concurrent_reuse_zeroed_at_allocation(void)
{
	churn("alloc");
}

static void concurrent_reuse_zeroed_ahead_of_time(void)
{
	churn("idle");
}

/* Root cannot change how freed memory is cleared, or how much is kept, once loaded. */
static void pool_parameters_are_read_only_after_load(void)
{
	static const char *const names[] = { "zero_policy", "pool_mb" };

	for (size_t i = 0; i < 2; i++) {
		char path[128];
		int fd;

		snprintf(path, sizeof(path), "/sys/module/garnet/parameters/%s", names[i]);
		fd = open(path, O_WRONLY);
		if (fd >= 0) {
			ssize_t n = write(fd, "0", 1);

			close(fd);
			gt_assert(n == -1);
		}
	}
	expect_param("zero_policy", "alloc");
	expect_param("pool_mb", "64");
}

#if defined(POOL_BOOT_IDLE)
GT_MAIN(
	GT_SUBTEST(reused_memory_is_zeroed_ahead_of_time, "reused-memory-is-zeroed-ahead-of-time"),
	GT_SUBTEST(concurrent_reuse_zeroed_ahead_of_time, "concurrent-reuse-zeroed-ahead-of-time"),
)
#elif defined(POOL_BOOT_OFF)
GT_MAIN(
	GT_SUBTEST(pool_mb_zero_turns_reuse_off, "pool-mb-zero-turns-reuse-off"),
)
#else
GT_MAIN(
	GT_SUBTEST(reused_memory_is_zeroed_at_allocation, "reused-memory-is-zeroed-at-allocation"),
	GT_SUBTEST(memory_still_mapped_is_never_reused, "memory-still-mapped-is-never-reused"),
	GT_SUBTEST(file_reopened_through_map_files_is_never_reused,
		   "file-reopened-through-map-files-is-never-reused"),
	GT_SUBTEST(page_held_by_a_pipe_is_never_reused, "page-held-by-a-pipe-is-never-reused"),
	GT_SUBTEST(pool_is_emptied_under_memory_pressure, "pool-is-emptied-under-memory-pressure"),
	GT_SUBTEST(concurrent_reuse_zeroed_at_allocation, "concurrent-reuse-zeroed-at-allocation"),
	GT_SUBTEST(pool_parameters_are_read_only_after_load,
		   "pool-parameters-are-read-only-after-load"),
)
#endif
