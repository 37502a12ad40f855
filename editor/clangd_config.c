/* clangd's configuration under q7cc-clangd: see clangd_config.h. */
#include "clangd_config.h"
#include "support.h"
#include "tempfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The user's configuration, as large as one is likely to be. */
#define USER_CONFIG_MAX (1 << 20)

/* The user's config.yaml (clangd's: $XDG_CONFIG_HOME/clangd, else
 * ~/.config/clangd), a regular file only; NULL when there is none. */
static char *user_config(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *path = xdg && *xdg ? q7_xasprintf("%s/clangd/config.yaml", xdg)
	             : home && *home ? q7_xasprintf("%s/.config/clangd/config.yaml", home)
	                             : NULL;
	const char *why = NULL;
	size_t len;
	char *text = path ? q7_read_regular(path, USER_CONFIG_MAX, &len, &why) : NULL;
	if (path && !text && errno != ENOENT)
		q7_warning("%s: not used under q7cc-clangd: %s", path,
		           errno == EFBIG ? "larger than 1 MiB" : why);
	free(path);
	return text;
}

/* s (taken) as the inside of a YAML single-quoted string: ' doubled. */
static char *yaml_quoted(char *s)
{
	struct q7_strbuf b = {0};
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			q7_sb_addc(&b, '\'');
		q7_sb_addc(&b, *p);
	}
	free(s);
	return q7_sb_take(&b);
}

/* The user's configuration (user, taken; NULL for none), then ours: a
 * fragment of its own ("---"), so nothing of the user's is changed;
 * -idirafter so that the project's headers, system ones included, are
 * found before q7cc's stand-ins. */
static char *config_text(char *user)
{
	char *inc = yaml_quoted(q7_prefix_path("include/q7cc"));
	char *f = q7_xasprintf("%s\n---\n# q7cc-clangd (docs/editors.md, \"What clangd sees\")\n"
	                       "CompileFlags:\n  Remove: ['--q7-*']\n  Add: ['-idirafter', '%s']\n",
	                       user ? user : "", inc);
	free(inc);
	free(user);
	return f;
}

bool q7_clangd_config(void)
{
	char *home = q7_path_join(q7_temp_dir(), "config");
	char *dir = q7_path_join(home, "clangd"), *path = q7_path_join(dir, "config.yaml");
	char *text = config_text(user_config());
	const char *what;
	bool ok = (mkdir(home, 0700) == 0 || errno == EEXIST) &&
	          (mkdir(dir, 0700) == 0 || errno == EEXIST) &&
	          q7_outfile_write(path, text, strlen(text), 0600, &what) == 0 &&
	          setenv("XDG_CONFIG_HOME", home, 1) == 0;
	if (!ok)
		q7_warning("%s: cannot write clangd's configuration: %s", path, strerror(errno));
	free(text);
	free(path);
	free(dir);
	free(home);
	return ok;
}
