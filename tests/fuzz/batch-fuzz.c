// SPDX-License-Identifier: GPL-2.0-only
/*
 * The batch validator, fuzzed in userspace: kernel/garnet_reloc.c and kernel/garnet_cmd.c,
 * compiled unmodified on kernel-shim/, run as EXECBUFFER2 runs them (relocations checked and
 * written, the batch copied, validated, then run by the engine's own code).
 *
 * The oracle is differential. Every object lives alone in host memory, surrounded by
 * megabytes of PROT_NONE, at a place unrelated to its GPU address: any read or write outside
 * the objects of the request, or past an object's end, faults. And a batch the validator
 * accepted must run without the engine finding a bad access (-EFAULT): the validator and
 * the engine must agree on what a batch may touch. In isolation mode addresses are left to
 * the engine, which may fault but must still stay inside the objects.
 *
 * Input (see batch-seeds.py, which writes the seeds in tests/fuzz/corpus/batch/):
 *   mode           bit 0 isolation, bit 1 I915_EXEC_HANDLE_LUT, bits 2-3 objects - 1
 *   per object     pages - 1 (low 2 bits), then the gap in pages before its GPU address
 *   start          batch_start_offset, in bytes
 *   relocs         count (low 4 bits), then per relocation 14 bytes: object patched,
 *                  target, offset (le32), delta (le32), read domains, write domain,
 *                  presumed right (bit 0), offset's top byte
 *   the batch      all that is left, at start in the last object
 *
 * Built with -DGARNET_FUZZ_PLANT_OFF_BY_ONE, every object tells the kernel code it is one
 * dword longer than its memory: the inverted self-test that proves the oracle sees such a bug.
 */
#include <stdio.h>
#include <sys/mman.h>

#include "garnet_drv.h"
#include "garnet_eb.h"
#include "garnet_exec.h"
#include "garnet_gem.h"

#define MAX_OBJS	4
#define MAX_PAGES	16
#define PAGE		4096u
/* Host distance between objects: far beyond any extent a bad check could let through. */
#define SLOT		(64ul << 20)
/* Watchdog checks a looping batch gets before it is stopped as hung. */
#define DEADLINE	32

#ifdef GARNET_FUZZ_PLANT_OFF_BY_ONE
#define SIZE_ERROR	4
#else
#define SIZE_ERROR	0
#endif

unsigned long jiffies;
static struct garnet_request *running;
static unsigned long running_since;

/* The scheduler's timeout handler: the running batch is asked to stop past its time. */
void shim_watchdog_tick(void)
{
	if (running && jiffies - running_since > DEADLINE)
		running->stop = true;
}

struct input {
	const uint8_t *data;
	size_t size;
};

static uint8_t take8(struct input *in)
{
	uint8_t b = 0;

	if (in->size) {
		b = *in->data++;
		in->size--;
	}
	return b;
}

static uint32_t take32(struct input *in)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)take8(in) << (8 * i);
	return v;
}

struct fixture {
	struct garnet_device gdev;
	struct garnet_gpu gpu;
	struct garnet_client client;
	struct drm_i915_gem_execbuffer2 args;
	struct drm_i915_gem_exec_object2 exec[MAX_OBJS];	/* the kernel's copy */
	struct drm_i915_gem_exec_object2 user_exec[MAX_OBJS];	/* the user's, written back */
	struct garnet_object gobj[MAX_OBJS];
	struct garnet_vma vma[MAX_OBJS];
	struct eb_obj objs[MAX_OBJS];
	u64 by_handle[MAX_OBJS];
	struct drm_i915_gem_relocation_entry relocs[MAX_OBJS][16];
	size_t bytes[MAX_OBJS];		/* what is really mapped for each object */
};

static char *arena;
/* GARNET_BATCH_FUZZ_VERBOSE=1: say what became of each input (to check seeds, to debug). */
static bool verbose;

static char *host_slot(unsigned int i)
{
	/* Slot 0 is never mapped: it guards the first object from below. */
	return arena + (i + 1) * SLOT;
}

static void fail(const char *why)
{
	fprintf(stderr, "batch-fuzz: %s\n", why);
	abort();
}

/* garnet_vm.c's: the fuzzer's objects are idle, so nothing is ever waited for. */
int garnet_resv_busy(struct dma_resv *resv, enum dma_resv_usage usage, struct dma_fence **busy)
{
	(void)resv, (void)usage;
	*busy = NULL;
	return 0;
}

