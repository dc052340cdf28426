// SPDX-License-Identifier: MIT
/*
 * The ioctl fuzzer's calls: one function per ioctl that fills its struct from the generator
 * and the bookkeeping, makes the call through fz_ioctl() (which counts and traces it) and
 * keeps what it created. The oracles that need no kernel debugging live here too: an access
 * outside an object that succeeds, contents that change under a mapping.
 */
#include "ioctl_fuzz.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

const char *const fz_op_names[FZ_OP_COUNT] = {
	[FZ_GETPARAM] = "GETPARAM",
	[FZ_CREATE] = "GEM_CREATE",
	[FZ_PREAD] = "GEM_PREAD",
	[FZ_PWRITE] = "GEM_PWRITE",
	[FZ_MMAP] = "GEM_MMAP",
	[FZ_MMAP_OFFSET] = "GEM_MMAP_OFFSET",
	[FZ_SET_DOMAIN] = "GEM_SET_DOMAIN",
	[FZ_SW_FINISH] = "GEM_SW_FINISH",
	[FZ_BUSY] = "GEM_BUSY",
	[FZ_GEM_INIT] = "GEM_INIT",
	[FZ_PIN] = "GEM_PIN",
	[FZ_UNPIN] = "GEM_UNPIN",
	[FZ_GET_APERTURE] = "GEM_GET_APERTURE",
	[FZ_MADVISE] = "GEM_MADVISE",
	[FZ_SET_TILING] = "GEM_SET_TILING",
	[FZ_GET_TILING] = "GEM_GET_TILING",
	[FZ_EXECBUFFER] = "GEM_EXECBUFFER",
	[FZ_EXECBUFFER2] = "GEM_EXECBUFFER2",
	[FZ_WAIT] = "GEM_WAIT",
	[FZ_GET_CLIENT_ID] = "GARNET_GET_CLIENT_ID",
	[FZ_SHARE] = "GARNET_SHARE",
	[FZ_ACCEPT] = "GARNET_ACCEPT",
	[FZ_REVOKE] = "GARNET_REVOKE",
	[FZ_GEM_CLOSE] = "GEM_CLOSE",
	[FZ_FLINK] = "GEM_FLINK",
	[FZ_GEM_OPEN] = "GEM_OPEN",
	[FZ_PRIME_EXPORT] = "PRIME_HANDLE_TO_FD",
	[FZ_PRIME_IMPORT] = "PRIME_FD_TO_HANDLE",
};

