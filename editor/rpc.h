/* editor/rpc: the Language Server Protocol's framing on byte streams.
 *
 * Owns: reading "Content-Length: N\r\n\r\n" + N bytes messages from a
 * non-blocking descriptor as they arrive, and a queue of framed messages
 * for another, written as the peer takes them, so that neither peer (the
 * editor, clangd) can block the relay by not reading.
 *
 * Memory: each struct owns its buffer; q7_rpc_*_free releases it. */
#ifndef Q7_EDITOR_RPC_H
#define Q7_EDITOR_RPC_H

#include <stdbool.h>
#include <stddef.h>

#include "support.h"

#define Q7_RPC_MAX (256u << 20) /* the longest message taken */

struct q7_rpc_in {
	int fd;
	struct q7_strbuf buf;
	size_t off; /* bytes of buf already handed out */
	bool eof;   /* the peer closed its end, or a framing error */
};

/* Appends what fd has now to buf (fd is non-blocking). false at the end
 * of the stream or on an error (eof is then set). */
bool q7_rpc_fill(struct q7_rpc_in *in);
/* The next whole message's body (NUL-terminated, the caller frees), or
 * NULL when none is complete. A header without a valid Content-Length
 * sets eof: the stream cannot be followed past it. */
char *q7_rpc_next(struct q7_rpc_in *in, size_t *len);
void q7_rpc_in_free(struct q7_rpc_in *in);

struct q7_rpc_out {
	int fd;
	struct q7_strbuf q;
	size_t off;  /* bytes of q already written */
	bool broken; /* the peer is gone (EPIPE or another error) */
};

/* Frames body and queues it, then writes what the peer takes now. */
void q7_rpc_send(struct q7_rpc_out *o, const char *body, size_t len);
/* Writes what the peer takes now; false once the peer is gone. */
bool q7_rpc_flush(struct q7_rpc_out *o);
bool q7_rpc_pending(const struct q7_rpc_out *o);
void q7_rpc_out_free(struct q7_rpc_out *o);

#endif
