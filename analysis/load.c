/* q7_analyze: loads the libclang plugin (lib/q7cc/q7analysis-clang.so)
 * on first use, so that q7cc itself never links libclang and a TU without
 * kernels never pays the ~70 ms it takes to load. */
#include "analysis.h"
#include "internal.h"

#include <dlfcn.h>
#include <stdlib.h>

static q7_plugin_entry_fn load_plugin(void)
{
	static q7_plugin_entry_fn entry;
	static bool tried;
	if (tried)
		return entry;
	tried = true;
	char *path = q7_prefix_path("lib/q7cc/q7analysis-clang.so");
	if (!q7_path_exists(path)) {
		q7_error("%s: cannot load the kernel analysis: the plugin is missing (build q7cc with "
		         "the Debian package libclang-14-dev installed, or reinstall q7cc)",
		         path);
		free(path);
		return NULL;
	}
	/* RTLD_LOCAL: the plugin's copies of q7's support code stay private. */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		q7_error("%s: cannot load the kernel analysis: %s (install the Debian package "
		         "libclang1-14)",
		         path, dlerror());
		free(path);
		return NULL;
	}
	entry = (q7_plugin_entry_fn)dlsym(h, Q7_PLUGIN_ENTRY);
	if (!entry)
		q7_error("%s: not a q7cc analysis plugin: %s", path, dlerror());
	free(path);
	return entry;
}

int q7_analyze(const struct q7_analysis_opts *o, struct q7_op_table *ops,
               struct q7_diags *diags)
{
	q7_plugin_entry_fn entry = load_plugin();
	if (!entry)
		return Q7_ANALYZE_UNAVAILABLE;
	return entry(Q7_PLUGIN_ABI, o, ops, diags);
}
