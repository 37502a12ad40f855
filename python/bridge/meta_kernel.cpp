/* The bridge's Meta kernel (boxed_kernel.h): the op's output without
 * running it, for FakeTensor (torch.compile, torch.export, opcheck). Its
 * shape function gives the output's sizes and dtype, called on meta
 * tensors with every factory sent to Meta, so that it allocates nothing;
 * without one, the output is like the first tensor argument, as the CPU
 * kernel's (docs/torch.md, "torch.compile, torch.export, opcheck"). */
#include "boxed_kernel.h"

#include <ATen/ATen.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/util/Exception.h>
#include <torch/version.h>

namespace q7torch {

namespace {

#if TORCH_VERSION_MAJOR >= 2
/* The shape function is C++ that reads sizes as numbers: a tensor of
 * symbolic sizes (dynamic shapes) becomes one of its sizes now, which
 * guards the graph on them (it specializes); an int or float argument
 * likewise. */
c10::IValue concrete(const c10::IValue &v)
{
	if (v.isSymInt())
		return c10::IValue(v.toSymInt().guard_int(__FILE__, __LINE__));
	if (v.isSymFloat())
		return c10::IValue(v.toSymFloat().guard_float(__FILE__, __LINE__));
	if (!v.isTensor() || !v.toTensor().defined())
		return v;
	const at::Tensor &t = v.toTensor();
	if (!t.unsafeGetTensorImpl()->has_symbolic_sizes_strides())
		return v;
	std::vector<int64_t> sizes;
	for (const c10::SymInt &s : t.sym_sizes())
		sizes.push_back(s.guard_int(__FILE__, __LINE__));
	return c10::IValue(at::empty(sizes, t.options().device(at::kMeta)));
}
#else
c10::IValue concrete(const c10::IValue &v) { return v; }
#endif

} // namespace

void MetaKernel::operator()(const c10::OperatorHandle &, c10::DispatchKeySet, torch::jit::Stack *stack)
{
	auto args = torch::jit::last(*stack, nargs);
	at::Tensor out;
	if (invoke) {
		std::vector<c10::IValue> use;
		for (const c10::IValue &v : args)
			use.push_back(concrete(v));
		at::Tensor shaped;
		{
			c10::impl::IncludeDispatchKeyGuard meta(c10::DispatchKey::Meta);
			shaped = invoke(shape, use.data());
		}
		TORCH_CHECK(shaped.defined(), qualname, ": the shape function returned an undefined tensor");
		out = at::empty(shaped.sizes(), at::TensorOptions().dtype(shaped.scalar_type()).device(at::kMeta));
	} else {
		const at::Tensor &first = first_tensor(args);
#if TORCH_VERSION_MAJOR >= 2
		out = at::empty_symint(first.sym_sizes(), first.options().device(at::kMeta));
#else
		out = at::empty(first.sizes(), first.options().device(at::kMeta));
#endif
	}
	torch::jit::drop(*stack, nargs);
	stack->emplace_back(std::move(out));
}

} // namespace q7torch
