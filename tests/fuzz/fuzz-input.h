/* SPDX-License-Identifier: MIT */
/* The fuzzer's bytes as a stream of choices: every take_* answers something even when the
 * bytes run out (zero), so a short input is still a whole, valid run. */
#ifndef GARNET_FUZZ_INPUT_H
#define GARNET_FUZZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
	const uint8_t *data;
	size_t size, pos;
};

static inline bool fuzz_done(const struct fuzz_input *in)
{
	return in->pos >= in->size;
}

static inline uint8_t take_u8(struct fuzz_input *in)
{
	return fuzz_done(in) ? 0 : in->data[in->pos++];
}

static inline uint32_t take_u32(struct fuzz_input *in)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v = v << 8 | take_u8(in);
	return v;
}

/* A number below n (n > 0), from one byte when n fits in one. */
static inline uint32_t take_below(struct fuzz_input *in, uint32_t n)
{
	return (n <= 256 ? take_u8(in) : take_u32(in)) % n;
}

/* Up to max bytes (the length is the first byte); returns how many were copied. */
static inline size_t take_bytes(struct fuzz_input *in, void *out, size_t max)
{
	size_t n = take_below(in, (uint32_t)max + 1);
	uint8_t *o = out;

	for (size_t i = 0; i < n; i++)
		o[i] = take_u8(in);
	return n;
}

/* An integer a client might send to break arithmetic: the edges of int32 more often than
 * chance would pick them, small values (sizes, coordinates, indices) most often. */
static inline uint32_t take_interesting(struct fuzz_input *in)
{
	static const uint32_t edges[] = {
		0,          1,          2,          0xffffffff, 0x80000000, 0x7fffffff,
		0x7ffffffe, 0x80000001, 0x10000,    0x8000,     0xffff,     0x40000000,
		4096,       3,          0xffffff00, 64,
	};
	uint8_t kind = take_u8(in);

	if (kind < 64)
		return edges[kind % (sizeof(edges) / sizeof(edges[0]))];
	if (kind < 224)
		return take_u8(in) % 400;
	return take_u32(in);
}

#endif
