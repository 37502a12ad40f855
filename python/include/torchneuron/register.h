/* <torchneuron/register.h> for the host: what a Neuron project's shape
 * file includes when q7cc.torch builds it against the real libtorch (the
 * kernel-side header of the same name, in q7cc's kernel include folder,
 * only names the compute functions for the analysis). Each m.def describes
 * one op to q7cc's PyTorch bridge (docs/torch.md, "Shape functions and the
 * ops they define").
 *
 * Nothing registers itself when the library is loaded: each block adds
 * itself to this library's own list (hidden: one list per shared object),
 * and the bridge, which loads the library privately, calls its exported
 * q7_neuron_library_init with a registrar. Loaded any other way
 * (torch.ops.load_library), the library registers nothing. */
#ifndef Q7_HOST_TORCHNEURON_REGISTER_H
#define Q7_HOST_TORCHNEURON_REGISTER_H

#include <cstdint>
#include <type_traits>
#include <utility>

#include <ATen/core/Tensor.h>
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/op_registration/infer_schema.h>
#include <torch/version.h>

namespace q7cc {
namespace neuron {

/* Calls a shape function (fn, cast back to its own type) with the op's
 * arguments, as the dispatcher boxed them. */
typedef at::Tensor (*ShapeInvoker)(void (*fn)(), const c10::IValue *args);

#define Q7_NEURON_REGISTRAR_VERSION 1u

/* What the bridge hands to q7_neuron_library_init. def() records one op;
 * a problem is recorded by the bridge and reported after init returns. */
struct Registrar {
	uint32_t version; /* Q7_NEURON_REGISTRAR_VERSION */
	uint32_t size;    /* sizeof(Registrar) */
	void *ctx;
	void (*def)(void *ctx, const char *ns, const char *op, const c10::FunctionSchema *schema,
	            const char *compute, ShapeInvoker invoke, void (*shape)(), const char *file,
	            int line);
};

template <class... A, std::size_t... I>
at::Tensor invoke_with(at::Tensor (*f)(A...), const c10::IValue *args, std::index_sequence<I...>)
{
	return f(args[I].to<std::decay_t<A>>()...);
}

template <class... A>
at::Tensor invoke(void (*fn)(), const c10::IValue *args)
{
	auto f = reinterpret_cast<at::Tensor (*)(A...)>(fn);
	return invoke_with(f, args, std::index_sequence_for<A...>{});
}

} // namespace neuron
} // namespace q7cc

namespace torch {
namespace neuron {

/* The m of NEURON_LIBRARY(ns, m). */
class Library {
public:
	Library(const char *ns, const q7cc::neuron::Registrar *r, const char *file, int line)
	    : ns_(ns), r_(r), file_(file), line_(line)
	{
	}

	/* Defines ns::op: schema and output from shape, computed by the
	 * device function named compute. line: the m.def's own (messages
	 * name it, not the block's). */
	template <class... A>
	Library &def(const char *op, at::Tensor (*shape)(A...), const char *compute,
	             int line = __builtin_LINE())
	{
		c10::FunctionSchema schema = c10::inferFunctionSchemaFlattenedReturns<at::Tensor(A...)>();
		r_->def(r_->ctx, ns_, op, &schema, compute, &q7cc::neuron::invoke<A...>,
		        reinterpret_cast<void (*)()>(shape), file_, line > 0 ? line : line_);
		return *this;
	}

	template <class F>
	Library &def(const char *, F, const char *, int = 0)
	{
		static_assert(sizeof(F) == 0, "NEURON_LIBRARY: m.def(\"op\", &shape_fn, \"compute_fn\") "
		                              "takes a plain function that returns torch::Tensor");
		return *this;
	}

private:
	const char *ns_;
	const q7cc::neuron::Registrar *r_;
	const char *file_;
	int line_;
};

} // namespace neuron
} // namespace torch

namespace q7cc {
namespace neuron {

/* One NEURON_LIBRARY block of this shared object. */
struct Block {
	const char *ns;
	void (*body)(torch::neuron::Library &);
	const char *file;
	int line;
	Block *next;
};

/* This shared object's blocks (hidden: each library has its own). */
__attribute__((visibility("hidden"))) inline Block *&blocks()
{
	static Block *head = nullptr;
	return head;
}

struct AddBlock {
	AddBlock(Block *b)
	{
		Block **p = &blocks();
		while (*p)
			p = &(*p)->next; /* in the order the blocks were loaded */
		*p = b;
	}
};

} // namespace neuron
} // namespace q7cc

/* The torch the library is built against, in its bytes: q7cc.torch
 * reads it before it loads the library, which in a process with another
 * torch would load a second libtorch (docs/torch.md). */
#define Q7_NEURON_STR2(x) #x
#define Q7_NEURON_STR(x) Q7_NEURON_STR2(x)
extern "C" __attribute__((visibility("hidden"), used)) inline const char q7_neuron_torch[] =
    "q7cc-shape-torch:" Q7_NEURON_STR(TORCH_VERSION_MAJOR) "." Q7_NEURON_STR(
        TORCH_VERSION_MINOR) ";abi" Q7_NEURON_STR(_GLIBCXX_USE_CXX11_ABI) ";";

/* The bridge's way in: runs every block of this library with r. 0, or -1
 * when r is not a registrar this header knows. Emitted (weak) by every
 * file that includes this header; the copies are the same. */
extern "C" __attribute__((visibility("default"), used)) inline int
q7_neuron_library_init(const q7cc::neuron::Registrar *r)
{
	if (!r || r->version != Q7_NEURON_REGISTRAR_VERSION || r->size != sizeof *r)
		return -1;
	for (q7cc::neuron::Block *b = q7cc::neuron::blocks(); b; b = b->next) {
		torch::neuron::Library m(b->ns, r, b->file, b->line);
		b->body(m);
	}
	return 0;
}

#define Q7_NEURON_CAT2(a, b) a##b
#define Q7_NEURON_CAT(a, b) Q7_NEURON_CAT2(a, b)

#define NEURON_LIBRARY(ns, m)                                                                    \
	static void Q7_NEURON_CAT(q7_neuron_library_body_##ns##_, __LINE__)(torch::neuron::Library &);   \
	static q7cc::neuron::Block Q7_NEURON_CAT(q7_neuron_block_##ns##_, __LINE__) = {              \
	    #ns, &Q7_NEURON_CAT(q7_neuron_library_body_##ns##_, __LINE__), __FILE__, __LINE__,       \
	    nullptr};                                                                                \
	static q7cc::neuron::AddBlock Q7_NEURON_CAT(q7_neuron_add_##ns##_, __LINE__)(               \
	    &Q7_NEURON_CAT(q7_neuron_block_##ns##_, __LINE__));                                      \
	static void Q7_NEURON_CAT(q7_neuron_library_body_##ns##_, __LINE__)(torch::neuron::Library & m)

#endif
