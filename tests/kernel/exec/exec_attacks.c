// SPDX-License-Identifier: MIT
/*
 * Batches that try to reach memory they do not own, run commands garnet does not execute, or
 * never end: each is refused before it runs or contained while it runs; the victim's data
 * stays intact and the engine goes on serving others. Isolation mode and bans included.
 */
#include "gt_exec.h"

#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/sync_file.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define VICTIM_WORDS 1024
#define VICTIM_VALUE 0x5ec7e700u

/* The victim: a file with an object bound in the GTT (its address known to it only). */
struct victim {
	int fd;
	uint32_t obj;
	uint64_t addr;
};

static void victim_init(struct victim *v)
{
	static uint32_t words[VICTIM_WORDS];
	static struct gt_batch b;
	static struct gt_exec x;

	v->fd = gt_open_render();
	v->obj = gt_create(v->fd, sizeof(words));
	for (int i = 0; i < VICTIM_WORDS; i++)
		words[i] = VICTIM_VALUE + i;
	gt_pwrite(v->fd, v->obj, 0, words, sizeof(words));
	gtb_init(&b);
	gtb_store(&b, v->obj, 0, VICTIM_VALUE);
	gtb_end(&b);
	gt_exec_prepare(&x, v->fd, &b, &v->obj, 1);
	gt_assert_eq(gt_exec_submit(v->fd, &x), 0);
	gt_exec_finish(v->fd, &x);
	v->addr = x.obj[0].offset;
}

static void victim_check(struct victim *v)
{
	static uint32_t words[VICTIM_WORDS];

	gt_pread(v->fd, v->obj, 0, words, sizeof(words));
	for (int i = 0; i < VICTIM_WORDS; i++)
		if (words[i] != VICTIM_VALUE + i)
			gt_fail(__FILE__, __LINE__, "victim word %d changed to 0x%08x", i, words[i]);
	close(v->fd);
}

/*
 * The engine still serves a well-behaved process: a fill lands. Another process, since bans
 * follow the process that caused them and the caller may just have been banned.
 */
