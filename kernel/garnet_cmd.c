// SPDX-License-Identifier: GPL-2.0-only
/*
 * The commands garnet's engine understands, with Intel's gen3 encodings, in one table that
 * both the validator and the engine read.
 *
 * The validator walks the kernel's copy of a batch before anything runs: every command must
 * be in the table with its exact length and no reserved bit set; MI_BATCH_BUFFER_START may only
 * jump back to a command start already seen in the same batch (as i915's parser allows); every
 * address a command uses must fall, with the whole extent of the access, inside one object of
 * the execbuffer. A refused batch gets -EINVAL and a (ratelimited) log line naming the command
 * and its offset.
 *
 * The engine then runs that same copy, which the user cannot reach. It reaches memory only
 * through the request's own bindings and re-derives every extent, so it stays inside them
 * even when validation is off (debug) or addresses are left to it (isolation mode): anything
 * else is a fault.
 */
#include <linux/bitmap.h>
#include <linux/bsearch.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <drm/drm_print.h>

#include "garnet_drv.h"
#include "garnet_exec.h"

enum cmd_op {
	OP_NOOP,
	OP_USER_INTERRUPT,
	OP_FLUSH,
	OP_BATCH_END,
	OP_STORE_IMM,
	OP_BATCH_START,
	OP_COLOR_BLT,
	OP_SRC_COPY_BLT,
};

struct cmd_desc {
	const char *name;
	u32 mask, value;	/* the bits that name the command */
	u32 len_mask;		/* length field (dwords - 2), 0 for one-dword commands */
	u32 flags;		/* other header bits that may be set */
	u8 dwords;
	enum cmd_op op;
};

#define MI_LEN		0x3f
#define BLT_LEN		0xff
#define BLT_WRITE_ALPHA	BIT(21)
#define BLT_WRITE_RGB	BIT(20)

static const struct cmd_desc cmd_table[] = {
	{ "MI_NOOP", 0xff800000, 0x00000000, 0, 0x007fffff, 1, OP_NOOP },
	{ "MI_USER_INTERRUPT", 0xff800000, 0x01000000, 0, 0, 1, OP_USER_INTERRUPT },
	/* Read, exe and no-write-flush bits: the engine is coherent, so all are no-ops. */
	{ "MI_FLUSH", 0xff800000, 0x02000000, 0, 0x3f, 1, OP_FLUSH },
	{ "MI_BATCH_BUFFER_END", 0xff800000, 0x05000000, 0, 0, 1, OP_BATCH_END },
	/* Gen3 form: header, address, value; bit 22 (GTT address) may be set. */
	{ "MI_STORE_DATA_IMM", 0xff800000, 0x10000000, MI_LEN, BIT(22), 3, OP_STORE_IMM },
	/* Address-space bits 8:6 may be set; the target must be in this batch. */
	{ "MI_BATCH_BUFFER_START", 0xff800000, 0x18800000, MI_LEN, 0x1c0, 2, OP_BATCH_START },
	{ "XY_COLOR_BLT", 0xffc00000, 0x54000000, BLT_LEN, BLT_WRITE_ALPHA | BLT_WRITE_RGB, 6,
	  OP_COLOR_BLT },
	{ "XY_SRC_COPY_BLT", 0xffc00000, 0x54c00000, BLT_LEN, BLT_WRITE_ALPHA | BLT_WRITE_RGB, 8,
	  OP_SRC_COPY_BLT },
};

static const struct cmd_desc *cmd_lookup(u32 header)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmd_table); i++)
		if ((header & cmd_table[i].mask) == cmd_table[i].value)
			return &cmd_table[i];
	return NULL;
}

/* Why a header that names a known command is still wrong, or NULL if it is right. */
static const char *header_error(const struct cmd_desc *desc, u32 header)
{
	u32 rest = header & ~desc->mask;

	if (desc->len_mask && (rest & desc->len_mask) != desc->dwords - 2u)
		return "wrong length";
	if (rest & ~desc->len_mask & ~desc->flags)
		return "reserved header bits set";
	return NULL;
}

static int obj_cmp(const void *key, const void *elt)
{
	const u64 *addr = key;
	const struct garnet_req_obj *o = elt;

	if (*addr < o->start)
		return -1;
	return *addr >= o->start + o->size ? 1 : 0;
}

