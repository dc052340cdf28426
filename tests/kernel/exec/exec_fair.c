// SPDX-License-Identifier: MIT
/*
 * Availability and honest fences, written as two processes: an attacker that queues endless
 * batches and then makes garnet wait for them (a relocation into a busy object, a rebind of a
 * busy object), and a victim whose create+close, GET_APERTURE, submission, a whole short-lived
 * client (open to exit) and a page flip are timed alone and then while the attacker waits. The
 * victim must never wait behind the attacker's work; what the engine writes is fenced as a
 * write whatever the batch declared; a batch is read only after earlier writers.
 */
#include "gt_exec.h"
#include "kms_util.h"

#include <fcntl.h>
#include <linux/dma-buf.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>

/* Generous for TCG on a loaded host: the unfixed driver makes the victim wait seconds. */
#define VICTIM_BOUND_MS 500
/* What issue 19 asks: the victim's operations within 100 ms of what they take alone. */
#define VICTIM_OVER_NORMAL_MS 100

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A batch that jumps back to itself forever, over own: the watchdog stops it. */
static void submit_endless(int fd, uint32_t own, struct gt_exec *x)
{
	static struct gt_batch b;

	gtb_init(&b);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, MI_NOOP);
	gtb_emit(&b, MI_BATCH_BUFFER_START);
	gtb_reloc(&b, 0, 4, I915_GEM_DOMAIN_COMMAND, 0);
	gtb_end(&b);
	gt_exec_prepare(x, fd, &b, &own, 1);
	b.relocs[0].target_handle = x->batch_handle;
	gt_assert_eq(gt_exec_submit(fd, x), 0);
}

enum wait_path { RELOC_INTO_BUSY, REBIND_OF_BUSY };

/*
 * The attacker: two endless batches over obj, then an execbuffer that makes garnet wait for
 * obj to go idle. Tells the victim (through ready) just before that call.
 */
static void attacker(enum wait_path path, int ready)
{
	int fd = gt_open_render();
	uint32_t obj = gt_create(fd, 4096), end[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = obj,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 list[2] = { { .handle = obj }, { 0 } };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)list,
		.buffer_count = 2,
		.batch_len = 8,
	};
	struct gt_exec x[2];
	uint32_t pad = gt_create(fd, 4096);
	struct gt_batch b;

	/* Something bound before obj, so that obj does not sit at 0 (aligned to anything). */
	gtb_init(&b);
	gtb_fill(&b, pad, 4096, 0, 0, 16, 1, 1);
	gtb_end(&b);
	gt_run(fd, &b, &pad, 1);
	submit_endless(fd, obj, &x[0]);
	submit_endless(fd, obj, &x[1]);
	list[1].handle = gt_create(fd, 4096);
	gt_pwrite(fd, list[1].handle, 0, end, sizeof(end));
	if (path == RELOC_INTO_BUSY) {
		list[0].relocation_count = 1;
		list[0].relocs_ptr = (uintptr_t)&reloc;
	} else {
		/* An alignment its current place does not have: it must move. */
		uint64_t at = x[1].obj[0].offset;

		gt_assert(at != 0);
		list[0].alignment = (at & -at) << 1;
	}
	gt_assert(write(ready, "", 1) == 1);
	/* Its own result does not matter; that it ends, and what the victim saw, does. */
	gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
	_exit(0);
}

/* The victim's display: a mode set on garnet's output, two framebuffers to flip between. */
struct display {
	struct kms k;
	struct kms_fb fb[2];
	int front;
};

static void display_init(struct display *d)
{
	const drmModeModeInfo *mode;

	kms_open(&d->k);
	gt_assert(d->k.connector->count_modes > 0);
	mode = &d->k.connector->modes[0];
	for (int i = 0; i < 2; i++)
		kms_fb_create(&d->k, &d->fb[i], mode->hdisplay, mode->vdisplay,
			      DRM_FORMAT_XRGB8888);
	kms_set_mode(&d->k, mode, &d->fb[0]);
	d->front = 0;
}

