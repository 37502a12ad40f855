/* wrapper/identity: telling a q7cc executable from a real compiler.
 *
 * Every q7cc carries an ELF section .note.q7cc. Any q7cc install on PATH
 * (another version, a team's install beside a build's stage/bin), under
 * any name (its xt-clang++ link, a renamed copy), is then recognised and
 * never taken for the vendor compiler, which would run q7cc within q7cc. */
#ifndef Q7_IDENTITY_H
#define Q7_IDENTITY_H

#include <stdbool.h>

/* True when path is an executable of q7cc (this one or any other). */
bool q7_is_q7cc(const char *path);

#endif
