/* The library's entry point, q7_entry (also _start on the device):
 * docs/runtime.md, "How a call runs". */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rt.h"

struct q7rt_state q7rt;

namespace {

struct op_entry {
	const char *name;
	const char *schema;
	wrapper_fn fn;
};

struct op_list {
	int n;
	op_entry ops[Q7RT_MAX_OPS];
};

/* A schema's parameters; the words point into the schema text. */
struct signature {
	unsigned n;
	int kinds[Q7_MAX_ARGS];
	const char *types[Q7_MAX_ARGS]; /* as written: "int", "long long" */
	unsigned type_len[Q7_MAX_ARGS];
	const char *names[Q7_MAX_ARGS];
	unsigned name_len[Q7_MAX_ARGS];
};

/* The running op's, for the marshalling's messages (q7rt_arg_label). */
const signature *running;

/* Sets f's status and message; false, what a check that failed returns. */
bool set_status(q7_frame *f, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool set_status(q7_frame *f, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->message, sizeof f->message, fmt, ap);
	va_end(ap);
	f->status = status;
	return false;
}

/* register_funcs: the ops the generated wrapper defines. */
void register_funcs(op_list *l)
{
	int n = get_func_cnt();
	l->n = 0;
	for (int i = 0; i < n && l->n < Q7RT_MAX_OPS; i++) {
		op_entry *e = &l->ops[l->n];
		e->name = get_func_name(i);
		e->schema = get_func_schema(i);
		e->fn = get_func_ptr(i);
		if (e->name && e->fn)
			l->n++;
	}
}

/* The kinds' rows of <q7/kinds.h>: the words schema text names them by
 * and the frame arguments each takes. */
struct kind_row {
	const char *torch, *name, *also;
	unsigned args;
};
#define Q7RT_KIND_ROW(NAME, TS, VENDOR, ALSO, CXX, MANGLED, INTBITS, XT, CALL, LOCAL, ARGS) \
	{TS, VENDOR, ALSO, ARGS},
const kind_row kind_rows[] = {{"", "", "", 0}, Q7_KINDS(Q7RT_KIND_ROW)};
#undef Q7RT_KIND_ROW
static_assert(sizeof kind_rows / sizeof kind_rows[0] == Q7_KIND_END, "one row per kind");

/* By Q7_ARG_*. */
const char *arg_kind_name(uint32_t k)
{
	static const char *const names[] = {"nothing", "tensor", "int", "float", "bool"};
	return k < sizeof names / sizeof names[0] ? names[k] : "nothing";
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

/* The length of word w at p (a space in w matches a run of blanks), when
 * p holds it as a whole word; else 0. */
size_t match_word(const char *p, const char *w)
{
	const char *s = p;
	if (!*w)
		return 0;
	for (; *w; w++) {
		if (*w == ' ') {
			if (!is_space(*s))
				return 0;
			while (is_space(*s))
				s++;
		} else if (*s++ != *w) {
			return 0;
		}
	}
	return is_space(*s) || *s == ',' || *s == ')' ? (size_t)(s - p) : 0;
}

/* The kind the type at p names, by its exact name or another word first,
 * then by its TorchScript type; *len is its length. INVALID if none. */
int kind_of_word(const char *p, size_t *len)
{
	for (int pass = 0; pass < 2; pass++)
		for (int k = Q7_KIND_INVALID + 1; k < Q7_KIND_END; k++) {
			const kind_row &r = kind_rows[k];
			size_t n = pass ? match_word(p, r.torch) : match_word(p, r.name);
			if (!pass && !n)
				n = match_word(p, r.also);
			if (n) {
				*len = n;
				return k;
			}
		}
	return Q7_KIND_INVALID;
}

/* "ns::relu(Tensor x, int k) -> Tensor" (TorchScript, or the vendor's
 * "long long k"): the parameters' kinds, types as written and names. -1
 * when the text is not a schema this runtime can marshal. Only the type
 * matters here: an int of 32 bits is the wrapper's to check, which knows
 * the exact kind (customop_next_int). */
int parse_schema(const char *s, signature *sig)
{
	sig->n = 0;
	const char *p = s ? strchr(s, '(') : nullptr;
	if (!p)
		return -1;
	p++;
	while (is_space(*p))
		p++;
	if (*p == ')')
		return 0;
	for (;;) {
		while (is_space(*p))
			p++;
		if (sig->n == Q7_MAX_ARGS)
			return -1;
		size_t len = 0;
		int kind = kind_of_word(p, &len);
		if (kind == Q7_KIND_INVALID)
			return -1;
		sig->types[sig->n] = p;
		sig->type_len[sig->n] = (unsigned)len;
		p += len;
		while (is_space(*p))
			p++;
		const char *name = p;
		while (*p && *p != ',' && *p != ')' && !is_space(*p))
			p++;
		sig->kinds[sig->n] = kind;
		sig->names[sig->n] = name;
		sig->name_len[sig->n] = (unsigned)(p - name);
		sig->n++;
		while (is_space(*p))
			p++;
		if (*p == ')')
			return 0;
		if (*p != ',')
			return -1;
		p++;
	}
}

/* The op a call names: by its name, or by "ns::name" as its schema
 * qualifies it (torch.ops.ns.name's name). */
bool names_op(const char *want, const op_entry *e)
{
	if (strcmp(want, e->name) == 0)
		return true;
	size_t n = strlen(want);
	const char *sep = strstr(want, "::");
	return sep && strcmp(sep + 2, e->name) == 0 && e->schema && strncmp(e->schema, want, n) == 0 &&
	       e->schema[n] == '(';
}

void list_ops(char *buf, size_t size, const op_list *l)
{
	size_t used = strlen(buf);
	for (int i = 0; i < l->n; i++) {
		const char *text = l->ops[i].schema ? l->ops[i].schema : l->ops[i].name;
		int n = snprintf(buf + used, size - used, "%s%s", i ? "; " : "", text);
		if (n < 0 || (size_t)n >= size - used) {
			if (size > 4)
				memcpy(buf + size - 4, "...", 4);
			return;
		}
		used += (size_t)n;
	}
}

bool check_tensor(q7_frame *f, const q7_tensor_desc *d, const char *what)
{
	if (q7rt_dtype_size((int)d->dtype) == 0)
		return set_status(f, Q7_STATUS_BAD_ARGS, "%s: %s has unknown dtype %u", f->op, what,
		                  d->dtype);
	if (d->ndim > Q7_MAX_DIMS)
		return set_status(f, Q7_STATUS_BAD_ARGS, "%s: %s has %u dims, at most %d", f->op, what,
		                  d->ndim, Q7_MAX_DIMS);
	uint64_t n = 1;
	for (uint32_t i = 0; i < d->ndim; i++) {
		if (d->sizes[i] > Q7_MAX_DIM_SIZE)
			return set_status(f, Q7_STATUS_BAD_ARGS, "%s: %s has size %u in dim %u, at most %u",
			                  f->op, what, d->sizes[i], i, Q7_MAX_DIM_SIZE);
		n *= d->sizes[i];
		if (n > Q7_MAX_NUMEL)
			return set_status(f, Q7_STATUS_BAD_ARGS,
			                  "%s: %s has more than 2^31-1 elements (the call frame's strides are "
			                  "32-bit)", f->op, what);
	}
	if (n > 0 && d->data == 0)
		return set_status(f, Q7_STATUS_BAD_ARGS, "%s: %s has no data", f->op, what);
	return true;
}

/* "argument 2 (k)", or "argument 2" when the schema (if any) names none. */
void arg_label(const signature *sig, unsigned i, char *buf, size_t size)
{
	if (sig && i < sig->n && sig->name_len[i] != 0)
		snprintf(buf, size, "argument %u (%.*s)", i + 1, (int)sig->name_len[i], sig->names[i]);
	else
		snprintf(buf, size, "argument %u", i + 1);
}

/* Each frame argument against the schema's type. */
bool check_args(q7_frame *f, const op_entry *op, const signature *sig)
{
	if (f->nargs != sig->n)
		return set_status(f, Q7_STATUS_BAD_ARGS, "%s: expected %u argument%s, got %u (%s)", f->op,
		                  sig->n, sig->n == 1 ? "" : "s", f->nargs, op->schema);
	for (unsigned i = 0; i < sig->n; i++) {
		const q7_arg *a = &f->args[i];
		int k = sig->kinds[i];
		/* a bool also takes the integers 0 and 1 */
		bool ok = a->kind < 32 && (kind_rows[k].args & (1u << a->kind)) != 0 &&
		          !(k == Q7_KIND_BOOL && a->kind == Q7_ARG_INT && a->u.i != 0 && a->u.i != 1);
		/* The label only for a message: formatting it for every
		 * argument of every call would cost more than the checks. */
		if (ok && (k != Q7_KIND_TENSOR || check_tensor(f, &a->u.tensor, "")))
			continue;
		char what[64];
		arg_label(sig, i, what, sizeof what);
		if (!ok)
			set_status(f, Q7_STATUS_BAD_ARGS, "%s: %s: expected %.*s, got %s", f->op, what,
			           (int)sig->type_len[i], sig->types[i], arg_kind_name(a->kind));
		else
			check_tensor(f, &a->u.tensor, what); /* again, for the message */
		return false;
	}
	return true;
}

/* op's parameters, once f's arguments are checked against them; NULL
 * (f's status and message set) when they are not what it takes. The last
 * op's parsed schema is kept, with a copy of its text to know it again: a
 * loader that calls one op again and again (the PyTorch bridge) does not
 * parse it each time. */
const signature *checked_signature(q7_frame *f, const op_entry *op)
{
	static char parsed_text[512];
	static signature parsed;
	if (!op->schema || strcmp(op->schema, parsed_text) != 0) {
		/* parsed from the copy, which its words then point into */
		bool fits = op->schema && strlen(op->schema) < sizeof parsed_text;
		if (fits)
			strcpy(parsed_text, op->schema);
		if (parse_schema(fits ? parsed_text : op->schema, &parsed) != 0) {
			parsed_text[0] = 0;
			set_status(f, Q7_STATUS_BAD_ARGS, "%s: cannot read the op's schema '%s'", f->op,
			           op->schema ? op->schema : "(none)");
			return nullptr;
		}
		if (!fits)
			parsed_text[0] = 0;
	}
	return check_args(f, op, &parsed) ? &parsed : nullptr;
}

/* Runs the launcher; false when the op bailed out (status already set). */
bool run_guarded(wrapper_fn fn)
{
	q7rt.guarded = true;
	if (Q7RT_SETJMP(q7rt.bail) != 0)
		return false;
	int rc = fn();
	q7rt.guarded = false;
	if (rc != 0)
		return set_status(q7rt.frame, Q7_STATUS_KERNEL_ERROR, "%s: the launcher returned %d",
		                  q7rt.op, rc);
	return true;
}

void describe(q7_tensor_desc *d, const q7rt_tensor *t, uint64_t data)
{
	memset(d, 0, sizeof *d);
	d->dtype = (uint32_t)t->dtype;
	d->ndim = (uint32_t)t->ndim;
	int64_t s = 1;
	for (int32_t i = t->ndim - 1; i >= 0; i--) {
		d->sizes[i] = (uint32_t)t->sizes[i];
		d->strides[i] = (int32_t)s;
		s *= t->sizes[i];
	}
	d->data = data;
}

/* The destination rule: docs/runtime.md, "How a call runs". */
bool finish_dst(q7_frame *f)
{
	const q7rt_tensor *d = q7rt.dst;
	if (!d && f->dst.data != 0)
		d = q7rt_wrap(&f->dst);
	if (!d)
		return set_status(f, Q7_STATUS_BAD_OUTPUT, "%s: %u cores and no destination tensor", f->op,
		                  f->cpu_count);
	const q7rt_tensor *t = q7rt.returned ? q7rt.ret : nullptr;
	if (t && t != d && t->data != d->data)
		set_status(f, Q7_STATUS_OK,
		           "%s: the kernel returned a tensor other than get_dst_tensor()%s; it is ignored "
		           "(the result is what the kernel wrote to get_dst_tensor())",
		           f->op, f->cpu_count > 1 ? " on several cores" : "");
	describe(&f->out, d, (uint64_t)reinterpret_cast<uintptr_t>(d->data));
	return true;
}

/* The elements of the destination the loader gave. */
uint64_t dst_numel(const q7_frame *f)
{
	uint64_t n = 1;
	for (uint32_t i = 0; i < f->dst.ndim && i < Q7_MAX_DIMS; i++)
		n *= f->dst.sizes[i];
	return n;
}

/* Its bytes. */
size_t dst_bytes(const q7_frame *f)
{
	return (size_t)(q7rt_dtype_size((int)f->dst.dtype) * dst_numel(f));
}

/* The returned tensor into frame->out (and into frame->dst when given). */
bool finish(q7_frame *f)
{
	if (q7rt.dst || f->cpu_count > 1)
		return finish_dst(f);
	const q7rt_tensor *t = q7rt.ret;
	if (!q7rt.returned || !t)
		return set_status(f, Q7_STATUS_KERNEL_ERROR, "%s: the kernel returned an undefined tensor",
		                  f->op);
	if (t->ndim > Q7_MAX_DIMS)
		return set_status(f, Q7_STATUS_BAD_OUTPUT, "%s: the result has %d dims", f->op, (int)t->ndim);
	for (int32_t i = 0; i < t->ndim; i++) {
		if (t->sizes[i] < 0 || (uint64_t)t->sizes[i] > Q7_MAX_DIM_SIZE)
			return set_status(f, Q7_STATUS_BAD_OUTPUT, "%s: the result has size %lld in dim %d",
			                  f->op, (long long)t->sizes[i], (int)i);
	}
	if (!q7rt_contiguous(t))
		return set_status(f, Q7_STATUS_BAD_OUTPUT, "%s: the result is not contiguous", f->op);
	uint64_t data = (uint64_t)reinterpret_cast<uintptr_t>(t->data);
	if (f->dst.data != 0 && data != f->dst.data) {
		uint64_t dn = dst_numel(f);
		if ((uint32_t)t->dtype != f->dst.dtype || (uint64_t)q7rt_numel(t) != dn)
			return set_status(f, Q7_STATUS_BAD_OUTPUT,
			                  "%s: the result (%s, %lld elements) does not fit the destination "
			                  "(%s, %llu elements)",
			                  f->op, q7rt_dtype_name(t->dtype), (long long)q7rt_numel(t),
			                  q7rt_dtype_name((int)f->dst.dtype), (unsigned long long)dn);
		if (!(f->loader_flags & Q7_FRAME_RESULT_ANYWHERE)) {
			memcpy(reinterpret_cast<void *>((uintptr_t)f->dst.data), t->data,
			       (size_t)q7rt_numel(t) * q7rt_dtype_size(t->dtype));
			data = f->dst.data;
		}
	}
	describe(&f->out, t, data);
	return true;
}

/* The op list (docs/runtime.md, "How a call runs"), without a NUL. */
bool list_into_dst(q7_frame *f, const op_list *l)
{
	char *buf = reinterpret_cast<char *>((uintptr_t)f->dst.data);
	uint64_t cap = q7rt_dtype_size((int)f->dst.dtype) * dst_numel(f);
	if (!buf || f->dst.ndim > Q7_MAX_DIMS || cap == 0)
		return set_status(f, Q7_STATUS_BAD_OUTPUT, "the op list needs a destination to be written to");
	uint64_t used = 0;
	for (int i = 0; i < l->n; i++) {
		const op_entry *e = &l->ops[i];
		const char *schema = e->schema ? e->schema : "";
		uint64_t need = strlen(e->name) + 1 + strlen(schema) + 1;
		if (used + need > cap)
			return set_status(f, Q7_STATUS_BAD_OUTPUT, "the op list (%d ops) does not fit %llu bytes",
			                  l->n, (unsigned long long)cap);
		memcpy(buf + used, e->name, strlen(e->name));
		used += strlen(e->name);
		buf[used++] = '\t';
		memcpy(buf + used, schema, strlen(schema));
		used += strlen(schema);
		buf[used++] = '\n';
	}
	memset(&f->out, 0, sizeof f->out);
	f->out.dtype = Q7_DTYPE_UINT8;
	f->out.ndim = 1;
	f->out.sizes[0] = (uint32_t)used;
	f->out.strides[0] = 1;
	f->out.data = f->dst.data;
	return true;
}

/* The red zone after the loader's destination (Q7_FRAME_DST_ROOM). */
unsigned char *dst_room(const q7_frame *f)
{
	if (!(f->loader_flags & Q7_FRAME_DST_ROOM) || (f->loader_flags & Q7_FRAME_UNCHECKED) ||
	    f->dst.data == 0)
		return nullptr;
	return reinterpret_cast<unsigned char *>((uintptr_t)f->dst.data) + dst_bytes(f);
}

/* The red zone after the destination, and the loader's free memory after
 * it up to the heap arena (Q7_FRAME_DST_MOAT): their bytes together. */
static size_t dst_room_bytes(const q7_frame *f, const unsigned char *room)
{
	uintptr_t end = (uintptr_t)(room + Q7_RED_ZONE), heap = (uintptr_t)f->heap_base;
	if ((f->loader_flags & Q7_FRAME_DST_MOAT) && heap > end && heap - end <= Q7_DST_MOAT_MAX)
		return Q7_RED_ZONE + (heap - end);
	return Q7_RED_ZONE;
}

bool check_frame(q7_frame *f)
{
	if (f->magic != Q7_FRAME_MAGIC || f->version != Q7_FRAME_VERSION ||
	    f->size != sizeof(q7_frame)) {
		f->status = Q7_STATUS_BAD_FRAME;
		/* Only write a message when the layout is ours. */
		if (f->magic == Q7_FRAME_MAGIC && f->size == sizeof(q7_frame))
			set_status(f, Q7_STATUS_BAD_FRAME, "frame version %u, this runtime speaks %u",
			           f->version, Q7_FRAME_VERSION);
		return false;
	}
	if (memchr(f->op, 0, sizeof f->op) == nullptr) {
		f->op[sizeof f->op - 1] = 0;
		set_status(f, Q7_STATUS_BAD_FRAME, "the op name is not NUL-terminated");
		return false;
	}
	if (f->nargs > Q7_MAX_ARGS)
		return set_status(f, Q7_STATUS_BAD_FRAME, "%u arguments, at most %d", f->nargs, Q7_MAX_ARGS);
	if (f->heap_base == 0 || f->heap_size < 4096 ||
	    f->heap_base + f->heap_size < f->heap_base)
		return set_status(f, Q7_STATUS_BAD_FRAME, "no heap arena (%llu bytes at 0x%llx)",
		                  (unsigned long long)f->heap_size, (unsigned long long)f->heap_base);
	return true;
}

} // namespace

bool q7rt_breached(q7_frame *f)
{
	unsigned char *room = dst_room(f);
	size_t zone = room ? dst_room_bytes(f, room) : 0;
	size_t at = room ? q7rt_red_zone_find(room, zone) : 0;
	if (at < zone) {
		set_status(f, Q7_STATUS_KERNEL_ERROR,
		           "%s: the kernel wrote past the end of the destination (get_dst_tensor(): %lu "
		           "bytes), at byte offset %lu; a kernel writes only into its output and its own "
		           "allocations",
		           f->op, (unsigned long)dst_bytes(f), (unsigned long)(dst_bytes(f) + at));
		return true;
	}
	q7rt_breach b;
	if (!q7rt_arena_check(&q7rt.heap, &b))
		return false;
	if (!b.block && room) { /* free memory before any block: the moat's continuation */
		b.bytes = dst_bytes(f);
		b.at = b.addr - (uintptr_t)f->dst.data;
		b.block = (uintptr_t)f->dst.data;
	}
	bool dst = (q7rt.dst && reinterpret_cast<uintptr_t>(q7rt.dst->data) == b.block) ||
	           (f->dst.data && (uintptr_t)f->dst.data == b.block);
	set_status(f, Q7_STATUS_KERNEL_ERROR,
	           "%s: the kernel wrote past the end of %s%lu bytes), at byte offset %lu; a kernel "
	           "writes only into its output and its own allocations",
	           f->op, dst ? "the destination (get_dst_tensor(): " : "a heap allocation (",
	           (unsigned long)b.bytes, (unsigned long)b.at);
	return true;
}

void q7rt_arg_label(unsigned i, char *buf, size_t size)
{
	arg_label(running, i, buf, size);
}

extern "C" void q7rt_fail_dtype(const q7rt_tensor *t, const char *what, int want)
{
	char label[96] = "";
	const q7_frame *f = q7rt.frame;
	uint64_t data = (uint64_t)reinterpret_cast<uintptr_t>(t->data);
	for (unsigned i = 0; f && i < f->nargs && i < Q7_MAX_ARGS && !*label; i++)
		if (f->args[i].kind == Q7_ARG_TENSOR && f->args[i].u.tensor.data == data)
			q7rt_arg_label(i, label, sizeof label);
	if (!*label && f && f->dst.data != 0 && f->dst.data == data)
		snprintf(label, sizeof label, "the destination");
	if (*label)
		q7rt_fail("%s: %s: tensor is %s, not %s", what, label, q7rt_dtype_name(t->dtype),
		          q7rt_dtype_name(want));
	q7rt_fail("%s: tensor is %s, not %s", what, q7rt_dtype_name(t->dtype), q7rt_dtype_name(want));
}

#if defined(__XTENSA__)
extern "C" void q7rt_device_stdio(void);
extern "C" void q7rt_device_mover(const struct q7_frame *f); /* device_memmove.c */

/* The image's static constructors, which no device loader runs: the LSP
 * scripts mark the arrays (hidden, so no symbol lookup is needed). */
typedef void (*q7rt_ctor)(void);
extern "C" {
extern q7rt_ctor __preinit_array_start[] __attribute__((weak, visibility("hidden")));
extern q7rt_ctor __preinit_array_end[] __attribute__((weak, visibility("hidden")));
extern q7rt_ctor __init_array_start[] __attribute__((weak, visibility("hidden")));
extern q7rt_ctor __init_array_end[] __attribute__((weak, visibility("hidden")));
extern q7rt_ctor _ctors_start[] __attribute__((weak, visibility("hidden")));
extern q7rt_ctor _ctors_end[] __attribute__((weak, visibility("hidden")));
}

/* Once per loaded image, at its first call (docs/runtime.md). */
static void run_ctors(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	for (q7rt_ctor *c = __preinit_array_start; c && c < __preinit_array_end; c++)
		(*c)();
	for (q7rt_ctor *c = __init_array_start; c && c < __init_array_end; c++)
		(*c)();
	for (q7rt_ctor *c = _ctors_end; c && c > _ctors_start;) /* .ctors run backwards */
		if (*--c != nullptr && *c != reinterpret_cast<q7rt_ctor>(-1))
			(*c)();
}
#endif

extern "C" __attribute__((visibility("default"))) int q7_entry(struct q7_frame *f)
{
#if defined(__XTENSA__)
	q7rt_device_stdio();
	q7rt_device_mover(f);
#endif
	if (!f)
		return Q7_STATUS_BAD_FRAME;
	f->message[0] = 0;
	f->status = Q7_STATUS_OK;
	f->switched_stack = 0;
	if (!check_frame(f))
		return f->status;
	memset(&f->out, 0, sizeof f->out);

	memset(&q7rt, 0, sizeof q7rt);
	q7rt.frame = f;
	q7rt_arena_init(&q7rt.heap, reinterpret_cast<void *>((uintptr_t)f->heap_base),
	                (size_t)f->heap_size);
	q7rt_arena_red_zones(&q7rt.heap, !(f->loader_flags & Q7_FRAME_UNCHECKED));

#if defined(__XTENSA__)
	q7rt.guarded = true; /* a constructor that fails ends the call */
	if (Q7RT_SETJMP(q7rt.bail) != 0) {
		q7rt_flush();
		return f->status;
	}
	run_ctors();
	q7rt.guarded = false;
#endif
	static op_list ops;
	register_funcs(&ops);
	if (f->op[0] == 0) {
		list_into_dst(f, &ops);
		return f->status;
	}
	const op_entry *op = nullptr;
	for (int i = 0; i < ops.n; i++)
		if (names_op(f->op, &ops.ops[i]))
			op = &ops.ops[i];
	if (!op) {
		set_status(f, Q7_STATUS_NO_SUCH_OP, "no op '%s' in this library; its ops: ", f->op);
		list_ops(f->message, sizeof f->message, &ops);
		if (ops.n == 0)
			strcat(f->message, "none");
		return f->status;
	}
	running = checked_signature(f, op);
	if (!running)
		return f->status;
	q7rt.op = op->name;
	if (f->dst.data != 0 && !check_tensor(f, &f->dst, "the destination"))
		return f->status;
	if (unsigned char *room = dst_room(f))
		q7rt_red_zone_fill(room, dst_room_bytes(f, room));

	bool ok = run_guarded(op->fn) && !q7rt_breached(f) && finish(f);
	q7rt_flush();
	if (!ok && f->status == Q7_STATUS_OK)
		f->status = Q7_STATUS_KERNEL_ERROR;
	q7rt.frame = nullptr;
	return f->status;
}

#if defined(__XTENSA__)
/* The device image's entry symbol: the LSP scripts say ENTRY(_start). */
extern "C" int _start(struct q7_frame *f) __attribute__((alias("q7_entry")));
#endif
