/* The bridge's CPU kernel (kernel.h): tensors go to the engine as they
 * are (zero-copy) when contiguous, as a contiguous copy when not; the
 * output is the destination the compute function writes. */
#include "kernel.h"

#include <cstring>

#include <ATen/ATen.h>
#include <c10/util/Exception.h>
#include <c10/util/SmallVector.h>

extern "C" {
#include "engine.h"
#include "run.h"
}

namespace q7torch {

Engine::~Engine() { q7_engine_close(engine); }

std::atomic<void (*)(const char *)> warn_fn{nullptr};

namespace {

/* q7's dtype numbers are torch's ScalarType numbers (q7/frame.h). */
bool q7_dtype(at::ScalarType t, uint32_t *out)
{
	switch (t) {
	case at::kByte: case at::kChar: case at::kShort: case at::kInt: case at::kLong:
	case at::kHalf: case at::kFloat: case at::kDouble: case at::kBool: case at::kBFloat16:
		*out = (uint32_t) static_cast<int8_t>(t);
		return true;
	default:
		return false;
	}
}

/* The descriptor of a contiguous CPU tensor, its data in place. */
void describe(const std::string &op, const char *what, const at::Tensor &t, q7_tensor_desc *d)
{
	TORCH_CHECK(t.device().is_cpu(), op, ": ", what, " is on ", t.device(),
	            "; q7cc's ops take CPU tensors");
	TORCH_CHECK(q7_dtype(t.scalar_type(), &d->dtype), op, ": ", what, " is ", t.scalar_type(),
	            ", which q7cc's runtime has no dtype for");
	TORCH_CHECK(t.dim() <= Q7_MAX_DIMS, op, ": ", what, " has ", t.dim(), " dimensions, at most ",
	            Q7_MAX_DIMS);
	d->ndim = (uint32_t)t.dim();
	int64_t stride = 1;
	for (int64_t i = t.dim() - 1; i >= 0; i--) {
		TORCH_CHECK(t.size(i) <= Q7_MAX_DIM_SIZE, op, ": ", what, " has size ", t.size(i),
		            " in dimension ", i, ", at most ", Q7_MAX_DIM_SIZE);
		d->sizes[i] = (uint32_t)t.size(i);
		d->strides[i] = (int32_t)stride;
		stride *= t.size(i);
	}
	d->data = (uint64_t)(uintptr_t)t.data_ptr();
}

/* "my_ops::relu_forward: <message>", without the runtime's own
 * "relu_forward: " when that is the same name. */
std::string message(const OpKernel &k, const char *msg)
{
	std::string m(msg);
	std::string own = k.compute + ": ";
	std::string name = k.qualname.substr(k.qualname.rfind(':') + 1);
	if (m.compare(0, own.size(), own) == 0 && name == k.compute)
		m.erase(0, own.size());
	return k.qualname + ": " + m;
}

} // namespace

void OpKernel::operator()(const c10::OperatorHandle &, c10::DispatchKeySet, torch::jit::Stack *stack)
{
	auto args = torch::jit::last(*stack, nargs);
	q7_arg q7args[Q7_MAX_ARGS];
	c10::SmallVector<at::Tensor, 4> keep; /* contiguous copies, alive for the call */
	const at::Tensor *first = nullptr;
	TORCH_CHECK(nargs <= Q7_MAX_ARGS, qualname, ": ", nargs, " arguments, at most ", Q7_MAX_ARGS);
	for (size_t i = 0; i < nargs; i++) {
		const c10::IValue &v = args[i];
		q7_arg *a = &q7args[i];
		std::memset(a, 0, sizeof *a);
		if (v.isTensor()) {
			const at::Tensor &t = v.toTensor();
			TORCH_CHECK(t.defined(), qualname, ": argument ", i + 1, " is an undefined tensor");
			const at::Tensor *use = &t;
			if (!t.is_contiguous()) {
				keep.push_back(t.contiguous());
				use = &keep.back();
			}
			if (!first)
				first = &t;
			a->kind = Q7_ARG_TENSOR;
			std::string what = "argument " + std::to_string(i + 1);
			describe(qualname, what.c_str(), *use, &a->u.tensor);
		} else if (v.isBool()) {
			a->kind = Q7_ARG_BOOL;
			a->u.i = v.toBool();
		} else if (v.isInt()) {
			a->kind = Q7_ARG_INT;
			a->u.i = v.toInt();
		} else if (v.isDouble()) {
			a->kind = Q7_ARG_FLOAT;
			double d = v.toDouble();
			std::memcpy(&a->u.f_bits, &d, sizeof d);
		} else {
			TORCH_CHECK(false, qualname, ": argument ", i + 1, " is a ", v.tagKind(),
			            ", which q7cc's runtime cannot pass");
		}
	}
	at::Tensor out;
	if (invoke) {
		out = invoke(shape, args.data());
		TORCH_CHECK(out.defined(), qualname, ": the shape function returned an undefined tensor");
	} else {
		TORCH_CHECK(first, qualname, ": no tensor argument to shape the output like (give the op "
		                             "a shape function: shape_srcs)");
		out = at::empty(first->sizes(), first->options().memory_format(at::MemoryFormat::Contiguous));
	}
	if (!out.is_contiguous() || out.storage_offset() != 0 || out.is_neg() || out.is_conj())
		out = at::empty(out.sizes(), out.options().memory_format(at::MemoryFormat::Contiguous));
	q7_call call;
	std::memset(&call, 0, sizeof call);
	call.op = compute.c_str();
	call.nargs = (unsigned)nargs;
	call.args = q7args;
	describe(qualname, "the output", out, &call.dst);
	q7_run_result r;
	int failed = q7_engine_call(engine->engine, &call, &r);
	std::string msg = r.message;
	q7_run_result_free(&r);
	TORCH_CHECK(!failed, message(*this, msg.c_str()));
	if (!msg.empty() && !warned.exchange(true)) {
		void (*w)(const char *) = warn_fn.load();
		if (w)
			w(message(*this, msg.c_str()).c_str());
		else
			TORCH_WARN(message(*this, msg.c_str()));
	}
	torch::jit::drop(*stack, nargs);
	stack->emplace_back(std::move(out));
}

} // namespace q7torch
