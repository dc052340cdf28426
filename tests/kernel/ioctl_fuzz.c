// SPDX-License-Identifier: MIT
/*
 * The structured ioctl fuzzer, run inside the VM: several processes, each with a card and a
 * render file and several threads that share its handles, call every ioctl of garnet's table
 * for a bounded time. Then the runner checks that every process ended, that the device still
 * works, that garnet's counters are back where they were, and that the calls reached every
 * ioctl's success and failures (coverage, since Debian's kernel has no KCOV). The VM harness
 * fails the run on any kernel report in the log.
 *
 * GARNET_IOCTL_FUZZ_SEED=N replays a run (each thread's calls follow from the seed; the
 * interleaving of threads does not), GARNET_IOCTL_FUZZ_SECONDS=N runs longer,
 * GARNET_IOCTL_FUZZ_PROCS / _THREADS change the shape (1 and 1 replay exactly),
 * GARNET_IOCTL_FUZZ_TRACE=1 prints every call with its argument bytes and result.
 * GARNET_IOCTL_FUZZ_FAILSLAB=1 (a kernel with CONFIG_FAILSLAB, ./check --deep) makes 2% of the
 * slab allocations of the fuzzed ioctls fail, so garnet's error paths run too.
 * GARNET_IOCTL_FUZZ_KCOV=1 (a kernel with CONFIG_KCOV, ./check --deep) guides the calls by the
 * kernel code they reach (ioctl_fuzz_kcov.c) and reports that coverage.
 */
#include "ioctl_fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct fz_config fz;

/* Relative frequencies: what makes and uses objects most, the privileged calls less. */
static const unsigned int weights[FZ_OP_COUNT] = {
	[FZ_GETPARAM] = 2, [FZ_CREATE] = 10, [FZ_PREAD] = 5, [FZ_PWRITE] = 5, [FZ_MMAP] = 4,
	[FZ_MMAP_OFFSET] = 4, [FZ_SET_DOMAIN] = 3, [FZ_SW_FINISH] = 2, [FZ_BUSY] = 2,
	[FZ_GEM_INIT] = 3, [FZ_PIN] = 2, [FZ_UNPIN] = 3, [FZ_GET_APERTURE] = 1,
	[FZ_MADVISE] = 2, [FZ_SET_TILING] = 2, [FZ_GET_TILING] = 2, [FZ_EXECBUFFER] = 3,
	[FZ_EXECBUFFER2] = 10, [FZ_WAIT] = 3, [FZ_GET_CLIENT_ID] = 2, [FZ_SHARE] = 4,
	[FZ_ACCEPT] = 4, [FZ_REVOKE] = 3, [FZ_GEM_CLOSE] = 6, [FZ_FLINK] = 2, [FZ_GEM_OPEN] = 3,
	[FZ_PRIME_EXPORT] = 3, [FZ_PRIME_IMPORT] = 3,
};

/* Fewer distinct (ioctl, result) pairs than this means the generator lost its reach. */
#define MIN_PAIRS	75

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long env_ulong(const char *name, unsigned long fallback)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : fallback;
}

static enum fz_op pick_op(struct fz_rng *r)
{
	static unsigned int total;
	unsigned int x;

	if (!total)
		for (int i = 0; i < FZ_OP_COUNT; i++)
			total += weights[i];
	x = fz_below(r, total);
	for (int i = 0; i < FZ_OP_COUNT; i++) {
		if (x < weights[i])
			return (enum fz_op)i;
		x -= weights[i];
	}
	return FZ_CREATE;
}

struct round {
	struct fz_thread thread;
	double end;
	pthread_t id;
};

