/* PLACEHOLDER until runtime/run/emulated.c lands (the emulation engineer
 * deletes this file). */
#include <stdio.h>
#include <string.h>

#include "run.h"

int q7_run_emulated(const struct q7_run_request *req, struct q7_run_result *result)
{
	(void)req;
	memset(result, 0, sizeof *result);
	result->status = -1;
	snprintf(result->message, sizeof result->message,
	         "--target=emulated is not available in this build yet");
	return 1;
}
