// SPDX-License-Identifier: MIT
/* PRIME: dma-buf export and import through the DRM core, mmap of the dma-buf, and vgem. */
#include "garnet_test.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void import_in_another_file_sees_the_data(void)
{
	int a = gt_open_render(), b = gt_open_render();
	uint32_t h = gt_create(a, 8192), hb;
	char out[8] = { 0 };
	int dmabuf;

	gt_pwrite(a, h, 4100, "prime!", 7);
	dmabuf = gt_prime_export(a, h);
	hb = gt_prime_import(b, dmabuf);
	gt_pread(b, hb, 4100, out, 7);
	gt_assert(strcmp(out, "prime!") == 0);
	close(dmabuf);
	close(a);
	close(b);
}

/* IGT prime_self_import: importing into the exporting file gives back the same handle. */
static void self_import_returns_the_same_handle(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	int dmabuf = gt_prime_export(fd, h);

	gt_assert_eq(gt_prime_import(fd, dmabuf), h);
	gt_assert_eq(gt_prime_import(fd, dmabuf), h);
	close(dmabuf);
	close(fd);
}

static void dmabuf_mmap_sees_the_data(void)
{
	const size_t size = 3 * 4096;
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, size);
	uint32_t word = 0xabad1dea;
	int dmabuf;
	uint32_t *map;

	gt_pwrite(fd, h, 2 * 4096, &word, sizeof(word));
	dmabuf = gt_prime_export(fd, h);
	gt_close(fd, h);
	map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, dmabuf, 0);
	gt_assert(map != MAP_FAILED);
	gt_assert_eq(map[2 * 1024], 0xabad1dea);
	gt_assert_eq(map[0], 0);
	munmap(map, size);
	close(dmabuf);
	close(fd);
}

static void dmabuf_seek_end_is_the_size(void)
{
	int fd = gt_open_render();
	int dmabuf = gt_prime_export(fd, gt_create(fd, 5 * 4096));

	gt_assert_eq(lseek(dmabuf, 0, SEEK_END), 5 * 4096);
	gt_assert_eq(lseek(dmabuf, 0, SEEK_SET), 0);
	gt_assert(lseek(dmabuf, 4096, SEEK_SET) == -1 && errno == EINVAL);
	close(dmabuf);
	close(fd);
}

static void export_errors(void)
{
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 4096);
	struct drm_prime_handle args = { .handle = 0x10101010, .flags = DRM_CLOEXEC };

	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args), ENOENT);
	args = (struct drm_prime_handle){ .handle = h, .flags = 0x4 };
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args), EINVAL);
	args = (struct drm_prime_handle){ .fd = -1 };
	gt_assert_errno(gt_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args), EBADF);
	close(fd);
}

struct vgem_buffer {
	int fd;
	uint32_t handle;
	uint64_t size;
};

static struct vgem_buffer vgem_create(int fd, uint32_t bytes)
{
	struct drm_mode_create_dumb dumb = { .width = bytes / 4, .height = 1, .bpp = 32 };

	gt_assert_ok(gt_ioctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	return (struct vgem_buffer){ fd, dumb.handle, dumb.size };
}

static void *vgem_map(struct vgem_buffer *buf)
{
	struct drm_mode_map_dumb map = { .handle = buf->handle };
	void *ptr;

	gt_assert_ok(gt_ioctl(buf->fd, DRM_IOCTL_MODE_MAP_DUMB, &map));
	ptr = mmap(NULL, buf->size, PROT_READ | PROT_WRITE, MAP_SHARED, buf->fd,
		   (off_t)map.offset);
	gt_assert(ptr != MAP_FAILED);
	return ptr;
}

/* A vgem buffer imported into garnet maps through garnet and shows vgem's bytes. */
static void vgem_buffer_imports_into_garnet(void)
{
	int vgem = gt_open_driver("vgem", false);
	int fd = gt_open_render();
	struct vgem_buffer buf = vgem_create(vgem, 8192);
	char *src = vgem_map(&buf), *dst;
	int dmabuf;
	uint32_t h;

	strcpy(src + 4096, "from vgem");
	dmabuf = gt_prime_export(vgem, buf.handle);
	h = gt_prime_import(fd, dmabuf);
	dst = gt_mmap_offset(fd, h, 8192);
	gt_assert(strcmp(dst + 4096, "from vgem") == 0);
	munmap(dst, 8192);
	munmap(src, buf.size);
	close(dmabuf);
	close(fd);
	close(vgem);
}

/*
 * A garnet object imported into vgem: vgem holds it (the core refuses dumb maps of imports),
 * and exporting it from vgem hands back garnet's dma-buf, whose mapping shows garnet's bytes.
 */
static void garnet_object_imports_into_vgem(void)
{
	int vgem = gt_open_driver("vgem", false);
	int fd = gt_open_render();
	uint32_t h = gt_create(fd, 8192), vh;
	int dmabuf, again;
	char *map;

	gt_pwrite(fd, h, 100, "from garnet", 12);
	dmabuf = gt_prime_export(fd, h);
	vh = gt_prime_import(vgem, dmabuf);
	close(dmabuf);
	gt_close(fd, h);
	again = gt_prime_export(vgem, vh);
	map = mmap(NULL, 8192, PROT_READ, MAP_SHARED, again, 0);
	gt_assert(map != MAP_FAILED);
	gt_assert(strcmp(map + 100, "from garnet") == 0);
	munmap(map, 8192);
	close(again);
	close(fd);
	close(vgem);
}

GT_MAIN(
	GT_SUBTEST(import_in_another_file_sees_the_data, "import-in-another-file-sees-the-data"),
	GT_SUBTEST(self_import_returns_the_same_handle, "self-import-returns-the-same-handle"),
	GT_SUBTEST(dmabuf_mmap_sees_the_data, "dmabuf-mmap-sees-the-data"),
	GT_SUBTEST(dmabuf_seek_end_is_the_size, "dmabuf-seek-end-is-the-size"),
	GT_SUBTEST(export_errors, "export-errors"),
	GT_SUBTEST(vgem_buffer_imports_into_garnet, "vgem-buffer-imports-into-garnet"),
	GT_SUBTEST(garnet_object_imports_into_vgem, "garnet-object-imports-into-vgem"),
)