static void engine_serves(void)
{
	int status;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		int fd = gt_open_render();
		uint32_t obj = gt_create(fd, 4096), px[1024];
		struct gt_batch b;

		gtb_init(&b);
		gtb_fill(&b, obj, 4096, 0, 0, 1024, 1, 0x600d600d);
		gtb_end(&b);
		gt_run(fd, &b, &obj, 1);
		gt_pread(fd, obj, 0, px, sizeof(px));
		for (int i = 0; i < 1024; i++)
			gt_assert_eq(px[i], 0x600d600d);
		close(fd);
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void refused(int fd, struct gt_batch *b, const uint32_t *h, unsigned int n,
		    const char *logged)
{
	long long rejected = gt_exec_counter(fd, "rejected");
	int lines = gt_kmsg_count(logged);

	gt_assert_eq(gt_try_run(fd, b, h, n), -EINVAL);
	gt_assert_eq(gt_exec_counter(fd, "rejected"), rejected + 1);
	gt_assert(gt_kmsg_count(logged) > lines);
}

static void blit_past_object_is_refused(void)
{
	int fd = gt_open_render();
	uint32_t small = gt_create(fd, 4096), big = gt_create(fd, 65536), h[2] = { small, big };
	struct gt_batch b;

	/* 32 x 32 pixels fit in 4096 bytes; one row more does not. */
	gtb_init(&b);
	gtb_fill(&b, small, 128, 0, 0, 32, 33, 0);
	gtb_end(&b);
	refused(fd, &b, &small, 1, "XY_COLOR_BLT");
	/* A pitch that steps over the end. */
	gtb_init(&b);
	gtb_fill(&b, small, 8192, 0, 0, 1, 2, 0);
	gtb_end(&b);
	refused(fd, &b, &small, 1, "XY_COLOR_BLT");
	/* A copy whose source reaches past its object. */
	gtb_init(&b);
	gtb_copy(&b, big, 1024, 0, 0, 256, 10, small, 1024, 0, 0);
	gtb_end(&b);
	refused(fd, &b, h, 2, "XY_SRC_COPY_BLT");
	/* A store one dword past the end (the relocation itself is fine). */
	gtb_init(&b);
	gtb_store(&b, small, 0, 0);
	b.relocs[0].delta = 4096;
	b.dw[1] = 4096;
	gtb_end(&b);
	refused(fd, &b, &small, 1, "MI_STORE_DATA_IMM");
	/* Negative coordinates and a zero pitch. */
	gtb_init(&b);
	gtb_fill(&b, big, 1024, 0, 0, 4, 4, 0);
	b.dw[2] = 0xfff0fff0;
	gtb_end(&b);
	refused(fd, &b, &big, 1, "XY_COLOR_BLT");
	gtb_init(&b);
	gtb_fill(&b, big, 0, 0, 0, 4, 4, 0);
	gtb_end(&b);
	refused(fd, &b, &big, 1, "XY_COLOR_BLT");
	close(fd);
	engine_serves();
}

static void other_files_address_is_refused(void)
{
	struct victim v;
	int fd;
	uint32_t own;
	struct gt_batch b;

	victim_init(&v);
	fd = gt_open_render();
	own = gt_create(fd, 4096);
	/* Raw addresses of the victim's object, with no relocation to make them "ours". */
	gtb_init(&b);
	gtb_emit(&b, MI_STORE_DATA_IMM);
	gtb_emit(&b, (uint32_t)v.addr + 8);
	gtb_emit(&b, 0xbad);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "MI_STORE_DATA_IMM");
	gtb_init(&b);
	gtb_emit(&b, XY_COLOR_BLT);
	gtb_emit(&b, BR13_32BPP | ROP_PATCOPY | 4096);
	gtb_emit(&b, 0);
	gtb_emit(&b, 1 << 16 | 16);
	gtb_emit(&b, (uint32_t)v.addr);
	gtb_emit(&b, 0xbad);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "XY_COLOR_BLT");
	/* Copying out of it (reading another's pixels) is refused as well. */
	gtb_init(&b);
	gtb_emit(&b, XY_SRC_COPY_BLT);
	gtb_emit(&b, BR13_32BPP | ROP_SRCCOPY | 4096);
	gtb_emit(&b, 0);
	gtb_emit(&b, 1 << 16 | 16);
	gtb_reloc(&b, own, 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	gtb_emit(&b, 0);
	gtb_emit(&b, 4096);
	gtb_emit(&b, (uint32_t)v.addr);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "XY_SRC_COPY_BLT");
	close(fd);
	victim_check(&v);
}

static void unknown_commands_are_refused(void)
{
	int fd = gt_open_render();
	uint32_t own = gt_create(fd, 4096);
	struct gt_batch b;

	/* PIPE_CONTROL: a 3D command garnet does not execute. */
	gtb_init(&b);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, 0x7a000003);
	gtb_emit(&b, 0);
	gtb_emit(&b, 0);
	gtb_emit(&b, 0);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "unknown command (0x7a000003)");
	/* MI_LOAD_REGISTER_IMM: never allowed. */
	gtb_init(&b);
	gtb_emit(&b, 0x11000001);
	gtb_emit(&b, 0x2030);
	gtb_emit(&b, 0);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "unknown command (0x11000001)");
	/* Known commands with the wrong length or reserved bits. */
	gtb_init(&b);
	gtb_emit(&b, MI_STORE_DATA_IMM + 1);
	gtb_emit(&b, 0);
	gtb_emit(&b, 0);
	gtb_emit(&b, 0);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "wrong length");
	gtb_init(&b);
	gtb_emit(&b, XY_COLOR_BLT | 1u << 11);	/* tiled destination */
	gtb_emit(&b, BR13_32BPP | ROP_PATCOPY | 64);
	gtb_emit(&b, 0);
	gtb_emit(&b, 1 << 16 | 1);
	gtb_reloc(&b, own, 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
	gtb_emit(&b, 0);
	gtb_end(&b);
	refused(fd, &b, &own, 1, "reserved header bits");
	/* 16 bpp and other raster operations are not implemented. */
	gtb_init(&b);
	gtb_fill(&b, own, 64, 0, 0, 1, 1, 0);
	b.dw[1] = 1u << 24 | ROP_PATCOPY | 64;
	gtb_end(&b);
	refused(fd, &b, &own, 1, "32 bpp");
	/* A batch with no end. */
	gtb_init(&b);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, MI_NOOP);
	refused(fd, &b, &own, 1, "no MI_BATCH_BUFFER_END");
	close(fd);
	engine_serves();
}

