/* The end of every analysis test's main(): run the suite, report. */
#ifndef Q7_TEST_RUN_SUITE_H
#define Q7_TEST_RUN_SUITE_H

#include <check.h>
#include <stdbool.h>

static inline int run_suite(Suite *s, bool fork)
{
	SRunner *sr = srunner_create(s);
	if (!fork)
		srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}

#endif
