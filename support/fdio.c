/* Whole writes and waits on a file descriptor (fdio.h). */
#include "fdio.h"
#include "bytes.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

int q7_fd_wait(int fd, short events, long long deadline)
{
	for (;;) {
		int left = -1;
		if (deadline >= 0) {
			long long ms = deadline - q7_now_ms();
			if (ms <= 0) {
				errno = ETIMEDOUT;
				return -1;
			}
			left = ms > 60000 ? 60000 : (int)ms;
		}
		struct pollfd pfd = {.fd = fd, .events = events};
		int pr = poll(&pfd, 1, left);
		if (pr > 0)
			return 0;
		if (pr < 0 && errno != EINTR)
			return -1;
	}
}

int q7_write_all(int fd, const void *buf, size_t n, long long deadline)
{
	const char *p = buf;
	bool sock = true; /* until send() says otherwise */
	while (n) {
		ssize_t w = sock ? send(fd, p, n, MSG_NOSIGNAL) : -1;
		if (sock && w < 0 && errno == ENOTSOCK)
			sock = false;
		if (!sock)
			w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (q7_fd_wait(fd, POLLOUT, deadline) != 0)
				return -1;
			continue;
		}
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}