/* A batch jumping to the given byte offset of itself (relocated to its own address). */
static int run_jump(int fd, uint32_t own, uint32_t target, struct gt_exec *x)
{
	static struct gt_batch b;

	gtb_init(&b);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, MI_BATCH_BUFFER_START);
	gtb_reloc(&b, 0, target, I915_GEM_DOMAIN_COMMAND, 0);
	gtb_end(&b);
	gt_exec_prepare(x, fd, &b, &own, 1);
	b.relocs[0].target_handle = x->batch_handle;
	return gt_exec_submit(fd, x);
}

static void jumps_outside_the_batch_are_refused(void)
{
	int fd = gt_open_render();
	uint32_t own = gt_create(fd, 4096);
	long long rejected = gt_exec_counter(fd, "rejected");
	struct gt_exec x;

	/* Forward (not yet a seen command), into the middle of a command, out of the batch. */
	gt_assert_eq(run_jump(fd, own, 16, &x), -EINVAL);
	gt_exec_finish(fd, &x);
	gt_assert_eq(run_jump(fd, own, 12, &x), -EINVAL);
	gt_exec_finish(fd, &x);
	gt_assert_eq(run_jump(fd, own, 4096, &x), -EINVAL);
	gt_exec_finish(fd, &x);
	gt_assert_eq(gt_exec_counter(fd, "rejected"), rejected + 3);
	gt_assert(gt_kmsg_count("MI_BATCH_BUFFER_START") > 0);
	close(fd);
}

/* Submits a batch that loops forever, waits until the watchdog stopped it. */
static void hang_once(int fd, uint32_t own)
{
	struct gt_exec x;
	int64_t t = -1;

	gt_assert_eq(run_jump(fd, own, 4, &x), 0);
	gt_assert_eq(gt_wait(fd, x.batch_handle, &t), 0);
	gt_exec_finish(fd, &x);
}

/* The status of the fences on an object, taken while it is busy: a sync_file of them. */
static int busy_fences_sync_file(int fd, uint32_t handle)
{
	struct dma_buf_export_sync_file exp = { .flags = DMA_BUF_SYNC_WRITE, .fd = -1 };
	int dmabuf;

	gt_assert_ok(drmPrimeHandleToFD(fd, handle, DRM_CLOEXEC, &dmabuf));
	gt_assert_ok(gt_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &exp));
	close(dmabuf);
	return exp.fd;
}

static void endless_loop_is_stopped(void)
{
	int fd = gt_open_render(), sync;
	uint32_t own = gt_create(fd, 4096);
	long long hangs = gt_exec_counter(fd, "hangs");
	struct sync_file_info info = { 0 };
	struct pollfd pfd;
	struct gt_batch b;
	struct gt_exec x;

	gt_assert_eq(run_jump(fd, own, 4, &x), 0);
	sync = busy_fences_sync_file(fd, x.batch_handle);
	pfd = (struct pollfd){ .fd = sync, .events = POLLIN };
	gt_assert_eq(poll(&pfd, 1, 30000), 1);
	/* The fence completed with the watchdog's error. */
	gt_assert_ok(gt_ioctl(sync, SYNC_IOC_FILE_INFO, &info));
	gt_assert_eq(info.status, -ETIMEDOUT);
	close(sync);
	gt_exec_finish(fd, &x);
	gt_assert_eq(gt_exec_counter(fd, "hangs"), hangs + 1);
	engine_serves();
	/* The file learns of it once, then may go on. */
	gtb_init(&b);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), 0);
	close(fd);
}

