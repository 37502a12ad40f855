/* packer/record: the op records carried inside object files.
 *
 * Owns: the ".q7.ops" section (SHT_PROGBITS, SHF_EXCLUDE so a final link
 * drops it, kept by ld -r and archives) and its versioned payload; writing
 * it into an object after the compile and reading it back from objects and
 * archive members at link time, with libelf. */
#ifndef Q7_RECORD_H
#define Q7_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "op.h"
#include "support.h"

struct q7_err;

#define Q7_RECORD_SECTION ".q7.ops"

/* Adds the records of ops to the object at path (temp file + rename).
 * Does nothing when ops is empty. 0, or -1 with "<path>: <reason>" in
 * err. */
int q7_record_attach(const char *path, const struct q7_op_table *ops, struct q7_err *err);

/* Appends the records found in path (an ELF object or an ar archive of
 * them) to ops. Files without records, and inputs that are not ELF or ar
 * (linker scripts, ...), add nothing. 0, or -1 with why in err for a
 * damaged file. */
int q7_record_read(const char *path, struct q7_op_table *ops, struct q7_err *err);

/* Sections of text beside the records: the stack figures of a compile
 * (analysis.h, q7_stack_from_callgraph), in every object of a device or
 * host toolchain's compile that goes through q7cc. */
#define Q7_STACK_SECTION ".q7.stack"
/* Puts len bytes into path's section sec (SHF_EXCLUDE, replaced if there)
 * as they are, temp file + rename (tests craft .q7.ops records so). 0, or
 * -1 with err set. */
int q7_section_attach(const char *path, const char *sec, const char *payload, size_t len,
                      struct q7_err *err);
/* Appends the text of section sec of path (an object, or each member of
 * an archive that has it) to out. 0, or -1 with err set. */
int q7_section_read(const char *path, const char *sec, struct q7_strvec *out, struct q7_err *err);
/* The payload alone (model/opcodec.h's records), for tests. encode's
 * result is the caller's. */
char *q7_record_encode(const struct q7_op_table *ops, size_t *len);
/* Appends decoded ops, each held to q7_op_check; what names the source
 * in err's message ("<what>: .q7.ops: <why>"). 0 or -1. */
int q7_record_decode(const char *buf, size_t len, const char *what, struct q7_op_table *ops,
                     struct q7_err *err);

#endif
