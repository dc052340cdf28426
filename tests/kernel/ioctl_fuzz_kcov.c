// SPDX-License-Identifier: MIT
/*
 * Coverage guidance for the ioctl fuzzer, on a kernel with KCOV (the debug kernel of
 * ./check --deep; GARNET_IOCTL_FUZZ_KCOV=1). Each thread traces the kernel code its calls
 * run; edges (pairs of successive PCs, hashed into a bitmap every fuzz process shares) that
 * no call reached before make the call's seed worth keeping. Half of the later calls of the
 * same ioctl replay a kept seed with one random decision changed, so the fuzzer works near
 * the calls that reached new code instead of drawing every call afresh.
 * Kept seeds are fresh streams: a replay changes one draw of its stream, and if that reaches
 * new edges the stream is kept again (once more likely to be picked), not the change.
 *
 * A call's seed is the state of the generator its arguments are drawn from, plus the index
 * of the one draw that is changed and what it is changed by (none for a fresh seed). What a
 * call does also depends on the handles and names the process holds at the time, so a
 * replayed seed is a nearby call, not the same one.
 */
#include "ioctl_fuzz.h"

#include <fcntl.h>
#include <linux/kcov.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#define COVER_WORDS	(256u << 10)	/* PCs one call may leave in the trace */
#define EDGE_BITS	22		/* 4 Mbit map, 512 KiB shared */
#define CORPUS_SEEDS	64		/* kept seeds per ioctl */

struct kept_seed {
	_Atomic uint64_t seed, draws;
};

/* Shared by every fuzz process (mapped before the forks). */
struct cover_map {
	_Atomic uint64_t bits[(1u << EDGE_BITS) / 64];
	_Atomic uint64_t edges, garnet_edges, traced_calls, new_calls, guided_calls;
	_Atomic uint64_t guided_new_calls, overflows;
	struct {
		_Atomic uint32_t n;
		struct kept_seed seeds[CORPUS_SEEDS];
	} corpus[FZ_OP_COUNT];
};

static struct cover_map *map;
static uint64_t garnet_start, garnet_end;

/* garnet.ko's core text, from /proc/modules (addresses are shown to root). */
static void find_garnet(void)
{
	char line[512], name[64];
	unsigned long size;
	unsigned long long addr;
	FILE *f = fopen("/proc/modules", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %lu %*s %*s %*s %llx", name, &size, &addr) == 3 &&
		    !strcmp(name, "garnet")) {
			garnet_start = addr;
			garnet_end = addr + size;
		}
	}
	if (f)
		fclose(f);
}

bool fz_kcov_setup(void)
{
	int fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	map = mmap(NULL, sizeof(*map), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		map = NULL;
		return false;
	}
	find_garnet();
	return true;
}

bool fz_kcov_thread_start(struct fz_thread *t)
{
	t->kcov_fd = open("/sys/kernel/debug/kcov", O_RDWR | O_CLOEXEC);
	if (t->kcov_fd < 0)
		return false;
	t->cover = NULL;
	if (ioctl(t->kcov_fd, KCOV_INIT_TRACE, (unsigned long)COVER_WORDS))
		goto fail;
	t->cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long), PROT_READ | PROT_WRITE,
			MAP_SHARED, t->kcov_fd, 0);
	if (t->cover == MAP_FAILED) {
		t->cover = NULL;
		goto fail;
	}
	/* Traces this thread only; children it forks are not traced. */
	if (ioctl(t->kcov_fd, KCOV_ENABLE, KCOV_TRACE_PC))
		goto fail;
	return true;
fail:
	fz_kcov_thread_stop(t);
	return false;
}

void fz_kcov_thread_stop(struct fz_thread *t)
{
	if (t->kcov_fd < 0)
		return;
	ioctl(t->kcov_fd, KCOV_DISABLE, 0);
	if (t->cover)
		munmap(t->cover, COVER_WORDS * sizeof(unsigned long));
	close(t->kcov_fd);
	t->kcov_fd = -1;
	t->cover = NULL;
}