/* An oversized blit is stopped between rows; the next request runs normally. */
static void long_blit_is_stopped(void)
{
	int fd = gt_open_render();
	uint32_t big = gt_create(fd, 4u << 20);
	long long hangs = gt_exec_counter(fd, "hangs");
	long watchdog = gt_set_param("watchdog_ms", 20);
	static struct gt_batch b;
	struct gt_exec x;
	int64_t t = -1;

	gtb_init(&b);
	for (int i = 0; i < 400; i++)
		gtb_fill(&b, big, 4096, 0, 0, 1024, 1024, (uint32_t)i);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &big, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	gt_assert_eq(gt_wait(fd, big, &t), 0);
	gt_set_param("watchdog_ms", watchdog);
	gt_exec_finish(fd, &x);
	gt_assert_eq(gt_exec_counter(fd, "hangs"), hangs + 1);
	gt_assert(gt_kmsg_count("hung and was stopped") > 0);
	close(fd);
	engine_serves();
}

static void repeated_hangs_ban_the_file(void)
{
	int fd = gt_open_render();
	uint32_t own = gt_create(fd, 4096);
	long long bans = gt_exec_counter(fd, "bans");
	long threshold = gt_set_param("ban_threshold", 3);
	struct gt_batch b;

	gtb_init(&b);
	gtb_end(&b);
	for (int i = 0; i < 3; i++) {
		hang_once(fd, own);
		gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	}
	gt_assert_eq(gt_exec_counter(fd, "bans"), bans + 1);
	for (int i = 0; i < 3; i++)
		gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	/* debugfs tells which file it is: not isolated, three errors, all reported, banned. */
	{
		char *clients = gt_debugfs_read(fd, "garnet_exec_clients"), line[64];

		snprintf(line, sizeof(line), "\n%llu 0 3 0 1\n", (unsigned long long)gt_client_id(fd));
		if (!strstr(clients, line))
			gt_fail(__FILE__, __LINE__, "no '%s' in garnet_exec_clients:\n%s", line + 1,
				clients);
		free(clients);
	}
	gt_assert(gt_kmsg_count("banned") > 0);
	gt_set_param("ban_threshold", threshold);
	close(fd);
	engine_serves();
}

/* Isolation mode: each file has its own address space; addresses are checked as used. */
static void isolation_faults_are_contained(void)
{
	long old = gt_set_param("isolation", 1);
	long long faults;
	struct victim v;
	uint32_t own, px;
	struct gt_batch b;
	struct gt_exec x;
	int64_t t = -1;
	int fd;

	victim_init(&v);
	fd = gt_open_render();
	own = gt_create(fd, 4096);

	/* Its own objects work as always. */
	gtb_init(&b);
	gtb_store(&b, own, 8, 0x12345678);
	gtb_end(&b);
	gt_run(fd, &b, &own, 1);
	gt_pread(fd, own, 8, &px, 4);
	gt_assert_eq(px, 0x12345678);

	/* The victim's address means nothing here: the store faults when it runs. */
	faults = gt_exec_counter(fd, "faults");
	gtb_init(&b);
	gtb_emit(&b, MI_STORE_DATA_IMM);
	gtb_emit(&b, (uint32_t)v.addr);
	gtb_emit(&b, 0xbad);
	gtb_end(&b);
	gt_exec_prepare(&x, fd, &b, &own, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	gt_assert_eq(gt_wait(fd, x.batch_handle, &t), 0);
	gt_exec_finish(fd, &x);
	gt_assert_eq(gt_exec_counter(fd, "faults"), faults + 1);
	gt_assert(gt_kmsg_count("faulted") > 0);
	/* Reported to that file, once. */
	gtb_init(&b);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), 0);

	/* Placement differs between files (random), and commands are still validated. */
	gtb_init(&b);
	gtb_emit(&b, 0x7a000003);
	gtb_emit(&b, 0);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EINVAL);
	close(fd);
	victim_check(&v);
	engine_serves();
	gt_set_param("isolation", old);
}

