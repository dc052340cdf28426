// SPDX-License-Identifier: MIT
/*
 * Memory a client can make the kernel hold is its own and bounded (issue 19, item 8). Written
 * as the attacker: an unprivileged render-node client maps one page of a large object through
 * every mapping path, asks for nearly all RAM, and creates past its limit. Mapping populates
 * page by page, creation past the per-client limit is ENOMEM, and a bystander survives.
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB		(1ull << 20)
#define BIG		(512 * MIB)
/* What touching one page may cost at most, with TCG's and the page cache's noise. */
#define ONE_PAGE_SLACK	(48 * MIB)

static long long meminfo_kib(const char *key)
{
	char line[256], name[64];
	long long kib, found = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	gt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %lld kB", name, &kib) == 2 && strcmp(name, key) == 0)
			found = kib;
	fclose(f);
	gt_assert(found >= 0);
	return found;
}

static long long available(void)
{
	return meminfo_kib("MemAvailable") * 1024;
}

/* The per-client cap the module was loaded with, in bytes; the test fails without one. */
static unsigned long long client_limit(void)
{
	FILE *f = fopen("/sys/module/garnet/parameters/client_mem_mb", "r");
	unsigned long long mib = 0;

	if (!f)
		gt_fail(__FILE__, __LINE__, "garnet has no client_mem_mb parameter: no per-client limit");
	gt_assert(fscanf(f, "%llu", &mib) == 1);
	fclose(f);
	gt_assert(mib > 0);
	return mib * MIB;
}

/* The attacker runs as nobody, on a render node opened before dropping root. */
static void become_nobody(void)
{
	if (setgid(65534) || setuid(65534))
		_exit(2);
}

static int create(int fd, uint64_t size, uint32_t *handle)
{
	struct drm_i915_gem_create c = { .size = size };
	int ret = gt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c);

	*handle = c.handle;
	return ret;
}

/* Maps BIG bytes with map(), touches one page, reports what that cost the system. */
static void one_page_costs_one_page(const char *how, void *(*map)(int fd, uint32_t handle))
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, BIG);
	long long before = available(), after;
	volatile char *p;

	p = map(fd, handle);
	p[BIG / 2] = 1;
	after = available();
	gt_info("%s: MemAvailable %lld MiB before, %lld MiB after mapping %llu MiB and touching one page\n",
		how, before / (long long)MIB, after / (long long)MIB, BIG / MIB);
	gt_assert(before - after < (long long)ONE_PAGE_SLACK);
	gt_assert_eq(p[BIG / 2], 1);
	gt_assert_eq(p[0], 0);
	munmap((void *)p, BIG);
	gt_close(fd, handle);
	close(fd);
}

static void *map_offset(int fd, uint32_t handle)
{
	return gt_mmap_offset(fd, handle, BIG);
}

static void *map_cpu(int fd, uint32_t handle)
{
	return gt_mmap_cpu(fd, handle, 0, BIG);
}

static void *map_dmabuf(int fd, uint32_t handle)
{
	int dmabuf = gt_prime_export(fd, handle);
	void *p = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);

	if (p == MAP_FAILED)
		gt_fail(__FILE__, __LINE__, "dma-buf mmap: %s", strerror(errno));
	close(dmabuf);
	return p;
}

static void mmap_offset_populates_page_by_page(void)
{
	one_page_costs_one_page("MMAP_OFFSET", map_offset);
}

static void gem_mmap_populates_page_by_page(void)
{
	one_page_costs_one_page("GEM_MMAP", map_cpu);
}

static void dmabuf_mmap_populates_page_by_page(void)
{
	one_page_costs_one_page("dma-buf mmap", map_dmabuf);
}

/* The mapping still reads and writes the object's pages, as pread and pwrite see them. */
static void mmap_offset_is_the_objects_memory(void)
{
	int fd = gt_open_render();
	uint32_t handle = gt_create(fd, 3 * 4096), word = 0xfeedf00d, back = 0;
	uint32_t *p = gt_mmap_offset(fd, handle, 3 * 4096);

	gt_pwrite(fd, handle, 4096, &word, sizeof(word));
	gt_assert_eq(p[1024], word);
	p[2048] = ~word;
	gt_pread(fd, handle, 8192, &back, sizeof(back));
	gt_assert_eq(back, ~word);
	/* The mapping outlives the handle, as GEM_MMAP's does. */
	gt_close(fd, handle);
	gt_assert_eq(p[1024], word);
	munmap(p, 3 * 4096);
	close(fd);
}

static int wait_child(pid_t pid)
{
	int status;

	gt_assert_eq(waitpid(pid, &status, 0), pid);
	if (WIFSIGNALED(status))
		gt_fail(__FILE__, __LINE__, "child killed by signal %d", WTERMSIG(status));
	gt_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static void unprivileged_create_of_nearly_all_ram_is_refused(void)
{
	uint64_t size = (uint64_t)meminfo_kib("MemTotal") * 1024 / 16 * 15 & ~4095ull;
	int fd = gt_open_render(), status;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		uint32_t handle;

		become_nobody();
		if (create(fd, size, &handle) == 0)
			_exit(10);
		_exit(errno == ENOMEM ? 0 : 11);
	}
	status = wait_child(pid);
	gt_info("GEM_CREATE of %llu MiB (15/16 of RAM) by nobody: %s\n",
		(unsigned long long)(size / MIB), status == 0 ? "ENOMEM" :
		status == 10 ? "accepted" : "another error");
	gt_assert_eq(status, 0);
	close(fd);
}

