// SPDX-License-Identifier: MIT
/*
 * libdrm_intel, unmodified from Debian, drives garnet through its GEM buffer manager:
 * allocation, subdata, CPU and GTT maps, flink and opening by name as the DRM master.
 */
#include "garnet_test.h"

#include <intel_bufmgr.h>
#include <stdlib.h>
#include <unistd.h>

static drm_intel_bufmgr *bufmgr_for(int fd)
{
	drm_intel_bufmgr *bufmgr = drm_intel_bufmgr_gem_init(fd, 4096);

	gt_assert(bufmgr != NULL);
	return bufmgr;
}

static void bufmgr_initialises_as_gen3(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *bufmgr = bufmgr_for(fd);

	gt_assert_eq(drm_intel_bufmgr_gem_get_devid(bufmgr), 0x29c2);
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
}

static void subdata_round_trips(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *bufmgr = bufmgr_for(fd);
	drm_intel_bo *bo = drm_intel_bo_alloc(bufmgr, "subdata", 3 * 4096 + 1, 4096);
	uint8_t in[5000], out[5000];

	gt_assert(bo != NULL);
	gt_assert(bo->size >= 3 * 4096 + 1);
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i ^ 0x5a);
	gt_assert_ok(drm_intel_bo_subdata(bo, 4000, sizeof(in), in));
	gt_assert_ok(drm_intel_bo_get_subdata(bo, 4000, sizeof(out), out));
	gt_assert(memcmp(in, out, sizeof(in)) == 0);
	drm_intel_bo_unreference(bo);
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
}

static void cpu_and_gtt_maps_share_the_data(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *bufmgr = bufmgr_for(fd);
	drm_intel_bo *bo = drm_intel_bo_alloc(bufmgr, "maps", 8192, 4096);
	char out[32] = { 0 };

	gt_assert(bo != NULL);
	gt_assert_ok(drm_intel_bo_map(bo, 1));
	gt_assert(bo->virtual != NULL);
	for (size_t i = 0; i < 8192; i++)
		gt_assert_eq(((uint8_t *)bo->virtual)[i], 0);
	strcpy((char *)bo->virtual + 6000, "written through bo_map");
	gt_assert_ok(drm_intel_bo_unmap(bo));

	gt_assert_ok(drm_intel_gem_bo_map_gtt(bo));
	gt_assert(strcmp((char *)bo->virtual + 6000, "written through bo_map") == 0);
	strcpy((char *)bo->virtual + 100, "and through map_gtt");
	gt_assert_ok(drm_intel_gem_bo_unmap_gtt(bo));

	gt_assert_ok(drm_intel_bo_get_subdata(bo, 100, 20, out));
	gt_assert(strcmp(out, "and through map_gtt") == 0);
	gt_assert_eq(drm_intel_bo_busy(bo), 0);
	/* GEM_WAIT when the kernel has it (HAS_WAIT_TIMEOUT), SET_DOMAIN otherwise: both work. */
	gt_assert_ok(drm_intel_gem_bo_wait(bo, 1000000));
	drm_intel_bo_wait_rendering(bo);
	drm_intel_bo_unreference(bo);
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
}

/* Buffers recycled by libdrm's cache go through MADVISE; data written later is intact. */
static void reuse_cache_recycles_buffers(void)
{
	int fd = gt_open_render();
	drm_intel_bufmgr *bufmgr = bufmgr_for(fd);
	uint32_t value = 0, check;

	drm_intel_bufmgr_gem_enable_reuse(bufmgr);
	for (int i = 0; i < 50; i++) {
		drm_intel_bo *bo = drm_intel_bo_alloc(bufmgr, "reuse", 64 * 1024, 4096);

		gt_assert(bo != NULL);
		value = 0x1000 + i;
		gt_assert_ok(drm_intel_bo_subdata(bo, 60000, sizeof(value), &value));
		gt_assert_ok(drm_intel_bo_get_subdata(bo, 60000, sizeof(check), &check));
		gt_assert_eq(check, value);
		drm_intel_bo_unreference(bo);
	}
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
}

static void master_opens_a_flinked_buffer_by_name(void)
{
	int master = gt_open_card();
	int client = gt_open_card();
	drm_intel_bufmgr *mgr_master = bufmgr_for(master), *mgr_client = bufmgr_for(client);
	drm_intel_bo *bo = drm_intel_bo_alloc(mgr_client, "client", 16384, 4096), *opened;
	const char text[] = "flinked through libdrm_intel";
	char out[sizeof(text)] = { 0 };
	uint32_t name = 0;

	gt_assert(drmIsMaster(master) && !drmIsMaster(client));
	gt_assert(bo != NULL);
	gt_assert_ok(drm_intel_bo_subdata(bo, 12000, sizeof(text), text));
	gt_assert_ok(drm_intel_bo_flink(bo, &name));
	gt_assert(name != 0);

	opened = drm_intel_bo_gem_create_from_name(mgr_master, "by name", name);
	gt_assert(opened != NULL);
	gt_assert_eq(opened->size, 16384);
	gt_assert_ok(drm_intel_bo_get_subdata(opened, 12000, sizeof(out), out));
	gt_assert(strcmp(out, text) == 0);
	gt_assert_ok(drm_intel_bo_map(opened, 0));
	gt_assert(strcmp((char *)opened->virtual + 12000, text) == 0);
	gt_assert_ok(drm_intel_bo_unmap(opened));
	drm_intel_bo_unreference(opened);
	drm_intel_bo_unreference(bo);
	drm_intel_bufmgr_destroy(mgr_client);
	drm_intel_bufmgr_destroy(mgr_master);
	close(client);
	close(master);
}

/* The other way round: a non-master client cannot open the master's buffer by name. */
static void non_master_cannot_open_by_name(void)
{
	int master = gt_open_card();
	int client = gt_open_card();
	drm_intel_bufmgr *mgr_master = bufmgr_for(master), *mgr_client = bufmgr_for(client);
	drm_intel_bo *bo = drm_intel_bo_alloc(mgr_master, "master", 4096, 4096);
	uint32_t name = 0;

	gt_assert(bo != NULL);
	gt_assert_ok(drm_intel_bo_flink(bo, &name));
	gt_assert(drm_intel_bo_gem_create_from_name(mgr_client, "stolen", name) == NULL);
	drm_intel_bo_unreference(bo);
	drm_intel_bufmgr_destroy(mgr_client);
	drm_intel_bufmgr_destroy(mgr_master);
	close(client);
	close(master);
}

GT_MAIN(
	GT_SUBTEST(bufmgr_initialises_as_gen3, "bufmgr-initialises-as-gen3"),
	GT_SUBTEST(subdata_round_trips, "subdata-round-trips"),
	GT_SUBTEST(cpu_and_gtt_maps_share_the_data, "cpu-and-gtt-maps-share-the-data"),
	GT_SUBTEST(reuse_cache_recycles_buffers, "reuse-cache-recycles-buffers"),
	GT_SUBTEST(master_opens_a_flinked_buffer_by_name, "master-opens-a-flinked-buffer-by-name"),
	GT_SUBTEST(non_master_cannot_open_by_name, "non-master-cannot-open-by-name"),
)
