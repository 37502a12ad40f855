/* C++ types -> op kinds, and the spelling a forward declaration of the
 * kernel must use so that it mangles like the definition on the target:
 * int64_t is "long long" under ILP32 (the device) and "long" on x86-64
 * (the host); the spelling comes from the canonical type, never from a
 * typedef's name. */
#include "mangle.h"
#include "plugin.h"

#include <stdlib.h>
#include <string.h>

char *q7c_qualname(CXCursor c)
{
	struct q7_strvec parts = {0};
	for (CXCursor p = c; !clang_Cursor_isNull(p) && !clang_isTranslationUnit(clang_getCursorKind(p));
	     p = clang_getCursorSemanticParent(p)) {
		enum CXCursorKind k = clang_getCursorKind(p);
		bool scope = k == CXCursor_Namespace || k == CXCursor_StructDecl ||
		             k == CXCursor_ClassDecl || k == CXCursor_UnionDecl ||
		             k == CXCursor_ClassTemplate ||
		             k == CXCursor_ClassTemplatePartialSpecialization;
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

/* Records: at::Tensor and at::Scalar (c10::Scalar in PyTorch proper), by
 * the one list that the link-time demangler uses too (mangle.h). */
static enum q7_kind record_kind(CXType canon, char **qual)
{
	*qual = q7c_qualname(clang_getTypeDeclaration(canon));
	return q7_class_kind(*qual, NULL);
}

static const char *record_why(const char *qual)
{
	const char *why;
	q7_class_kind(qual, &why);
	return why ? why : "a class other than Tensor and Scalar";
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
	char *spell = NULL;
	char *qual = NULL;
	memset(k, 0, sizeof *k);
	switch (c.kind) {
	case CXType_LValueReference: {
		CXType pointee = clang_getPointeeType(c);
		if (ret) {
			set_invalid(k, t, "a reference");
			return;
		}
		if (!clang_isConstQualifiedType(pointee)) {
			set_invalid(k, t, "a reference to non-const");
			return;
		}
		if (clang_isVolatileQualifiedType(pointee)) {
			set_invalid(k, t, "volatile");
			return;
		}
		if (pointee.kind == CXType_Record) {
			k->kind = record_kind(pointee, &qual);
			if (k->kind != Q7_KIND_INVALID)
				k->ctype = q7_xasprintf("const %s &", qual);
			else
				set_invalid(k, t, record_why(qual));
		} else if ((k->kind = builtin_kind(pointee, &spell)) != Q7_KIND_INVALID) {
			k->ctype = q7_xasprintf("const %s &", spell);
		} else {
			set_invalid(k, t, builtin_why(pointee));
		}
		free(spell);
		free(qual);
		return;
	}
	case CXType_RValueReference: set_invalid(k, t, "an rvalue reference"); return;
	case CXType_Pointer:
	case CXType_BlockPointer:
	case CXType_MemberPointer: set_invalid(k, t, "a pointer"); return;
	case CXType_ConstantArray:
	case CXType_IncompleteArray:
	case CXType_VariableArray:
	case CXType_DependentSizedArray: set_invalid(k, t, "an array"); return;
	case CXType_Record:
		if (clang_isVolatileQualifiedType(c)) {
			set_invalid(k, t, "volatile");
			return;
		}
		k->kind = record_kind(c, &qual);
		/* A kernel returns a Tensor by value; Scalar is for parameters. */
		if (k->kind == Q7_KIND_INVALID || (ret && k->kind != Q7_KIND_TENSOR))
			set_invalid(k, t, record_why(qual));
		else
			k->ctype = q7_xstrdup(qual);
		free(qual);
		return;
	default:
		if (clang_isVolatileQualifiedType(c)) {
			set_invalid(k, t, "volatile");
			return;
		}
		if (ret) {
			set_invalid(k, t, builtin_why(c));
			return;
		}
		if ((k->kind = builtin_kind(c, &spell)) != Q7_KIND_INVALID)
			k->ctype = spell;
		else
			set_invalid(k, t, builtin_why(c));
		return;
	}
}
