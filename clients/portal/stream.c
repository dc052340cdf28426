// SPDX-License-Identifier: MIT
// A PipeWire video source fed by one garnet capture: each PipeWire buffer is a memfd that is
// also a wl_shm buffer, or, for a consumer that takes dma-bufs, a garnet.ko object that is also
// a linux-dmabuf wl_buffer, so garnet copies the output straight into the buffer the consumer
// reads. A copy is asked for when a buffer is free, and garnet answers it with the next frame
// that changes the output: the rate follows the output's damage, at most its refresh, and at
// most the rate the consumer asked for (its maxFramerate).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <spa/buffer/meta.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>
#include <spa/pod/builder.h>
#include <drm_fourcc.h>

#include "copies.h"
#include "portal.h"

#define BUFFERS 4
/* The pointer's image travels in each buffer's cursor metadata, up to garnet's largest. */
#define POINTER_MAX 256
#define CURSOR_META_SIZE(w, h)                                                                     \
	((int)(sizeof(struct spa_meta_cursor) + sizeof(struct spa_meta_bitmap) + (w) * (h) * 4))
#define DAMAGE_REGIONS COPIES_MAX_DAMAGE
/* After a failed copy, the next is asked for this much later (no loop of failures). */
#define RETRY_NS 50000000

struct stream {
	struct portal *portal;
	struct capture *capture;
	struct pw_stream *pw;
	struct spa_hook listener;
	int32_t width, height, stride;
	bool granted, paused, streaming, ended, window;
	bool dmabuf; /* the format negotiated has a modifier: buffers are garnet.ko objects */
	bool fresh; /* a consumer started: it gets the picture on screen, not the next change */
	uint32_t node_id;
	struct copy_ledger copies; /* waiting: the pw_buffer garnet is filling */
	/* A buffer whose copy failed, kept for the next copy: a consumer never gets an empty
	 * buffer (GStreamer's pipewiresrc counts one as a frame). */
	struct pw_buffer *spare;
	/* A buffer could not be made: the stream ends, from the loop (not inside PipeWire's
	 * callback that found it). */
	struct spa_source *broken;
	/* The consumer's rate: no copy is asked for sooner than min_interval_ns after the last
	 * frame went out; the timer asks when that time has come. 0: the output's rate. */
	uint64_t min_interval_ns, last_frame_ns;
	struct spa_source *pace;
	/* The pointer beside the picture (cursor_mode metadata): garnet's last word on it. */
	bool pointer_apart, pointer_visible;
	int32_t pointer_x, pointer_y;
	const uint32_t *pointer_pixels; /* the capture's: valid until its next image */
	int32_t pointer_width, pointer_height, pointer_hot_x, pointer_hot_y;
	void (*ready)(void *data, uint32_t node_id, int32_t w, int32_t h);
	void (*refused)(void *data);
	void (*on_ended)(void *data);
	void *data;
};