static void *thread_main(void *arg)
{
	struct round *rd = arg;
	struct fz_thread *t = &rd->thread;

	t->kcov_fd = -1;
	/*
	 * Allocations fail only inside the fuzzed ioctls (fz_ioctl turns this on around each):
	 * a fork, mmap or thread of the fuzzer's own that failed would end its process.
	 */
	t->fail_fd = fz.failslab ? open("/proc/thread-self/make-it-fail", O_WRONLY | O_CLOEXEC) : -1;
	if (fz.failslab && t->fail_fd < 0) {
		fprintf(stderr, "ioctl_fuzz: failslab: %s\n", strerror(errno));
		atomic_fetch_add(&fz.stats->violations, 1);
		return NULL;
	}
	if (fz.kcov && !fz_kcov_thread_start(t)) {
		fprintf(stderr, "ioctl_fuzz: kcov: a thread could not trace itself: %s\n",
			strerror(errno));
		atomic_fetch_add(&fz.stats->violations, 1);
		return NULL;
	}
	while (now() < rd->end) {
		for (int i = 0; i < 32; i++) {
			if (fz_one_in(&t->rng, 64))
				fz_close_while_mapped(t);
			else if (fz.kcov)
				fz_kcov_call(t, pick_op(&t->rng));
			else
				fz_call_random(t, pick_op(&t->rng));
		}
	}
	fz_kcov_thread_stop(t);
	if (t->fail_fd >= 0)
		close(t->fail_fd);
	return NULL;
}

static void publish_ids(struct fz_proc *p)
{
	for (int i = 0; i < 2; i++)
		atomic_store(&fz.stats->client_ids[(2 * p->index + i) % 16], p->files[i].client_id);
}

static bool write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, value, strlen(value)) == (ssize_t)strlen(value);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* failslab's knobs (Documentation/fault-injection): only tasks that ask, 2%, for ever. */
static bool failslab(bool on)
{
	static const char *const knobs[][2] = {
		{ "task-filter", "Y" }, { "ignore-gfp-wait", "N" }, { "interval", "1" },
		{ "times", "-1" }, { "verbose", "0" },
	};
	char path[128];

	for (size_t i = 0; on && i < sizeof(knobs) / sizeof(knobs[0]); i++) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/failslab/%s", knobs[i][0]);
		if (!write_file(path, knobs[i][1]))
			return false;
	}
	return write_file("/sys/kernel/debug/failslab/probability", on ? "2" : "0");
}

/* One round of a fuzz process: its files opened, its threads run until round_end, closed. */
static int run_round(struct fz_proc *p, struct round *rounds, unsigned int round,
		     double round_end)
{
	for (int i = 0; i < 3; i++)
		if (fz_file_open(&p->files[i], i == 0))
			return 2;
	publish_ids(p);
	for (unsigned int i = 0; i < fz.threads; i++) {
		struct round *rd = &rounds[i];

		rd->thread.proc = p;
		rd->thread.index = i;
		fz_rng_seed(&rd->thread.rng, fz.seed, p->index, i + 16 * round);
		rd->end = round_end;
		if (pthread_create(&rd->id, NULL, thread_main, rd))
			return 2;
	}
	for (unsigned int i = 0; i < fz.threads; i++)
		pthread_join(rounds[i].id, NULL);
	fz_close_dmabufs(p, true, NULL);
	for (int i = 0; i < 3; i++)
		fz_file_close(&p->files[i]);
	return 0;
}

/*
 * One fuzz process: rounds of a few seconds, each in a child process; in each its threads
 * share its files, and at the round's end the files close with whatever they hold (objects,
 * names, pins, mappings gone or not), so closing a busy file is fuzzed too, and the next
 * round's process is not banned.
 */
