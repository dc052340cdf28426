// SPDX-License-Identifier: MIT
/*
 * Built on the host, run inside the VM: proves the guest is the environment the harness
 * promises (the expected kernel, two CPUs, debugfs, a writable results share, the build tree
 * at its host path).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static int failures;

static void check(int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAILED", what);
	if (!ok)
		failures++;
}

static int file_contains(const char *path, const char *needle)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

int main(int argc, char **argv)
{
	struct utsname uts;
	struct stat st;
	const char *results = getenv("GARNET_VM_RESULTS");
	char path[4096];
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: %s EXPECTED_KERNEL_RELEASE\n", argv[0]);
		return 2;
	}
	check(uname(&uts) == 0 && strcmp(uts.release, argv[1]) == 0, "runs the expected kernel");
	check(file_contains("/proc/cmdline", "rdinit=/init"), "booted by the harness");
	check(sysconf(_SC_NPROCESSORS_ONLN) == 2, "two CPUs are online");
	check(stat("/sys/kernel/debug/dynamic_debug", &st) == 0 || stat("/sys/kernel/debug/bdi", &st) == 0,
	      "debugfs is mounted");
	check(stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode), "devtmpfs is mounted");
	check(access("/", W_OK) != 0 && errno == EROFS, "the host root is read-only");
	check(access("/tmp", W_OK) == 0, "/tmp is writable");
	check(results != NULL, "GARNET_VM_RESULTS is set");
	if (results) {
		snprintf(path, sizeof(path), "%s/probe-was-here", results);
		f = fopen(path, "w");
		check(f != NULL && fputs("yes\n", f) >= 0 && fclose(f) == 0,
		      "the results share is writable");
	}
	return failures ? 1 : 0;
}