/*
 * The hog opens `files` render files, then creates 96 MiB objects on them in turn until refused,
 * maps and touches all of them; a bystander that never used the GPU holds memory of its own
 * meanwhile and must survive. The hog is stopped at its limit with ENOMEM, not by the OOM
 * killer, however many files it spreads its objects over.
 */
static void hog_is_stopped_at_its_limit(int files)
{
	/* Larger than the object pool (pool_mb): the hog's memory goes back to the system. */
	const uint64_t chunk = 96 * MIB;
	unsigned long long limit = client_limit();
	long long total = meminfo_kib("MemTotal") * 1024;
	pid_t bystander, hog;
	long long figures[3];
	int report[2];

	gt_assert(limit < (unsigned long long)total);
	gt_assert_ok(pipe(report));
	bystander = fork();
	gt_assert(bystander >= 0);
	if (bystander == 0) {
		char *mine = malloc(32 * MIB);

		if (!mine)
			_exit(3);
		memset(mine, 0x5a, 32 * MIB);
		for (;;)
			pause();
	}

	hog = fork();
	gt_assert(hog >= 0);
	if (hog == 0) {
		long long created = 0, low = available();
		uint32_t handle;
		int fds[16], err = 0;

		gt_assert(files <= 16);
		for (int i = 0; i < files; i++)
			fds[i] = gt_open_render();
		become_nobody();
		for (int i = 0;; i++) {
			int fd = fds[i % files];
			char *p;

			if (create(fd, chunk, &handle)) {
				err = errno;
				break;
			}
			created += chunk;
			p = gt_mmap_offset(fd, handle, chunk);
			for (uint64_t off = 0; off < chunk; off += 4096)
				p[off] = 1;
			if (available() < low)
				low = available();
			if (created > total)
				break;
		}
		figures[0] = created;
		figures[1] = low;
		figures[2] = err;
		if (write(report[1], figures, sizeof(figures)) != sizeof(figures))
			_exit(4);
		_exit(0);
	}
	close(report[1]);
	gt_assert_eq(wait_child(hog), 0);
	gt_assert_eq(read(report[0], figures, sizeof(figures)), (long)sizeof(figures));
	gt_info("hog with %d files created and touched %lld MiB (limit %llu MiB, RAM %lld MiB), lowest MemAvailable %lld MiB, stopped by %s\n",
		files, figures[0] / (long long)MIB, limit / MIB, total / (long long)MIB,
		figures[1] / (long long)MIB, strerror((int)figures[2]));
	gt_assert_eq(figures[2], ENOMEM);
	gt_assert(figures[0] <= (long long)limit);
	gt_assert(figures[0] + (long long)chunk > (long long)limit);
	/* The bystander is alive: the hog's memory never made the OOM killer choose it. */
	gt_assert_ok(kill(bystander, 0));
	gt_assert_ok(kill(bystander, SIGKILL));
	waitpid(bystander, NULL, 0);
	close(report[0]);
}

static void client_past_its_limit_gets_enomem_and_bystander_survives(void)
{
	hog_is_stopped_at_its_limit(1);
}

/* Sixteen files do not buy sixteen budgets: the limit is the process's. */
static void sixteen_files_share_one_limit_and_bystander_survives(void)
{
	hog_is_stopped_at_its_limit(16);
}

/* Every file a process opens draws on one budget; another process has its own. */
static void the_limit_is_per_process(void)
{
	unsigned long long limit = client_limit();
	int a = gt_open_render(), b = gt_open_render();
	uint32_t big, other;
	pid_t pid;

	gt_assert_ok(create(a, limit & ~4095ull, &big));
	gt_assert_errno(create(a, 4096, &other), ENOMEM);
	gt_assert_errno(create(b, 4096, &other), ENOMEM);
	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		int mine = gt_open_render();

		_exit(create(mine, 4096, &other) == 0 ? 0 : 1);
	}
	gt_assert_eq(wait_child(pid), 0);
	/* Freeing gives the budget back, to every file of the process. */
	gt_close(a, big);
	gt_assert_ok(create(b, 4096, &other));
	close(a);
	close(b);
}

GT_MAIN(
	GT_SUBTEST(mmap_offset_populates_page_by_page, "mmap-offset-populates-page-by-page"),
	GT_SUBTEST(gem_mmap_populates_page_by_page, "gem-mmap-populates-page-by-page"),
	GT_SUBTEST(dmabuf_mmap_populates_page_by_page, "dmabuf-mmap-populates-page-by-page"),
	GT_SUBTEST(mmap_offset_is_the_objects_memory, "mmap-offset-is-the-objects-memory"),
	GT_SUBTEST(unprivileged_create_of_nearly_all_ram_is_refused,
		   "unprivileged-create-of-nearly-all-ram-is-refused"),
	GT_SUBTEST(client_past_its_limit_gets_enomem_and_bystander_survives,
		   "client-past-its-limit-gets-enomem-and-bystander-survives"),
	GT_SUBTEST(sixteen_files_share_one_limit_and_bystander_survives,
		   "sixteen-files-share-one-limit-and-bystander-survives"),
	GT_SUBTEST(the_limit_is_per_process, "the-limit-is-per-process"),
)