/* The object of the request that holds all of [addr, addr + len), or NULL. */
struct garnet_req_obj *garnet_req_lookup(struct garnet_request *req, u64 addr, u64 len)
{
	struct garnet_req_obj *o;

	o = bsearch(&addr, req->objs, req->nobj, sizeof(req->objs[0]), obj_cmp);
	if (!o || len > o->start + o->size - addr)
		return NULL;
	return o;
}

/*
 * A 32 bpp blit rectangle [x1, x2) x [y1, y2) at addr with pitch bytes per row: its bytes lie
 * in [*first, *first + *len). Returns 1 for a rectangle that touches memory, 0 for an empty
 * one (which draws nothing, as on the hardware), or a negative error for a malformed one.
 */
static int blit_extent(u32 addr, u32 pitch_dw, u32 top_left, u32 bottom_right,
		       u64 *first, u64 *len)
{
	u32 pitch = pitch_dw & 0xffff;
	u32 x1 = top_left & 0xffff, y1 = top_left >> 16;
	u32 x2 = bottom_right & 0xffff, y2 = bottom_right >> 16;

	/* Coordinates and pitch are signed 16-bit fields; garnet takes no negative ones. */
	if ((pitch | x1 | y1 | x2 | y2) & 0x8000)
		return -EINVAL;
	if (x2 <= x1 || y2 <= y1)
		return 0;
	if (!pitch || pitch & 3 || addr & 3)
		return -EINVAL;
	*first = (u64)addr + (u64)y1 * pitch + (u64)x1 * 4;
	*len = (u64)(y2 - y1 - 1) * pitch + (u64)(x2 - x1) * 4;
	return 1;
}

/* The source rectangle of XY_SRC_COPY_BLT: the destination's size, at the source origin. */
static u32 src_bottom_right(const u32 *c)
{
	u32 x = (c[5] & 0xffff) + (c[3] & 0xffff) - (c[2] & 0xffff);
	u32 y = (c[5] >> 16) + (c[3] >> 16) - (c[2] >> 16);

	/* Out of the signed 16-bit range: blit_extent() refuses it. */
	if (x > 0x7fff || y > 0x7fff)
		return 0x80008000;
	return y << 16 | x;
}

static bool blit_empty(const u32 *c)
{
	return (c[3] & 0xffff) <= (c[2] & 0xffff) || (c[3] >> 16) <= (c[2] >> 16);
}

struct parser {
	struct garnet_request *req;
	const u32 *cmd;
	u32 offset;		/* byte offset of cmd in the batch */
	const char *why;
	bool check_addresses;
	unsigned long *starts;	/* command starts seen so far, by dword */
};

/*
 * The access must fall inside one object of the execbuffer (unless addresses are left to the
 * engine). An object the command writes is marked as written, declared or not: its fence
 * becomes a write (garnet_exec.c).
 */
static bool check_range(struct parser *p, u64 addr, u64 len, bool write)
{
	struct garnet_req_obj *o = garnet_req_lookup(p->req, addr, len);

	if (o && write)
		o->written = true;
	if (o || !p->check_addresses)
		return true;
	p->why = "address outside the objects of this execbuffer";
	return false;
}

/* Depth 3 (32 bpp) and the one raster operation each blit supports; no clipping. */
static bool check_blt_dw1(struct parser *p, u32 dw1, u32 rop)
{
	if ((dw1 >> 24) != 3 || ((dw1 >> 16) & 0xff) != rop) {
		p->why = "only 32 bpp with PATCOPY (fill) or SRCCOPY (copy)";
		return false;
	}
	return true;
}

static bool check_blit(struct parser *p, u32 addr, u32 pitch, u32 tl, u32 br, bool write)
{
	u64 first, len;
	int ret = blit_extent(addr, pitch, tl, br, &first, &len);

	if (ret < 0) {
		p->why = "bad pitch, coordinates or alignment";
		return false;
	}
	return ret == 0 || check_range(p, first, len, write);
}