/* Faults count towards a ban like hangs; the fence of a faulting batch says -EFAULT. */
static void isolation_faults_ban_the_file(void)
{
	long old = gt_set_param("isolation", 1);
	long threshold = gt_set_param("ban_threshold", 2);
	/*
	 * The fills before the fault take longer than the default watchdog on the debug kernel
	 * (KASAN under TCG), which then stops the batch as hung before it faults.
	 */
	long watchdog = gt_set_param("watchdog_ms", 30000);
	int fd = gt_open_render(), sync;
	uint32_t own = gt_create(fd, 4096), big = gt_create(fd, 4u << 20), both[2] = { own, big };
	long long bans = gt_exec_counter(fd, "bans");
	struct sync_file_info info = { 0 };
	struct pollfd pfd;
	struct gt_batch b, end;
	struct gt_exec x;

	gtb_init(&end);
	gtb_end(&end);
	for (int i = 0; i < 2; i++) {
		/* A long fill first keeps the engine busy while the fence is taken. */
		static struct gt_batch fault;

		gtb_init(&fault);
		for (int j = 0; j < 60; j++)
			gtb_fill(&fault, big, 4096, 0, 0, 1024, 1024, (uint32_t)j);
		gtb_emit(&fault, MI_STORE_DATA_IMM);
		gtb_emit(&fault, 0xfffff000);
		gtb_emit(&fault, 0xbad);
		gtb_end(&fault);
		gt_exec_prepare(&x, fd, &fault, both, 2);
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		sync = busy_fences_sync_file(fd, x.batch_handle);
		pfd = (struct pollfd){ .fd = sync, .events = POLLIN };
		gt_assert_eq(poll(&pfd, 1, 30000), 1);
		info = (struct sync_file_info){ 0 };
		gt_assert_ok(gt_ioctl(sync, SYNC_IOC_FILE_INFO, &info));
		close(sync);
		gt_exec_finish(fd, &x);
		if (info.status == 1)
			gt_skip("the batch finished before its fence could be taken");
		gt_assert_eq(info.status, -EFAULT);
		gt_assert_eq(gt_try_run(fd, &end, &own, 1), -EIO);
	}
	gt_assert_eq(gt_exec_counter(fd, "bans"), bans + 1);
	gt_assert_eq(gt_try_run(fd, &end, &own, 1), -EIO);
	gtb_init(&b);
	gtb_store(&b, own, 0, 1);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	close(fd);
	gt_set_param("watchdog_ms", watchdog);
	gt_set_param("ban_threshold", threshold);
	gt_set_param("isolation", old);
	engine_serves();
}

static void isolation_places_randomly(void)
{
	long old = gt_set_param("isolation", 1);
	uint64_t offsets[4];
	struct gt_batch b;
	struct gt_exec x;
	int same = 0;

	for (int i = 0; i < 4; i++) {
		int fd = gt_open_render();
		uint32_t obj = gt_create(fd, 4096);

		gtb_init(&b);
		gtb_store(&b, obj, 0, 1);
		gtb_end(&b);
		gt_exec_prepare(&x, fd, &b, &obj, 1);
		gt_assert_eq(gt_exec_submit(fd, &x), 0);
		offsets[i] = x.obj[0].offset;
		close(fd);
	}
	for (int i = 1; i < 4; i++)
		same += offsets[i] == offsets[0];
	gt_set_param("isolation", old);
	gt_assert(same < 3);
}

GT_MAIN(
	GT_SUBTEST(blit_past_object_is_refused, "blit-past-its-object-is-refused"),
	GT_SUBTEST(other_files_address_is_refused, "address-of-another-files-object-is-refused"),
	GT_SUBTEST(unknown_commands_are_refused, "unknown-commands-are-refused"),
	GT_SUBTEST(jumps_outside_the_batch_are_refused, "jumps-outside-the-batch-are-refused"),
	GT_SUBTEST(endless_loop_is_stopped, "endless-loop-is-stopped-by-the-watchdog"),
	GT_SUBTEST(long_blit_is_stopped, "oversized-blit-is-stopped-by-the-watchdog"),
	GT_SUBTEST(repeated_hangs_ban_the_file, "repeated-hangs-ban-the-file"),
	GT_SUBTEST(isolation_faults_are_contained, "isolation-fault-is-contained"),
	GT_SUBTEST(isolation_faults_ban_the_file, "isolation-faults-ban-the-file"),
	GT_SUBTEST(isolation_places_randomly, "isolation-places-randomly")
)
