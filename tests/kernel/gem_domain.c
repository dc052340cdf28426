// SPDX-License-Identifier: MIT
/*
 * SET_DOMAIN and SW_FINISH with the 2008 design's rules. debugfs counters (garnet_counters)
 * prove which flush and invalidate each move made, and that the others did not happen.
 */
#include "garnet_test.h"

#include <stdlib.h>
#include <unistd.h>

#define CPU	I915_GEM_DOMAIN_CPU
#define RENDER	I915_GEM_DOMAIN_RENDER
#define SAMPLER	I915_GEM_DOMAIN_SAMPLER
#define GTT	I915_GEM_DOMAIN_GTT

static const char *const counter_names[] = {
	"flush_cpu", "flush_render", "flush_sampler", "flush_gtt",
	"invalidate_cpu", "invalidate_render", "invalidate_sampler", "invalidate_gtt",
};
#define N_COUNTERS (sizeof(counter_names) / sizeof(counter_names[0]))

struct snapshot {
	long long v[N_COUNTERS];
};

static struct snapshot snap(int fd)
{
	struct snapshot s;

	for (size_t i = 0; i < N_COUNTERS; i++)
		s.v[i] = gt_counter(fd, counter_names[i]);
	return s;
}

/* Asserts that exactly the named counters moved, each by one. */
static void expect_moved(int fd, const struct snapshot *before, const char *const *moved)
{
	struct snapshot after = snap(fd);

	for (size_t i = 0; i < N_COUNTERS; i++) {
		long long want = 0;

		for (const char *const *m = moved; *m; m++)
			if (strcmp(*m, counter_names[i]) == 0)
				want = 1;
		if (after.v[i] - before->v[i] != want)
			gt_fail(__FILE__, __LINE__, "%s moved by %lld, expected %lld",
				counter_names[i], after.v[i] - before->v[i], want);
	}
}

static void two_write_domains_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(gt_set_domain(fd, h, CPU | RENDER, CPU | RENDER), EINVAL);
	close(fd);
}

static void write_domain_outside_read_domains_is_einval(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(gt_set_domain(fd, h, CPU, RENDER), EINVAL);
	gt_assert_errno(gt_set_domain(fd, h, SAMPLER, GTT), EINVAL);
	close(fd);
}

static void unknown_or_missing_domains_are_einval(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);

	gt_assert_errno(gt_set_domain(fd, h, 0x100, 0), EINVAL);
	gt_assert_errno(gt_set_domain(fd, h, CPU | 0x80000000u, 0), EINVAL);
	gt_assert_errno(gt_set_domain(fd, h, 0, 0), EINVAL);
	close(fd);
}

static void bad_handle_is_enoent(void)
{
	int fd = gt_open_render();
	struct drm_i915_gem_sw_finish sw = { .handle = 0x10101010 };

	gt_assert_errno(gt_set_domain(fd, 0x10101010, CPU, 0), ENOENT);
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &sw), ENOENT);
	close(fd);
}

/* CPU wrote; the GPU will read: the CPU write domain is flushed, RENDER invalidated. */
static void cpu_write_then_gpu_read_flushes_cpu(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 8192);
	uint32_t word = 1;
	struct snapshot s;

	gt_pwrite(fd, h, 0, &word, sizeof(word));	/* CPU write domain now */
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, RENDER, 0));
	expect_moved(fd, &s, (const char *const[]){ "flush_cpu", "invalidate_render",
						    NULL });
	close(fd);
}

/* The GPU wrote; the CPU will read: the GPU write domain is flushed and the CPU invalidated. */
static void gpu_write_then_cpu_read_flushes_gpu(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, RENDER, RENDER));
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, CPU, 0));
	expect_moved(fd, &s, (const char *const[]){ "flush_render", "invalidate_cpu",
						    NULL });
	close(fd);
}

/* The writer reading its own writes needs nothing. */
static void cpu_read_after_cpu_write_flushes_nothing(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, CPU, CPU));
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, CPU, 0));
	gt_assert_ok(gt_set_domain(fd, h, CPU, CPU));
	expect_moved(fd, &s, (const char *const[]){ NULL });
	close(fd);
}

