/* PLACEHOLDER until the packer lands. */
#include "pack.h"
#include "record.h"
#include "support.h"

int q7_record_attach(const char *path, const struct q7_op_table *ops)
{
	if (ops->n == 0)
		return 0;
	q7_error("%s: q7_record_attach: not implemented yet", path);
	return -1;
}
int q7_record_read(const char *path, struct q7_op_table *ops)
{
	(void)path; (void)ops;
	return 0;
}
char *q7_record_encode(const struct q7_op_table *ops, size_t *len)
{
	(void)ops;
	*len = 0;
	return q7_xstrdup("");
}
int q7_record_decode(const char *buf, size_t len, const char *what, struct q7_op_table *ops)
{
	(void)buf; (void)len; (void)ops;
	q7_error("%s: q7_record_decode: not implemented yet", what);
	return -1;
}
int q7_pack(const struct q7_pack_opts *o)
{
	q7_error("%s: q7_pack: not implemented yet", o->input);
	return 1;
}
int q7_pkg_loadlib_main(int argc, char **argv)
{
	(void)argc; (void)argv;
	q7_error("q7-pkg-loadlib: not implemented yet");
	return 1;
}