void fz_violation(struct fz_thread *t, const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&fz.stats->violations, 1);
	fprintf(stderr, "ioctl_fuzz: VIOLATION (process %u thread %u, call %llu): ",
		t->proc->index, t->index, (unsigned long long)t->calls);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * An address no read of len bytes can succeed at: NULL, kernel, non-canonical, or crossing
 * into the PROT_NONE page after the thread's scratch. len is what drm_ioctl() copies, the
 * request's size: a caller's buffer can be larger (a union of several ioctls' structs), and
 * a start that far before the end would leave the copy readable.
 */
static void *unreadable(struct fz_thread *t, unsigned int len, const char **kind)
{
	struct fz_rng *r = &t->rng;

	switch (fz_below(r, 4)) {
	case 0:
		*kind = "null";
		return NULL;
	case 1:
		*kind = "kernel";
		return (void *)(uintptr_t)(0xffff888000000000ull + 4096ull * fz_below(r, 1024));
	case 2:
		*kind = "non-canonical";
		return (void *)(uintptr_t)(0x0000800000000000ull - 8 * fz_below(r, 2));
	default:
		*kind = "end-of-mapping";
		return t->scratch + FZ_SCRATCH - fz_below(r, len ? len : 1);
	}
}

int fz_ioctl(struct fz_thread *t, enum fz_op op, int fd, unsigned long req, void *arg,
	     unsigned int len, const char *note)
{
	struct fz_rng *r = &t->rng;
	char hex[2 * 80 + 1] = "";
	const char *kind = "struct";
	void *where = arg;
	int ret, err;

	/*
	 * The argument itself unreadable: drm_ioctl() must refuse before the driver runs.
	 * Calls that cannot fail otherwise get it more often. Never a pointer the kernel could
	 * read (scratch bytes, or a page another thread mapped): the driver would run on other
	 * arguments than the caller's oracles check, and a handle it made would be unknown.
	 */
	if (fz_one_in(r, op == FZ_GET_CLIENT_ID || op == FZ_GET_APERTURE ? 8 : 64))
		where = unreadable(t, _IOC_SIZE(req), &kind);
	/* The argument as it goes in, so a trace line is enough to make the call again. */
	if (fz.trace) {
		const uint8_t *b = arg;

		for (unsigned int i = 0; i < len && i < 80; i++)
			sprintf(hex + 2 * i, "%02x", b[i]);
	}
	t->calls++;
	if (t->fail_fd >= 0)
		pwrite(t->fail_fd, "1", 1, 0);
	ret = ioctl(fd, req, where);
	err = ret ? errno : 0;
	if (t->fail_fd >= 0)
		pwrite(t->fail_fd, "0", 1, 0);
	if (ret && !err)
		fz_violation(t, "%s failed without an errno", fz_op_names[op]);
	if (!err && where != arg && len && _IOC_SIZE(req))
		fz_violation(t, "%s succeeded with an unreadable argument (%s)", fz_op_names[op],
			     kind);
	atomic_fetch_add(&fz.stats->calls[op], 1);
	atomic_fetch_add(&fz.stats->results[op][err <= FZ_ERRNO_MAX ? err : FZ_ERRNO_MAX], 1);
	if (fz.trace) {
		printf("p%u t%u #%llu %s fd=%d arg=%s %s%s -> %s\n", t->proc->index, t->index,
		       (unsigned long long)t->calls, fz_op_names[op], fd,
		       where == arg ? hex : kind, note ? note : "",
		       where == arg ? "" : " (bad arg)",
		       err ? strerror(err) : "ok");
	}
	return err;
}

static struct fz_file *pick_file(struct fz_thread *t, enum fz_op op)
{
	/* What only a primary node may do goes there mostly: its refusals are few enough. */
	bool card = op == FZ_GEM_INIT || op == FZ_PIN || op == FZ_UNPIN || op == FZ_FLINK ||
		    op == FZ_GEM_OPEN;

	return &t->proc->files[card && fz_below(&t->rng, 4) ? 0 : fz_below(&t->rng, 2)];
}

/* An argument size other than the struct's: drm_ioctl() pads or cuts it. */
static unsigned long resize(struct fz_thread *t, unsigned long req)
{
	unsigned long size;

	if (!fz_one_in(&t->rng, 32))
		return req;
	size = fz_below(&t->rng, 2) ? 0 : 8 * fz_below(&t->rng, 16);
	return (req & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
	       size << _IOC_SIZESHIFT;
}

/*
 * The table's generation before a pick, or FZ_SIZES_UNKNOWN while another thread is between
 * the kernel's change of its handles and the table's: then the kernel may already hand out a
 * number the table still lists with an old size.
 */
#define FZ_SIZES_UNKNOWN	(~0ul)

static unsigned long sizes_snapshot(struct fz_file *f)
{
	unsigned long churn = atomic_load(&f->churn);

	return atomic_load(&f->changing) ? FZ_SIZES_UNKNOWN : churn;
}

static bool sizes_known(struct fz_file *f, unsigned long churn)
{
	return churn != FZ_SIZES_UNKNOWN && atomic_load(&f->churn) == churn;
}

/* Around a call that may close or create a handle, until the table says so too. */
static void churn_begin(struct fz_file *f)
{
	atomic_fetch_add(&f->changing, 1);
	atomic_fetch_add(&f->churn, 1);
}

static void churn_end(struct fz_file *f)
{
	atomic_fetch_add(&f->churn, 1);
	atomic_fetch_sub(&f->changing, 1);
}

/* An offset and a length over an object of size bytes: mostly inside it, else at the edges. */
static void range(struct fz_rng *r, uint64_t size, uint64_t *offset, uint64_t *len)
{
	uint64_t s = size ? size : 4096;

	if (fz_below(r, 4)) {
		*offset = fz_below(r, (uint32_t)(s < (1u << 31) ? s : 1u << 31));
		if (fz_below(r, 2))
			*offset &= ~4095ull;
		*len = 1 + fz_below(r, (uint32_t)(s - *offset));
		if (fz_one_in(r, 8))
			*len = s - *offset + 1 + fz_below(r, 4096);	/* just past the end */
	} else {
		*offset = fz_u64(r, s);
		*len = fz_u64(r, s);
	}
}

static bool outside(uint64_t offset, uint64_t len, uint64_t size)
{
	return offset > size || len > size - offset;
}

static void call_getparam(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	const char *kind;
	struct drm_i915_getparam gp = {
		.param = fz_below(r, 4) ? (int)fz_below(r, 60) : (int)fz_u32(r),
	};

	gp.value = (int *)(uintptr_t)fz_ptr(t, sizeof(int), &kind);
	fz_ioctl(t, FZ_GETPARAM, f->fd, resize(t, DRM_IOCTL_I915_GETPARAM), &gp, sizeof(gp), kind);
}

static uint64_t object_size(struct fz_rng *r)
{
	switch (fz_below(r, 8)) {
	case 0:
		return 1 + fz_below(r, 8192);
	case 1:
		return 4096ull * (1 + fz_below(r, 256));
	default:
		return 4096ull * (1 + fz_below(r, 16));
	}
}

static void close_handle(struct fz_thread *t, struct fz_file *f, uint32_t handle)
{
	struct drm_gem_close c = { .handle = handle };

	churn_begin(f);
	fz_ioctl(t, FZ_GEM_CLOSE, f->fd, DRM_IOCTL_GEM_CLOSE, &c, sizeof(c), "housekeeping");
	churn_end(f);
}

static void call_create(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	struct drm_i915_gem_create c = { 0 };
	bool wild = fz_one_in(r, 6);

	if (f->nhandles >= FZ_HANDLES - 4)
		close_handle(t, f, fz_take_handle(t, f));
	/* Sizes near 2^64, past RAM, or rounding to zero must fail, never allocate. */
	c.size = wild ? fz_u64(r, 1ull << 31) : object_size(r);
	churn_begin(f);
	pthread_mutex_lock(&f->create_lock);
	if (fz_ioctl(t, FZ_CREATE, f->fd, DRM_IOCTL_I915_GEM_CREATE, &c, sizeof(c), NULL)) {
		pthread_mutex_unlock(&f->create_lock);
		churn_end(f);
		return;
	}
	if (c.size <= (16u << 20))
		fz_add_handle(f, c.handle, c.size);
	pthread_mutex_unlock(&f->create_lock);
	/*
	 * Real but huge: nothing touches it beyond a page, and it goes at once. Unlisted, its
	 * number may still be listed with the size of an object a stray GEM_CLOSE freed, so
	 * the change ends only when it is closed.
	 */
	if (c.size > (16u << 20))
		close_handle(t, f, c.handle);
	churn_end(f);
}

static void call_rw(struct fz_thread *t, struct fz_file *f, bool write)
{
	struct fz_rng *r = &t->rng;
	unsigned long churn = sizes_snapshot(f);
	uint64_t size, offset, len;
	uint32_t handle = fz_pick_handle(t, f, &size);
	const char *kind;
	char note[96];
	int err;

	range(r, size, &offset, &len);
	struct drm_i915_gem_pwrite rw = {
		.handle = handle,
		.pad = fz_one_in(r, 32) ? 1 + fz_below(r, 3) : 0,
		.offset = offset,
		.size = len,
	};
	rw.data_ptr = fz_ptr(t, len, &kind);
	snprintf(note, sizeof(note), "ptr=%s size=%llu", kind, (unsigned long long)size);
	/* pread and pwrite take the same struct layout. */
	err = fz_ioctl(t, write ? FZ_PWRITE : FZ_PREAD, f->fd,
		       write ? DRM_IOCTL_I915_GEM_PWRITE : DRM_IOCTL_I915_GEM_PREAD, &rw,
		       sizeof(rw), note);
	if (!err && size && len && outside(offset, len, size) && sizes_known(f, churn))
		fz_violation(t, "%s of [%llu, +%llu) succeeded on an object of %llu bytes",
			     write ? "pwrite" : "pread", (unsigned long long)offset,
			     (unsigned long long)len, (unsigned long long)size);
}

/*
 * A mapping the kernel gave: read its first byte, maybe write its last. The caller unmaps it
 * once, whole (unmapping twice could hit what another thread mapped in between).
 */
static void touch(void *addr, size_t len, bool write)
{
	volatile uint8_t *p = addr;

	(void)p[0];
	if (write)
		p[len - 1] = p[0];
}

static void call_mmap(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	unsigned long churn = sizes_snapshot(f);
	uint64_t size, offset, len;
	struct drm_i915_gem_mmap m = { 0 };
	int err;

	m.handle = fz_pick_handle(t, f, &size);
	range(r, size, &offset, &len);
	m.offset = fz_below(r, 4) ? offset & ~4095ull : offset;
	m.size = len;
	m.flags = fz_below(r, 8) ? 0 : fz_below(r, 2) ? I915_MMAP_WC : fz_u64(r, 1);
	err = fz_ioctl(t, FZ_MMAP, f->fd, DRM_IOCTL_I915_GEM_MMAP, &m, sizeof(m), NULL);
	if (err)
		return;
	if (size && outside(m.offset, m.size, size) && sizes_known(f, churn))
		fz_violation(t, "GEM_MMAP of [%llu, +%llu) succeeded on an object of %llu bytes",
			     (unsigned long long)m.offset, (unsigned long long)m.size,
			     (unsigned long long)size);
	/* Only a page inside both the mapping and the object (if it is still the same one). */
	if (sizes_known(f, churn) && !outside(m.offset, 4096, size))
		touch((void *)(uintptr_t)m.addr_ptr, m.size < 4096 ? m.size : 4096, true);
	munmap((void *)(uintptr_t)m.addr_ptr, m.size);
}

static void call_mmap_offset(struct fz_thread *t, struct fz_file *f)
{
	static const uint64_t flags[] = {
		I915_MMAP_OFFSET_GTT, I915_MMAP_OFFSET_WB, I915_MMAP_OFFSET_WC,
		I915_MMAP_OFFSET_UC, I915_MMAP_OFFSET_FIXED,
	};
	struct fz_rng *r = &t->rng;
	struct drm_i915_gem_mmap_offset m = { 0 };
	uint64_t size;
	size_t len;
	void *addr;

	m.handle = fz_pick_handle(t, f, &size);
	m.flags = fz_below(r, 8) ? flags[fz_below(r, 2)] : fz_below(r, 2) ? flags[fz_below(r, 5)] :
		  fz_u64(r, 4);
	m.pad = fz_one_in(r, 32);
	m.extensions = fz_one_in(r, 32) ? fz_u64(r, 1) : 0;
	if (fz_ioctl(t, FZ_MMAP_OFFSET, f->fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &m, sizeof(m), NULL))
		return;
	/* One page, the whole object, or more than it has (which mmap must refuse). */
	len = fz_below(r, 4) ? 4096 : size ? size + 4096 * fz_below(r, 2) : 8192;
	addr = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		    (off_t)(m.offset + (fz_one_in(r, 16) ? 4096 : 0)));
	if (addr == MAP_FAILED)
		return;
	touch(addr, 4096, fz_below(r, 2));
	munmap(addr, len);
}

static void call_set_domain(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_i915_gem_set_domain d = { .handle = fz_pick_handle(t, f, &size) };

	d.read_domains = fz_below(r, 4) ? 1u << fz_below(r, 8) : fz_u32(r);
	d.write_domain = fz_below(r, 2) ? d.read_domains & -d.read_domains : fz_u32(r) & 0xff;
	fz_ioctl(t, FZ_SET_DOMAIN, f->fd, resize(t, DRM_IOCTL_I915_GEM_SET_DOMAIN), &d, sizeof(d),
		 NULL);
}

static void call_handle_only(struct fz_thread *t, struct fz_file *f, enum fz_op op)
{
	uint64_t size;
	union {
		struct drm_i915_gem_sw_finish finish;
		struct drm_i915_gem_busy busy;
		struct drm_i915_gem_get_tiling get;
	} a = { 0 };
	unsigned long req = op == FZ_SW_FINISH ? DRM_IOCTL_I915_GEM_SW_FINISH :
			    op == FZ_BUSY ? DRM_IOCTL_I915_GEM_BUSY : DRM_IOCTL_I915_GEM_GET_TILING;

	a.busy.handle = fz_pick_handle(t, f, &size);
	fz_ioctl(t, op, f->fd, resize(t, req), &a, sizeof(a), NULL);
}

static void call_gem_init(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	struct drm_i915_gem_init in;

	/* Mostly a range that leaves room for everything (at least 64 MiB of the aperture). */
	if (fz_below(r, 2)) {
		in.gtt_start = 4096ull * fz_below(r, 4096);
		in.gtt_end = fz.aperture - 4096ull * fz_below(r, 4096);
	} else {
		in.gtt_start = fz_u64(r, 4096);
		in.gtt_end = fz_u64(r, fz.aperture);
		if (in.gtt_end - in.gtt_start < (64u << 20) && in.gtt_end > in.gtt_start &&
		    in.gtt_end <= fz.aperture)
			in.gtt_start = 0;
	}
	fz_ioctl(t, FZ_GEM_INIT, f->fd, DRM_IOCTL_I915_GEM_INIT, &in, sizeof(in), NULL);
}

/*
 * PIN keeps what it pinned in a short list that UNPIN mostly draws from: pins come and go,
 * and GEM_INIT (refused while anything is pinned) gets its moments.
 */
static void call_pin(struct fz_thread *t, struct fz_file *f, bool pin)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_i915_gem_pin p = { .handle = fz_pick_handle(t, f, &size) };
	unsigned int slot = 0;

	p.pad = fz_one_in(r, 32);
	p.alignment = fz_below(r, 4) ? (fz_below(r, 2) ? 0 : 4096ull << fz_below(r, 8)) :
		      fz_u64(r, 4096);
	if (pin) {
		if (fz_ioctl(t, FZ_PIN, f->fd, DRM_IOCTL_I915_GEM_PIN, &p, sizeof(p), NULL))
			return;
		pthread_mutex_lock(&f->lock);
		if (f->npinned < 8)
			f->pinned[f->npinned++] = p.handle;
		pthread_mutex_unlock(&f->lock);
		return;
	}
	pthread_mutex_lock(&f->lock);
	if (f->npinned && fz_below(r, 4)) {
		slot = fz_below(r, f->npinned);
		p.handle = f->pinned[slot];
		f->pinned[slot] = f->pinned[--f->npinned];
	}
	pthread_mutex_unlock(&f->lock);
	fz_ioctl(t, FZ_UNPIN, f->fd, DRM_IOCTL_I915_GEM_UNPIN, &p,
		 sizeof(struct drm_i915_gem_unpin), NULL);
}

