/* The bridge's CPU kernel: one boxed functor per registered op, which
 * takes the op's arguments off the dispatcher's stack, makes the output
 * (the shape function's tensor, or one like the first tensor argument),
 * runs the compute function through the run engine with that output as
 * its destination, and pushes it. Errors become c10::Error (a Python
 * RuntimeError) naming the op; the runtime's warning a UserWarning, once
 * per op. */
#ifndef Q7_TORCH_BOXED_KERNEL_H
#define Q7_TORCH_BOXED_KERNEL_H

#include <csignal>
#include <atomic>
#include <memory>
#include <string>

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <torchneuron/register.h>

struct q7_engine;
struct q7_call;
struct q7_run_result;

namespace q7torch {

/* An opened library: its engine, shared by its ops' kernels, closed when
 * the last of them goes (which the dispatcher's registrations keep). */
struct Engine {
	q7_engine *engine = nullptr;
	/* Its calls under the uninitialised-output check (q7t_check_uninit) */
	std::atomic<bool> check_uninit{false};
	~Engine();
};

/* Set by SIGINT during an emulated or isolated host call (the engines'
 * interrupted flag): the call stops, QEMU (the kernel's process) with
 * it, within a quarter of a second. */
extern volatile sig_atomic_t interrupted;
/* profile.cpp: true while q7cc.torch.profile is open; a call of an
 * emulated op then goes through profile_call. */
extern std::atomic<bool> profiling;
int profile_call(Engine *e, const std::string &qualname, const struct q7_call *call,
                 struct q7_run_result *r);

/* Where warnings go (q7t_set_warn); null: TORCH_WARN. */
extern std::atomic<void (*)(const char *)> warn_fn;

/* What both kernels of an op know of it. */
struct OpShape {
	std::string qualname; /* "my_ops::relu_forward" */
	size_t nargs = 0;
	q7cc::neuron::ShapeInvoker invoke = nullptr; /* none: like the first tensor */
	void (*shape)() = nullptr;
	/* What shapes the output without a shape function: the first tensor
	 * argument (an error when there is none). */
	const at::Tensor &first_tensor(c10::ArrayRef<c10::IValue> args) const;
};

struct OpKernel final : c10::OperatorKernel, OpShape {
	std::shared_ptr<Engine> engine;
	std::string compute; /* the kernel the engine runs */
	/* "the shape function row_sums_shape (its m.def at shape.cpp:9)", for
	 * a result that does not fit what it returns */
	std::string shape_about;
	/* The engine's, known at registration: its kernels run in another
	 * process (QEMU, an isolated worker: Ctrl-C can stop a call), else
	 * on the caller's thread, where outputs come with a red zone
	 * (new_output) that the runtime checks (the second rule of
	 * docs/runtime.md: nothing written past get_dst_tensor()); its
	 * target can profile (q7cc.torch.profile). */
	bool apart = false;
	bool profiles = false;
	std::atomic<bool> warned{false};
	std::atomic<bool> warned_grad{false}; /* an input that requires grad */

	void operator()(const c10::OperatorHandle &op, c10::DispatchKeySet keys, torch::jit::Stack *stack);
};

/* The op's Meta kernel (meta_kernel.cpp): its output's sizes and dtype,
 * from the shape function (else like the first tensor argument), run on
 * nothing; what FakeTensor calls under torch.compile and torch.export. */
struct MetaKernel final : c10::OperatorKernel, OpShape {
	void operator()(const c10::OperatorHandle &op, c10::DispatchKeySet keys, torch::jit::Stack *stack);
};

} // namespace q7torch

#endif