static int req_obj_cmp(const void *a, const void *b)
{
	const struct garnet_req_obj *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* What eb_build_request() does: the objects sorted by address and a copy of the batch. */
static struct garnet_request *build_request(struct fixture *f, u32 start, u32 len)
{
	struct garnet_request *req;
	u32 n = f->args.buffer_count, i;
	struct garnet_vma *batch = &f->vma[n - 1];

	req = calloc(1, struct_size(req, objs, n));
	req->gpu = &f->gpu;
	req->client = &f->client;
	req->nobj = n;
	for (i = 0; i < n; i++) {
		req->objs[i].start = f->vma[i].node.start;
		req->objs[i].size = f->gobj[i].shmem.base.size;
		req->objs[i].vaddr = f->vma[i].vaddr;
		req->objs[i].obj = &f->gobj[i];
	}
	qsort(req->objs, n, sizeof(req->objs[0]), req_obj_cmp);
	req->cmds = malloc(len);
	memcpy(req->cmds, (char *)batch->vaddr + start, len);
	req->cmd_dwords = len / 4;
	req->batch_addr = batch->node.start + start;
	return req;
}

static void run(struct fixture *f, bool isolation, u32 start, u32 len)
{
	struct garnet_request *req = build_request(f, start, len);
	int ret;

	ret = garnet_cmd_validate(req, !isolation);
	if (verbose)
		fprintf(stderr, "batch-fuzz: %u dwords at 0x%llx, validator %d\n", req->cmd_dwords,
			(unsigned long long)req->batch_addr, ret);
	if (ret == 0 && !isolation && garnet_cmd_validate(req, false) != 0)
		fail("a batch valid with its addresses checked is refused without");
	if (ret == 0) {
		running = req;
		running_since = jiffies;
		ret = garnet_cmd_execute(req);
		running = NULL;
		if (verbose)
			fprintf(stderr, "batch-fuzz: engine %d\n", ret);
		if (ret == -EFAULT && !isolation)
			fail("the engine faulted on a batch the validator accepted");
		if (ret != 0 && ret != -EFAULT && ret != -ETIMEDOUT)
			fail("the engine returned an error it has no business returning");
	} else if (ret != -EINVAL) {
		fail("the validator returned something other than 0 or -EINVAL");
	}
	free(req->cmds);
	free(req);
}

static void map_objects(struct fixture *f, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (mprotect(host_slot(i), f->bytes[i], PROT_READ | PROT_WRITE))
			fail("mprotect");
}

static void unmap_objects(struct fixture *f, u32 n)
{
	u32 i;

	/* Zero for the next input, and out of reach again. */
	for (i = 0; i < n; i++)
		if (madvise(host_slot(i), f->bytes[i], MADV_DONTNEED) ||
		    mprotect(host_slot(i), f->bytes[i], PROT_NONE))
			fail("madvise/mprotect");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fixture f;
	struct input in = { data, size };
	uint8_t mode = take8(&in);
	bool isolation = mode & 1;
	u32 n = ((mode >> 2) & 3) + 1, i, start, len, nreloc;
	int ret;
	u64 cursor = 0;

	if (!arena) {
		arena = mmap(NULL, (MAX_OBJS + 1) * SLOT, PROT_NONE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (arena == MAP_FAILED)
			fail("cannot reserve the arena");
		verbose = getenv("GARNET_BATCH_FUZZ_VERBOSE");
	}
	memset(&f, 0, sizeof(f));
	f.gpu.gdev = &f.gdev;
	f.client.gpu = &f.gpu;
	f.args.buffer_count = n;
	f.args.flags = mode & 2 ? I915_EXEC_HANDLE_LUT : 0;

	for (i = 0; i < n; i++) {
		u32 pages = (take8(&in) & 3) + 1;

		f.bytes[i] = pages * PAGE;
		cursor += (u64)take8(&in) * PAGE;
		f.vma[i].node.start = cursor;
		cursor += f.bytes[i];
	}
	start = take8(&in);
	nreloc = take8(&in) & 15;
	for (i = 0; i < nreloc; i++) {
		u32 o = take8(&in) % n;
		struct drm_i915_gem_relocation_entry *r = &f.relocs[o][f.exec[o].relocation_count++];
		u32 t;

		r->target_handle = take8(&in);
		r->offset = take32(&in);
		r->delta = take32(&in);
		r->read_domains = take8(&in);
		r->write_domain = take8(&in);
		/* Right, the fast path; or 1, which no object's address (pages) ever is. */
		t = f.args.flags & I915_EXEC_HANDLE_LUT ? r->target_handle : r->target_handle - 1;
		r->presumed_offset = take8(&in) & 1 && t < n ? f.vma[t].node.start : 1;
		r->offset |= (u64)take8(&in) << 56;
	}

	/* The batch object grows to hold the batch, as a client would make it. */
	len = in.size;
	if (!len)
		return 0;
	if (start + len > f.bytes[n - 1]) {
		u64 need = (start + len + PAGE - 1) / PAGE * PAGE;

		if (need > MAX_PAGES * PAGE)
			return 0;
		/* It is the last object, the highest: growing overlaps nothing. */
		f.bytes[n - 1] = need;
	}

	for (i = 0; i < n; i++) {
		f.gobj[i].shmem.base.size = f.bytes[i] + SIZE_ERROR;
		f.vma[i].obj = &f.gobj[i];
		f.vma[i].vaddr = host_slot(i);
		f.objs[i].obj = &f.gobj[i];
		f.objs[i].vma = &f.vma[i];
		f.objs[i].handle = i + 1;
		f.exec[i].handle = i + 1;
		f.exec[i].relocs_ptr = (uintptr_t)f.relocs[i];
		f.exec[i].offset = f.vma[i].node.start;
		f.by_handle[i] = (u64)(i + 1) << 32 | i;
	}
	qsort(f.by_handle, n, sizeof(u64), u64_cmp);
	memcpy(f.user_exec, f.exec, sizeof(f.exec));
	f.args.buffers_ptr = (uintptr_t)f.user_exec;

	struct eb eb = {
		.gpu = &f.gpu,
		.client = &f.client,
		.args = &f.args,
		.exec = f.exec,
		.objs = f.objs,
		.count = n,
		.batch = n - 1,
		.by_handle = f.by_handle,
	};

	map_objects(&f, n);
	memcpy(host_slot(n - 1) + start, in.data, len);
	ret = eb_copy_relocs(&eb);
	if (verbose)
		fprintf(stderr, "batch-fuzz: %u objects, %u relocations: %d\n", n, nreloc, ret);
	/* eb_check_batch(): nothing may say it writes the batch. */
	if (!ret && !f.objs[n - 1].write_domain) {
		if (eb_apply_relocs(&eb) || eb_write_back(&eb))
			fail("relocations that passed their checks could not be applied");
		run(&f, isolation, start, len);
	}
	free(eb.relocs);
	unmap_objects(&f, n);
	return 0;
}
