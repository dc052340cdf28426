// SPDX-License-Identifier: MIT
// garnet-portal's copies (copies.h): which buffer garnet's next answer is for, and the damage
// a buffer carries to the consumer.
#include <stddef.h>

#include "copies.h"

void copy_ledger_sent(struct copy_ledger *l, void *buffer)
{
	l->waiting = buffer;
}

void copy_ledger_forget(struct copy_ledger *l, void *buffer)
{
	if (l->waiting != buffer)
		return;
	/* Its wl_buffer is destroyed before any next copy is asked for, so garnet answers this
	 * copy (failed, or the ready it sent before) ahead of the next one. */
	l->waiting = NULL;
	l->forgotten++;
}

void *copy_ledger_answered(struct copy_ledger *l)
{
	void *b;

	if (l->forgotten > 0) {
		l->forgotten--;
		return NULL;
	}
	b = l->waiting;
	l->waiting = NULL;
	return b;
}

int copy_ledger_idle(const struct copy_ledger *l)
{
	return l->waiting == NULL;
}

void copy_ledger_clear(struct copy_ledger *l)
{
	l->waiting = NULL;
	l->forgotten = 0;
}

int damage_fit(const int32_t (*boxes)[4], int count, int capacity, int32_t width, int32_t height,
	       int32_t (*out)[4])
{
	int n = count;

	if (count > capacity || count > COPIES_MAX_DAMAGE) {
		if (capacity < 1)
			return 0;
		out[0][0] = 0;
		out[0][1] = 0;
		out[0][2] = width;
		out[0][3] = height;
		return 1;
	}
	for (int i = 0; i < n; i++) {
		for (int k = 0; k < 4; k++)
			out[i][k] = boxes[i][k];
	}
	return n;
}
