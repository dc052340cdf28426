// SPDX-License-Identifier: MIT
/*
 * The ioctl fuzzer's bookkeeping: the handles each file holds (shared by the threads of its
 * process, so one thread closes what another is using), the SHARE and flink names processes
 * publish for each other, and the dma-buf fds a process exported. Picks are biased to what is
 * live, with stale and made-up values mixed in.
 */
#include "ioctl_fuzz.h"

#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

int fz_file_open(struct fz_file *f, bool card)
{
	struct drm_garnet_get_client_id id = { 0 };

	f->fd = card ? gt_open_card() : gt_open_render();
	f->card = card;
	f->nhandles = 0;
	f->nnames = 0;
	f->npinned = 0;
	memset(f->closed, 0, sizeof(f->closed));
	if (ioctl(f->fd, DRM_IOCTL_GARNET_GET_CLIENT_ID, &id))
		return -errno;
	f->client_id = id.client_id;
	return 0;
}

void fz_file_close(struct fz_file *f)
{
	close(f->fd);
	f->fd = -1;
	f->nhandles = 0;
	f->nnames = 0;
}

uint32_t fz_pick_handle(struct fz_thread *t, struct fz_file *f, uint64_t *size)
{
	struct fz_rng *r = &t->rng;
	uint32_t handle;

	*size = 0;
	pthread_mutex_lock(&f->lock);
	if (f->nhandles && !fz_one_in(r, 8)) {
		unsigned int i = fz_below(r, f->nhandles);

		handle = f->handles[i];
		*size = f->sizes[i];
	} else {
		switch (fz_below(r, 4)) {
		case 0:
			handle = f->closed[fz_below(r, 8)];
			break;
		case 1:
			handle = 0;
			break;
		case 2:
			handle = f->nhandles ? f->handles[f->nhandles - 1] + 1 : 1;
			break;
		default:
			handle = fz_u32(r);
			break;
		}
	}
	pthread_mutex_unlock(&f->lock);
	return handle;
}

uint32_t fz_take_handle(struct fz_thread *t, struct fz_file *f)
{
	uint32_t handle = 0;

	pthread_mutex_lock(&f->lock);
	if (f->nhandles) {
		unsigned int i = fz_below(&t->rng, f->nhandles);

		handle = f->handles[i];
		f->nhandles--;
		f->handles[i] = f->handles[f->nhandles];
		f->sizes[i] = f->sizes[f->nhandles];
		f->closed[fz_below(&t->rng, 8)] = handle;
	}
	pthread_mutex_unlock(&f->lock);
	return handle;
}

void fz_add_handle(struct fz_file *f, uint32_t handle, uint64_t size)
{
	pthread_mutex_lock(&f->lock);
	/*
	 * A handle already listed is an import or open of our own object, or a number a stray
	 * GEM_CLOSE freed and the kernel handed out again: the size is the kernel's new word.
	 */
	for (unsigned int i = 0; i < f->nhandles; i++) {
		if (f->handles[i] == handle) {
			f->sizes[i] = size;
			pthread_mutex_unlock(&f->lock);
			return;
		}
	}
	if (f->nhandles < FZ_HANDLES) {
		f->handles[f->nhandles] = handle;
		f->sizes[f->nhandles] = size;
		f->nhandles++;
		handle = 0;
	}
	pthread_mutex_unlock(&f->lock);
	/* No room: the object stays open, unknown to the tables, until its file closes. */
	(void)handle;
}

uint64_t fz_pick_recipient(struct fz_thread *t)
{
	struct fz_rng *r = &t->rng;
	uint64_t id;

	switch (fz_below(r, 8)) {
	case 0:
		return fz_u64(r, 1);
	case 1:
		return t->proc->files[fz_below(r, 2)].client_id;
	default:
		id = atomic_load(&fz.stats->client_ids[fz_below(r, 2 * fz.procs)]);
		return id ? id : t->proc->files[0].client_id;
	}
}