static void call_get_aperture(struct fz_thread *t, struct fz_file *f)
{
	struct drm_i915_gem_get_aperture a = { 0 };

	fz_ioctl(t, FZ_GET_APERTURE, f->fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &a, sizeof(a), NULL);
}

static void call_madvise(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_i915_gem_madvise m = { .handle = fz_pick_handle(t, f, &size) };

	m.madv = fz_below(r, 8) ? fz_below(r, 2) : fz_u32(r);
	fz_ioctl(t, FZ_MADVISE, f->fd, resize(t, DRM_IOCTL_I915_GEM_MADVISE), &m, sizeof(m), NULL);
}

static void call_set_tiling(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_i915_gem_set_tiling s = { .handle = fz_pick_handle(t, f, &size) };

	s.tiling_mode = fz_below(r, 2) ? I915_TILING_NONE : fz_u32(r);
	s.stride = fz_u32(r);
	fz_ioctl(t, FZ_SET_TILING, f->fd, DRM_IOCTL_I915_GEM_SET_TILING, &s, sizeof(s), NULL);
}

static void call_wait(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_i915_gem_wait w = { .bo_handle = fz_pick_handle(t, f, &size) };

	w.flags = fz_one_in(r, 16) ? fz_u32(r) : 0;
	switch (fz_below(r, 4)) {
	case 0:
		w.timeout_ns = 0;
		break;
	case 1:
		w.timeout_ns = -1;	/* forever: the engine's watchdog bounds every batch */
		break;
	case 2:
		w.timeout_ns = (int64_t)fz_u64(r, 1000000);
		break;
	default:
		w.timeout_ns = 1000000 * (int64_t)fz_below(r, 100);
		break;
	}
	fz_ioctl(t, FZ_WAIT, f->fd, resize(t, DRM_IOCTL_I915_GEM_WAIT), &w, sizeof(w), NULL);
}

