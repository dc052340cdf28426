// SPDX-License-Identifier: MIT
/*
 * The ioctl fuzzer's generator: random numbers that replay from the seed, values at the edges
 * of the kernel's arithmetic, user pointers that fault in every way, and batches made of the
 * commands garnet_cmd.c validates (with Intel's gen3 encodings, as tests/kernel/exec builds
 * them), so that most of them get past the validator and run.
 */
#include "ioctl_fuzz.h"

#define MI_NOOP			0x00000000u
#define MI_USER_INTERRUPT	0x01000000u
#define MI_FLUSH		0x02000000u
#define MI_BATCH_BUFFER_END	0x05000000u
#define MI_STORE_DATA_IMM	(0x10000001u | 1u << 22)
#define MI_BATCH_BUFFER_START	(0x18800000u | 2u << 6)
#define XY_COLOR_BLT		0x54300004u
#define XY_SRC_COPY_BLT		0x54f00006u
#define BR13_32BPP		(3u << 24)
#define ROP_PATCOPY		(0xf0u << 16)
#define ROP_SRCCOPY		(0xccu << 16)

void fz_rng_seed(struct fz_rng *r, uint64_t seed, unsigned int proc, unsigned int thread)
{
	*r = (struct fz_rng){ .s = seed ^ (0x9e3779b97f4a7c15ull * (proc * 64 + thread + 1)) };
	if (!r->s)
		r->s = 1;
	for (int i = 0; i < 8; i++)
		fz_next(r);
}

uint64_t fz_next(struct fz_rng *r)
{
	uint64_t value;

	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	value = r->s * 0x2545f4914f6cdd1dull;
	return ++r->draws == r->mutate_at ? value ^ r->flip : value;
}

uint32_t fz_below(struct fz_rng *r, uint32_t n)
{
	return n ? (uint32_t)(fz_next(r) % n) : 0;
}

bool fz_one_in(struct fz_rng *r, uint32_t n)
{
	return fz_below(r, n) == 0;
}

uint64_t fz_u64(struct fz_rng *r, uint64_t near)
{
	switch (fz_below(r, 12)) {
	case 0:
		return 0;
	case 1:
		return fz_below(r, 16);
	case 2:
		return near;
	case 3:
		return near - 1 - fz_below(r, 8);
	case 4:
		return near + 1 + fz_below(r, 8);
	case 5:
		return ~0ull - fz_below(r, 4096);
	case 6:
		return (1ull << 63) + fz_below(r, 2) - 1;
	case 7:
		return (1ull << 32) - fz_below(r, 2);
	case 8:
		return 4096ull * fz_below(r, 1024);
	case 9:
		return 1ull << fz_below(r, 64);
	case 10:
		return ~0ull - near + 1;	/* offset + len wraps to near zero */
	default:
		return fz_next(r);
	}
}

uint32_t fz_u32(struct fz_rng *r)
{
	switch (fz_below(r, 6)) {
	case 0:
		return 0;
	case 1:
		return fz_below(r, 64);
	case 2:
		return ~0u - fz_below(r, 4);
	case 3:
		return 1u << fz_below(r, 32);
	default:
		return (uint32_t)fz_next(r);
	}
}

uint64_t fz_ptr(struct fz_thread *t, uint64_t len, const char **kind)
{
	struct fz_rng *r = &t->rng;
	uint64_t fit = len < FZ_SCRATCH ? len : FZ_SCRATCH;

	switch (fz_below(r, 16)) {
	case 0:
		*kind = "null";
		return 0;
	case 1:
		/*
		 * The page the thread mapped and unmapped at its start, between two PROT_NONE
		 * pages: only a one-page mapping can ever land there, and the fuzzer maps no
		 * page it cares about alone (a fresh page unmapped here could become a thread's
		 * stack, and the kernel would write into it).
		 */
		*kind = "unmapped";
		return (uintptr_t)t->scratch + FZ_SCRATCH + 4096 + fz_below(r, 4096);
	case 2:
		/* The access starts inside the buffer and runs into its PROT_NONE page. */
		*kind = "end-of-mapping";
		return (uintptr_t)t->scratch + FZ_SCRATCH -
		       (fit ? 1 + fz_below(r, (uint32_t)fit) : 0);
	case 3:
		*kind = "kernel";
		return 0xffff888000000000ull + 4096ull * fz_below(r, 1024);
	case 4:
		*kind = "non-canonical";
		return 0x0000800000000000ull - fz_below(r, 2) * 8;
	case 5:
		*kind = "unaligned";
		return (uintptr_t)t->scratch + 1 + fz_below(r, 7);
	default:
		*kind = "scratch";
		return (uintptr_t)t->scratch +
		       (fit < FZ_SCRATCH ? fz_below(r, FZ_SCRATCH - (uint32_t)fit) & ~7u : 0);
	}
}

static void emit(struct fz_batch *b, uint32_t dw)
{
	if (b->n < sizeof(b->dw) / sizeof(b->dw[0]))
		b->dw[b->n++] = dw;
}

