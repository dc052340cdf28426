// SPDX-License-Identifier: MIT
// cursor-consumer FD NODE FRAMES SECONDS OUT [dmabuf]: a PipeWire consumer of a screen cast
// that asks for the pointer as cursor metadata, as OBS does (GStreamer's pipewiresrc reads no
// such metadata). Over the remote the portal opened (FD) it receives up to FRAMES buffers of
// NODE within SECONDS and prints for each one line:
//   frame N WxH damage D cursor X Y hot HX HY bitmap BWxBH opaque K
// (D: the damage regions, -1 without that metadata; "cursor none" without cursor metadata;
// K: the bitmap's pixels that are not transparent), before it "data N memfd" or "data N
// dmabuf" (how the frame came), and writes the frame's BGRx bytes to OUT.N.raw. It prints
// "receiving" once connected. With dmabuf it asks for dma-bufs of linear layout, as a GPU
// consumer does, and reads them as a CPU reader must: mapped, between DMA_BUF_IOCTL_SYNC calls.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/dma-buf.h>
#include <drm_fourcc.h>
#include <pipewire/pipewire.h>
#include <spa/buffer/meta.h>
#include <spa/param/buffers.h>
#include <spa/param/video/format-utils.h>
#include <spa/pod/builder.h>

#define CURSOR_META_SIZE(w, h)                                                                     \
	((int)(sizeof(struct spa_meta_cursor) + sizeof(struct spa_meta_bitmap) + (w) * (h) * 4))

struct consumer {
	struct pw_main_loop *loop;
	struct pw_stream *stream;
	struct spa_hook listener;
	struct spa_video_info_raw format;
	const char *out;
	int frames, wanted;
	bool dmabuf;
};

static int damage_count(struct spa_buffer *buf)
{
	struct spa_meta *m = spa_buffer_find_meta(buf, SPA_META_VideoDamage);
	struct spa_meta_region *r;
	int n = 0;

	if (!m)
		return -1;
	spa_meta_for_each(r, m)
	{
		if (!spa_meta_region_is_valid(r))
			break;
		n++;
	}
	return n;
}

static void print_cursor(struct spa_buffer *buf)
{
	struct spa_meta_cursor *mc =
		spa_buffer_find_meta_data(buf, SPA_META_Cursor, sizeof(*mc));
	struct spa_meta *m = spa_buffer_find_meta(buf, SPA_META_Cursor);
	struct spa_meta_bitmap *bitmap;
	const uint8_t *pixels;
	uint32_t opaque = 0;

	if (!mc || !spa_meta_cursor_is_valid(mc)) {
		printf(" cursor none");
		return;
	}
	printf(" cursor %d %d hot %d %d", mc->position.x, mc->position.y, mc->hotspot.x,
	       mc->hotspot.y);
	if (!mc->bitmap_offset || mc->bitmap_offset + sizeof(*bitmap) > m->size) {
		printf(" bitmap none");
		return;
	}
	bitmap = SPA_PTROFF(mc, mc->bitmap_offset, struct spa_meta_bitmap);
	if (mc->bitmap_offset + bitmap->offset +
		    (uint64_t)bitmap->stride * bitmap->size.height > m->size ||
	    bitmap->stride < 0 || (uint32_t)bitmap->stride < bitmap->size.width * 4) {
		printf(" bitmap outside");
		return;
	}
	pixels = SPA_PTROFF(bitmap, bitmap->offset, uint8_t);
	for (uint32_t y = 0; y < bitmap->size.height; y++)
		for (uint32_t x = 0; x < bitmap->size.width; x++)
			opaque += pixels[(size_t)y * (size_t)bitmap->stride + x * 4 + 3] != 0;
	printf(" bitmap %ux%u format %s opaque %u", bitmap->size.width, bitmap->size.height,
	       bitmap->format == SPA_VIDEO_FORMAT_BGRA ? "BGRA" : "other", opaque);
}

/* The frame's bytes into path; a dma-buf is mapped here, its reads bracketed by SYNC. */
static void write_frame(struct spa_data *d, const char *path)
{
	struct dma_buf_sync sync = {DMA_BUF_SYNC_START | DMA_BUF_SYNC_READ};
	size_t length = d->mapoffset + d->maxsize;
	void *map = NULL;
	FILE *f;

	if (d->type == SPA_DATA_DmaBuf) {
		map = mmap(NULL, length, PROT_READ, MAP_SHARED, (int)d->fd, 0);
		if (map == MAP_FAILED) {
			printf("mmap of the dma-buf: %s\n", strerror(errno));
			return;
		}
		if (ioctl((int)d->fd, DMA_BUF_IOCTL_SYNC, &sync) < 0)
			printf("DMA_BUF_IOCTL_SYNC: %s\n", strerror(errno));
	}
	if ((f = fopen(path, "wb"))) {
		fwrite(SPA_PTROFF(map ? SPA_PTROFF(map, d->mapoffset, void) : d->data,
				  d->chunk->offset, void),
		       1, d->chunk->size, f);
		fclose(f);
	}
	if (map) {
		sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_READ;
		ioctl((int)d->fd, DMA_BUF_IOCTL_SYNC, &sync);
		munmap(map, length);
	}
}