static bool check_batch_start(struct parser *p)
{
	struct garnet_request *req = p->req;
	u64 target = p->cmd[1] & ~3u;
	u64 off = target - req->batch_addr;

	if (target < req->batch_addr || off >= (u64)req->cmd_dwords * 4 ||
	    !test_bit(off / 4, p->starts)) {
		p->why = "jump target is not an earlier command of this batch";
		return false;
	}
	return true;
}

static bool check_cmd(struct parser *p, const struct cmd_desc *desc)
{
	const u32 *c = p->cmd;

	switch (desc->op) {
	case OP_STORE_IMM:
		if (c[1] & 3) {
			p->why = "unaligned address";
			return false;
		}
		return check_range(p, c[1], 4, true);
	case OP_BATCH_START:
		return check_batch_start(p);
	case OP_COLOR_BLT:
		return check_blt_dw1(p, c[1], 0xf0) &&
		       check_blit(p, c[4], c[1], c[2], c[3], true);
	case OP_SRC_COPY_BLT:
		if (!check_blt_dw1(p, c[1], 0xcc) ||
		    !check_blit(p, c[4], c[1], c[2], c[3], true))
			return false;
		return blit_empty(c) ||
		       check_blit(p, c[7], c[6], c[5], src_bottom_right(c), false);
	default:
		return true;
	}
}

static int reject(struct parser *p, const char *name, u32 header)
{
	struct garnet_gpu *gpu = p->req->gpu;

	atomic64_inc(&gpu->counters.rejected);
	if (__ratelimit(&p->req->client->log_rs))
		drm_notice(&gpu->gdev->drm,
			   "client %llu: batch refused at offset 0x%x: %s (0x%08x): %s\n",
			   p->req->client->id, p->offset, name, header, p->why);
	return -EINVAL;
}

int garnet_cmd_validate(struct garnet_request *req, bool check_addresses)
{
	struct parser p = { .req = req, .check_addresses = check_addresses };
	u32 n = req->cmd_dwords, i = 0;
	int ret = -EINVAL;

	p.starts = bitmap_zalloc(n, GFP_KERNEL);
	if (!p.starts)
		return -ENOMEM;

	while (i < n) {
		const struct cmd_desc *desc = cmd_lookup(req->cmds[i]);
		u32 header = req->cmds[i];

		p.cmd = &req->cmds[i];
		p.offset = i * 4;
		if (!desc) {
			p.why = "not a command garnet executes";
			ret = reject(&p, "unknown command", header);
			goto out;
		}
		p.why = header_error(desc, header);
		if (p.why) {
			ret = reject(&p, desc->name, header);
			goto out;
		}
		if (desc->dwords > n - i) {
			p.why = "runs past the end of the batch";
			ret = reject(&p, desc->name, header);
			goto out;
		}
		set_bit(i, p.starts);
		if (!check_cmd(&p, desc)) {
			ret = reject(&p, desc->name, header);
			goto out;
		}
		if (desc->op == OP_BATCH_END) {
			ret = 0;
			goto out;
		}
		i += desc->dwords;
	}
	p.offset = n * 4;
	p.why = "no MI_BATCH_BUFFER_END before the end of the batch";
	ret = reject(&p, "end of batch", 0);
out:
	bitmap_free(p.starts);
	return ret;
}

/* Execution. Each function below returns 0, -EFAULT (bad access) or -ETIMEDOUT (watchdog). */

/* The scheduler's timeout handler (garnet_engine.c) asks a batch that ran too long to stop. */
static int watchdog(const struct garnet_request *req)
{
	if (READ_ONCE(req->stop))
		return -ETIMEDOUT;
	cond_resched();
	return 0;
}

static void *translate(struct garnet_request *req, u64 addr, u64 len)
{
	struct garnet_req_obj *o = garnet_req_lookup(req, addr, len);

	return o ? o->vaddr + (addr - o->start) : NULL;
}

