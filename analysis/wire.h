/* The analysis server's wire format: one request (the analysis options
 * plus the client's working directory and include environment) and one
 * response (return code, ops, diagnostics) per connection. Little-endian
 * u32 lengths; strings as length + bytes (0xffffffff for NULL); vectors as
 * a count + strings. Private to analysis/. */
#ifndef Q7_ANALYSIS_WIRE_H
#define Q7_ANALYSIS_WIRE_H

#include "analysis.h"

#define Q7_WIRE_MAGIC 0x35534137u /* "7AS5": multicore, wanted_names, ops' ns, flags */
/* The request's flags (a u32 after the strings). */
#define Q7_WIRE_PREPROCESSED 1u
#define Q7_WIRE_MULTICORE 2u
/* The request's vectors: clang_args, sys_includes, predefines,
 * kernel_names, wanted_names; then the u32 flags. */
#define Q7_WIRE_NVECS 5

/* A received request: owns its strings; opts points into them. */
struct q7_wire_request {
	struct q7_analysis_opts opts;
	char *cwd;
	struct q7_strvec env; /* "NAME=VALUE" or "NAME" (unset) */
	char *strs[4];        /* source, triple, profile, (spare) */
	struct q7_strvec vecs[Q7_WIRE_NVECS];
	bool has_vec[Q7_WIRE_NVECS];
};

void q7_wire_put_request(struct q7_strbuf *b, const struct q7_analysis_opts *o, const char *cwd,
                         char *const *env);
int q7_wire_get_request(const char *data, size_t len, struct q7_wire_request *r);
void q7_wire_request_free(struct q7_wire_request *r);

void q7_wire_put_result(struct q7_strbuf *b, int rc, const struct q7_op_table *ops,
                        const struct q7_diags *diags);
/* Appends to ops and diags only when the whole message is well formed. */
int q7_wire_get_result(const char *data, size_t len, int *rc, struct q7_op_table *ops,
                       struct q7_diags *diags);

/* Whole messages over a stream: a u32 length, then the bytes. */
int q7_wire_send(int fd, const struct q7_strbuf *b);
/* Reads one message (caller frees *data); timeout_ms < 0 waits forever. */
int q7_wire_recv(int fd, char **data, size_t *len, int timeout_ms);

#endif
