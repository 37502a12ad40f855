/* prelink's internal interface between its files. */
#ifndef Q7_PRELINK_INT_H
#define Q7_PRELINK_INT_H

#include <stddef.h>

#include "prelink.h"
#include "support.h"

/* "<name>: <reason>" into err. */
void q7_pl_err(char *err, size_t err_size, const char *name, const char *fmt, ...)
	Q7_PRINTF(4, 5);

/* The image inside a packed object: its offset and size in file. 0, or 1
 * with err set. */
int q7_pl_extract(const unsigned char *file, size_t size, const char *name,
                  const char *symbol, size_t *img_off, size_t *img_size, char *err,
                  size_t err_size);

#endif