/* One page flip, from the commit to its event. */
static void display_flip(struct display *d)
{
	drmModeAtomicReq *req = drmModeAtomicAlloc();

	d->front ^= 1;
	kms_req_plane(&d->k, req, d->k.primary_id, &d->k.primary, &d->fb[d->front], 0, 0);
	gt_assert_eq(kms_commit(&d->k, req, DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK), 0);
	drmModeAtomicFree(req);
	if (!kms_wait_event(&d->k, 2000, NULL, NULL))
		gt_fail(__FILE__, __LINE__, "no event for a page flip");
}

static void display_finish(struct display *d)
{
	kms_disable(&d->k);
	for (int i = 0; i < 2; i++)
		kms_fb_destroy(&d->k, &d->fb[i]);
	kms_close(&d->k);
}

/* A whole client's life: open, create, submit a fill, exit with all of it still held. */
static void short_lived_client(void)
{
	int fd = gt_open_render();
	uint32_t obj = gt_create(fd, 4096);
	struct gt_batch b;

	gtb_init(&b);
	gtb_fill(&b, obj, 4096, 0, 0, 16, 1, 0x600d);
	gtb_end(&b);
	gt_run(fd, &b, &obj, 1);
	_exit(0);
}

/* The victim's operations: the longest each took, in ms. */
struct victim_times {
	double create_close, aperture, submit, exit, flip;
};

#define KEEP_WORST(field, t0) \
	do { double t_ = now_ms() - (t0); if (t_ > w->field) w->field = t_; } while (0)

static void victim_worst(int fd, struct display *d, double for_ms, struct victim_times *w)
{
	uint32_t own = gt_create(fd, 4096);
	double until = now_ms() + for_ms;
	struct gt_batch b;

	*w = (struct victim_times){ 0 };
	while (now_ms() < until) {
		struct drm_i915_gem_get_aperture ap = { 0 };
		double t0 = now_ms();
		int status;
		pid_t pid;

		/* Afresh each time: the relocation's presumed address goes into a new batch. */
		gtb_init(&b);
		gtb_fill(&b, own, 4096, 0, 0, 16, 1, 0x600d);
		gtb_end(&b);

		gt_close(fd, gt_create(fd, 4096));
		KEEP_WORST(create_close, t0);
		t0 = now_ms();
		gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap));
		KEEP_WORST(aperture, t0);
		t0 = now_ms();
		gt_run(fd, &b, &own, 1);
		KEEP_WORST(submit, t0);
		t0 = now_ms();
		pid = fork();
		gt_assert(pid >= 0);
		if (pid == 0)
			short_lived_client();
		gt_assert_eq(waitpid(pid, &status, 0), pid);
		gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		KEEP_WORST(exit, t0);
		t0 = now_ms();
		display_flip(d);
		KEEP_WORST(flip, t0);
		usleep(20 * 1000);
	}
	gt_close(fd, own);
}

static void victim_report(const char *when, const struct victim_times *w)
{
	gt_info("%s: create+close %.1f, GET_APERTURE %.1f, submit %.1f, open..exit %.1f, page flip %.1f ms\n",
		when, w->create_close, w->aperture, w->submit, w->exit, w->flip);
}

/*
 * Each operation within VICTIM_OVER_NORMAL_MS of what it took with no attacker. The engine is
 * the CPU: the attacker's endless batches take one of the guest's two vCPUs for as long as
 * the watchdog lets them, so a whole new process (fork, page tables, exit), which is CPU
 * bound, may also run at half speed; it is allowed twice its time alone, plus the same 100 ms.
 * Waiting for the attacker would cost it seconds.
 */
