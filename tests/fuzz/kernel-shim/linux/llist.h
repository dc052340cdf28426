#include "kernel-shim.h"

#ifndef KERNEL_SHIM_LLIST_H
#define KERNEL_SHIM_LLIST_H
struct llist_node { struct llist_node *next; };
struct llist_head { struct llist_node *first; };
#endif