/* A dword holding target's address + delta, patched by a relocation. */
static void reloc(struct fz_thread *t, struct fz_batch *b, uint32_t target, uint32_t delta,
		  uint32_t read, uint32_t write)
{
	struct fz_rng *r = &t->rng;

	if (b->nreloc < sizeof(b->relocs) / sizeof(b->relocs[0])) {
		b->relocs[b->nreloc++] = (struct drm_i915_gem_relocation_entry){
			.target_handle = target,
			.delta = delta,
			.offset = b->n * 4,
			/* Mostly wrong, so the kernel writes it; sometimes 0 (may be right). */
			.presumed_offset = fz_one_in(r, 4) ? 0 : ~0ull,
			.read_domains = read,
			.write_domain = write,
		};
	}
	emit(b, delta);
}

/* A rectangle of 32-bit pixels that fits the object (size bytes) at pitch, mostly. */
static void rect(struct fz_rng *r, uint64_t size, uint32_t *pitch, uint32_t *tl, uint32_t *br)
{
	uint32_t w = 1 + fz_below(r, 64);
	uint32_t rows, h, x1, y1;

	*pitch = w * 4 * (1 + fz_below(r, 2));
	rows = (uint32_t)(size / *pitch);
	if (!rows)
		rows = 1;
	h = 1 + fz_below(r, rows < 64 ? rows : 64);
	x1 = fz_below(r, 2) ? 0 : fz_below(r, w);
	y1 = fz_below(r, rows - h + 1);
	if (fz_one_in(r, 16))
		h += 1 + fz_below(r, 4);	/* one row too many: the validator must refuse it */
	if (fz_one_in(r, 32)) {
		*pitch = fz_u32(r) & 0xffff;
		x1 = fz_u32(r) & 0xffff;
	}
	*tl = y1 << 16 | x1;
	*br = (y1 + h) << 16 | (x1 + w);
}

void fz_batch_random(struct fz_thread *t, struct fz_batch *b, const uint32_t *targets,
		     const uint64_t *sizes, unsigned int n)
{
	struct fz_rng *r = &t->rng;
	unsigned int count = 1 + fz_below(r, 10);
	unsigned int starts[16], nstarts = 0;
	uint32_t pitch, tl, br, spitch, stl, sbr;

	b->n = 0;
	b->nreloc = 0;
	for (unsigned int i = 0; i < count; i++) {
		unsigned int d = fz_below(r, n), s = fz_below(r, n);
		uint64_t dsize = sizes[d] ? sizes[d] : 4096, ssize;

		if (nstarts < 16)
			starts[nstarts++] = b->n;
		switch (fz_below(r, 9)) {
		case 0:
			emit(b, MI_NOOP | (fz_one_in(r, 4) ? fz_below(r, 1u << 23) : 0));
			break;
		case 1:
			emit(b, MI_FLUSH | fz_below(r, 64));
			break;
		case 2:
			emit(b, MI_USER_INTERRUPT);
			break;
		case 3:
		case 4:
			emit(b, MI_STORE_DATA_IMM);
			reloc(t, b, targets[d], fz_one_in(r, 16) ? fz_u32(r) :
			      (uint32_t)(fz_below(r, (uint32_t)(dsize / 4)) * 4),
			      I915_GEM_DOMAIN_INSTRUCTION, I915_GEM_DOMAIN_INSTRUCTION);
			emit(b, (uint32_t)fz_next(r));
			break;
		case 5:
		case 6:
			rect(r, dsize, &pitch, &tl, &br);
			emit(b, XY_COLOR_BLT);
			emit(b, BR13_32BPP | ROP_PATCOPY | pitch);
			emit(b, tl);
			emit(b, br);
			reloc(t, b, targets[d], 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
			emit(b, (uint32_t)fz_next(r));
			break;
		case 7:
			/* The source rectangle is the destination's size: fit both objects. */
			ssize = sizes[s] ? sizes[s] : 4096;
			rect(r, dsize < ssize ? dsize : ssize, &pitch, &tl, &br);
			rect(r, ssize, &spitch, &stl, &sbr);
			(void)sbr;
			emit(b, XY_SRC_COPY_BLT);
			emit(b, BR13_32BPP | ROP_SRCCOPY | pitch);
			emit(b, tl);
			emit(b, br);
			reloc(t, b, targets[d], 0, I915_GEM_DOMAIN_RENDER, I915_GEM_DOMAIN_RENDER);
			/* The source holds the destination's rectangle, mostly at its origin. */
			emit(b, fz_one_in(r, 4) ? stl : 0);
			emit(b, fz_one_in(r, 4) ? spitch : pitch);
			reloc(t, b, targets[s], 0, I915_GEM_DOMAIN_RENDER, 0);
			break;
		default:
			/*
			 * A jump back to an earlier command: a loop the watchdog ends (a hang,
			 * and the file is banned after a few), so rare.
			 */
			if (fz_one_in(r, 8) && nstarts > 1) {
				emit(b, MI_BATCH_BUFFER_START);
				reloc(t, b, targets[n - 1], starts[fz_below(r, nstarts - 1)] * 4,
				      I915_GEM_DOMAIN_COMMAND, 0);
			} else {
				emit(b, MI_NOOP);
			}
			break;
		}
	}
	if (!fz_one_in(r, 32))
		emit(b, MI_BATCH_BUFFER_END);
	if (b->n & 1)
		emit(b, MI_NOOP);
	/* Garbage: one dword or one bit of a header changed. */
	if (fz_one_in(r, 8) && b->n) {
		unsigned int at = fz_below(r, b->n);

		b->dw[at] = fz_one_in(r, 2) ? b->dw[at] ^ (1u << fz_below(r, 32)) : fz_u32(r);
	}
}