static int proc_main(unsigned int index, double end)
{
	struct fz_proc p = { .index = index };
	static struct round rounds[16];
	unsigned int round = 0;

	pthread_mutex_init(&p.fds_lock, NULL);
	for (int i = 0; i < 3; i++) {
		pthread_mutex_init(&p.files[i].lock, NULL);
		pthread_mutex_init(&p.files[i].create_lock, NULL);
	}
	/* Each thread's scratch, a PROT_NONE page, a page unmapped, a PROT_NONE page. */
	for (unsigned int i = 0; i < fz.threads; i++) {
		uint8_t *s = mmap(NULL, FZ_SCRATCH + 3 * 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (s == MAP_FAILED || mprotect(s + FZ_SCRATCH, 4096, PROT_NONE) ||
		    munmap(s + FZ_SCRATCH + 4096, 4096) ||
		    mprotect(s + FZ_SCRATCH + 2 * 4096, 4096, PROT_NONE))
			return 2;
		rounds[i].thread.scratch = s;
	}

	while (now() < end) {
		double round_end = now() + 3 + (index + round) % 4;
		pid_t child;
		int status;

		if (round_end > end)
			round_end = end;
		/*
		 * Each round in a process of its own: garnet bans a process, not a file, after
		 * too many bad batches, and a banned fuzz process would fuzz no execution for
		 * the rest of the run.
		 */
		child = fork();
		if (child < 0)
			return 2;
		if (child == 0)
			_exit(run_round(&p, rounds, round, round_end));
		atomic_store(&fz.stats->round_pids[index % 16], child);
		if (waitpid(child, &status, 0) != child)
			return 2;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "ioctl_fuzz: process %u round %u ended with status 0x%x\n",
				index, round, status);
			return 3;
		}
		round++;
	}
	return 0;
}

/* Where a process that did not end is stuck: its threads' kernel stacks. */
static void print_stuck(pid_t pid)
{
	char path[320], buf[4096];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		ssize_t n;
		int fd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stack", pid, d->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		fprintf(stderr, "  task %s:\n%s", d->d_name, buf);
	}
	closedir(dir);
}

/* Lines the VM harness fails a run on; seen here, they end the wait early. */
static bool kernel_problem(int kmsg)
{
	static const char *const signs[] = {
		"Oops", "BUG:", "kernel BUG", "WARNING:", "general protection", "corruption",
		"Poison overwritten", "Call Trace",
	};
	char record[8192];
	ssize_t n;

	while ((n = read(kmsg, record, sizeof(record) - 1)) != 0) {
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten while reading */
		if (n < 0)
			return false;
		record[n] = '\0';
		for (size_t i = 0; i < sizeof(signs) / sizeof(signs[0]); i++)
			if (strstr(record, signs[i]))
				return true;
	}
	return false;
}

static bool wait_all(pid_t *pids, unsigned int n, double deadline, int kmsg)
{
	unsigned int left = n;
	bool ok = true;

	while (left && now() < deadline) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid <= 0) {
			/* Processes stuck behind a kernel bug would keep the run waiting. */
			if (kmsg >= 0 && kernel_problem(kmsg)) {
				fprintf(stderr, "ioctl_fuzz: a kernel problem is in the log: the "
					"fuzz processes get 5 s more\n");
				if (deadline > now() + 5)
					deadline = now() + 5;
				kmsg = -1;
				ok = false;
			}
			usleep(100000);
			continue;
		}
		for (unsigned int i = 0; i < n; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;
			left--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				fprintf(stderr, "ioctl_fuzz: process %u ended with status "
					"0x%x\n", i, status);
				ok = false;
			}
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		if (!pids[i])
			continue;
		fprintf(stderr, "ioctl_fuzz: process %u (pid %d) did not end:\n", i, pids[i]);
		print_stuck(pids[i]);
		fprintf(stderr, "ioctl_fuzz: its round (pid %d):\n",
			atomic_load(&fz.stats->round_pids[i % 16]));
		print_stuck(atomic_load(&fz.stats->round_pids[i % 16]));
		ok = false;
	}
	return ok;
}

/*
 * After a kernel bug the locks a dead ioctl held stay held, and closing the runner's own
 * file would wait for them forever (its release takes them), so the guest would never power
 * off. A child that sleeps keeps the file open; the runner's close is then not the last one.
 */
