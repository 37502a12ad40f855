/* model/opcodec: the op table's one binary form, and the rules a table
 * read from bytes is held to.
 *
 * Owns: the op record (its layout is docs/packer.md's), which an
 * object's .q7.ops section carries (packer/record), the analysis server
 * sends to q7cc (analysis/wire) and q7cc -E leaves at the end of its
 * text (wrapper/preprocess); and q7_op_check, what an op from outside
 * may say. No ELF, no printing: failures come back as text. */
#ifndef Q7_OPCODEC_H
#define Q7_OPCODEC_H

#include <stdbool.h>
#include <stddef.h>

#include "op.h"

/* Appends one record of ops (header, checksum, body) to b. */
void q7_opcodec_put(struct q7_strbuf *b, const struct q7_op_table *ops);

/* Reads the records at buf[0..len) back to back (NUL padding between
 * them is skipped, as `ld -r` leaves it) and appends their ops to ops only
 * when every record is whole: magic, version, lengths, checksum, every
 * field, and every op passes q7_op_check. 0, or -1 with why
 * appended ("checksum mismatch (damaged record)", "damaged record: op 2:
 * ..."), without the name of the file, which the caller knows. */
int q7_opcodec_get(const char *buf, size_t len, struct q7_op_table *ops, struct q7_strbuf *why);

/* Whether op says only what analysis writes (names and types from the
 * allow-list of cxx.h, the kinds they belong to, printable text, the
 * runtime's limits); else false with why appended. */
bool q7_op_check(const struct q7_op *op, struct q7_strbuf *why);

#endif
