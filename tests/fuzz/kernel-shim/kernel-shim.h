/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Just enough of the kernel's API for garnet_cmd.c and garnet_reloc.c to compile, unmodified,
 * into a userspace fuzzer: the types their headers embed, and the few calls they make. What
 * is not used is not here; a new call in those files fails the fuzzer's build, on purpose.
 * Every linux/ and drm/ header of this directory is this one file.
 */
#ifndef GARNET_KERNEL_SHIM_H
#define GARNET_KERNEL_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>	/* the system's: __u32 and friends for the uapi headers */

/* As the kernel has them, so that u64 and __u64 are one type. */
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef unsigned int gfp_t;

#define __user
#define __init
#define __exit
#define GFP_KERNEL 0u
#define GFP_KERNEL_ACCOUNT 0u
#define __GFP_NOWARN 0u
#define BIT(n) (1ul << (n))
#define BITS_PER_LONG (8 * (int)sizeof(long))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define lower_32_bits(n) ((u32)((n) & 0xffffffff))
#define u64_to_user_ptr(x) ((void *)(uintptr_t)(x))
#define MAX_SCHEDULE_TIMEOUT LONG_MAX
#define struct_size(p, member, n) (sizeof(*(p)) + sizeof((p)->member[0]) * (n))

/* Lists, locks, references and queues: only embedded in structures, never used. */
struct list_head { struct list_head *next, *prev; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };
#define DECLARE_HASHTABLE(name, bits) struct hlist_head name[1 << (bits)]
struct mutex { int unused; };
typedef struct { int unused; } spinlock_t;
struct kref { int refcount; };
struct xarray { void *head; };
struct shrinker { int unused; };
struct work_struct { void *func; };
struct delayed_work { struct work_struct work; };
struct rcu_head { void *next; void (*func)(struct rcu_head *); };
typedef struct { int unused; } wait_queue_head_t;
struct pid;
struct workqueue_struct;
struct ratelimit_state { int interval, burst; };
struct dma_fence { u64 context, seqno; };
struct dma_fence_cb { void *func; };
struct dma_resv;
struct drm_device { int unused; };
struct drm_file { void *driver_priv; };
struct drm_minor;
struct drm_mm { u64 start, size; };
struct drm_mm_node { u64 start, size; };
struct drm_gem_object { size_t size; struct dma_resv *resv; };
struct drm_gem_shmem_object { struct drm_gem_object base; };

typedef struct { int counter; } atomic_t;
typedef struct { s64 counter; } atomic64_t;
static inline void atomic64_inc(atomic64_t *v) { v->counter++; }

/* Memory: the fuzzer's ASan watches every allocation. */
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	(void)gfp;
	if (size && n > SIZE_MAX / size)
		return NULL;
	return malloc(n * size);
}

static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t gfp)
{
	(void)gfp;
	return calloc((nbits + BITS_PER_LONG - 1) / BITS_PER_LONG ?: 1, sizeof(long));
}

static inline void bitmap_free(unsigned long *map) { free(map); }

static inline void set_bit(unsigned long nr, unsigned long *map)
{
	map[nr / BITS_PER_LONG] |= 1ul << (nr % BITS_PER_LONG);
}

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[nr / BITS_PER_LONG] >> (nr % BITS_PER_LONG) & 1;
}

static inline void memset32(u32 *s, u32 v, size_t n)
{
	while (n--)
		*s++ = v;
}

/* "User" memory is the fuzzer's own: copies cannot fault. */
static inline unsigned long copy_from_user(void *to, const void *from, unsigned long n)
{
	memcpy(to, from, n);
	return 0;
}

#define put_user(x, ptr) ({ *(ptr) = (x); 0; })

/*
 * Time is counted in watchdog checks: each cond_resched() is one jiffy, and the harness plays
 * the scheduler's timeout handler (shim_watchdog_tick() asks the running batch to stop after a
 * fixed number of checks), so a batch that loops is stopped however fast the machine is.
 */
extern unsigned long jiffies;
#define time_after(a, b) ((long)((b) - (a)) < 0)
void shim_watchdog_tick(void);
static inline void cond_resched(void)
{
	jiffies++;
	shim_watchdog_tick();
}

/* The fuzzer's objects are idle: no fence ever waits. */
enum dma_resv_usage { DMA_RESV_USAGE_KERNEL, DMA_RESV_USAGE_WRITE, DMA_RESV_USAGE_READ,
		      DMA_RESV_USAGE_BOOKKEEP };
static inline bool dma_resv_test_signaled(struct dma_resv *r, enum dma_resv_usage u)
{
	(void)r, (void)u;
	return true;
}

static inline long dma_resv_wait_timeout(struct dma_resv *r, enum dma_resv_usage u, bool intr,
					 unsigned long timeout)
{
	(void)r, (void)u, (void)intr;
	return timeout;
}

/* Refusals are logged in the kernel; here they would only slow the fuzzer down. */
static inline int __ratelimit(struct ratelimit_state *rs) { (void)rs; return 0; }
#define drm_notice(drm, ...) ((void)(drm))

#endif /* GARNET_KERNEL_SHIM_H */