/*
 * EXECBUFFER2 (or the 2008 EXECBUFFER): up to four objects of the file and a fresh batch
 * object holding random commands with relocations; every field sometimes wrong.
 */
static void call_execbuffer(struct fz_thread *t, struct fz_file *f, bool legacy)
{
	struct fz_rng *r = &t->rng;
	struct drm_i915_gem_exec_object2 obj[6] = { 0 };
	struct drm_i915_gem_exec_object old[6] = { 0 };
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	uint32_t targets[6];
	uint64_t sizes[6];
	struct fz_batch b;
	unsigned int n = fz_below(r, 5), count, batch;
	struct drm_i915_gem_create c = { .size = 4096 << fz_below(r, 2) };
	struct drm_i915_gem_pwrite w = { 0 };
	bool lut = fz_one_in(r, 4), first = !legacy && fz_one_in(r, 4);
	const char *kind = "list";
	int err;

	/* Listed at once, like any new object: its number may be one the table still holds. */
	churn_begin(f);
	pthread_mutex_lock(&f->create_lock);
	err = fz_ioctl(t, FZ_CREATE, f->fd, DRM_IOCTL_I915_GEM_CREATE, &c, sizeof(c), "batch");
	if (!err)
		fz_add_handle(f, c.handle, c.size);
	pthread_mutex_unlock(&f->create_lock);
	churn_end(f);
	if (err)
		return;
	for (unsigned int i = 0; i < n; i++) {
		targets[i] = fz_pick_handle(t, f, &sizes[i]);
		/* A handle twice is refused; one more pick makes it rarer, not impossible. */
		for (unsigned int j = 0; j < i; j++)
			if (targets[j] == targets[i])
				targets[i] = fz_pick_handle(t, f, &sizes[i]);
	}
	batch = first ? 0 : n;
	if (first) {
		memmove(targets + 1, targets, n * sizeof(targets[0]));
		memmove(sizes + 1, sizes, n * sizeof(sizes[0]));
	}
	targets[batch] = c.handle;
	sizes[batch] = c.size;
	count = n + 1;

	fz_batch_random(t, &b, targets, sizes, count);
	if (first)	/* jumps were aimed at targets[count - 1], meant as the batch */
		for (unsigned int i = 0; i < b.nreloc; i++)
			if (b.relocs[i].read_domains == I915_GEM_DOMAIN_COMMAND)
				b.relocs[i].target_handle = c.handle;
	for (unsigned int i = 0; i < b.nreloc; i++) {
		if (lut)
			for (unsigned int j = 0; j < count; j++)
				if (targets[j] == b.relocs[i].target_handle)
					b.relocs[i].target_handle = j;
		if (fz_one_in(r, 32)) {
			/* One relocation wrong: target, offset, domains or delta. */
			switch (fz_below(r, 4)) {
			case 0:
				b.relocs[i].target_handle = fz_u32(r);
				break;
			case 1:
				b.relocs[i].offset = fz_u64(r, c.size);
				break;
			case 2:
				b.relocs[i].read_domains = fz_u32(r);
				b.relocs[i].write_domain = fz_u32(r);
				break;
			default:
				b.relocs[i].delta = fz_u32(r);
				break;
			}
		}
	}
	w.handle = c.handle;
	w.size = b.n * 4;
	w.data_ptr = (uintptr_t)b.dw;
	fz_ioctl(t, FZ_PWRITE, f->fd, DRM_IOCTL_I915_GEM_PWRITE, &w, sizeof(w), "batch");

	for (unsigned int i = 0; i < count; i++) {
		obj[i].handle = targets[i];
		if (fz_one_in(r, 8))
			obj[i].flags = EXEC_OBJECT_WRITE;
		if (fz_one_in(r, 32))
			obj[i].flags = fz_u64(r, 1);
		if (fz_one_in(r, 16))
			obj[i].alignment = fz_below(r, 2) ? 4096ull << fz_below(r, 12) :
					   fz_u64(r, 4096);
		if (fz_one_in(r, 64))
			obj[i].rsvd1 = 1;
		obj[i].offset = fz_below(r, 2) ? 0 : fz_u64(r, 4096);
	}
	obj[batch].relocation_count = b.nreloc;
	obj[batch].relocs_ptr = (uintptr_t)b.relocs;
	if (fz_one_in(r, 32))
		obj[batch].relocs_ptr = fz_ptr(t, b.nreloc * sizeof(b.relocs[0]), &kind);
	if (fz_one_in(r, 64))
		obj[batch].relocation_count = fz_u32(r);

	eb.buffers_ptr = (uintptr_t)obj;
	eb.buffer_count = count;
	eb.batch_len = fz_below(r, 2) ? 0 : ((b.n * 4 + 7) & ~7u);
	eb.flags = (lut ? I915_EXEC_HANDLE_LUT : 0) | (first ? I915_EXEC_BATCH_FIRST : 0) |
		   (fz_below(r, 2) ? I915_EXEC_RENDER : 0);
	switch (fz_below(r, 48)) {
	case 0:
		eb.flags |= fz_u64(r, 1);
		break;
	case 1:
		eb.buffer_count = fz_u32(r);
		break;
	case 2:
		eb.batch_start_offset = fz_u32(r);
		break;
	case 3:
		eb.batch_len = fz_u32(r);
		break;
	case 4:
		eb.rsvd1 = fz_u64(r, 1);
		break;
	case 5:
		eb.num_cliprects = 1 + fz_below(r, 4);
		eb.cliprects_ptr = (uintptr_t)t->scratch;
		break;
	case 6:
		eb.buffers_ptr = fz_ptr(t, count * sizeof(obj[0]), &kind);
		break;
	case 7:
		eb.flags |= I915_EXEC_NO_RELOC;
		break;
	default:
		break;
	}

	if (!legacy) {
		err = fz_ioctl(t, FZ_EXECBUFFER2, f->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb,
			       sizeof(eb), kind);
	} else {
		struct drm_i915_gem_execbuffer e = {
			.buffers_ptr = eb.buffers_ptr == (uintptr_t)obj ? (uintptr_t)old :
				       eb.buffers_ptr,
			.buffer_count = eb.buffer_count,
			.batch_start_offset = eb.batch_start_offset,
			.batch_len = eb.batch_len,
			.num_cliprects = eb.num_cliprects,
			.cliprects_ptr = eb.cliprects_ptr,
		};

		for (unsigned int i = 0; i < count; i++) {
			old[i].handle = obj[i].handle;
			old[i].relocation_count = obj[i].relocation_count;
			old[i].relocs_ptr = obj[i].relocs_ptr;
			old[i].alignment = obj[i].alignment;
			old[i].offset = obj[i].offset;
		}
		err = fz_ioctl(t, FZ_EXECBUFFER, f->fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &e,
			       sizeof(e), kind);
	}
	(void)err;
	/* The batch object goes at once, possibly while the engine runs it, or stays. */
	if (fz_below(r, 4))
		close_handle(t, f, c.handle);
}