struct buffer_data {
	struct wl_buffer *wl;
	uint32_t handle; /* the garnet.ko object of a dma-buf buffer, 0 for a memfd */
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Too soon for the consumer's rate: the pace timer is set for when it is not. */
static bool too_soon(struct stream *s)
{
	uint64_t now, due;
	struct timespec wait;

	if (!s->min_interval_ns || !s->last_frame_ns || !s->pace)
		return false;
	now = now_ns();
	due = s->last_frame_ns + s->min_interval_ns;
	if (now >= due)
		return false;
	wait.tv_sec = (time_t)((due - now) / 1000000000u);
	wait.tv_nsec = (long)((due - now) % 1000000000u);
	pw_loop_update_timer(s->portal->loop, s->pace, &wait, NULL, false);
	return true;
}

static void next_copy(struct stream *s)
{
	struct pw_buffer *b;
	struct buffer_data *bd;

	if (!s->streaming || s->paused || s->ended)
		return;
	if (!s->fresh && copy_ledger_idle(&s->copies) && too_soon(s))
		return;
	if (!copy_ledger_idle(&s->copies)) {
		/* Waiting for the output to change, while the new consumer has nothing. */
		if (s->fresh)
			capture_hurry(s->capture);
		s->fresh = false;
		return;
	}
	b = s->spare ? s->spare : pw_stream_dequeue_buffer(s->pw);
	s->spare = NULL;
	if (!b)
		return; /* process says when one comes back */
	bd = b->user_data;
	if (!bd || !bd->wl) {
		/* Its set-up failed (the stream is in error already): nothing to copy into. */
		pw_stream_queue_buffer(s->pw, b);
		return;
	}
	copy_ledger_sent(&s->copies, b);
	capture_copy(s->capture, bd->wl, s->fresh);
	s->fresh = false;
}

/*
 * The pointer into a buffer's cursor metadata, its image in every buffer (a consumer that
 * came late has it at once). No pointer over the picture is a transparent image of one pixel:
 * an id of 0 would mean "nothing new" and leave the consumer drawing the last one. An image
 * larger than the consumer made room for loses its lower rows.
 */
static void fill_cursor(struct stream *s, struct spa_buffer *buf)
{
	struct spa_meta *m = spa_buffer_find_meta(buf, SPA_META_Cursor);
	struct spa_meta_cursor *mc;
	struct spa_meta_bitmap *bitmap;
	static const uint32_t transparent;
	const uint32_t *pixels = &transparent;
	int32_t w = 1, h = 1, hot_x = 0, hot_y = 0;
	size_t room;

	if (!m || m->size < (size_t)CURSOR_META_SIZE(1, 1))
		return;
	mc = m->data;
	if (s->pointer_visible && s->pointer_pixels) {
		pixels = s->pointer_pixels;
		w = s->pointer_width;
		h = s->pointer_height;
		hot_x = s->pointer_hot_x;
		hot_y = s->pointer_hot_y;
	}
	room = (m->size - (size_t)CURSOR_META_SIZE(0, 0)) / 4;
	if ((size_t)w > room) {
		pixels = &transparent;
		w = h = 1;
		hot_x = hot_y = 0;
	} else if ((size_t)w * (size_t)h > room) {
		h = (int32_t)(room / (size_t)w);
	}
	mc->id = 1;
	mc->flags = 0;
	mc->position.x = s->pointer_visible ? s->pointer_x : 0;
	mc->position.y = s->pointer_visible ? s->pointer_y : 0;
	mc->hotspot.x = hot_x;
	mc->hotspot.y = hot_y;
	mc->bitmap_offset = sizeof(*mc);
	bitmap = SPA_PTROFF(mc, mc->bitmap_offset, struct spa_meta_bitmap);
	/* garnet's argb8888, premultiplied: B, G, R, A in memory. */
	bitmap->format = SPA_VIDEO_FORMAT_BGRA;
	bitmap->size.width = (uint32_t)w;
	bitmap->size.height = (uint32_t)h;
	bitmap->stride = w * 4;
	bitmap->offset = sizeof(*bitmap);
	memcpy(SPA_PTROFF(bitmap, bitmap->offset, void), pixels, (size_t)w * (size_t)h * 4);
}

static void fill_metas(struct stream *s, struct spa_buffer *buf, const int32_t (*damage)[4],
		       int count)
{
	struct spa_meta_header *h = spa_buffer_find_meta_data(buf, SPA_META_Header, sizeof(*h));
	struct spa_meta *m = spa_buffer_find_meta(buf, SPA_META_VideoDamage);
	static uint64_t seq;

	if (h) {
		h->pts = -1;
		h->flags = 0;
		h->seq = seq++;
		h->dts_offset = 0;
	}
	if (m) {
		struct spa_meta_region *r = m->data;
		int capacity = (int)(m->size / sizeof(*r)), n;
		int32_t fit[COPIES_MAX_DAMAGE][4];

		n = damage_fit(damage, count, SPA_MIN(capacity, COPIES_MAX_DAMAGE), s->width,
			       s->height, fit);
		for (int i = 0; i < n; i++)
			r[i].region = SPA_REGION(fit[i][0], fit[i][1], (uint32_t)fit[i][2],
						 (uint32_t)fit[i][3]);
		/* The list ends at an empty region, when there is room for one. */
		if (n < capacity)
			r[n].region = SPA_REGION(0, 0, 0, 0);
	}
	if (s->pointer_apart)
		fill_cursor(s, buf);
}

static void on_ready(void *data, const int32_t (*damage)[4], int count)
{
	struct stream *s = data;
	struct pw_buffer *b = copy_ledger_answered(&s->copies);
	struct spa_data *d;

	if (!b)
		return; /* for a buffer that went in a renegotiation */
	d = &b->buffer->datas[0];
	d->chunk->offset = 0;
	d->chunk->size = (uint32_t)(s->stride * s->height);
	d->chunk->stride = s->stride;
	d->chunk->flags = 0;
	fill_metas(s, b->buffer, damage, count);
	pw_stream_queue_buffer(s->pw, b);
	s->last_frame_ns = now_ns();
	next_copy(s);
}

static void on_failed(void *data)
{
	struct stream *s = data;
	struct pw_buffer *b = copy_ledger_answered(&s->copies);
	struct timespec retry = {0, RETRY_NS};

	fprintf(stderr, "garnet-portal: stream %u: a copy failed%s\n", s->node_id,
		b ? "" : " (its buffer went in a renegotiation)");
	if (!b)
		return;
	/* The buffer stays here for the next copy, of the picture on screen then. */
	s->spare = b;
	s->fresh = true;
	pw_loop_update_timer(s->portal->loop, s->pace, &retry, NULL, false);
}

static void on_paused(void *data, bool paused)
{
	struct stream *s = data;

	s->paused = paused;
	fprintf(stderr, "garnet-portal: stream %u %s\n", s->node_id,
		paused ? "paused (session locked)" : "resumed");
	next_copy(s);
}

static void end(struct stream *s)
{
	if (s->ended)
		return;
	s->ended = true;
	/* The consumer sees the node go away: the end of the stream. */
	if (s->pw)
		pw_stream_disconnect(s->pw);
	if (s->on_ended)
		s->on_ended(s->data);
}

static void on_stopped(void *data)
{
	struct stream *s = data;

	fprintf(stderr, "garnet-portal: stream %u stopped by garnet\n", s->node_id);
	copy_ledger_clear(&s->copies);
	end(s);
}

static void on_broken(void *data, uint64_t count)
{
	struct stream *s = data;

	fprintf(stderr, "garnet-portal: stream %u ends: its buffers could not be made\n",
		s->node_id);
	/* garnet's cast goes with it (and its indicator, once no other cast runs). */
	capture_destroy(s->capture);
	s->capture = NULL;
	copy_ledger_clear(&s->copies);
	end(s);
}

/*
 * One format: BGRx at the cast's size, at any rate up to 60 a second; with linear set, as
 * dma-bufs of linear layout. That modifier is mandatory: a consumer that does not name
 * modifiers (it could not read a dma-buf) never matches it and gets the memfd format.
 */
static const struct spa_pod *format_param(struct spa_pod_builder *b, int32_t w, int32_t h,
					  bool linear)
{
	struct spa_pod_frame f;

	spa_pod_builder_push_object(b, &f, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat);
	spa_pod_builder_add(b, SPA_FORMAT_mediaType, SPA_POD_Id(SPA_MEDIA_TYPE_video),
			    SPA_FORMAT_mediaSubtype, SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw),
			    SPA_FORMAT_VIDEO_format, SPA_POD_Id(SPA_VIDEO_FORMAT_BGRx), 0);
	if (linear) {
		spa_pod_builder_prop(b, SPA_FORMAT_VIDEO_modifier, SPA_POD_PROP_FLAG_MANDATORY);
		spa_pod_builder_long(b, (int64_t)DRM_FORMAT_MOD_LINEAR);
	}
	spa_pod_builder_add(b, SPA_FORMAT_VIDEO_size,
			    SPA_POD_Rectangle(&SPA_RECTANGLE((uint32_t)w, (uint32_t)h)),
			    SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(0, 1)),
			    SPA_FORMAT_VIDEO_maxFramerate,
			    SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION(60, 1), &SPA_FRACTION(1, 1),
							  &SPA_FRACTION(60, 1)),
			    0);
	return spa_pod_builder_pop(b, &f);
}

