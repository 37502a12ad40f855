/* C++ types -> op kinds, and the spelling a forward declaration of the
 * kernel must use so that it mangles like the definition on the target
 * (docs/lint-rules.md, "What a kernel may look like"): from the canonical
 * type, never from a typedef's name. */
#include "mangle.h"
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

bool q7c_is_class(enum CXCursorKind k)
{
	return k == CXCursor_StructDecl || k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
	       k == CXCursor_ClassTemplate || k == CXCursor_ClassTemplatePartialSpecialization;
}

char *q7c_qualname(CXCursor c)
{
	struct q7_strvec parts = {0};
	for (CXCursor p = c; !clang_Cursor_isNull(p) && !clang_isTranslationUnit(clang_getCursorKind(p));
	     p = clang_getCursorSemanticParent(p)) {
		enum CXCursorKind k = clang_getCursorKind(p);
		bool scope = k == CXCursor_Namespace || q7c_is_class(k);
		/* extern "C" { } and the like are no scopes. Inline namespaces
		 * are: they are part of the symbol, so the dispatch wrapper's declaration
		 * must name them. */
		if (!clang_equalCursors(p, c) && !scope)
			continue;
		char *s = q7c_take(clang_getCursorSpelling(p));
		if (!*s && k == CXCursor_Namespace) {
			free(s);
			s = q7_xstrdup("(anonymous namespace)");
		}
		q7_sv_add(&parts, s);
		free(s);
	}
	struct q7_strbuf b = {0};
	for (size_t i = parts.n; i-- > 0;) {
		q7_sb_add(&b, parts.v[i]);
		if (i)
			q7_sb_add(&b, "::");
	}
	q7_sv_free(&parts);
	return q7_sb_take(&b);
}

/* Arithmetic kinds by the canonical builtin type's spelling, through the
 * kind table (<q7/kinds.h>); *ctype is that spelling (free it). A 32-bit
 * long (ILP32) passes as int, a 64-bit one (LP64) as long long, each
 * keeping its own spelling for the declaration. */
static enum q7_kind builtin_kind(CXType canon, char **ctype)
{
	*ctype = NULL;
	if (canon.kind < CXType_FirstBuiltin || canon.kind > CXType_LastBuiltin)
		return Q7_KIND_INVALID;
	char *s = q7c_take(clang_getTypeSpelling(canon));
	const char *t = s;
	while (strncmp(t, "const ", 6) == 0 || strncmp(t, "volatile ", 9) == 0)
		t += *t == 'c' ? 6 : 9;
	long long size = clang_Type_getSizeOf(canon);
	enum q7_kind k = q7_kind_of_builtin(t, size > 0 ? (unsigned)size * 8 : 0);
	if (k != Q7_KIND_INVALID)
		*ctype = q7_xstrdup(t);
	free(s);
	return k;
}

static const char *builtin_why(CXType canon)
{
	switch (canon.kind) {
	case CXType_UInt:
	case CXType_ULong:
	case CXType_ULongLong:
	case CXType_UShort:
	case CXType_UChar:
	case CXType_Char_U: return "unsigned";
	case CXType_Char_S:
	case CXType_SChar:
	case CXType_Short: return "narrower than int";
	case CXType_Enum: return "an enum";
	case CXType_Void: return "nothing";
	default: return "not a kind q7cc can pass";
	}
}

static void set_invalid(struct q7c_kind *k, CXType t, const char *why)
{
	k->kind = Q7_KIND_INVALID;
	k->ctype = q7c_take(clang_getTypeSpelling(t));
	k->why = why;
}

void q7c_classify(CXType t, bool ret, struct q7c_kind *k)
{
	CXType c = clang_getCanonicalType(t);
	bool ref = c.kind == CXType_LValueReference;
	CXType v = ref ? clang_getPointeeType(c) : c; /* the value passed */
	const char *why = NULL;
	memset(k, 0, sizeof *k);
	switch (c.kind) {
	case CXType_RValueReference: why = "an rvalue reference"; break;
	case CXType_Pointer:
	case CXType_BlockPointer:
	case CXType_MemberPointer: why = "a pointer"; break;
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray: why = "an array"; break;
	default:
		if (ref && ret)
			why = "a reference";
		else if (ref && !clang_isConstQualifiedType(v))
			why = "a reference to non-const";
		else if (clang_isVolatileQualifiedType(v))
			why = "volatile";
	}
	char *spell = NULL;
	if (why) {
		k->kind = Q7_KIND_INVALID;
	} else if (v.kind == CXType_Record) {
		/* at::Tensor and at::Scalar (c10::Scalar in PyTorch proper), by the
		 * one list that the link-time demangler uses too (mangle.h). */
		spell = q7c_qualname(clang_getTypeDeclaration(v));
		k->kind = q7_class_kind(spell, &why);
		/* A kernel returns a Tensor by value; Scalar is for parameters. */
		if (ret && k->kind != Q7_KIND_TENSOR)
			k->kind = Q7_KIND_INVALID;
		why = why ? why : "a class other than Tensor and Scalar";
	} else {
		k->kind = ret ? Q7_KIND_INVALID : builtin_kind(v, &spell);
		why = builtin_why(v);
	}
	if (k->kind == Q7_KIND_INVALID)
		set_invalid(k, t, why);
	else
		k->ctype = ref ? q7_xasprintf("const %s &", spell) : q7_xstrdup(spell);
	free(spell);
}