static void call_client_id(struct fz_thread *t, struct fz_file *f)
{
	struct drm_garnet_get_client_id id = { 0 };

	fz_ioctl(t, FZ_GET_CLIENT_ID, f->fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &id, sizeof(id), NULL);
}

static void call_share(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_garnet_share s = { .handle = fz_pick_handle(t, f, &size) };

	s.flags = fz_below(r, 8) ? fz_below(r, 2) * GARNET_SHARE_SINGLE_USE : fz_u32(r);
	s.recipient = fz_pick_recipient(t);
	if (!fz_ioctl(t, FZ_SHARE, f->fd, DRM_IOCTL_GARNET_SHARE, &s, sizeof(s), NULL))
		fz_publish_name(t, f, s.name, s.recipient);
}

static void call_accept(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	struct drm_garnet_accept a = {
		.name = fz_below(r, 2) ? fz_pick_name_for(t, f) : fz_pick_name(t),
	};

	a.pad = fz_one_in(r, 32);
	churn_begin(f);
	pthread_mutex_lock(&f->create_lock);
	if (!fz_ioctl(t, FZ_ACCEPT, f->fd, DRM_IOCTL_GARNET_ACCEPT, &a, sizeof(a), NULL))
		fz_add_handle(f, a.handle, a.size);
	pthread_mutex_unlock(&f->create_lock);
	churn_end(f);
}