static void on_process(void *data)
{
	struct consumer *c = data;
	struct pw_buffer *b = pw_stream_dequeue_buffer(c->stream);
	struct spa_data *d;
	char path[4096];
	bool readable;

	if (!b)
		return;
	d = &b->buffer->datas[0];
	readable = d->type == SPA_DATA_DmaBuf ? d->fd >= 0 : d->data != NULL;
	if (readable && d->chunk->size > 0 && c->frames < c->wanted) {
		printf("data %d %s\n", c->frames,
		       d->type == SPA_DATA_DmaBuf  ? "dmabuf"
		       : d->type == SPA_DATA_MemFd ? "memfd"
						   : "other");
		printf("frame %d %ux%u damage %d", c->frames, c->format.size.width,
		       c->format.size.height, damage_count(b->buffer));
		print_cursor(b->buffer);
		printf("\n");
		fflush(stdout);
		snprintf(path, sizeof(path), "%s.%d.raw", c->out, c->frames);
		write_frame(d, path);
		c->frames++;
	}
	pw_stream_queue_buffer(c->stream, b);
	if (c->frames >= c->wanted)
		pw_main_loop_quit(c->loop);
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct consumer *c = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[3];

	if (id != SPA_PARAM_Format || !param)
		return;
	spa_format_video_raw_parse(param, &c->format);
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_dataType,
		SPA_POD_CHOICE_FLAGS_Int(c->dmabuf ? 1 << SPA_DATA_DmaBuf
						   : (1 << SPA_DATA_MemFd) | (1 << SPA_DATA_MemPtr)));
	params[1] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
		SPA_POD_Id(SPA_META_Cursor), SPA_PARAM_META_size,
		SPA_POD_CHOICE_RANGE_Int(CURSOR_META_SIZE(64, 64), CURSOR_META_SIZE(1, 1),
					 CURSOR_META_SIZE(256, 256)));
	params[2] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
		SPA_POD_Id(SPA_META_VideoDamage), SPA_PARAM_META_size,
		SPA_POD_CHOICE_RANGE_Int(sizeof(struct spa_meta_region) * 16,
					 sizeof(struct spa_meta_region) * 1,
					 sizeof(struct spa_meta_region) * 16));
	pw_stream_update_params(c->stream, params, 3);
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state,
			     const char *error)
{
	struct consumer *c = data;

	if (state == PW_STREAM_STATE_STREAMING) {
		printf("receiving\n");
		fflush(stdout);
	}
	if (state == PW_STREAM_STATE_ERROR || state == PW_STREAM_STATE_UNCONNECTED) {
		printf("stream %s%s%s\n", pw_stream_state_as_string(state), error ? ": " : "",
		       error ? error : "");
		pw_main_loop_quit(c->loop);
	}
}

static const struct pw_stream_events events = {
	PW_VERSION_STREAM_EVENTS,
	.state_changed = on_state_changed,
	.param_changed = on_param_changed,
	.process = on_process,
};

static void on_timeout(void *data, uint64_t expirations)
{
	struct consumer *c = data;

	printf("timeout after %d frames\n", c->frames);
	pw_main_loop_quit(c->loop);
}

int main(int argc, char **argv)
{
	struct consumer c = {0};
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[1];
	struct spa_pod_frame f;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_source *timer;
	struct timespec after;

	if (argc != 6 && !(argc == 7 && strcmp(argv[6], "dmabuf") == 0)) {
		fprintf(stderr, "usage: cursor-consumer FD NODE FRAMES SECONDS OUT [dmabuf]\n");
		return 2;
	}
	c.dmabuf = argc == 7;
	pw_init(&argc, &argv);
	c.wanted = atoi(argv[3]);
	c.out = argv[5];
	c.loop = pw_main_loop_new(NULL);
	context = pw_context_new(pw_main_loop_get_loop(c.loop), NULL, 0);
	core = context ? pw_context_connect_fd(context, atoi(argv[1]), NULL, 0) : NULL;
	if (!core) {
		fprintf(stderr, "cursor-consumer: cannot connect: %s\n", strerror(errno));
		return 1;
	}
	c.stream = pw_stream_new(core, "cursor-consumer",
				 pw_properties_new(PW_KEY_MEDIA_TYPE, "Video", PW_KEY_MEDIA_CATEGORY,
						   "Capture", PW_KEY_MEDIA_ROLE, "Screen", NULL));
	pw_stream_add_listener(c.stream, &c.listener, &events, &c);
	spa_pod_builder_push_object(&b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(&b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
			    SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
			    SPA_FORMAT_VIDEO_format, SPA_POD_Id(SPA_VIDEO_FORMAT_BGRx), 0);
	if (c.dmabuf) {
		/* Mandatory: only a producer that offers linear dma-bufs matches. */
		spa_pod_builder_prop(&b, SPA_FORMAT_VIDEO_modifier, SPA_POD_PROP_FLAG_MANDATORY);
		spa_pod_builder_long(&b, (int64_t)DRM_FORMAT_MOD_LINEAR);
	}
	params[0] = spa_pod_builder_pop(&b, &f);
	if (pw_stream_connect(c.stream, PW_DIRECTION_INPUT, (uint32_t)atoi(argv[2]),
			      PW_STREAM_FLAG_AUTOCONNECT | PW_STREAM_FLAG_MAP_BUFFERS, params,
			      1) < 0) {
		fprintf(stderr, "cursor-consumer: cannot connect the stream\n");
		return 1;
	}
	timer = pw_loop_add_timer(pw_main_loop_get_loop(c.loop), on_timeout, &c);
	after = (struct timespec){atoi(argv[4]), 0};
	pw_loop_update_timer(pw_main_loop_get_loop(c.loop), timer, &after, NULL, false);
	pw_main_loop_run(c.loop);
	pw_stream_destroy(c.stream);
	pw_core_disconnect(core);
	pw_context_destroy(context);
	pw_main_loop_destroy(c.loop);
	pw_deinit();
	return c.frames >= c.wanted ? 0 : 3;
}
