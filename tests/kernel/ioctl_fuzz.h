/* SPDX-License-Identifier: MIT */
/*
 * The structured ioctl fuzzer (ioctl_fuzz*.c): what its parts share. The generator
 * (ioctl_fuzz_gen.c) makes values, pointers and batches; the bookkeeping (ioctl_fuzz_objs.c)
 * knows the files, handles, names and dma-buf fds a process holds and what other processes
 * published; the calls (ioctl_fuzz_calls.c) build one ioctl each; the runner (ioctl_fuzz.c)
 * forks the processes, starts their threads and checks the device afterwards.
 */
#ifndef IOCTL_FUZZ_H
#define IOCTL_FUZZ_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "garnet_test.h"

/* Every ioctl of garnet's table, and the core GEM ioctls garnet serves or screens. */
enum fz_op {
	FZ_GETPARAM,
	FZ_CREATE,
	FZ_PREAD,
	FZ_PWRITE,
	FZ_MMAP,
	FZ_MMAP_OFFSET,
	FZ_SET_DOMAIN,
	FZ_SW_FINISH,
	FZ_BUSY,
	FZ_GEM_INIT,
	FZ_PIN,
	FZ_UNPIN,
	FZ_GET_APERTURE,
	FZ_MADVISE,
	FZ_SET_TILING,
	FZ_GET_TILING,
	FZ_EXECBUFFER,
	FZ_EXECBUFFER2,
	FZ_WAIT,
	FZ_GET_CLIENT_ID,
	FZ_SHARE,
	FZ_ACCEPT,
	FZ_REVOKE,
	FZ_GEM_CLOSE,
	FZ_FLINK,
	FZ_GEM_OPEN,
	FZ_PRIME_EXPORT,
	FZ_PRIME_IMPORT,
	FZ_OP_COUNT
};

#define FZ_ERRNO_MAX	134	/* result index: 0 success, else errno */

/* Counters in memory shared by every fuzz process (MAP_SHARED before the forks). */
struct fz_stats {
	_Atomic uint64_t calls[FZ_OP_COUNT];
	_Atomic uint64_t results[FZ_OP_COUNT][FZ_ERRNO_MAX + 1];
	_Atomic uint64_t violations;		/* oracle failures, each also printed */
	_Atomic uint64_t scenarios;		/* close-while-mapped runs, content checked */
	_Atomic uint64_t races;			/* handles closed while another thread used them */
	_Atomic uint64_t mismatch[3];		/* a close-while-mapped child's word, got, wanted */
	_Atomic int round_pids[16];		/* each fuzz process's current round */
	/* What processes publish for each other: client ids, SHARE names, flink names. */
	_Atomic uint64_t client_ids[16];
	_Atomic uint64_t names[64];
	_Atomic uint64_t name_recipients[64];
	_Atomic uint32_t flinks[64];
};

/*
 * xorshift64*: one per thread, seeded from the run's seed, the process and the thread. A
 * coverage-guided call (ioctl_fuzz_kcov.c) draws from its own stream, starting at seed0,
 * in which draw number mutate_at (counting from 1; 0: none) is changed by xor with flip.
 */
struct fz_rng {
	uint64_t s;
	uint64_t seed0, draws, mutate_at, flip;
};

void fz_rng_seed(struct fz_rng *r, uint64_t seed, unsigned int proc, unsigned int thread);
uint64_t fz_next(struct fz_rng *r);
uint32_t fz_below(struct fz_rng *r, uint32_t n);	/* [0, n) */
bool fz_one_in(struct fz_rng *r, uint32_t n);

/* Values near the edges: 0, 1, page and object sizes, 2^32, 2^63, 2^64 - small, random. */
uint64_t fz_u64(struct fz_rng *r, uint64_t near);
uint32_t fz_u32(struct fz_rng *r);

/*
 * A user pointer for len bytes: mostly the thread's scratch buffer, else NULL, unaligned, at
 * the end of a mapping (so the access runs into a PROT_NONE page), a page just unmapped,
 * a kernel or non-canonical address.
 */
struct fz_thread;
uint64_t fz_ptr(struct fz_thread *t, uint64_t len, const char **kind);

#define FZ_SCRATCH	(1u << 20)

/* A file this process opened: its handles, the names it shared. */
#define FZ_HANDLES	48
#define FZ_NAMES	16

