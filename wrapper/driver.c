/* PLACEHOLDER until the driver lands. */
#include "driver.h"
#include "support.h"

int q7_driver_main(int argc, char **argv)
{
	(void)argc; (void)argv;
	q7_error("the driver is not implemented yet");
	return Q7_EXIT_INTERNAL;
}