static void abandon(int fd)
{
	if (fork() == 0) {
		setsid();
		for (;;)
			pause();
	}
	close(fd);
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* What must be the same before and after: nothing of the fuzz processes stays behind. */
struct baseline {
	long long objects;
	int name_clients, exec_clients;
	uint64_t aper_size, aper_available;
};

static void read_baseline(int fd, struct baseline *b)
{
	struct drm_i915_gem_get_aperture a = { 0 };
	char *text;

	b->objects = gt_counter(fd, "objects");
	text = gt_debugfs_read(fd, "garnet_names");
	b->name_clients = count_lines(text);
	free(text);
	text = gt_debugfs_read(fd, "garnet_exec_clients");
	b->exec_clients = count_lines(text);
	free(text);
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &a));
	b->aper_size = a.aper_size;
	b->aper_available = a.aper_available_size;
}

static uint64_t debugfs_u64(int fd, const char *file, const char *name)
{
	char *text = gt_debugfs_read(fd, file), *at = strstr(text, name);
	uint64_t v = at ? strtoull(at + strlen(name) + 1, NULL, 10) : 0;

	gt_assert(at);
	free(text);
	return v;
}

/* A fresh file fills an object with the engine and reads back the right pixels. */
static void check_device_works(void)
{
	enum { W = 64, H = 16 };
	int fd = gt_open_render();
	uint32_t pixels[W * H], batch[16], n = 0;
	uint32_t dst = gt_create(fd, sizeof(pixels)), bo = gt_create(fd, 4096);
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = dst, .offset = 4 * 4, .presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER, .write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = dst },
		{ .handle = bo, .relocation_count = 1, .relocs_ptr = (uintptr_t)&reloc },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = (uintptr_t)obj, .buffer_count = 2, .flags = I915_EXEC_RENDER,
	};
	struct drm_i915_gem_wait wait = { .bo_handle = dst, .timeout_ns = -1 };

	for (int i = 0; i < W * H; i++)
		pixels[i] = 0x01010101u * (uint32_t)i;
	gt_pwrite(fd, dst, 0, pixels, sizeof(pixels));
	memset(pixels, 0, sizeof(pixels));
	gt_pread(fd, dst, 0, pixels, sizeof(pixels));
	for (int i = 0; i < W * H; i++)
		if (pixels[i] != 0x01010101u * (uint32_t)i)
			gt_fail(__FILE__, __LINE__, "pread after pwrite: pixel %d is 0x%08x", i,
				pixels[i]);

	batch[n++] = 0x54300004u;			/* XY_COLOR_BLT, alpha + rgb */
	batch[n++] = 3u << 24 | 0xf0u << 16 | W * 4;	/* 32 bpp, PATCOPY, pitch */
	batch[n++] = 0;
	batch[n++] = (uint32_t)H << 16 | W;
	batch[n++] = 0;					/* dst, relocated */
	batch[n++] = 0xc0ffee42u;
	batch[n++] = 0x05000000u;			/* MI_BATCH_BUFFER_END */
	batch[n++] = 0;
	gt_pwrite(fd, bo, 0, batch, n * 4);
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb));
	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &wait));
	gt_pread(fd, dst, 0, pixels, sizeof(pixels));
	for (int i = 0; i < W * H; i++)
		if (pixels[i] != 0xc0ffee42u)
			gt_fail(__FILE__, __LINE__, "after a fill, pixel %d is 0x%08x", i,
				pixels[i]);
	close(fd);
	printf("ioctl_fuzz: the device still creates, writes, reads and fills right\n");
}