/* The formats offered: dma-bufs first when garnet-portal can make them, memfds always. */
static uint32_t format_params(struct stream *s, struct spa_pod_builder *b,
			      const struct spa_pod *params[2])
{
	uint32_t n = 0;

	if (s->portal->drm_fd >= 0)
		params[n++] = format_param(b, s->width, s->height, true);
	params[n++] = format_param(b, s->width, s->height, false);
	return n;
}

/* The format has our modifier, linear (the only one offered): dma-bufs. PipeWire hands the
 * fixed value wrapped in a choice of one. */
static bool dmabuf_format(const struct spa_pod *format)
{
	const struct spa_pod_prop *prop =
		spa_pod_find_prop(format, NULL, SPA_FORMAT_VIDEO_modifier);
	const struct spa_pod *value;
	uint32_t count, choice;
	int64_t modifier;

	if (!prop)
		return false;
	value = spa_pod_get_values(&prop->value, &count, &choice);
	return value && count >= 1 && choice == SPA_CHOICE_None &&
	       spa_pod_get_long(value, &modifier) == 0 &&
	       modifier == (int64_t)DRM_FORMAT_MOD_LINEAR;
}

/* The rate the consumer chose within what format_param offers (1 to 60 frames a second). */
static void set_rate(struct stream *s, const struct spa_pod *format)
{
	struct spa_video_info_raw info = {0};
	struct spa_fraction max;

	s->min_interval_ns = 0;
	if (spa_format_video_raw_parse(format, &info) < 0)
		return;
	max = info.max_framerate;
	if (max.num == 0 || max.denom == 0 || max.num / max.denom >= 60)
		return;
	s->min_interval_ns = (uint64_t)max.denom * 1000000000u / max.num;
	fprintf(stderr, "garnet-portal: stream %u at most %u/%u frames a second\n", s->node_id,
		max.num, max.denom);
}

