/* q7_analyze: hands the TU to the resident analysis server when one runs
 * (server.c), else loads the libclang plugin (lib/q7cc/q7analysis-clang.so)
 * on first use and analyses in-process, so that q7cc itself never links
 * libclang and a TU without kernels never pays for loading it. */
#include "analysis.h"
#include "internal.h"
#include "server.h"

#include <dlfcn.h>
#include <stdlib.h>

q7_plugin_entry_fn q7_plugin_load(const char *path, struct q7_err *err)
{
	if (!q7_path_exists(path)) {
		q7_err_set(err, path,
		           "cannot load the kernel analysis: the plugin is missing (build q7cc with "
		           "the Debian package libclang-14-dev installed, or reinstall q7cc)");
		return NULL;
	}
	/* RTLD_LOCAL: the plugin's copies of q7's support code stay private. */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		q7_err_set(err, path,
		           "cannot load the kernel analysis: %s (install the Debian package "
		           "libclang1-14)",
		           dlerror());
		return NULL;
	}
	q7_plugin_entry_fn entry = (q7_plugin_entry_fn)dlsym(h, Q7_PLUGIN_ENTRY);
	if (!entry)
		q7_err_set(err, path, "not a q7cc analysis plugin: %s", dlerror());
	return entry;
}

int q7_analyze(const struct q7_analysis_opts *o, struct q7_op_table *ops,
               struct q7_diags *diags, struct q7_err *err)
{
	static q7_plugin_entry_fn entry;
	static bool tried, server_tried;
	char *plugin = q7_prefix_path("lib/q7cc/q7analysis-clang.so");
	if (!entry && !server_tried && q7_server_enabled()) {
		char *server = q7_prefix_path("lib/q7cc/q7analysis-server");
		char *sock = q7_path_is_executable(server) ? q7_server_socket(plugin, server) : NULL;
		int rc, got = sock ? q7_server_analyze(sock, o, ops, diags, &rc, Q7_SERVER_ACK_MS)
		                   : Q7_SERVER_ABSENT;
		/* None yet: start one for the TUs to come, and queue this one on
		 * it rather than load libclang here too (docs/lint-rules.md,
		 * "When analysis runs", has the measurement). */
		if (sock && got == Q7_SERVER_ABSENT) {
			q7_server_start(server, sock, plugin);
			got = q7_server_analyze(sock, o, ops, diags, &rc, Q7_SERVER_FIRST_ACK_MS);
		}
		/* Past the server's limit, the same parse here would take as long
		 * again (it used to start over, unbounded). */
		if (got == Q7_SERVER_TIMED_OUT) {
			q7_diags_add(diags, Q7_SEV_ERROR, o->source, 0, 0, "",
			             "libclang's analysis did not end within %u s (the analysis "
			             "server's limit); the kernels of this file are not known",
			             q7_server_parse_limit_s());
			rc = Q7_ANALYZE_PARSE_ERROR;
		}
		free(sock);
		free(server);
		if (got == 0 || got == Q7_SERVER_TIMED_OUT) {
			free(plugin);
			return rc;
		}
		server_tried = true;
	}
	if (!tried) {
		tried = true;
		entry = q7_plugin_load(plugin, err);
	}
	free(plugin);
	if (!entry)
		return Q7_ANALYZE_UNAVAILABLE;
	return entry(Q7_PLUGIN_ABI, o, ops, diags);
}