/* Calls per ioctl and the results they reached; fails when some ioctl was barely reached. */
static bool report_coverage(void)
{
	struct fz_stats *s = fz.stats;
	unsigned int pairs = 0;
	uint64_t total = 0;
	bool ok = true;

	printf("ioctl_fuzz: %-22s %9s  results (errno: count)\n", "ioctl", "calls");
	for (int op = 0; op < FZ_OP_COUNT; op++) {
		uint64_t calls = atomic_load(&s->calls[op]), failures = 0;
		char line[1024];
		int len = 0;

		total += calls;
		for (int e = 0; e <= FZ_ERRNO_MAX; e++) {
			uint64_t n = atomic_load(&s->results[op][e]);

			if (!n)
				continue;
			pairs++;
			if (e)
				failures += n;
			len += snprintf(line + len, sizeof(line) - len, " %s:%llu",
					e ? strerrorname_np(e) : "ok", (unsigned long long)n);
			if (len >= (int)sizeof(line))
				len = sizeof(line) - 1;
		}
		printf("ioctl_fuzz: %-22s %9llu %s\n", fz_op_names[op], (unsigned long long)calls,
		       line);
		if (!atomic_load(&s->results[op][0])) {
			fprintf(stderr, "ioctl_fuzz: coverage: %s never succeeded\n",
				fz_op_names[op]);
			ok = false;
		}
		if (!failures) {
			fprintf(stderr, "ioctl_fuzz: coverage: %s never failed\n", fz_op_names[op]);
			ok = false;
		}
	}
	printf("ioctl_fuzz: %llu calls, %u distinct (ioctl, result) pairs, %llu close-while-mapped "
	       "checks, %llu handles closed under other threads\n", (unsigned long long)total,
	       pairs, (unsigned long long)atomic_load(&s->scenarios),
	       (unsigned long long)atomic_load(&s->races));
	if (pairs < MIN_PAIRS) {
		fprintf(stderr, "ioctl_fuzz: coverage: %u (ioctl, result) pairs, fewer than %d\n",
			pairs, MIN_PAIRS);
		ok = false;
	}
	if (!atomic_load(&s->scenarios)) {
		fprintf(stderr, "ioctl_fuzz: coverage: no close-while-mapped check completed\n");
		ok = false;
	}
	return ok;
}

/* Frees can trail the last close (requests retire on the engine's worker): wait a little. */
static bool check_baseline(int fd, const struct baseline *before)
{
	struct baseline after;

	for (int i = 0; i < 100; i++) {
		read_baseline(fd, &after);
		if (after.objects == before->objects &&
		    after.name_clients == before->name_clients &&
		    after.exec_clients == before->exec_clients &&
		    after.aper_available == before->aper_available)
			break;
		usleep(100000);
	}
	printf("ioctl_fuzz: after the run: objects %lld (before %lld), clients %d/%d (before "
	       "%d/%d), aperture %llu of %llu free (before %llu)\n", after.objects,
	       before->objects, after.name_clients, after.exec_clients, before->name_clients,
	       before->exec_clients, (unsigned long long)after.aper_available,
	       (unsigned long long)after.aper_size, (unsigned long long)before->aper_available);
	if (after.objects != before->objects || after.name_clients != before->name_clients ||
	    after.exec_clients != before->exec_clients ||
	    after.aper_available != before->aper_available ||
	    after.aper_size != before->aper_size) {
		char *objects = gt_debugfs_read(fd, "garnet_objects");

		fprintf(stderr, "ioctl_fuzz: garnet holds more than before the run:\n%s", objects);
		free(objects);
		return false;
	}
	return true;
}

