// SPDX-License-Identifier: MIT
// A PipeWire video source fed by one garnet capture: each PipeWire buffer is a memfd that is
// also a wl_shm buffer, so garnet copies the output straight into the buffer the consumer
// maps. A copy is asked for when a buffer is free, and garnet answers it with the next frame
// that changes the output: the rate follows the output's damage, at most its refresh.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <spa/buffer/meta.h>
#include <spa/param/video/format-utils.h>
#include <spa/param/buffers.h>
#include <spa/pod/builder.h>

#include "portal.h"

#define BUFFERS 4
#define DAMAGE_REGIONS 16

struct stream {
	struct portal *portal;
	struct capture *capture;
	struct pw_stream *pw;
	struct spa_hook listener;
	int32_t width, height, stride;
	bool granted, paused, streaming, ended;
	bool fresh; /* a consumer started: it gets the picture on screen, not the next change */
	uint32_t node_id;
	struct pw_buffer *in_flight; /* the buffer garnet is filling */
	void (*ready)(void *data, uint32_t node_id, int32_t w, int32_t h);
	void (*refused)(void *data);
	void (*on_ended)(void *data);
	void *data;
};

struct buffer_data {
	struct wl_buffer *wl;
};

static void next_copy(struct stream *s)
{
	struct pw_buffer *b;

	if (!s->streaming || s->paused || s->ended)
		return;
	if (s->in_flight) {
		/* Waiting for the output to change, while the new consumer has nothing. */
		if (s->fresh)
			capture_copy(s->capture,
				     ((struct buffer_data *)s->in_flight->user_data)->wl, true);
		s->fresh = false;
		return;
	}
	b = pw_stream_dequeue_buffer(s->pw);
	if (!b)
		return; /* process says when one comes back */
	s->in_flight = b;
	capture_copy(s->capture, ((struct buffer_data *)b->user_data)->wl, s->fresh);
	s->fresh = false;
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
		struct spa_meta_region *r;
		int i = 0;

		spa_meta_for_each(r, m)
		{
			if (i < count) {
				r->region =
					SPA_REGION(damage[i][0], damage[i][1],
						   (uint32_t)damage[i][2], (uint32_t)damage[i][3]);
			} else {
				r->region = SPA_REGION(0, 0, 0, 0);
				break;
			}
			i++;
		}
	}
}

static void on_ready(void *data, const int32_t (*damage)[4], int count)
{
	struct stream *s = data;
	struct pw_buffer *b = s->in_flight;
	struct spa_data *d;

	s->in_flight = NULL;
	if (!b)
		return;
	d = &b->buffer->datas[0];
	d->chunk->offset = 0;
	d->chunk->size = (uint32_t)(s->stride * s->height);
	d->chunk->stride = s->stride;
	d->chunk->flags = 0;
	fill_metas(s, b->buffer, damage, count);
	pw_stream_queue_buffer(s->pw, b);
	next_copy(s);
}

static void on_failed(void *data)
{
	struct stream *s = data;

	/* The buffer goes back empty; a later process asks again. */
	if (s->in_flight) {
		s->in_flight->buffer->datas[0].chunk->size = 0;
		s->in_flight->buffer->datas[0].chunk->flags = SPA_CHUNK_FLAG_CORRUPTED;
		pw_stream_queue_buffer(s->pw, s->in_flight);
	}
	s->in_flight = NULL;
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
	s->in_flight = NULL;
	end(s);
}

