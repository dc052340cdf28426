// SPDX-License-Identifier: MIT
/*
 * A 32-bit process asking GETPARAM (CHIPSET_ID) through the kernel's compat path. Built with
 * -m32 -nostdlib -ffreestanding, so it needs no 32-bit libc: system calls are made directly.
 * usage: getparam32 RENDER_NODE; exit 0 when the answer arrives, 2 open failed, 3 the ioctl
 * failed, 4 a wrong value.
 */
#define SYS_EXIT	1
#define SYS_OPEN	5
#define SYS_IOCTL	54
#define O_RDWR		2

/* i915's struct as a 32-bit process lays it out: the pointer is 4 bytes. */
struct getparam32 {
	int param;
	unsigned int value;
};

/* _IOWR('d', DRM_COMMAND_BASE + DRM_I915_GETPARAM, 8 bytes) */
#define IOCTL_GETPARAM32	0xc0086446u
#define PARAM_CHIPSET_ID	4
#define GARNET_CHIPSET_ID	0x29c2

int getparam32_main(int argc, char **argv);

static long syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
	return ret;
}

int getparam32_main(int argc, char **argv)
{
	int value = -1;
	struct getparam32 gp = { PARAM_CHIPSET_ID, (unsigned int)&value };
	long fd;

	if (argc != 2)
		return 1;
	fd = syscall3(SYS_OPEN, (long)argv[1], O_RDWR, 0);
	if (fd < 0)
		return 2;
	if (syscall3(SYS_IOCTL, fd, (long)IOCTL_GETPARAM32, (long)&gp) < 0)
		return 3;
	return value == GARNET_CHIPSET_ID ? 0 : 4;
}

__asm__(".globl _start\n"
	"_start:\n"
	"	xorl %ebp, %ebp\n"
	"	movl (%esp), %eax\n"
	"	leal 4(%esp), %edx\n"
	"	andl $-16, %esp\n"
	"	subl $8, %esp\n"
	"	pushl %edx\n"
	"	pushl %eax\n"
	"	call getparam32_main\n"
	"	movl %eax, %ebx\n"
	"	movl $1, %eax\n"
	"	int $0x80\n");
