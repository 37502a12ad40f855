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

/* The longest message taken: a longer one is passed over as it arrives,
 * never held (docs/robustness.md, "The language server"). */
#define Q7_RPC_MAX (64u << 20)
/* The most bytes a queue holds for a peer that does not read. */
#define Q7_RPC_QUEUE_MAX (256u << 20)

/* What a message passed over showed of itself: the JSON text of its
 * top-level "id" and "method", each when it has one within the first
 * bytes of its value. */
struct q7_rpc_scan {
	int depth;
	bool in_str, esc, in_value;
	char key[16], val[128]; /* the text of the member being read */
	size_t nkey, nval;      /* its length, kept or not */
	char id[128], method[128];
};

struct q7_rpc_in {
	int fd;
	struct q7_strbuf buf;
	size_t off; /* bytes of buf already handed out */
	bool eof;   /* the peer closed its end, or a framing error */
	bool damaged; /* that framing error: a header without a valid Content-Length */
	size_t skipping; /* the length of a message over Q7_RPC_MAX passed over */
	size_t skip;     /* its bytes still to pass over */
	size_t too_big; /* the size of the message q7_rpc_next last stood in for */
	struct q7_rpc_scan scan;
};

/* Appends what fd has now to buf (fd is non-blocking), at most 4 MiB a
 * call, passing over a long message's bytes as they come. false at the
 * end of the stream or on an error (eof is then set). */
bool q7_rpc_fill(struct q7_rpc_in *in);
/* The next whole message's body (NUL-terminated, the caller frees), or
 * NULL when none is complete. A header without a valid Content-Length
 * sets eof and damaged: the stream cannot be followed past it. A message over
 * Q7_RPC_MAX is passed over: for it, once passed, a stand-in of its "id"
 * and "method" ({} when it showed neither), with in->too_big its length
 * (0 for every other message). */
char *q7_rpc_next(struct q7_rpc_in *in, size_t *len);
/* Whether the n bytes at s are well-formed UTF-8 (s NUL-terminated). */
bool q7_rpc_utf8(const char *s, size_t n);
void q7_rpc_in_free(struct q7_rpc_in *in);

struct q7_rpc_out {
	int fd;
	struct q7_strbuf q;
	size_t off;  /* bytes of q already written; q is compacted as they grow */
	bool broken; /* the peer is gone (EPIPE or another error), or full */
	bool full;   /* it held max unread bytes: given up on */
	size_t max;  /* 0: Q7_RPC_QUEUE_MAX */
};

/* Frames body and queues it, then writes what the peer takes now. A
 * peer that would leave more than max bytes unread is given up on (full
 * and broken set, the queue emptied). */
void q7_rpc_send(struct q7_rpc_out *o, const char *body, size_t len);
/* Writes what the peer takes now; false once the peer is gone. */
bool q7_rpc_flush(struct q7_rpc_out *o);
bool q7_rpc_pending(const struct q7_rpc_out *o);
void q7_rpc_out_free(struct q7_rpc_out *o);

#endif