static void on_pace(void *data, uint64_t expirations)
{
	(void)expirations;
	next_copy(data);
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct stream *s = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[4];

	if (id != SPA_PARAM_Format || !param)
		return;
	set_rate(s, param);
	s->dmabuf = s->portal->drm_fd >= 0 && dmabuf_format(param);
	fprintf(stderr, "garnet-portal: stream %u in %s\n", s->node_id,
		s->dmabuf ? "dma-bufs of garnet.ko" : "shared memory");
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
		SPA_POD_CHOICE_RANGE_Int(BUFFERS, 2, 8), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
		SPA_PARAM_BUFFERS_size, SPA_POD_Int(s->stride * s->height),
		SPA_PARAM_BUFFERS_stride, SPA_POD_Int(s->stride), SPA_PARAM_BUFFERS_dataType,
		SPA_POD_CHOICE_FLAGS_Int(1 << (s->dmabuf ? SPA_DATA_DmaBuf : SPA_DATA_MemFd)));
	params[1] = spa_pod_builder_add_object(&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta,
					       SPA_PARAM_META_type, SPA_POD_Id(SPA_META_Header),
					       SPA_PARAM_META_size,
					       SPA_POD_Int(sizeof(struct spa_meta_header)));
	params[2] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
		SPA_POD_Id(SPA_META_VideoDamage), SPA_PARAM_META_size,
		SPA_POD_CHOICE_RANGE_Int(sizeof(struct spa_meta_region) * DAMAGE_REGIONS,
					 sizeof(struct spa_meta_region) * 1,
					 sizeof(struct spa_meta_region) * DAMAGE_REGIONS));
	params[3] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamMeta, SPA_PARAM_Meta, SPA_PARAM_META_type,
		SPA_POD_Id(SPA_META_Cursor), SPA_PARAM_META_size,
		SPA_POD_CHOICE_RANGE_Int(CURSOR_META_SIZE(POINTER_MAX, POINTER_MAX),
					 CURSOR_META_SIZE(1, 1),
					 CURSOR_META_SIZE(POINTER_MAX, POINTER_MAX)));
	pw_stream_update_params(s->pw, params, s->pointer_apart ? 4 : 3);
}

/* A memfd that is also a wl_shm buffer; false (errno) when it cannot be made. */
static bool make_memfd_buffer(struct stream *s, struct spa_data *d, struct buffer_data *bd)
{
	size_t size = (size_t)s->stride * (size_t)s->height;
	int fd;

	if (!(d->type & (1u << SPA_DATA_MemFd)) || (fd = portal_memfd(size)) < 0)
		return false;
	d->type = SPA_DATA_MemFd;
	d->fd = fd;
	bd->wl = portal_shm_buffer(s->portal, fd, s->width, s->height, s->stride);
	return bd->wl != NULL;
}

