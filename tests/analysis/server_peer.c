/* tests/analysis/server_peer: the other end of the analysis server's
 * socket, for the server's tests.
 *
 *   server_peer path             the socket q7cc would use (Q7CC_PREFIX,
 *                                XDG_RUNTIME_DIR), on stdout
 *   server_peer fake MODE SOCK   a fake server on SOCK that treats every
 *                                client by MODE, until SOCK is removed
 *                                (or 300 s have passed)
 *
 * MODEs: accept-close (closes at once), read-close (reads 4 bytes of the
 * request, then closes while the client still writes), no-ack (reads the
 * request, then never answers), ack-close (acknowledges, then closes),
 * ack-garbage (acknowledges, then sends a damaged result), result-first
 * (a result where the acknowledgement belongs), ack-cut (acknowledges,
 * then half a result header). SOCK appears only once it listens (bound
 * under another name, then renamed). */
#include "internal.h"
#include "wire.h"
#include "fdio.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *const modes[] = {"accept-close", "read-close", "no-ack", "ack-close",
                                    "ack-garbage", "result-first", "ack-cut", NULL};

static void send_msg(int fd, const char *bytes, size_t n)
{
	struct q7_strbuf b = {0};
	q7_sb_addn(&b, bytes, n);
	q7_wire_send(fd, &b, 5000);
	q7_sb_free(&b);
}

/* One client, by mode. Returns the fd to keep open, or -1. */
static int mistreat(const char *mode, int fd)
{
	char *req = NULL, hdr[4];
	size_t len;
	struct q7_strbuf b = {0};
	if (strcmp(mode, "accept-close") == 0)
		goto out;
	if (strcmp(mode, "read-close") == 0) {
		if (read(fd, hdr, sizeof hdr) < 0)
			errno = 0; /* the client has gone: nothing to close but fd */
		goto out;
	}
	if (q7_wire_recv(fd, &req, &len, 10000) != 0)
		goto out;
	if (strcmp(mode, "no-ack") == 0) {
		free(req);
		return fd;
	}
	if (strcmp(mode, "result-first") == 0) {
		q7_analysis_result_put(&b, NULL, 0, &(struct q7_op_table){0}, &(struct q7_diags){0});
		q7_wire_send(fd, &b, 5000);
		goto out;
	}
	q7_wire_put_ack(&b);
	q7_wire_send(fd, &b, 5000);
	if (strcmp(mode, "ack-garbage") == 0)
		send_msg(fd, "7AS7\1\2\3", 7);
	else if (strcmp(mode, "ack-cut") == 0)
		q7_write_all(fd, "\x40\0", 2, q7_now_ms() + 5000);
out:
	q7_sb_free(&b);
	free(req);
	close(fd);
	return -1;
}

static int fake(const char *mode, const char *sock)
{
	bool known = false;
	for (const char *const *m = modes; *m; m++)
		known |= strcmp(*m, mode) == 0;
	if (!known) {
		fprintf(stderr, "server_peer: unknown mode %s\n", mode);
		return 2;
	}
	char *tmp = q7_xasprintf("%s.tmp", sock);
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (strlen(tmp) >= sizeof sa.sun_path) {
		fprintf(stderr, "server_peer: %s: path too long\n", tmp);
		return 1;
	}
	strcpy(sa.sun_path, tmp);
	unlink(tmp);
	int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(lfd, 64) != 0 ||
	    rename(tmp, sock) != 0) {
		fprintf(stderr, "server_peer: %s: %s\n", sock, strerror(errno));
		return 1;
	}
	int held[256], nheld = 0;
	struct stat st;
	for (time_t end = time(NULL) + 300; time(NULL) < end && lstat(sock, &st) == 0;) {
		struct pollfd pfd = {.fd = lfd, .events = POLLIN};
		if (poll(&pfd, 1, 50) <= 0)
			continue;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		int keep = mistreat(mode, fd);
		if (keep >= 0 && nheld < 256)
			held[nheld++] = keep;
		else if (keep >= 0)
			close(keep);
	}
	for (int i = 0; i < nheld; i++)
		close(held[i]);
	close(lfd);
	unlink(sock);
	free(tmp);
	return 0;
}

int main(int argc, char **argv)
{
	q7_set_progname("server_peer");
	if (argc == 2 && strcmp(argv[1], "path") == 0) {
		char *plugin = q7_prefix_path("lib/q7cc/q7analysis-clang.so");
		char *server = q7_prefix_path("lib/q7cc/q7analysis-server");
		char *sock = q7_server_socket(plugin, server);
		if (!sock) {
			fprintf(stderr, "server_peer: no socket for %s\n", plugin);
			return 1;
		}
		printf("%s\n", sock);
		free(sock);
		free(server);
		free(plugin);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "fake") == 0)
		return fake(argv[2], argv[3]);
	fprintf(stderr, "usage: server_peer path | fake MODE SOCK\n");
	return 2;
}