static void victim_compare(const struct victim_times *normal, const struct victim_times *w)
{
	/* On a debug kernel (KASAN, lockdep) the same work takes several times as long: a
	 * create+close of 102 ms alone took 218 ms beside the attacker there, on a loaded host. */
	double over = VICTIM_OVER_NORMAL_MS * gt_vm_slowdown();

	gt_assert(w->create_close < normal->create_close + over);
	gt_assert(w->aperture < normal->aperture + over);
	gt_assert(w->submit < normal->submit + over);
	gt_assert(w->exit < 2 * normal->exit + over);
	gt_assert(w->flip < normal->flip + over);
}

static void victim_against(enum wait_path path, const char *what)
{
	gt_require_param("watchdog_ms", 1000);
	int pipefd[2], fd = gt_open_render(), status;
	struct victim_times normal, attacked;
	struct display d;
	double killed;
	char c;
	pid_t pid;

	display_init(&d);
	victim_worst(fd, &d, 1500, &normal);
	victim_report("victim alone", &normal);
	gt_assert_ok(pipe(pipefd));
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		close(pipefd[0]);
		attacker(path, pipefd[1]);
	}
	close(pipefd[1]);
	gt_assert_eq(read(pipefd[0], &c, 1), 1);
	usleep(200 * 1000);
	victim_worst(fd, &d, 1500, &attacked);
	gt_info("behind a %s:\n", what);
	victim_report("victim", &attacked);
	/* The attacker itself can be killed while it waits. */
	killed = now_ms();
	kill(pid, SIGKILL);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	killed = now_ms() - killed;
	gt_info("attacker killed in %.1f ms\n", killed);
	victim_compare(&normal, &attacked);
	gt_assert(killed < 1000);
	display_finish(&d);
	close(fd);
}

static void victim_never_waits_behind_a_relocation(void)
{
	victim_against(RELOC_INTO_BUSY, "relocation into a busy object");
}

static void victim_never_waits_behind_a_rebind(void)
{
	victim_against(REBIND_OF_BUSY, "rebind of a busy object");
}

/*
 * A store into obj from a batch that declares no write (no write domain, no EXEC_OBJECT_WRITE),
 * queued behind an endless batch so it is still pending when looked at.
 */
static void undeclared_store_behind_endless(int fd, uint32_t obj, uint32_t value)
{
	uint32_t own = gt_create(fd, 4096);
	static struct gt_batch b;
	struct gt_exec x, slow;

	submit_endless(fd, own, &slow);
	gtb_init(&b);
	gtb_store(&b, obj, 0, value);
	gtb_end(&b);
	b.relocs[0].write_domain = 0;
	gt_exec_prepare(&x, fd, &b, &obj, 1);
	gt_assert_eq(gt_exec_submit(fd, &x), 0);
	gt_exec_finish(fd, &x);
	gt_exec_finish(fd, &slow);
}

static void engine_writes_are_fenced_as_writes(void)
{
	gt_require_param("watchdog_ms", 1000);
	int fd = gt_open_render(), dmabuf;
	uint32_t obj = gt_create(fd, 4096), word = 0, busy;
	struct pollfd pfd;

	gt_pwrite(fd, obj, 0, &word, sizeof(word));
	undeclared_store_behind_endless(fd, obj, 0x5707e);

	busy = gt_busy(fd, obj);
	gt_info("GEM_BUSY while the undeclared store is queued: 0x%x\n", busy);
	gt_assert(busy & 0xffff);	/* a writer */
	gt_assert_ok(drmPrimeHandleToFD(fd, obj, DRM_CLOEXEC, &dmabuf));
	/* A reader's poll waits for writers only: it must see one. */
	pfd = (struct pollfd){ .fd = dmabuf, .events = POLLIN };
	gt_assert_eq(poll(&pfd, 1, 0), 0);
	/* SET_DOMAIN for reading waits for the writers, then the CPU sees the store. */
	gt_assert_ok(gt_set_domain(fd, obj, I915_GEM_DOMAIN_GTT, 0));
	gt_pread(fd, obj, 0, &word, sizeof(word));
	gt_assert_eq(word, 0x5707e);
	gt_assert_eq(poll(&pfd, 1, 0), 1);
	close(dmabuf);
	close(fd);
}