/* A kept seed with one decision changed, or (half the time, or with none kept) a fresh one. */
static void choose(struct fz_thread *t, enum fz_op op, struct fz_rng *call)
{
	struct fz_rng *r = &t->rng;
	uint32_t n = atomic_load(&map->corpus[op].n);

	memset(call, 0, sizeof(*call));
	if (n && fz_below(r, 2)) {
		struct kept_seed *k = &map->corpus[op].seeds[fz_below(r, n < CORPUS_SEEDS ?
								     n : CORPUS_SEEDS)];
		uint64_t draws = atomic_load(&k->draws);

		call->s = atomic_load(&k->seed);
		call->mutate_at = 1 + fz_below(r, draws ? (uint32_t)draws : 1);
		call->flip = fz_next(r) | 1;
		atomic_fetch_add(&map->guided_calls, 1);
	} else {
		call->s = fz_next(r) | 1;
	}
}

/* The seed of a call that reached new edges (itself, or a replay of it with a change). */
static void keep(enum fz_op op, const struct fz_rng *call)
{
	uint32_t i = atomic_fetch_add(&map->corpus[op].n, 1) % CORPUS_SEEDS;
	struct kept_seed *k = &map->corpus[op].seeds[i];

	atomic_store(&k->seed, call->seed0);
	atomic_store(&k->draws, call->draws);
}

/* New edges in the trace of the call just made; also counts those in garnet.ko. */
static uint64_t collect(struct fz_thread *t)
{
	uint64_t n = __atomic_load_n(&t->cover[0], __ATOMIC_RELAXED), fresh = 0, prev = 0;

	if (n >= COVER_WORDS) {
		atomic_fetch_add(&map->overflows, 1);
		n = COVER_WORDS - 1;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t pc = t->cover[i + 1];
		uint64_t edge = (pc ^ prev) * 0x9e3779b97f4a7c15ull >> (64 - EDGE_BITS);
		uint64_t bit = 1ull << (edge % 64);

		prev = pc >> 1;
		if (atomic_load_explicit(&map->bits[edge / 64], memory_order_relaxed) & bit)
			continue;
		if (atomic_fetch_or(&map->bits[edge / 64], bit) & bit)
			continue;
		fresh++;
		if (pc >= garnet_start && pc < garnet_end)
			atomic_fetch_add(&map->garnet_edges, 1);
	}
	if (fresh)
		atomic_fetch_add(&map->edges, fresh);
	return fresh;
}

void fz_kcov_call(struct fz_thread *t, enum fz_op op)
{
	struct fz_rng outer, call;
	bool guided;

	choose(t, op, &call);
	guided = call.mutate_at != 0;
	call.seed0 = call.s;
	outer = t->rng;
	t->rng = call;
	__atomic_store_n(&t->cover[0], 0, __ATOMIC_RELAXED);
	fz_call_random(t, op);
	call = t->rng;
	t->rng = outer;
	atomic_fetch_add(&map->traced_calls, 1);
	if (collect(t)) {
		atomic_fetch_add(&map->new_calls, 1);
		if (guided)
			atomic_fetch_add(&map->guided_new_calls, 1);
		keep(op, &call);
	}
}

bool fz_kcov_report(void)
{
	uint64_t kept = 0;

	for (int op = 0; op < FZ_OP_COUNT; op++) {
		uint32_t n = atomic_load(&map->corpus[op].n);

		kept += n < CORPUS_SEEDS ? n : CORPUS_SEEDS;
	}
	printf("ioctl_fuzz: kcov: %llu edges, %llu with their end in garnet.ko; %llu of %llu "
	       "traced calls reached new edges (%llu of %llu guided calls); %llu seeds kept; "
	       "%llu traces overflowed\n",
	       (unsigned long long)atomic_load(&map->edges),
	       (unsigned long long)atomic_load(&map->garnet_edges),
	       (unsigned long long)atomic_load(&map->new_calls),
	       (unsigned long long)atomic_load(&map->traced_calls),
	       (unsigned long long)atomic_load(&map->guided_new_calls),
	       (unsigned long long)atomic_load(&map->guided_calls), (unsigned long long)kept,
	       (unsigned long long)atomic_load(&map->overflows));
	if (!garnet_end) {
		fprintf(stderr, "ioctl_fuzz: kcov: garnet's address range is not in /proc/modules\n");
		return false;
	}
	if (!atomic_load(&map->garnet_edges)) {
		fprintf(stderr, "ioctl_fuzz: kcov: no edge ends in garnet.ko: the module was built "
				"without KCOV instrumentation\n");
		return false;
	}
	if (!atomic_load(&map->guided_calls)) {
		fprintf(stderr, "ioctl_fuzz: kcov: no call was guided by a kept seed\n");
		return false;
	}
	return true;
}