int main(void)
{
	struct baseline before;
	pid_t pids[16];
	double start, end;
	bool ok = true;
	int probe, kmsg;

	fz.seed = env_ulong("GARNET_IOCTL_FUZZ_SEED", 0);
	if (!fz.seed)
		fz.seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid() << 32;
	fz.seconds = env_ulong("GARNET_IOCTL_FUZZ_SECONDS", 30);
	fz.procs = env_ulong("GARNET_IOCTL_FUZZ_PROCS", 3);
	fz.threads = env_ulong("GARNET_IOCTL_FUZZ_THREADS", 3);
	fz.trace = env_ulong("GARNET_IOCTL_FUZZ_TRACE", 0);
	fz.failslab = env_ulong("GARNET_IOCTL_FUZZ_FAILSLAB", 0);
	if (fz.failslab && !failslab(true)) {
		fprintf(stderr, "ioctl_fuzz: failslab asked for, but this kernel has no "
				"/sys/kernel/debug/failslab (CONFIG_FAILSLAB)\n");
		return 2;
	}
	fz.kcov = env_ulong("GARNET_IOCTL_FUZZ_KCOV", 0);
	if (fz.kcov && !fz_kcov_setup()) {
		fprintf(stderr, "ioctl_fuzz: kcov asked for, but this kernel has no "
				"/sys/kernel/debug/kcov (CONFIG_KCOV)\n");
		return 2;
	}
	if (!fz.procs || fz.procs > 8 || !fz.threads || fz.threads > 16) {
		fprintf(stderr, "ioctl_fuzz: 1-8 processes and 1-16 threads\n");
		return 2;
	}
	printf("ioctl_fuzz: seed 0x%llx (replay: GARNET_IOCTL_FUZZ_SEED=0x%llx), %u s, "
	       "%u processes of %u threads\n", (unsigned long long)fz.seed,
	       (unsigned long long)fz.seed, fz.seconds, fz.procs, fz.threads);
	fflush(stdout);

	/* The runner's own file gives up master, so a fuzz process's card file gets it. */
	probe = gt_open_card();
	ioctl(probe, DRM_IOCTL_DROP_MASTER, 0);
	fz.aperture = debugfs_u64(probe, "garnet_exec", "aperture_size");
	read_baseline(probe, &before);
	/*
	 * A looping batch is stopped after 50 ms, not a second, so hangs are fuzzed, not waited:
	 * ioctl-fuzz-vm.sh loads garnet with watchdog_ms=50 (read-only after load).
	 */

	fz.stats = mmap(NULL, sizeof(*fz.stats), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	gt_assert(fz.stats != MAP_FAILED);

	/* Only what the kernel logs from now on. */
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg >= 0)
		lseek(kmsg, 0, SEEK_END);

	start = now();
	end = start + fz.seconds;
	for (unsigned int i = 0; i < fz.procs; i++) {
		pids[i] = fork();
		gt_assert(pids[i] >= 0);
		if (pids[i] == 0) {
			close(probe);
			if (kmsg >= 0)
				close(kmsg);
			_exit(proc_main(i, end));
		}
	}
	/* Fuzz processes that outlive their time by a minute are stuck in the kernel. */
	ok &= wait_all(pids, fz.procs, end + 60, kmsg);
	printf("ioctl_fuzz: %u processes ran for %.1f s\n", fz.procs, now() - start);
	if (fz.failslab)
		failslab(false);
	if (!ok) {
		fprintf(stderr, "ioctl_fuzz: FAIL: fuzz processes did not all end cleanly\n");
		abandon(probe);
		return 1;
	}

	/* GEM_INIT may have moved the aperture: put it back as master. */
	if (ioctl(probe, DRM_IOCTL_SET_MASTER, 0) == 0) {
		struct drm_i915_gem_init in = { .gtt_start = 0, .gtt_end = fz.aperture };

		gt_assert_ok(gt_ioctl(probe, DRM_IOCTL_I915_GEM_INIT, &in));
		ioctl(probe, DRM_IOCTL_DROP_MASTER, 0);
	} else {
		fprintf(stderr, "ioctl_fuzz: SET_MASTER: %s\n", strerror(errno));
		ok = false;
	}

	ok &= report_coverage();
	if (fz.kcov)
		ok &= fz_kcov_report();
	if (atomic_load(&fz.stats->violations)) {
		fprintf(stderr, "ioctl_fuzz: %llu oracle violations (above)\n",
			(unsigned long long)atomic_load(&fz.stats->violations));
		ok = false;
	}
	ok &= check_baseline(probe, &before);
	check_device_works();
	close(probe);
	printf("ioctl_fuzz: %s (seed 0x%llx)\n", ok ? "pass" : "FAIL", (unsigned long long)fz.seed);
	return ok ? 0 : 1;
}