struct fz_file {
	int fd;
	bool card;			/* primary node: PIN, UNPIN, GEM_INIT, GEM_OPEN may work */
	uint64_t client_id;
	pthread_mutex_t lock;
	uint32_t handles[FZ_HANDLES];
	uint64_t sizes[FZ_HANDLES];
	unsigned int nhandles;
	uint32_t closed[8];		/* handles closed recently: stale on purpose */
	uint64_t names[FZ_NAMES];
	unsigned int nnames;
	/*
	 * Held from a call that makes a handle until its size is in the table: two such calls
	 * handing out the same number (a stray GEM_CLOSE freed it) must not record out of order.
	 */
	pthread_mutex_t create_lock;
	uint32_t pinned[8];		/* UNPIN mostly aims here, so pins come and go */
	unsigned int npinned;
	/*
	 * Bumped before and after every call that may close or create a handle (sizes are known
	 * while equal), and the number of such calls under way (sizes are unknown while any is).
	 */
	_Atomic unsigned long churn;
	_Atomic unsigned int changing;
};

struct fz_proc {
	unsigned int index;
	/*
	 * A card node and a render node that every thread uses, and a render node only for
	 * the close-while-mapped checks, whose handles no random call may guess.
	 */
	struct fz_file files[3];
	pthread_mutex_t fds_lock;
	int dmabufs[16];
	unsigned int ndmabufs;
};

struct fz_thread {
	struct fz_proc *proc;
	unsigned int index;
	struct fz_rng rng;
	uint64_t calls;
	uint8_t *scratch;		/* FZ_SCRATCH bytes, then a PROT_NONE page */
	int kcov_fd;			/* -1 unless coverage-guided */
	int fail_fd;			/* its make-it-fail, -1 unless failslab */
	unsigned long *cover;		/* the thread's KCOV trace: count, then PCs */
};

/* Run-wide settings from the environment, and the shared counters. */
struct fz_config {
	uint64_t seed;
	unsigned int seconds, procs, threads;
	bool trace;
	bool failslab;			/* GARNET_IOCTL_FUZZ_FAILSLAB: slab allocations fail */
	bool kcov;			/* GARNET_IOCTL_FUZZ_KCOV: guided by kernel coverage */
	uint64_t aperture;		/* the GTT at load: GEM_INIT ranges stay near it */
	struct fz_stats *stats;
};
extern struct fz_config fz;

extern const char *const fz_op_names[FZ_OP_COUNT];

/* ioctl_fuzz_objs.c */
int fz_file_open(struct fz_file *f, bool card);
void fz_file_close(struct fz_file *f);
uint32_t fz_pick_handle(struct fz_thread *t, struct fz_file *f, uint64_t *size);
uint32_t fz_take_handle(struct fz_thread *t, struct fz_file *f);	/* removes it */
void fz_add_handle(struct fz_file *f, uint32_t handle, uint64_t size);
uint64_t fz_pick_recipient(struct fz_thread *t);
uint64_t fz_pick_name(struct fz_thread *t);
uint64_t fz_pick_name_for(struct fz_thread *t, const struct fz_file *f);
void fz_publish_name(struct fz_thread *t, struct fz_file *f, uint64_t name, uint64_t to);
uint64_t fz_take_own_name(struct fz_thread *t, struct fz_file *f);
void fz_publish_flink(struct fz_thread *t, uint32_t name);
uint32_t fz_pick_flink(struct fz_thread *t);
void fz_add_dmabuf(struct fz_proc *p, int fd);
int fz_pick_dmabuf(struct fz_thread *t);
void fz_close_dmabufs(struct fz_proc *p, bool all, struct fz_rng *r);

/* ioctl_fuzz_calls.c: one random call of op on a file of the thread's process. */
void fz_call_random(struct fz_thread *t, enum fz_op op);
/* The scenarios that take several calls: close while mapped. */
void fz_close_while_mapped(struct fz_thread *t);

/* ioctl_fuzz_kcov.c: coverage guidance (KCOV), set up before the fuzz processes fork. */
bool fz_kcov_setup(void);
bool fz_kcov_thread_start(struct fz_thread *t);
void fz_kcov_thread_stop(struct fz_thread *t);
void fz_kcov_call(struct fz_thread *t, enum fz_op op);	/* fz_call_random, traced */
bool fz_kcov_report(void);
/* Every call goes through here: counts it, records its result, traces it. Returns errno. */
int fz_ioctl(struct fz_thread *t, enum fz_op op, int fd, unsigned long req, void *arg,
	     unsigned int len, const char *note);
__attribute__((format(printf, 2, 3)))
void fz_violation(struct fz_thread *t, const char *fmt, ...);

/* ioctl_fuzz_gen.c: a batch of the commands garnet's validator knows, with relocations. */
struct fz_batch {
	uint32_t dw[256];
	unsigned int n;
	struct drm_i915_gem_relocation_entry relocs[64];
	unsigned int nreloc;
};
/*
 * Random commands over the objects of an execbuffer (targets[i] of sizes[i]): mostly valid
 * ones with relocations; sometimes a bad header, a wrong length, a jump, no end.
 */
void fz_batch_random(struct fz_thread *t, struct fz_batch *b, const uint32_t *targets,
		     const uint64_t *sizes, unsigned int n);

#endif /* IOCTL_FUZZ_H */
