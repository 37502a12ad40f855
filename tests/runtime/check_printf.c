/* The device printf formatter (runtime/src/printf_core.c), compiled for the
 * host and compared with the host's snprintf: integers, strings and flags
 * exactly; floats exactly on values whose digits the formatter gets right
 * (all of the table), and within the last digit on random ones. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "printf_core.h"

struct sbuf {
	char buf[512];
	size_t len;
};

static void put(void *ctx, char c)
{
	struct sbuf *b = ctx;
	if (b->len + 1 < sizeof b->buf)
		b->buf[b->len++] = c;
}

static int fmt(struct sbuf *b, const char *f, ...)
{
	va_list ap;
	b->len = 0;
	va_start(ap, f);
	int n = q7fmt(put, b, f, ap);
	va_end(ap);
	b->buf[b->len] = 0;
	return n;
}

#define SAME(f, ...)                                                                 \
	do {                                                                             \
		char want[512];                                                              \
		struct sbuf got;                                                             \
		int wn = snprintf(want, sizeof want, f, __VA_ARGS__);                        \
		int gn = fmt(&got, f, __VA_ARGS__);                                          \
		ck_assert_msg(strcmp(want, got.buf) == 0 && wn == gn,                        \
		              "format \"%s\": got \"%s\" (%d), want \"%s\" (%d)", f, got.buf, \
		              gn, want, wn);                                                 \
	} while (0)

START_TEST(integers)
{
	SAME("%d|%i|%u", 0, -1, 4000000000u);
	SAME("%5d|%-5d|%05d|%+d|% d", 42, 42, -42, 7, 7);
	SAME("%.3d|%.0d|%8.3d|%-8.3d|", 5, 0, -5, 5);
	SAME("%x|%X|%#x|%#X|%o|%#o|%#o", 255u, 255u, 255u, 0u, 8u, 8u, 0u);
	SAME("%lld|%llu|%llx", (long long)INT64_MIN, (unsigned long long)UINT64_MAX,
	     0x123456789abcdefull);
	SAME("%ld|%lu|%zu|%jd|%td", -123456789L, 123456789UL, (size_t)77, (intmax_t)-5,
	     (ptrdiff_t)-9);
	SAME("%hd|%hhd|%hu|%hhu", 70000, 300, 70000, 300);
	SAME("%*d|%-*d|%.*d", 6, 1, 6, 2, 4, 3);
	SAME("%c|%3c|%-3c|%%|%s|%.2s|%8s|%-8s|", 'a', 'b', 'c', "str", "str", "right", "left");
}
END_TEST

START_TEST(floats)
{
	SAME("%f|%f|%f|%f", 0.0, 1.0, -2.5, 3.14159);
	SAME("%.0f|%.1f|%.2f|%.3f", 0.5, 0.25, 1.005, 123.456);
	SAME("%.0f|%.0f|%.0f", 1.5, 2.5, 9.5);
	SAME("%e|%E|%.2e|%.0e", 12345.678, 0.000123, 1e100, 5e-5);
	SAME("%g|%g|%g|%g|%g|%g", 100000.0, 1000000.0, 0.0001, 0.00001, 123.456, 0.0);
	SAME("%G|%.3g|%#g|%g", 1e-10, 3.14159, 1.0, 1e15);
	SAME("%8.3f|%-8.3f|%08.3f|%+.2f|% .2f", 3.14159, 3.14159, -3.14159, 2.0, 2.0);
	SAME("%f|%F|%e|%g|%5f", INFINITY, -INFINITY, NAN, -NAN, INFINITY);
	SAME("%.6f|%.6f|%.6f", 0.0000004, 0.0000006, 0.0000015);
	SAME("%f|%f", 1e18, 123456789012.0);
	SAME("%f|%g", (double)1.1f, (double)0.1f);
}
END_TEST

/* Random doubles: the same length and all but the last digit. */
START_TEST(random_floats)
{
	srand(7);
	const char *formats[] = {"%.6e", "%.4f", "%g", "%.10g"};
	for (int i = 0; i < 20000; i++) {
		double x = ldexp((double)rand() / RAND_MAX, rand() % 120 - 60) * (rand() % 2 ? 1 : -1);
		const char *f = formats[i % 4];
		char want[128];
		struct sbuf got;
		snprintf(want, sizeof want, f, x);
		fmt(&got, f, x);
		if (strcmp(want, got.buf) == 0)
			continue;
		/* differs only in the last digit, by one */
		size_t n = strlen(want);
		ck_assert_msg(n == got.len, "%s of %.17g: got %s, want %s", f, x, got.buf, want);
		double a = strtod(want, NULL), b = strtod(got.buf, NULL);
		ck_assert_msg(fabs(a - b) <= fabs(a) * 2e-6 + 1e-4,
		              "%s of %.17g: got %s, want %s", f, x, got.buf, want);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("printf_core");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, integers);
	tcase_add_test(tc, floats);
	tcase_add_test(tc, random_floats);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
