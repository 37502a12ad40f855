/* wrapper/objcache: the dispatch wrapper's object, reused while its
 * compile's inputs are unchanged (docs/driver.md, "The wrapper object
 * cache"), under the wrapper/ folder of q7cc's cache folder (cachefile.h). */
#ifndef Q7_OBJCACHE_H
#define Q7_OBJCACHE_H

#include "support.h"

#include <stdbool.h>

struct q7_objcache {
	char *entry;            /* the entry's path; NULL: no cache */
	struct q7_strbuf key;   /* the key, as the entry holds it */
	const char *src, *obj;  /* the compile's temporaries */
	char *dep;              /* where the compile writes its dependencies */
};

/* Prepares the lookup of cmd (compiling src into obj) for text. dep: the
 * dependency file the compile is to write (beside obj; the caller passes
 * q7_objcache_env to its spawn). A disabled cache leaves c->entry NULL. */
void q7_objcache_init(struct q7_objcache *c, const char *text, size_t len, char *const *cmd,
                      const char *src, const char *obj, const char *dep);
/* True when a valid entry was copied to c->obj. */
bool q7_objcache_fetch(struct q7_objcache *c);
/* The variable that makes GCC write every header the compile reads
 * (SUNPRO_DEPENDENCIES), set in this process's environment until
 * q7_objcache_env_done; the compile inherits it. */
void q7_objcache_env(const struct q7_objcache *c);
void q7_objcache_env_done(void);
/* After a successful compile: stores c->obj with the headers of c->dep.
 * Silent on failure. */
void q7_objcache_store(struct q7_objcache *c);
void q7_objcache_free(struct q7_objcache *c);

/* For tests: the header paths of make dependency text (the rule's
 * prerequisites, escapes undone). */
void q7_objcache_parse_deps(const char *text, struct q7_strvec *out);

#endif
