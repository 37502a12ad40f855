/* support/args: the small tools' table-driven command-line reader. */
#include "args.h"

#include <string.h>

/* Where the help starts, and the line's width. */
#define HELP_COLUMN 24
#define WIDTH 79

static void spell(FILE *f, const struct q7_args_opt *o, int *col)
{
	*col += fprintf(f, "%s", o->name);
	if (o->value && o->arg)
		*col += fprintf(f, "%s%s", o->name[1] == '-' ? "=" : " ", o->arg);
}

/* help from column col on, words wrapped at WIDTH under HELP_COLUMN. */
static void wrap(FILE *f, const char *help, int col)
{
	if (col >= HELP_COLUMN - 1) {
		fputc('\n', f);
		col = 0;
	}
	fprintf(f, "%*s", HELP_COLUMN - col, "");
	col = HELP_COLUMN;
	while (*help) {
		size_t n = strcspn(help, " ");
		if (col > HELP_COLUMN && col + 1 + (int)n > WIDTH) {
			fprintf(f, "\n%*s", HELP_COLUMN, "");
			col = HELP_COLUMN;
		} else if (col > HELP_COLUMN) {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)n, help);
		help += n;
		help += strspn(help, " ");
	}
	fputc('\n', f);
}

void q7_args_help(FILE *f, const struct q7_args_opt *opts)
{
	fprintf(f, "Options:\n");
	for (const struct q7_args_opt *o = opts; o->name; o++) {
		if (!o->help)
			continue;
		int col = fprintf(f, "  ");
		spell(f, o, &col);
		for (const struct q7_args_opt *a = opts; a->name; a++)
			if (a->id == o->id && !a->help) {
				col += fprintf(f, ", ");
				spell(f, a, &col);
			}
		wrap(f, o->help, col);
	}
}

void q7_args_version(const char *tool)
{
	printf("%s (q7cc) %s\n", tool, Q7CC_VERSION);
}

void q7_args_init(struct q7_args *p, int argc, char **argv, const struct q7_args_opt *opts,
                  unsigned style)
{
	*p = (struct q7_args){.argc = argc, .argv = argv, .opts = opts, .style = style, .next = 1};
	if (style & Q7_ARGS_GETOPT)
		p->style |= Q7_ARGS_LONG_NEXT;
}

/* An argument that only looks like an option: a negative number. */
static bool is_number(const char *a)
{
	return (a[1] >= '0' && a[1] <= '9') || a[1] == '.' || strcmp(a, "-inf") == 0;
}

/* How arg a names option o: 0 not at all, 1 alone (its value, if it takes
 * one, comes next), 2 with its value joined, at *joined. */
static int match(const struct q7_args *p, const char *a, const struct q7_args_opt *o,
                 const char **joined)
{
	const char *name = o->name;
	bool single = a[1] != '-';
	if (o->exact)
		return strcmp(a, name) == 0;
	if (p->style & Q7_ARGS_GETOPT) {
		a += single ? 1 : 2;
		name += name[1] == '-' ? 2 : 1;
	}
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == 0)
		return 1;
	if (!o->value)
		return 0;
	bool is_short = (p->style & Q7_ARGS_GETOPT) ? n == 1 : o->name[1] != '-';
	if (a[n] == '=' && (!is_short || (p->style & Q7_ARGS_GETOPT))) {
		*joined = a + n + 1;
		return 2;
	}
	if (is_short && single) {
		*joined = a + n;
		return 2;
	}
	return 0;
}

int q7_args_next(struct q7_args *p, const char **val)
{
	*val = NULL;
	if (p->next >= p->argc || !p->argv[p->next])
		return Q7_ARGS_END;
	const char *a = p->argv[p->next++];
	*val = a;
	if (p->only_pos || a[0] != '-' || a[1] == 0 ||
	    ((p->style & Q7_ARGS_NUMBERS) && is_number(a)))
		return Q7_ARGS_POS;
	if ((p->style & Q7_ARGS_DASHDASH) && strcmp(a, "--") == 0) {
		p->only_pos = true;
		return q7_args_next(p, val);
	}
	for (const struct q7_args_opt *o = p->opts; o->name; o++) {
		const char *joined = NULL;
		int m = match(p, a, o, &joined);
		if (m == 0)
			continue;
		if (m == 2) {
			*val = joined;
			return o->id;
		}
		if (!o->value) {
			*val = NULL;
			return o->id;
		}
		if (o->name[1] == '-' && !(p->style & Q7_ARGS_LONG_NEXT))
			continue; /* "--target" alone: not this option's spelling */
		if (p->next >= p->argc || !p->argv[p->next])
			return Q7_ARGS_NO_VALUE;
		*val = p->argv[p->next++];
		return o->id;
	}
	return Q7_ARGS_UNKNOWN;
}