/* A garnet.ko object, a dma-buf for the consumer and a linux-dmabuf buffer for garnet. Its
 * stride is the width's: GStreamer's pipewiresrc of PipeWire 0.3.65 assumes that. */
static bool make_dmabuf_buffer(struct stream *s, struct spa_data *d, struct buffer_data *bd)
{
	int fd;

	if (!(d->type & (1u << SPA_DATA_DmaBuf)))
		return false;
	bd->wl = portal_gem_buffer(s->portal, s->width, s->height, s->stride, &bd->handle, &fd);
	if (!bd->wl)
		return false;
	d->type = SPA_DATA_DmaBuf;
	d->fd = fd;
	return true;
}

static void on_add_buffer(void *data, struct pw_buffer *b)
{
	struct stream *s = data;
	struct spa_data *d = &b->buffer->datas[0];
	struct buffer_data *bd = calloc(1, sizeof(*bd));

	b->user_data = bd;
	d->fd = -1;
	errno = EINVAL; /* a data type we did not ask for */
	if (!bd || !(s->dmabuf ? make_dmabuf_buffer(s, d, bd) : make_memfd_buffer(s, d, bd))) {
		fprintf(stderr, "garnet-portal: cannot make a buffer: %s\n", strerror(errno));
		/* A stream with a buffer nobody can fill ends, cleanly, for its consumer. */
		pw_loop_signal_event(s->portal->loop, s->broken);
		return;
	}
	d->flags = SPA_DATA_FLAG_READABLE;
	d->mapoffset = 0;
	d->maxsize = (uint32_t)((size_t)s->stride * (size_t)s->height);
	d->data = NULL;
}

static void on_remove_buffer(void *data, struct pw_buffer *b)
{
	struct stream *s = data;
	struct buffer_data *bd = b->user_data;

	copy_ledger_forget(&s->copies, b); /* garnet's answer for it is for nobody */
	if (s->spare == b)
		s->spare = NULL;
	if (bd && bd->wl)
		wl_buffer_destroy(bd->wl);
	if (bd && bd->handle)
		portal_gem_close(s->portal, bd->handle);
	if (b->buffer->datas[0].fd >= 0 && (b->buffer->datas[0].type == SPA_DATA_MemFd ||
					     b->buffer->datas[0].type == SPA_DATA_DmaBuf))
		close((int)b->buffer->datas[0].fd);
	b->buffer->datas[0].fd = -1;
	free(bd);
	b->user_data = NULL;
}

static void on_state_changed(void *data, enum pw_stream_state old, enum pw_stream_state state,
			     const char *error)
{
	struct stream *s = data;

	fprintf(stderr, "garnet-portal: stream %s%s%s\n", pw_stream_state_as_string(state),
		error ? ": " : "", error ? error : "");
	if (state == PW_STREAM_STATE_PAUSED && !s->node_id) {
		s->node_id = pw_stream_get_node_id(s->pw);
		if (s->ready)
			s->ready(s->data, s->node_id, s->width, s->height);
		s->ready = NULL;
	}
	if (state == PW_STREAM_STATE_STREAMING && !s->streaming)
		s->fresh = true;
	s->streaming = state == PW_STREAM_STATE_STREAMING;
	if (state == PW_STREAM_STATE_ERROR && s->ready) {
		s->ready(s->data, 0, 0, 0);
		s->ready = NULL;
	}
	next_copy(s);
}

static void on_process(void *data)
{
	next_copy(data);
}

static const struct pw_stream_events stream_events = {
	PW_VERSION_STREAM_EVENTS,	   .state_changed = on_state_changed,
	.param_changed = on_param_changed, .add_buffer = on_add_buffer,
	.remove_buffer = on_remove_buffer, .process = on_process,
};