static int exec_color_blt(struct garnet_request *req, const u32 *c)
{
	u32 pitch = c[1] & 0xffff, colour = c[5];
	u32 width = (c[3] & 0xffff) - (c[2] & 0xffff);
	u32 height = (c[3] >> 16) - (c[2] >> 16);
	u32 keep = 0, y, x;
	u64 first, len;
	void *dst;
	int ret;

	ret = blit_extent(c[4], c[1], c[2], c[3], &first, &len);
	if (ret <= 0)
		return ret ? -EFAULT : 0;
	dst = translate(req, first, len);
	if (!dst)
		return -EFAULT;
	if (!(c[0] & BLT_WRITE_ALPHA))
		keep |= 0xff000000;
	if (!(c[0] & BLT_WRITE_RGB))
		keep |= 0x00ffffff;

	for (y = 0; y < height; y++, dst += pitch) {
		u32 *row = dst;

		if (!keep) {
			memset32(row, colour, width);
		} else {
			for (x = 0; x < width; x++)
				row[x] = (row[x] & keep) | (colour & ~keep);
		}
		if ((y & 63) == 63) {
			ret = watchdog(req);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int exec_src_copy_blt(struct garnet_request *req, const u32 *c)
{
	u32 dpitch = c[1] & 0xffff, spitch = c[6] & 0xffff;
	u32 width = (c[3] & 0xffff) - (c[2] & 0xffff);
	u32 height = (c[3] >> 16) - (c[2] >> 16);
	u64 dfirst, dlen, sfirst, slen;
	void *dst, *src;
	u32 keep = 0, y, i;
	int ret;

	ret = blit_extent(c[4], c[1], c[2], c[3], &dfirst, &dlen);
	if (ret <= 0)
		return ret ? -EFAULT : 0;
	if (blit_extent(c[7], c[6], c[5], src_bottom_right(c), &sfirst, &slen) <= 0)
		return -EFAULT;
	dst = translate(req, dfirst, dlen);
	src = translate(req, sfirst, slen);
	if (!dst || !src)
		return -EFAULT;
	if (!(c[0] & BLT_WRITE_ALPHA))
		keep |= 0xff000000;
	if (!(c[0] & BLT_WRITE_RGB))
		keep |= 0x00ffffff;

	/* Overlapping copies inside one object read each row before it is overwritten. */
	for (i = 0; i < height; i++) {
		u32 row = dst > src ? height - 1 - i : i;
		u32 *d = dst + (u64)row * dpitch;
		const u32 *s = src + (u64)row * spitch;

		if (!keep) {
			memmove(d, s, width * 4);
		} else {
			for (y = 0; y < width; y++)
				d[y] = (d[y] & keep) | (s[y] & ~keep);
		}
		if ((i & 63) == 63) {
			ret = watchdog(req);
			if (ret)
				return ret;
		}
	}
	return 0;
}

int garnet_cmd_execute(struct garnet_request *req)
{
	struct garnet_gpu *gpu = req->gpu;
	u32 n = req->cmd_dwords, pc = 0, steps = 0;
	int ret;

	for (;;) {
		const struct cmd_desc *desc;
		const u32 *c;
		u32 *dst;
		u64 off;

		if (pc >= n)
			return -EFAULT;
		c = &req->cmds[pc];
		desc = cmd_lookup(c[0]);
		if (!desc || header_error(desc, c[0]) || desc->dwords > n - pc)
			return -EFAULT;

		ret = 0;
		switch (desc->op) {
		case OP_NOOP:
		case OP_FLUSH:
			break;
		case OP_USER_INTERRUPT:
			atomic64_inc(&gpu->counters.user_interrupts);
			break;
		case OP_BATCH_END:
			return 0;
		case OP_STORE_IMM:
			dst = (c[1] & 3) ? NULL : translate(req, c[1], 4);
			if (!dst)
				return -EFAULT;
			WRITE_ONCE(*dst, c[2]);
			break;
		case OP_BATCH_START:
			off = (u64)(c[1] & ~3u) - req->batch_addr;
			if ((c[1] & ~3u) < req->batch_addr || off >= (u64)n * 4)
				return -EFAULT;
			pc = off / 4;
			ret = watchdog(req);
			if (ret)
				return ret;
			continue;
		case OP_COLOR_BLT:
			ret = exec_color_blt(req, c);
			break;
		case OP_SRC_COPY_BLT:
			ret = exec_src_copy_blt(req, c);
			break;
		}
		if (ret)
			return ret;
		pc += desc->dwords;
		if ((++steps & 255) == 0) {
			ret = watchdog(req);
			if (ret)
				return ret;
		}
	}
}