/*
 * Batch B stores 1 into out. A request queued behind an endless one rewrites that 1 into 2;
 * then B is submitted again with every relocation already right. The engine must run B as
 * the earlier request left it: out holds 2.
 */
static void batch_is_read_after_earlier_writers(void)
{
	gt_require_param("watchdog_ms", 1000);
	int fd = gt_open_render();
	uint32_t out = gt_create(fd, 4096), zero = 0, word;
	static struct gt_batch bb, patch;
	struct gt_exec xb, xp, slow;
	uint32_t own = gt_create(fd, 4096);
	int64_t t = -1;

	gtb_init(&bb);
	gtb_store(&bb, out, 0, 1);
	gtb_end(&bb);
	gt_exec_prepare(&xb, fd, &bb, &out, 1);
	gt_assert_eq(gt_exec_submit(fd, &xb), 0);
	gt_assert_eq(gt_wait(fd, out, &t), 0);
	gt_pwrite(fd, out, 0, &zero, sizeof(zero));

	submit_endless(fd, own, &slow);
	gtb_init(&patch);
	gtb_store(&patch, xb.batch_handle, 2 * 4, 2);
	gtb_end(&patch);
	gt_exec_prepare(&xp, fd, &patch, &xb.batch_handle, 1);
	xp.obj[0].flags = EXEC_OBJECT_WRITE;
	gt_assert_eq(gt_exec_submit(fd, &xp), 0);
	/* bb's relocations now carry the right addresses: nothing makes garnet wait for them. */
	gt_assert_eq(gt_exec_submit(fd, &xb), 0);
	t = -1;
	gt_assert_eq(gt_wait(fd, out, &t), 0);
	gt_pread(fd, out, 0, &word, sizeof(word));
	gt_info("out holds %u (2: the batch was read after its writer ran)\n", word);
	gt_assert_eq(word, 2);
	gt_exec_finish(fd, &xp);
	gt_exec_finish(fd, &xb);
	gt_exec_finish(fd, &slow);
	close(fd);
}

/* Runs fn in a child process; its exit status (0 pass). */
static int in_child(void (*fn)(void))
{
	int status;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		fn();
		_exit(0);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void fill_lands(void)
{
	int fd = gt_open_render();
	uint32_t obj = gt_create(fd, 4096), px;
	struct gt_batch b;

	gtb_init(&b);
	gtb_fill(&b, obj, 4096, 0, 0, 1024, 1, 0x600d600d);
	gtb_end(&b);
	gt_run(fd, &b, &obj, 1);
	gt_pread(fd, obj, 4092, &px, sizeof(px));
	gt_assert_eq(px, 0x600d600d);
	close(fd);
}

/* A child of the banned process: every file the parent opened is banned in its hands too. */
static int early_fd = -1, late_fd = -1;

static void parents_files_stay_banned(void)
{
	uint32_t early = gt_create(early_fd, 4096), late = gt_create(late_fd, 4096);
	struct gt_batch b;

	gtb_init(&b);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(early_fd, &b, &early, 1), -EIO);
	gt_assert_eq(gt_try_run(late_fd, &b, &late, 1), -EIO);
}

/* What fork evades, asserted so that doc/exec.md stays true: a file of its own is served. */
static void childs_own_file_is_served(void)
{
	int fd = gt_open_render();
	uint32_t own = gt_create(fd, 4096);
	struct gt_batch b;

	gtb_init(&b);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), 0);
	close(fd);
}

/*
 * Three hangs over three files: the process is banned, whichever file it opens next, and the
 * files it opened (before or after) stay banned when a forked child submits through them.
 */
