/* The deadlines the analysis server's client (server.c, in q7cc) and the
 * server process (serve.c) each keep (docs/lint-rules.md, "What the
 * analysis server promises"), and the socket helpers both use. Private to
 * analysis/. */
#ifndef Q7_ANALYSIS_SERVER_H
#define Q7_ANALYSIS_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#define Q7_SERVER_SEND_MS 2000     /* client: the request written */
#define Q7_SERVER_ACK_MS 2000      /* client: a worker has started on it */
#define Q7_SERVER_BIND_MS 2000     /* --detach: the new server's socket bound */
/* The compile that started the server: a worker has started on its TU
 * (the server loads libclang first; past this, analyse in-process). */
#define Q7_SERVER_FIRST_ACK_MS 10000
#define Q7_SERVER_PARSE_LIMIT_S 300 /* server: one request's analysis, at most */
/* client: the result, once acknowledged: the parse limit in force
 * (q7_server_parse_limit_s) and this */
#define Q7_SERVER_RESULT_MARGIN_MS 15000
#define Q7_SERVER_REQUEST_MS 3000  /* server: a connection's whole request */
#define Q7_SERVER_REPLY_MS 10000   /* server: writing the ack or the result */

/* h continued with the path and its inode, size and mtime; 0 when the
 * file cannot be stat'ed. */
uint64_t q7_server_file_key(uint64_t h, const char *path);
/* A new AF_UNIX stream socket (close-on-exec, and non-blocking when
 * nonblock) and *sa filled for path, which must fit. -1 on failure. */
int q7_server_unix_socket(const char *path, struct sockaddr_un *sa, bool nonblock);

#endif
