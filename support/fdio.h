/* support/fdio: whole writes to a file descriptor, the one loop that
 * every writer of q7cc's (outputs, copies, the analysis wire, the host
 * target's images) goes through, and the wait for an fd to be ready. */
#ifndef Q7_FDIO_H
#define Q7_FDIO_H

#include <stddef.h>

/* Writes all n bytes of buf to fd, again after EINTR and after a short
 * write. A socket is written with send(MSG_NOSIGNAL), so that a peer that
 * has gone is EPIPE and not the death of this process; a non-blocking fd
 * that is full is waited on until deadline (q7_now_ms()'s clock; < 0:
 * none). 0, or -1 with errno set (EIO for a write of no bytes, ETIMEDOUT
 * past the deadline). */
int q7_write_all(int fd, const void *buf, size_t n, long long deadline);
/* Waits until fd is ready for events (poll's POLLIN, POLLOUT), or the
 * deadline passes (< 0: none). 0, or -1 with errno set (ETIMEDOUT). */
int q7_fd_wait(int fd, short events, long long deadline);

#endif
