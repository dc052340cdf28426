// SPDX-License-Identifier: MIT
/*
 * 32-bit processes: GETPARAM's struct carries a pointer, so a 32-bit process passes a smaller
 * struct that the driver must convert (as i915 does). getparam32 is that process, built
 * without a libc; the guest kernel runs it through its IA-32 emulation.
 */
#include "garnet_test.h"

#include <libgen.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static void getparam_from_a_32_bit_process_answers(void)
{
	int fd = gt_open_render();
	char link[64], node[64], exe[4096], helper[4200];
	ssize_t n;
	pid_t pid;
	int status;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, node, sizeof(node) - 1);
	gt_assert(n > 0);
	node[n] = '\0';
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	gt_assert(n > 0);
	exe[n] = '\0';
	snprintf(helper, sizeof(helper), "%s/getparam32", dirname(exe));

	pid = fork();
	gt_assert(pid >= 0);
	if (pid == 0) {
		execl(helper, helper, node, (char *)NULL);
		_exit(errno == ENOEXEC ? 77 : 127);
	}
	gt_assert_eq(waitpid(pid, &status, 0), pid);
	gt_assert(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		gt_skip("the kernel runs no 32-bit programs");
	if (WEXITSTATUS(status) == 3)
		gt_fail(__FILE__, __LINE__, "32-bit GETPARAM failed");
	gt_assert_eq(WEXITSTATUS(status), 0);
	close(fd);
}

GT_MAIN(
	GT_SUBTEST(getparam_from_a_32_bit_process_answers,
		   "getparam-from-a-32-bit-process-answers"),
)
