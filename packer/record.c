/* packer/record: the .q7.ops payload, which is one or more op records
 * back to back (model/opcodec.c describes the layout; no ELF here). The
 * section's messages name the object and the section. */
#include "opcodec.h"
#include "record.h"
#include "support.h"

#include <stdlib.h>

char *q7_record_encode(const struct q7_op_table *ops, size_t *len)
{
	struct q7_strbuf b = {0};
	q7_opcodec_put(&b, ops);
	*len = b.len;
	return q7_sb_take(&b);
}

int q7_record_decode(const char *buf, size_t len, const char *what, struct q7_op_table *ops,
                     struct q7_err *err)
{
	struct q7_strbuf why = {0};
	int rc = q7_opcodec_get(buf, len, ops, &why);
	if (rc != 0)
		q7_err_set(err, what, "%s: %s", Q7_RECORD_SECTION, why.s);
	q7_sb_free(&why);
	return rc;
}
