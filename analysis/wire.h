/* The analysis server's wire format: one request (the analysis options
 * plus the client's working directory and include environment), then an
 * acknowledgement (a worker has started on it), then one response (return
 * code, ops, diagnostics, NEURON_LIBRARY m.defs) per connection. Each
 * message is a JSON object (json-c) after its length, a little-endian
 * u32. A result's ops are one op record (model/opcodec.h), the bytes an
 * object's .q7.ops holds, as a JSON string. Private to analysis/. */
#ifndef Q7_ANALYSIS_WIRE_H
#define Q7_ANALYSIS_WIRE_H

#include "analysis.h"
#include "bytes.h"

#define Q7_WIRE_MAX (64u << 20) /* the longest message */

/* A received request: owns its strings, opts's among them. */
struct q7_wire_request {
	struct q7_analysis_opts opts;
	char *cwd;
	struct q7_strvec env; /* "NAME=VALUE" or "NAME" (unset) */
};

void q7_wire_put_request(struct q7_strbuf *b, const struct q7_analysis_opts *o, const char *cwd,
                         char *const *env);
int q7_wire_get_request(const char *data, size_t len, struct q7_wire_request *r);
void q7_wire_request_free(struct q7_wire_request *r);

/* A result is put and read with q7_analysis_result_put and _read
 * (analysis.h), without kernel names. */

/* The acknowledgement a worker sends before it starts on a request. */
void q7_wire_put_ack(struct q7_strbuf *b);
bool q7_wire_is_ack(const char *data, size_t len);

/* Whole messages over a stream (blocking or not): a u32 length, then the
 * bytes, within timeout_ms for the whole message (< 0: no limit). A
 * socket's peer that has gone is an error (-1), never SIGPIPE. */
int q7_wire_send(int fd, const struct q7_strbuf *b, int timeout_ms);
/* Reads one message (caller frees *data). 0, or -1 on EOF, error, a
 * message over 64 MiB, or the time up. */
int q7_wire_recv(int fd, char **data, size_t *len, int timeout_ms);

#endif