static void on_granted(void *data, int32_t width, int32_t height, bool window)
{
	struct stream *s = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[2];
	uint32_t n;

	s->granted = true;
	s->window = window;
	s->width = width;
	s->height = height;
	s->stride = width * 4;
	s->pw = pw_stream_new(s->portal->pw_core, "garnet-portal",
			      pw_properties_new(PW_KEY_MEDIA_CLASS, "Video/Source",
						PW_KEY_MEDIA_ROLE, "Screen", NULL));
	if (!s->pw) {
		s->ready(s->data, 0, 0, 0);
		s->ready = NULL;
		return;
	}
	pw_stream_add_listener(s->pw, &s->listener, &stream_events, s);
	n = format_params(s, &b, params);
	if (pw_stream_connect(s->pw, PW_DIRECTION_OUTPUT, PW_ID_ANY, PW_STREAM_FLAG_ALLOC_BUFFERS,
			      params, n) < 0) {
		s->ready(s->data, 0, 0, 0);
		s->ready = NULL;
	}
}

/* The window (or output) changed size: the stream offers the new size alone, and PipeWire
 * renegotiates with the consumer; the buffers come again at that size (on_param_changed,
 * on_add_buffer). */
static void on_resized(void *data, int32_t width, int32_t height)
{
	struct stream *s = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[2];

	if (width <= 0 || height <= 0 || width > INT32_MAX / 4 / height)
		return; /* garnet never sends these; a stream of nothing helps nobody */
	s->width = width;
	s->height = height;
	s->stride = width * 4;
	if (!s->pw)
		return;
	pw_stream_update_params(s->pw, params, format_params(s, &b, params));
}

static void on_pointer_image(void *data, const uint32_t *pixels, int32_t width, int32_t height,
			     int32_t hot_x, int32_t hot_y)
{
	struct stream *s = data;

	s->pointer_pixels = pixels;
	s->pointer_width = width;
	s->pointer_height = height;
	s->pointer_hot_x = hot_x;
	s->pointer_hot_y = hot_y;
}

static void on_pointer(void *data, bool visible, int32_t x, int32_t y)
{
	struct stream *s = data;

	s->pointer_visible = visible;
	s->pointer_x = x;
	s->pointer_y = y;
}

static void on_refused(void *data)
{
	struct stream *s = data;

	s->ended = true;
	if (s->refused)
		s->refused(s->data);
}

static const struct capture_listener listener = {
	.granted = on_granted,
	.refused = on_refused,
	.ready = on_ready,
	.failed = on_failed,
	.paused = on_paused,
	.stopped = on_stopped,
	.resized = on_resized,
	.pointer_image = on_pointer_image,
	.pointer = on_pointer,
};

struct stream *stream_create(struct portal *p, const char *app_id, pid_t pid,
			     enum stream_pointer pointer,
			     void (*ready)(void *data, uint32_t node_id, int32_t w, int32_t h),
			     void (*refused)(void *data), void (*ended)(void *data), void *data)
{
	struct stream *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->portal = p;
	s->ready = ready;
	s->refused = refused;
	s->on_ended = ended;
	s->data = data;
	s->broken = pw_loop_add_event(p->loop, on_broken, s);
	s->pace = pw_loop_add_timer(p->loop, on_pace, s);
	s->capture = s->broken && s->pace ? capture_create(p, app_id, pid, true, &listener, s)
					  : NULL;
	/* Without the pointer (or with it apart), as the application asked, or no stream. */
	s->pointer_apart = pointer == STREAM_POINTER_APART;
	if (s->capture &&
	    ((pointer == STREAM_POINTER_HIDDEN && !capture_hide_pointer(s->capture)) ||
	     (s->pointer_apart && !capture_pointer_apart(s->capture)))) {
		capture_destroy(s->capture);
		s->capture = NULL;
	}
	if (!s->capture) {
		if (s->broken)
			pw_loop_destroy_source(p->loop, s->broken);
		if (s->pace)
			pw_loop_destroy_source(p->loop, s->pace);
		free(s);
		return NULL;
	}
	return s;
}

bool stream_is_window(const struct stream *s)
{
	return s->window;
}

void stream_destroy(struct stream *s)
{
	if (!s)
		return;
	s->on_ended = NULL;
	s->ready = NULL;
	s->refused = NULL;
	if (s->pw)
		pw_stream_destroy(s->pw);
	pw_loop_destroy_source(s->portal->loop, s->broken);
	pw_loop_destroy_source(s->portal->loop, s->pace);
	capture_destroy(s->capture);
	free(s);
}
