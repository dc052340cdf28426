/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Per-process budgets for object memory: every object a file creates is charged to the record
 * (garnet_proc.h) of the process that opened the file for as long as the object lives, so one
 * process, however many files it opens, cannot make the kernel hold more than client_mem_mb
 * of shmem objects (see doc/buffers.md, "Memory a client can hold").
 */
#ifndef GARNET_MEM_H
#define GARNET_MEM_H

struct garnet_object;
struct garnet_proc;

void garnet_mem_init(void);

/* Charges the object's size to the process, or -ENOMEM past the per-client limit. */
int garnet_mem_charge(struct garnet_object *gobj, struct garnet_proc *proc);
/* At free: gives the object's size back to whichever process paid for it. */
void garnet_mem_uncharge(struct garnet_object *gobj);

#endif /* GARNET_MEM_H */