uint64_t fz_pick_name(struct fz_thread *t)
{
	struct fz_rng *r = &t->rng;
	struct fz_file *mine = &t->proc->files[fz_below(r, 2)];
	uint64_t name;

	switch (fz_below(r, 8)) {
	case 0:
		return fz_u64(r, 1);
	case 1:
		/* A published name with one bit changed: a guess next to a real one. */
		name = atomic_load(&fz.stats->names[fz_below(r, 64)]);
		return name ^ (1ull << fz_below(r, 64));
	case 2:
		pthread_mutex_lock(&mine->lock);
		name = mine->nnames ? mine->names[fz_below(r, mine->nnames)] : 0;
		pthread_mutex_unlock(&mine->lock);
		return name;
	default:
		return atomic_load(&fz.stats->names[fz_below(r, 64)]);
	}
}

/* A name published for this very file: a random pick is almost never addressed to the file that
 * tries it, so without this ACCEPT would hardly ever get past the recipient check. */
uint64_t fz_pick_name_for(struct fz_thread *t, const struct fz_file *f)
{
	unsigned int start = fz_below(&t->rng, 64);

	for (unsigned int i = 0; i < 64; i++) {
		unsigned int slot = (start + i) % 64;
		uint64_t name = atomic_load(&fz.stats->names[slot]);

		if (name && atomic_load(&fz.stats->name_recipients[slot]) == f->client_id)
			return name;
	}
	return fz_pick_name(t);
}

void fz_publish_name(struct fz_thread *t, struct fz_file *f, uint64_t name, uint64_t to)
{
	unsigned int slot = fz_below(&t->rng, 64);

	atomic_store(&fz.stats->names[slot], name);
	atomic_store(&fz.stats->name_recipients[slot], to);
	pthread_mutex_lock(&f->lock);
	if (f->nnames < FZ_NAMES)
		f->names[f->nnames++] = name;
	else
		f->names[fz_below(&t->rng, FZ_NAMES)] = name;
	pthread_mutex_unlock(&f->lock);
}

uint64_t fz_take_own_name(struct fz_thread *t, struct fz_file *f)
{
	uint64_t name = 0;

	pthread_mutex_lock(&f->lock);
	if (f->nnames) {
		unsigned int i = fz_below(&t->rng, f->nnames);

		name = f->names[i];
		f->names[i] = f->names[--f->nnames];
	}
	pthread_mutex_unlock(&f->lock);
	return name;
}

void fz_publish_flink(struct fz_thread *t, uint32_t name)
{
	atomic_store(&fz.stats->flinks[fz_below(&t->rng, 64)], name);
}

uint32_t fz_pick_flink(struct fz_thread *t)
{
	struct fz_rng *r = &t->rng;

	if (fz_one_in(r, 6))
		return fz_u32(r);
	return atomic_load(&fz.stats->flinks[fz_below(r, 64)]);
}

void fz_add_dmabuf(struct fz_proc *p, int fd)
{
	int old = -1;

	pthread_mutex_lock(&p->fds_lock);
	if (p->ndmabufs < 16) {
		p->dmabufs[p->ndmabufs++] = fd;
	} else {
		old = p->dmabufs[fd % 16];
		p->dmabufs[fd % 16] = fd;
	}
	pthread_mutex_unlock(&p->fds_lock);
	if (old >= 0)
		close(old);
}

int fz_pick_dmabuf(struct fz_thread *t)
{
	struct fz_proc *p = t->proc;
	struct fz_rng *r = &t->rng;
	int fd;

	switch (fz_below(r, 8)) {
	case 0:
		return -1;
	case 1:
		return p->files[fz_below(r, 2)].fd;	/* a DRM fd is no dma-buf */
	case 2:
		return (int)fz_u32(r);
	default:
		pthread_mutex_lock(&p->fds_lock);
		fd = p->ndmabufs ? p->dmabufs[fz_below(r, p->ndmabufs)] : -1;
		pthread_mutex_unlock(&p->fds_lock);
		return fd;
	}
}

void fz_close_dmabufs(struct fz_proc *p, bool all, struct fz_rng *r)
{
	pthread_mutex_lock(&p->fds_lock);
	while (p->ndmabufs && (all || fz_one_in(r, 2))) {
		unsigned int i = r ? fz_below(r, p->ndmabufs) : 0;

		close(p->dmabufs[i]);
		p->dmabufs[i] = p->dmabufs[--p->ndmabufs];
		if (!all)
			break;
	}
	pthread_mutex_unlock(&p->fds_lock);
}
