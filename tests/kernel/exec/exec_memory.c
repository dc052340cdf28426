// SPDX-License-Identifier: MIT
/*
 * What finished requests keep. Written as the client that loops {tiny object, 16 MiB batch}
 * and keeps every tiny object: each object's reservation keeps its request's fence, and the
 * kernel's 16 MiB copy of the batch must not live as long as that fence. Measured from the
 * outside, in /proc/meminfo (the copies are vmalloc'ed).
 */
#include "garnet_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define MIB		(1 << 20)
#define BATCH_SIZE	(16 * MIB)
#define ROUNDS		24

static long meminfo_kib(const char *field)
{
	char line[256];
	size_t n = strlen(field);
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	gt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			kib = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	gt_assert(kib >= 0);
	return kib;
}

static void wait_idle(int fd, uint32_t handle)
{
	struct drm_i915_gem_wait w = { .bo_handle = handle, .timeout_ns = -1 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w));
}

static void finished_requests_keep_no_batch_copy(void)
{
	int fd = gt_open_render();
	uint32_t batch = gt_create(fd, BATCH_SIZE), tiny[ROUNDS];
	uint32_t end = 0x05000000;	/* MI_BATCH_BUFFER_END; MI_NOOPs (zeros) follow */
	long before, held = 0;
	int i, tries;

	gt_pwrite(fd, batch, 0, &end, sizeof(end));
	before = meminfo_kib("VmallocUsed");
	for (i = 0; i < ROUNDS; i++) {
		struct drm_i915_gem_exec_object2 obj[2] = { { 0 } };
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = (uintptr_t)obj,
			.buffer_count = 2,
			.batch_len = BATCH_SIZE,
			.flags = I915_EXEC_RENDER,
		};

		tiny[i] = gt_create(fd, 4096);
		obj[0].handle = tiny[i];
		obj[1].handle = batch;
		gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb));
		wait_idle(fd, tiny[i]);
	}
	/* Retiring runs on a worker just after the fence signals. */
	for (tries = 0; tries < 20; tries++) {
		held = meminfo_kib("VmallocUsed") - before;
		if (held < 4 * 1024)
			break;
		usleep(100 * 1000);
	}
	gt_info("%d finished requests hold %ld KiB of vmalloc\n", ROUNDS, held);
	/* One copy in flight at most, never one per object the client keeps. */
	gt_assert(held < BATCH_SIZE / 1024);
	for (i = 0; i < ROUNDS; i++)
		gt_close(fd, tiny[i]);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(finished_requests_keep_no_batch_copy, "finished-requests-keep-no-batch-copy"),
)
