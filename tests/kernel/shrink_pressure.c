// SPDX-License-Identifier: MIT
/*
 * garnet's shrinkers in real reclaim. A memory hog in a child process drives the guest into
 * direct reclaim while this process keeps binding (PIN maps every page into the kernel),
 * unbinding, reading and writing objects, so reclaim runs while the objects' vmap and pages
 * locks are held and taken. The shrinkers must only trylock and skip what is busy: the guest
 * log stays clean, pinned objects keep their place, the others their contents.
 */
#include "garnet_test.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MIB		(1 << 20)
#define OBJECTS		48
#define PRESSURE_ROUNDS	2
#define HOG_SECONDS	15

static long mem_available_mib(void)
{
	char line[256];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	gt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kib) == 1)
			break;
	fclose(f);
	gt_assert(kib > 0);
	return kib / 1024;
}

/*
 * Touches most of the available memory once, then exits: reclaim runs in its faults. A guest
 * under load gets HOG_SECONDS at most, so the test stays within its time.
 */
static pid_t start_hog(void)
{
	long mib = mem_available_mib() * 3 / 4;
	pid_t pid = fork();

	gt_assert(pid >= 0);
	if (pid == 0) {
		time_t end = time(NULL) + HOG_SECONDS;
		char *p = mmap(NULL, (size_t)mib * MIB, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(1);
		for (long i = 0; i < mib * MIB && time(NULL) < end; i += 4096)
			p[i] = (char)i;
		_exit(0);
	}
	return pid;
}

static void drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);

	gt_assert(fd >= 0);
	gt_assert_eq(write(fd, "3\n", 2), 2);
	close(fd);
}

struct churn {
	int fd;
	uint32_t *handles;
	atomic_bool stop;
	atomic_long rounds;
};

/* Binds and unbinds, reads and writes: the objects' locks are taken all the time. */
static void *churn_thread(void *data)
{
	struct churn *c = data;
	unsigned int i = 0;
	uint32_t word;

	while (!atomic_load(&c->stop)) {
		uint32_t h = c->handles[i++ % OBJECTS];

		if (gt_pin(c->fd, h, 0, NULL) == 0)
			gt_unpin(c->fd, h);
		gt_pread(c->fd, h, 4096, &word, sizeof(word));
		gt_assert_eq(word, h);
		atomic_fetch_add(&c->rounds, 1);
	}
	return NULL;
}

static void shrinkers_under_memory_pressure_run_clean(void)
{
	int fd = gt_open_card();
	uint32_t handles[OBJECTS], kept = gt_create(fd, MIB);
	uint64_t kept_at, again;
	struct churn c = { .fd = fd, .handles = handles };
	int warnings = gt_kmsg_count("WARNING:");
	long long unbinds;
	pthread_t threads[2];
	int i, status;

	/* Bound objects, mapped into the kernel, idle and unpinned: what the shrinker takes. */
	for (i = 0; i < OBJECTS; i++) {
		handles[i] = gt_create(fd, MIB);
		gt_pwrite(fd, handles[i], 4096, &handles[i], sizeof(handles[i]));
		gt_assert_ok(gt_pin(fd, handles[i], 0, NULL));
		gt_assert_ok(gt_unpin(fd, handles[i]));
	}
	gt_assert_ok(gt_pin(fd, kept, 0, &kept_at));
	unbinds = gt_debugfs_value(fd, "garnet_exec", "shrinker_unbinds");

	for (i = 0; i < 2; i++)
		gt_assert_ok(pthread_create(&threads[i], NULL, churn_thread, &c));
	for (i = 0; i < PRESSURE_ROUNDS; i++) {
		pid_t hog = start_hog();

		drop_caches();
		gt_assert_eq(waitpid(hog, &status, 0), hog);
		gt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	atomic_store(&c.stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	gt_info("%ld churn rounds, %lld shrinker unbinds\n", atomic_load(&c.rounds),
		gt_debugfs_value(fd, "garnet_exec", "shrinker_unbinds") - unbinds);

	gt_assert(gt_debugfs_value(fd, "garnet_exec", "shrinker_unbinds") > unbinds);
	gt_assert_eq(gt_kmsg_count("WARNING:"), warnings);
	gt_assert_eq(gt_kmsg_count("blocked for more than"), 0);
	/* Pinned stays where it is; the others keep their contents. */
	gt_assert_ok(gt_pin(fd, kept, 0, &again));
	gt_assert_eq(again, kept_at);
	for (i = 0; i < OBJECTS; i++) {
		uint32_t word;

		gt_pread(fd, handles[i], 4096, &word, sizeof(word));
		gt_assert_eq(word, handles[i]);
	}
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(shrinkers_under_memory_pressure_run_clean,
		   "shrinkers-under-memory-pressure-run-clean"),
)
