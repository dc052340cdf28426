// SPDX-License-Identifier: MIT
// garnet-portal's copy bookkeeping (clients/portal/copies.c) driven through the sequences
// PipeWire and garnet make: a renegotiation that removes the buffer garnet is filling, and a
// frame with more changed boxes than a consumer's damage meta holds.
#include <stdio.h>
#include <string.h>

#include "../../clients/portal/copies.h"

static int n;

static void result(int ok, const char *name)
{
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++n, name);
}

/* PipeWire renegotiates while garnet fills A: A goes, B is asked for at once; garnet's answer
 * for A (failed, or a ready it sent before it saw A go) comes before B's. */
static void a_late_answer_for_a_removed_buffer_is_not_taken_for_the_next(void)
{
	struct copy_ledger l = {0};
	int a, b;
	void *first, *second;

	copy_ledger_sent(&l, &a);
	copy_ledger_forget(&l, &a);
	int idle = copy_ledger_idle(&l);
	copy_ledger_sent(&l, &b);
	first = copy_ledger_answered(&l);
	int waiting_after_first = !copy_ledger_idle(&l);
	second = copy_ledger_answered(&l);
	result(idle && first == NULL && waiting_after_first && second == &b,
	       "a_late_answer_for_a_removed_buffer_is_not_taken_for_the_next");
}

static void answers_go_to_their_buffers_in_order(void)
{
	struct copy_ledger l = {0};
	int a, b;
	void *x, *y;

	copy_ledger_sent(&l, &a);
	x = copy_ledger_answered(&l);
	copy_ledger_sent(&l, &b);
	y = copy_ledger_answered(&l);
	result(x == &a && y == &b && copy_ledger_idle(&l) && !copy_ledger_answered(&l),
	       "answers_go_to_their_buffers_in_order");
}

static void more_boxes_than_the_meta_holds_become_the_whole_frame(void)
{
	int32_t boxes[COPIES_MAX_DAMAGE][4], out[COPIES_MAX_DAMAGE][4];
	int written;

	for (int i = 0; i < COPIES_MAX_DAMAGE; i++) {
		boxes[i][0] = i * 10;
		boxes[i][1] = 0;
		boxes[i][2] = 5;
		boxes[i][3] = 5;
	}
	/* 17 changed (garnet-portal kept 16), a meta of 16. */
	written = damage_fit((const int32_t(*)[4])boxes, COPIES_MAX_DAMAGE + 1, 16, 640, 480, out);
	int whole = written == 1 && out[0][0] == 0 && out[0][1] == 0 && out[0][2] == 640 &&
		    out[0][3] == 480;
	/* 3 changed, a meta of 2. */
	written = damage_fit((const int32_t(*)[4])boxes, 3, 2, 640, 480, out);
	whole = whole && written == 1 && out[0][2] == 640 && out[0][3] == 480;
	result(whole, "more_boxes_than_the_meta_holds_become_the_whole_frame");
	written = damage_fit((const int32_t(*)[4])boxes, 2, 16, 640, 480, out);
	result(written == 2 && memcmp(out, boxes, sizeof(out[0]) * 2) == 0,
	       "boxes_that_fit_are_kept_as_they_are");
}

int main(void)
{
	printf("1..4\n");
	a_late_answer_for_a_removed_buffer_is_not_taken_for_the_next();
	answers_go_to_their_buffers_in_order();
	more_boxes_than_the_meta_holds_become_the_whole_frame();
	return 0;
}