static void call_revoke(struct fz_thread *t, struct fz_file *f)
{
	struct drm_garnet_revoke v;

	v.name = fz_below(&t->rng, 4) ? fz_take_own_name(t, f) : fz_pick_name(t);
	fz_ioctl(t, FZ_REVOKE, f->fd, resize(t, DRM_IOCTL_GARNET_REVOKE), &v, sizeof(v), NULL);
}

static void call_gem_close(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_gem_close c = { 0 };

	/* Mostly a live handle, which other threads of this process may be using right now. */
	if (fz_below(r, 4)) {
		c.handle = fz_take_handle(t, f);
		atomic_fetch_add(&fz.stats->races, 1);
	} else {
		c.handle = fz_pick_handle(t, f, &size);
	}
	c.pad = fz_one_in(r, 32);
	churn_begin(f);
	fz_ioctl(t, FZ_GEM_CLOSE, f->fd, DRM_IOCTL_GEM_CLOSE, &c, sizeof(c), NULL);
	churn_end(f);
}

static void call_flink(struct fz_thread *t, struct fz_file *f)
{
	uint64_t size;
	struct drm_gem_flink fl = { .handle = fz_pick_handle(t, f, &size) };

	if (!fz_ioctl(t, FZ_FLINK, f->fd, DRM_IOCTL_GEM_FLINK, &fl, sizeof(fl), NULL))
		fz_publish_flink(t, fl.name);
}