static void bans_follow_the_process(void)
{
	long long bans = -1;
	struct gt_batch b;
	int fd;

	gt_require_param("ban_threshold", 3);

	early_fd = gt_open_render();
	gtb_init(&b);
	gtb_end(&b);
	for (int i = 0; i < 3; i++) {
		struct gt_exec x;
		int64_t t = -1;
		uint32_t own;

		fd = gt_open_render();
		if (bans < 0)
			bans = gt_exec_counter(fd, "bans");
		own = gt_create(fd, 4096);
		submit_endless(fd, own, &x);
		gt_assert_eq(gt_wait(fd, x.batch_handle, &t), 0);
		gt_exec_finish(fd, &x);
		close(fd);
	}
	fd = gt_open_render();
	{
		uint32_t own = gt_create(fd, 4096);

		gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	}
	gt_assert_eq(gt_exec_counter(fd, "bans"), bans + 1);
	late_fd = gt_open_render();
	gt_assert_eq(in_child(parents_files_stay_banned), 0);
	gt_assert_eq(in_child(childs_own_file_is_served), 0);
	close(late_fd);
	close(early_fd);
	close(fd);
	/* Another process is served. */
	gt_assert_eq(in_child(fill_lands), 0);
}

/*
 * The process hangs the engine three times over three files and closes each, then waits until
 * its requests have retired and its objects are gone: nothing of it is left open, yet a new
 * file it opens is still banned.
 */
static void banned_then_closes_everything(void)
{
	struct gt_batch b;
	uint32_t own;
	int fd;

	for (int i = 0; i < 3; i++) {
		struct gt_exec x;
		int64_t t = -1;

		fd = gt_open_render();
		own = gt_create(fd, 4096);
		submit_endless(fd, own, &x);
		gt_assert_eq(gt_wait(fd, x.batch_handle, &t), 0);
		gt_exec_finish(fd, &x);
		close(fd);
	}
	usleep(500 * 1000);
	fd = gt_open_render();
	own = gt_create(fd, 4096);
	gtb_init(&b);
	gtb_end(&b);
	gt_assert_eq(gt_try_run(fd, &b, &own, 1), -EIO);
	close(fd);
}

static void ban_outlasts_closing_every_file(void)
{
	gt_require_param("ban_threshold", 3);
	gt_assert_eq(in_child(banned_then_closes_everything), 0);
	gt_assert_eq(in_child(fill_lands), 0);
}

#define FLOOD_FILES 8
#define FLOOD_HANGS 3

/* The flood: FLOOD_FILES files with FLOOD_HANGS endless batches each, then it stays. */
static void flooder(int ready)
{
	static struct gt_exec x[FLOOD_FILES][FLOOD_HANGS];

	for (int f = 0; f < FLOOD_FILES; f++) {
		int fd = gt_open_render();
		uint32_t own = gt_create(fd, 4096);

		for (int i = 0; i < FLOOD_HANGS; i++)
			submit_endless(fd, own, &x[f][i]);
	}
	gt_assert(write(ready, "", 1) == 1);
	pause();
}

/* One client's endless batches delay another's fill by at most the batch that runs. */
static void fill_within_one_watchdog_behind_a_flood(void)
{
	gt_require_param("watchdog_ms", 1000);
	gt_require_param("ban_threshold", 3);
	int pipefd[2], fd = gt_open_render(), status;
	uint32_t obj = gt_create(fd, 4096);
	struct gt_batch b;
	int64_t t = -1;
	double took;
	char c;
	pid_t pid;

	gt_assert_ok(pipe(pipefd));
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		close(pipefd[0]);
		flooder(pipefd[1]);
	}
	close(pipefd[1]);
	gt_assert_eq(read(pipefd[0], &c, 1), 1);
	gtb_init(&b);
	gtb_fill(&b, obj, 4096, 0, 0, 1024, 1, 0x600d600d);
	gtb_end(&b);
	took = now_ms();
	gt_run(fd, &b, &obj, 1);
	gt_assert_eq(gt_wait(fd, obj, &t), 0);
	took = now_ms() - took;
	gt_info("victim's fill behind %d files x %d endless batches: %.1f ms (watchdog 1000 ms)\n",
		FLOOD_FILES, FLOOD_HANGS, took);
	kill(pid, SIGKILL);
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(took < 1000 + VICTIM_BOUND_MS);
	close(fd);
}

