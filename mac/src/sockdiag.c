// SPDX-License-Identifier: MIT
/* Finding the inode of the other end of a Unix socket, so we can ask who holds it. */
#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "private.h"

int unix_peer_inode(int fd, uint64_t *peer_ino)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;

	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;

	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} request;
	memset(&request, 0, sizeof(request));
	request.nlh.nlmsg_len = sizeof(request);
	request.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	request.nlh.nlmsg_flags = NLM_F_REQUEST;
	request.req.sdiag_family = AF_UNIX;
	request.req.udiag_states = ~0u;
	request.req.udiag_ino = (__u32)st.st_ino;
	request.req.udiag_show = UDIAG_SHOW_PEER;
	/* No cookie: look the socket up by inode alone. */
	request.req.udiag_cookie[0] = ~0u;
	request.req.udiag_cookie[1] = ~0u;

	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	ssize_t sent = sendto(nl, &request, sizeof(request), 0, (struct sockaddr *)&kernel,
			      sizeof(kernel));
	if (sent < 0) {
		int e = errno;
		close(nl);
		return -e;
	}

	union {
		char bytes[8192];
		struct nlmsghdr align;
	} reply;
	ssize_t n;
	do {
		n = recv(nl, reply.bytes, sizeof(reply.bytes), 0);
	} while (n < 0 && errno == EINTR);
	int e = errno;
	close(nl);
	if (n < 0)
		return -e;

	int ret = -ENOENT;
	for (struct nlmsghdr *h = &reply.align; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *err = NLMSG_DATA(h);
			return err->error ? err->error : -ENOENT;
		}
		if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY)
			continue;
		const struct unix_diag_msg *msg = NLMSG_DATA(h);
		if (msg->udiag_ino != (__u32)st.st_ino)
			continue;
		int attrs_len = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*msg)));
		for (struct rtattr *a = (struct rtattr *)(msg + 1); RTA_OK(a, attrs_len);
		     a = RTA_NEXT(a, attrs_len)) {
			if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= sizeof(__u32)) {
				__u32 ino;
				memcpy(&ino, RTA_DATA(a), sizeof(ino));
				*peer_ino = ino;
				ret = 0;
			}
		}
	}
	return ret;
}