static void call_gem_open(struct fz_thread *t, struct fz_file *f)
{
	struct drm_gem_open o = { .name = fz_pick_flink(t) };

	churn_begin(f);
	pthread_mutex_lock(&f->create_lock);
	if (!fz_ioctl(t, FZ_GEM_OPEN, f->fd, DRM_IOCTL_GEM_OPEN, &o, sizeof(o), NULL))
		fz_add_handle(f, o.handle, o.size);
	pthread_mutex_unlock(&f->create_lock);
	churn_end(f);
}

static void call_prime_export(struct fz_thread *t, struct fz_file *f)
{
	struct fz_rng *r = &t->rng;
	uint64_t size;
	struct drm_prime_handle p = { .handle = fz_pick_handle(t, f, &size) };

	p.flags = fz_below(r, 8) ? DRM_CLOEXEC | (fz_below(r, 2) ? DRM_RDWR : 0) : fz_u32(r);
	p.fd = -1;
	if (!fz_ioctl(t, FZ_PRIME_EXPORT, f->fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &p, sizeof(p), NULL))
		fz_add_dmabuf(t->proc, p.fd);
}

static void call_prime_import(struct fz_thread *t, struct fz_file *f)
{
	struct drm_prime_handle p = { .fd = fz_pick_dmabuf(t) };

	churn_begin(f);
	pthread_mutex_lock(&f->create_lock);
	/* Size unknown: another thread may have closed that fd and reused its number. */
	if (!fz_ioctl(t, FZ_PRIME_IMPORT, f->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &p, sizeof(p),
		      NULL))
		fz_add_handle(f, p.handle, 0);
	pthread_mutex_unlock(&f->create_lock);
	churn_end(f);
}

void fz_call_random(struct fz_thread *t, enum fz_op op)
{
	struct fz_file *f = pick_file(t, op);

	switch (op) {
	case FZ_GETPARAM: call_getparam(t, f); break;
	case FZ_CREATE: call_create(t, f); break;
	case FZ_PREAD: call_rw(t, f, false); break;
	case FZ_PWRITE: call_rw(t, f, true); break;
	case FZ_MMAP: call_mmap(t, f); break;
	case FZ_MMAP_OFFSET: call_mmap_offset(t, f); break;
	case FZ_SET_DOMAIN: call_set_domain(t, f); break;
	case FZ_SW_FINISH:
	case FZ_BUSY:
	case FZ_GET_TILING: call_handle_only(t, f, op); break;
	case FZ_GEM_INIT: call_gem_init(t, f); break;
	case FZ_PIN: call_pin(t, f, true); break;
	case FZ_UNPIN: call_pin(t, f, false); break;
	case FZ_GET_APERTURE: call_get_aperture(t, f); break;
	case FZ_MADVISE: call_madvise(t, f); break;
	case FZ_SET_TILING: call_set_tiling(t, f); break;
	case FZ_EXECBUFFER: call_execbuffer(t, f, true); break;
	case FZ_EXECBUFFER2: call_execbuffer(t, f, false); break;
	case FZ_WAIT: call_wait(t, f); break;
	case FZ_GET_CLIENT_ID: call_client_id(t, f); break;
	case FZ_SHARE: call_share(t, f); break;
	case FZ_ACCEPT: call_accept(t, f); break;
	case FZ_REVOKE: call_revoke(t, f); break;
	case FZ_GEM_CLOSE: call_gem_close(t, f); break;
	case FZ_FLINK: call_flink(t, f); break;
	case FZ_GEM_OPEN: call_gem_open(t, f); break;
	case FZ_PRIME_EXPORT: call_prime_export(t, f); break;
	case FZ_PRIME_IMPORT: call_prime_import(t, f); break;
	case FZ_OP_COUNT: break;
	}
}

