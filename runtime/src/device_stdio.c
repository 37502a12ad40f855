/* picolibc's stdin/stdout/stderr for a device image: tinystdio wants the
 * program to define them (its stdio.h declares them outside extern "C", so
 * this file is C). Output goes to the loader's write function through the
 * runtime's line buffer; reading gives EOF. Built for Xtensa only. */
#include <stddef.h>
#include <stdio.h>

void q7rt_write(const char *s, size_t n);
void q7rt_flush(void);

static int put_char(char c, FILE *file)
{
	(void)file;
	q7rt_write(&c, 1);
	return (unsigned char)c;
}

static int get_char(FILE *file)
{
	(void)file;
	return EOF;
}

static int flush_out(FILE *file)
{
	(void)file;
	q7rt_flush();
	return 0;
}

static FILE q7_stdio = FDEV_SETUP_STREAM(put_char, get_char, flush_out, _FDEV_SETUP_RW);
FILE *const stdin = &q7_stdio;
FILE *const stdout = &q7_stdio;
FILE *const stderr = &q7_stdio;

/* q7_entry calls this so that the archive member defining stdout is linked
 * even though only picolibc (after libq7rt.a on the link line) uses it. */
void q7rt_device_stdio(void);
void q7rt_device_stdio(void)
{
}