static const struct spa_pod *format_param(struct spa_pod_builder *b, int32_t w, int32_t h)
{
	return spa_pod_builder_add_object(
		b, SPA_TYPE_OBJECT_Format, SPA_PARAM_EnumFormat, SPA_FORMAT_mediaType,
		SPA_POD_Id(SPA_MEDIA_TYPE_video), SPA_FORMAT_mediaSubtype,
		SPA_POD_Id(SPA_MEDIA_SUBTYPE_raw), SPA_FORMAT_VIDEO_format,
		SPA_POD_Id(SPA_VIDEO_FORMAT_BGRx), SPA_FORMAT_VIDEO_size,
		SPA_POD_Rectangle(&SPA_RECTANGLE((uint32_t)w, (uint32_t)h)),
		SPA_FORMAT_VIDEO_framerate, SPA_POD_Fraction(&SPA_FRACTION(0, 1)),
		SPA_FORMAT_VIDEO_maxFramerate,
		SPA_POD_CHOICE_RANGE_Fraction(&SPA_FRACTION(60, 1), &SPA_FRACTION(1, 1),
					      &SPA_FRACTION(60, 1)));
}

static void on_param_changed(void *data, uint32_t id, const struct spa_pod *param)
{
	struct stream *s = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[3];

	if (id != SPA_PARAM_Format || !param)
		return;
	params[0] = spa_pod_builder_add_object(
		&b, SPA_TYPE_OBJECT_ParamBuffers, SPA_PARAM_Buffers, SPA_PARAM_BUFFERS_buffers,
		SPA_POD_CHOICE_RANGE_Int(BUFFERS, 2, 8), SPA_PARAM_BUFFERS_blocks, SPA_POD_Int(1),
		SPA_PARAM_BUFFERS_size, SPA_POD_Int(s->stride * s->height),
		SPA_PARAM_BUFFERS_stride, SPA_POD_Int(s->stride), SPA_PARAM_BUFFERS_dataType,
		SPA_POD_CHOICE_FLAGS_Int(1 << SPA_DATA_MemFd));
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
	pw_stream_update_params(s->pw, params, 3);
}

static void on_add_buffer(void *data, struct pw_buffer *b)
{
	struct stream *s = data;
	struct spa_data *d = &b->buffer->datas[0];
	struct buffer_data *bd = calloc(1, sizeof(*bd));
	size_t size = (size_t)s->stride * (size_t)s->height;
	int fd;

	b->user_data = bd;
	if (!bd || !(d->type & (1u << SPA_DATA_MemFd)) || (fd = portal_memfd(size)) < 0) {
		fprintf(stderr, "garnet-portal: cannot make a buffer: %s\n", strerror(errno));
		return;
	}
	d->type = SPA_DATA_MemFd;
	d->flags = SPA_DATA_FLAG_READABLE;
	d->fd = fd;
	d->mapoffset = 0;
	d->maxsize = (uint32_t)size;
	d->data = NULL;
	bd->wl = portal_shm_buffer(s->portal, fd, s->width, s->height, s->stride);
}

static void on_remove_buffer(void *data, struct pw_buffer *b)
{
	struct stream *s = data;
	struct buffer_data *bd = b->user_data;

	if (s->in_flight == b)
		s->in_flight = NULL; /* garnet's answer for it is dropped */
	if (bd && bd->wl)
		wl_buffer_destroy(bd->wl);
	if (b->buffer->datas[0].fd >= 0 && b->buffer->datas[0].type == SPA_DATA_MemFd)
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

static void on_granted(void *data, int32_t width, int32_t height)
{
	struct stream *s = data;
	uint8_t storage[1024];
	struct spa_pod_builder b = SPA_POD_BUILDER_INIT(storage, sizeof(storage));
	const struct spa_pod *params[1];

	s->granted = true;
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
	params[0] = format_param(&b, width, height);
	if (pw_stream_connect(s->pw, PW_DIRECTION_OUTPUT, PW_ID_ANY, PW_STREAM_FLAG_ALLOC_BUFFERS,
			      params, 1) < 0) {
		s->ready(s->data, 0, 0, 0);
		s->ready = NULL;
	}
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
};

struct stream *stream_create(struct portal *p, const char *app_id, pid_t pid,
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
	s->capture = capture_create(p, app_id, pid, true, &listener, s);
	if (!s->capture) {
		free(s);
		return NULL;
	}
	return s;
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
	capture_destroy(s->capture);
	free(s);
}
