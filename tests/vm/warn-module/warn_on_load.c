// SPDX-License-Identifier: GPL-2.0-only
/*
 * A module whose only job is to print a kernel WARNING when loaded, so that the VM harness
 * can prove it fails a run whose kernel log shows one.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init warn_on_load_init(void)
{
	WARN(1, "warn_on_load: deliberate warning for the VM harness self-test\n");
	return 0;
}

static void __exit warn_on_load_exit(void)
{
}

module_init(warn_on_load_init);
module_exit(warn_on_load_exit);
MODULE_DESCRIPTION("Deliberately warns on load (garnet VM harness self-test)");
MODULE_LICENSE("GPL");