/* Without a writer, readers accumulate; only the new reader is invalidated, once. */
static void readers_accumulate_without_a_writer(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, SAMPLER, SAMPLER));
	gt_assert_ok(gt_set_domain(fd, h, SAMPLER, 0));
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, GTT, 0));
	expect_moved(fd, &s, (const char *const[]){ "invalidate_gtt", NULL });
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, SAMPLER, 0));
	gt_assert_ok(gt_set_domain(fd, h, GTT, 0));
	expect_moved(fd, &s, (const char *const[]){ NULL });
	close(fd);
}

/* A new writer makes every other reader stale: moving back to them invalidates them again. */
static void new_writer_makes_other_readers_stale(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, GTT, 0));	/* GTT and CPU both read */
	gt_assert_ok(gt_set_domain(fd, h, RENDER, RENDER));
	s = snap(fd);
	gt_assert_ok(gt_set_domain(fd, h, GTT, 0));
	expect_moved(fd, &s, (const char *const[]){ "flush_render", "invalidate_gtt", NULL });
	close(fd);
}

/* pread is a CPU read and pwrite a CPU write: a pending GPU write is flushed first. */
static void pread_flushes_pending_gpu_write(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	uint32_t word;
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, RENDER, RENDER));
	s = snap(fd);
	gt_pread(fd, h, 0, &word, sizeof(word));
	expect_moved(fd, &s, (const char *const[]){ "flush_render", "invalidate_cpu",
						    NULL });
	close(fd);
}

static void objects_show_their_domains_in_debugfs(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 3 * 4096);
	char *text;

	gt_assert_ok(gt_set_domain(fd, h, SAMPLER | RENDER, RENDER));
	text = gt_debugfs_read(fd, "garnet_objects");
	/* size handles name read write ... */
	gt_assert(strstr(text, "12288 1 0 0x06 0x02 willneed") != NULL);
	free(text);
	close(fd);
}

/* SW_FINISH flushes CPU writes only for pinned (scanout) objects; others wait for a move. */
static void sw_finish_of_unpinned_object_flushes_nothing(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct drm_i915_gem_sw_finish sw = { .handle = h };
	struct snapshot s;

	gt_assert_ok(gt_set_domain(fd, h, CPU, CPU));
	s = snap(fd);
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, &sw));
	expect_moved(fd, &s, (const char *const[]){ NULL });
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(two_write_domains_is_einval, "two-write-domains-is-einval"),
	GT_SUBTEST(write_domain_outside_read_domains_is_einval,
		   "write-domain-outside-read-domains-is-einval"),
	GT_SUBTEST(unknown_or_missing_domains_are_einval, "unknown-or-missing-domains-are-einval"),
	GT_SUBTEST(bad_handle_is_enoent, "bad-handle-is-enoent"),
	GT_SUBTEST(cpu_write_then_gpu_read_flushes_cpu, "cpu-write-then-gpu-read-flushes-cpu"),
	GT_SUBTEST(gpu_write_then_cpu_read_flushes_gpu, "gpu-write-then-cpu-read-flushes-gpu"),
	GT_SUBTEST(cpu_read_after_cpu_write_flushes_nothing,
		   "cpu-read-after-cpu-write-flushes-nothing"),
	GT_SUBTEST(readers_accumulate_without_a_writer, "readers-accumulate-without-a-writer"),
	GT_SUBTEST(new_writer_makes_other_readers_stale, "new-writer-makes-other-readers-stale"),
	GT_SUBTEST(pread_flushes_pending_gpu_write, "pread-flushes-pending-gpu-write"),
	GT_SUBTEST(objects_show_their_domains_in_debugfs, "objects-show-their-domains-in-debugfs"),
	GT_SUBTEST(sw_finish_of_unpinned_object_flushes_nothing,
		   "sw-finish-of-unpinned-object-flushes-nothing"),
)
