/* q7analysis-server: keeps libclang loaded for q7cc (server.c says how). */
#include "internal.h"

int main(int argc, char **argv)
{
	q7_set_progname("q7analysis-server");
	return q7_analysis_server_main(argc, argv);
}