/*
 * An object of this thread's own, filled with a known pattern, mapped (GEM_MMAP or
 * MMAP_OFFSET), then its only handle closed: the mapping must keep showing the pattern, in a
 * forked child too, and the child's write must reach the parent's view (both are the same
 * shared pages, alive as long as a mapping is).
 */
void fz_close_while_mapped(struct fz_thread *t)
{
	struct fz_rng *r = &t->rng;
	struct fz_file *f = &t->proc->files[2];
	/* Never one page: only one-page mappings may land in a thread's unmapped page. */
	struct drm_i915_gem_create c = { .size = 4096ull * (2 + fz_below(r, 3)) };
	uint32_t seed = (uint32_t)fz_next(r) | 1, *map;
	struct drm_i915_gem_pwrite w = { 0 };
	struct drm_gem_close cl = { 0 };
	bool gem_mmap = fz_below(r, 2);
	size_t words;
	pid_t child;
	int status;

	atomic_fetch_add(&f->churn, 1);
	if (fz_ioctl(t, FZ_CREATE, f->fd, DRM_IOCTL_I915_GEM_CREATE, &c, sizeof(c), "mapped"))
		return;
	words = c.size / 4;
	map = (uint32_t *)t->scratch;
	for (size_t i = 0; i < words; i++)
		map[i] = seed * (uint32_t)(i + 1);
	w.handle = c.handle;
	w.size = c.size;
	w.data_ptr = (uintptr_t)map;
	if (fz_ioctl(t, FZ_PWRITE, f->fd, DRM_IOCTL_I915_GEM_PWRITE, &w, sizeof(w), "mapped"))
		goto close;

	if (gem_mmap) {
		struct drm_i915_gem_mmap m = { .handle = c.handle, .size = c.size };

		if (fz_ioctl(t, FZ_MMAP, f->fd, DRM_IOCTL_I915_GEM_MMAP, &m, sizeof(m), "mapped"))
			goto close;
		map = (uint32_t *)(uintptr_t)m.addr_ptr;
	} else {
		struct drm_i915_gem_mmap_offset m = {
			.handle = c.handle, .flags = I915_MMAP_OFFSET_WB,
		};

		if (fz_ioctl(t, FZ_MMAP_OFFSET, f->fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &m,
			     sizeof(m), "mapped"))
			goto close;
		map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
			   (off_t)m.offset);
		if (map == MAP_FAILED) {
			fz_violation(t, "mmap of a fresh MMAP_OFFSET failed: %s", strerror(errno));
			goto close;
		}
	}

	cl.handle = c.handle;
	fz_ioctl(t, FZ_GEM_CLOSE, f->fd, DRM_IOCTL_GEM_CLOSE, &cl, sizeof(cl), "mapped");
	c.handle = 0;

	child = fork();
	if (child == 0) {
		for (size_t i = 0; i < words; i++) {
			if (map[i] != seed * (uint32_t)(i + 1)) {
				/* Where and what, for the parent's report. */
				atomic_store(&fz.stats->mismatch[0], i);
				atomic_store(&fz.stats->mismatch[1], map[i]);
				atomic_store(&fz.stats->mismatch[2], seed * (uint32_t)(i + 1));
				_exit(3);
			}
		}
		map[words - 1] = ~seed;
		_exit(0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child) {
		munmap(map, c.size);
		return;
	}
	atomic_fetch_add(&fz.stats->scenarios, 1);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fz_violation(t, "after GEM_CLOSE a %s mapping of %llu bytes showed a forked child "
			     "other bytes (status 0x%x; word %llu is 0x%08llx, not 0x%08llx)",
			     gem_mmap ? "GEM_MMAP" : "MMAP_OFFSET", (unsigned long long)c.size,
			     status, (unsigned long long)atomic_load(&fz.stats->mismatch[0]),
			     (unsigned long long)atomic_load(&fz.stats->mismatch[1]),
			     (unsigned long long)atomic_load(&fz.stats->mismatch[2]));
	else if (map[words - 1] != ~seed || map[0] != seed)
		fz_violation(t, "after GEM_CLOSE a %s mapping lost the child's write or the "
			     "pattern", gem_mmap ? "GEM_MMAP" : "MMAP_OFFSET");
	munmap(map, c.size);
close:
	if (c.handle)
		close_handle(t, f, c.handle);
}