/*
 * A file floods fills of a vgem buffer whose vgem fence has not signalled: they pile up
 * blocked. The flood stops at the in-flight limit (-EAGAIN on an O_NONBLOCK file), and another
 * process's fill runs meanwhile, not behind the blocked ones.
 */
static void requests_in_flight_are_bounded_per_file(void)
{
	gt_require_param("watchdog_ms", 1000);
	int vgem = gt_open_driver("vgem", false), fd = gt_open_render(), dmabuf, n = 0, ret = 0;
	struct drm_mode_create_dumb dumb = { .width = 1024, .height = 1, .bpp = 32 };
	struct vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct vgem_fence_signal sig = { 0 };
	struct gt_batch b;
	uint32_t imported;
	int64_t t = -1;
	double took;

	gt_assert_ok(gt_ioctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_ATTACH, &attach));
	gt_assert_ok(drmPrimeHandleToFD(vgem, dumb.handle, DRM_CLOEXEC, &dmabuf));
	gt_assert_ok(drmPrimeFDToHandle(fd, dmabuf, &imported));

	gt_assert_ok(fcntl(fd, F_SETFL, O_NONBLOCK));
	while (n < 5000) {
		static struct gt_exec x;

		gtb_init(&b);
		gtb_fill(&b, imported, 4096, 0, 0, 1024, 1, (uint32_t)n);
		gtb_end(&b);
		gt_exec_prepare(&x, fd, &b, &imported, 1);
		/* Not gt_ioctl(): like drmIoctl() it tries again on EAGAIN. */
		ret = ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &x.eb) ? -errno : 0;
		gt_exec_finish(fd, &x);
		if (ret)
			break;
		n++;
	}
	gt_info("%d requests queued behind a vgem fence before %s\n", n, strerror(-ret));
	gt_assert_eq(ret, -EAGAIN);
	gt_assert(n <= 64);
	took = now_ms();
	gt_assert_eq(in_child(fill_lands), 0);
	took = now_ms() - took;
	gt_info("another process's fill meanwhile: %.1f ms\n", took);
	/* At most behind the batch running (an earlier test's endless one, say). */
	gt_assert(took < 1000 + VICTIM_BOUND_MS);

	sig.fence = attach.out_fence;
	gt_assert_ok(gt_ioctl(vgem, VGEM_IOCTL_FENCE_SIGNAL, &sig));
	gt_assert_eq(gt_wait(fd, imported, &t), 0);
	close(dmabuf);
	close(fd);
	close(vgem);
}

GT_MAIN(
	GT_SUBTEST(victim_never_waits_behind_a_relocation,
		   "victim-never-waits-behind-a-relocation-into-a-busy-object"),
	GT_SUBTEST(victim_never_waits_behind_a_rebind,
		   "victim-never-waits-behind-a-rebind-of-a-busy-object"),
	GT_SUBTEST(engine_writes_are_fenced_as_writes, "engine-writes-are-fenced-as-writes"),
	GT_SUBTEST(batch_is_read_after_earlier_writers, "batch-is-read-after-earlier-writers"),
	GT_SUBTEST(bans_follow_the_process, "bans-follow-the-process-not-the-file"),
	GT_SUBTEST(ban_outlasts_closing_every_file, "ban-outlasts-closing-every-file"),
	GT_SUBTEST(fill_within_one_watchdog_behind_a_flood,
		   "fill-within-one-watchdog-behind-8-files-of-endless-batches"),
	GT_SUBTEST(requests_in_flight_are_bounded_per_file,
		   "requests-in-flight-are-bounded-per-file")
)
