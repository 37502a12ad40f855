/* The bridge's CPU kernel (boxed_kernel.h): tensors go to the engine as they
 * are (zero-copy) when contiguous, as a contiguous copy when not; the
 * output is the destination the compute function writes. */
#include "boxed_kernel.h"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>
#include <ATen/EmptyTensor.h>
#include <c10/core/CPUAllocator.h>
#include <c10/util/Exception.h>
#include <c10/util/SmallVector.h>
#include <torch/version.h>

extern "C" {
#include "engine.h"
#include "support.h"
}

namespace q7torch {

Engine::~Engine() { q7_engine_close(engine); }

std::atomic<void (*)(const char *)> warn_fn{nullptr};
volatile sig_atomic_t interrupted;

namespace {

/* "argument 2", or "the output" (arg 0). */
std::string what(size_t arg)
{
	return arg ? "argument " + std::to_string(arg) : std::string("the output");
}

/* The descriptor of a contiguous CPU tensor (arg: its number from 1, 0
 * for the output), its data in place; an error says why t cannot go to
 * the runtime. */
void describe(const std::string &op, size_t arg, const at::Tensor &t, q7_tensor_desc *d)
{
	TORCH_CHECK(t.is_cpu(), op, ": ", what(arg), " is on ", t.device(),
	            "; q7cc's ops take CPU tensors");
	/* q7's dtype numbers are torch's ScalarType numbers, those of the
	 * dtypes <q7/frame.h>'s table of sizes has. */
	d->dtype = (uint32_t) static_cast<int8_t>(t.scalar_type());
	TORCH_CHECK(q7_dtype_size(d->dtype) != 0, op, ": ", what(arg), " is ", t.scalar_type(),
	            ", which q7cc's runtime has no dtype for");
	TORCH_CHECK(t.dim() <= Q7_MAX_DIMS, op, ": ", what(arg), " has ", t.dim(),
	            " dimensions, at most ", Q7_MAX_DIMS);
	c10::IntArrayRef sizes = t.sizes();
	int64_t stride = 1;
	for (size_t i = sizes.size(); i-- > 0;) {
		TORCH_CHECK(sizes[i] <= Q7_MAX_DIM_SIZE, op, ": ", what(arg), " has size ", sizes[i],
		            " in dimension ", i, ", at most ", Q7_MAX_DIM_SIZE);
		d->sizes[i] = (uint32_t)sizes[i];
		d->strides[i] = (int32_t)stride;
		stride *= sizes[i];
	}
	d->ndim = (uint32_t)sizes.size();
	/* A tensor of no elements may have no data at all; the engine reads
	 * a null destination as none (which a multicore call refuses), so
	 * it gets an address that is never read or written. */
	alignas(64) static unsigned char no_elements[64];
	void *data = t.data_ptr();
	d->data = (uint64_t)(uintptr_t)(data || t.numel() ? data : no_elements);
}

bool aliases_an_argument(const at::Tensor &out, c10::ArrayRef<c10::IValue> args)
{
	if (!out.has_storage())
		return false;
	for (const c10::IValue &v : args)
		if (v.isTensor() && v.toTensor().defined() && v.toTensor().has_storage() &&
		    out.storage().is_alias_of(v.toTensor().storage()))
			return true;
	return false;
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
	/* The engine's time-out names q7-run's option; here the limit is
	 * the environment's (q7cc.torch reads it at load). */
	for (auto r : {std::make_pair("--timeout=SECONDS sets the limit",
	                              "Q7CC_TORCH_TIMEOUT=SECONDS (at load) sets the limit"),
	               std::make_pair("one that needs longer: --timeout=",
	                              "one that needs longer: Q7CC_TORCH_TIMEOUT=")}) {
		size_t at = m.find(r.first);
		if (at != std::string::npos)
			m.replace(at, std::strlen(r.first), r.second);
	}
	/* Without a shape function the destination is shaped like the first
	 * tensor argument (q7-run's is the returned tensor's): say how to
	 * give it another shape. */
	bool misfit = m.find("does not fit the destination") != std::string::npos;
	if (!k.invoke && misfit) {
		char *doc = q7_doc_path("torch.md");
		m += "; without a shape function the output is shaped like the op's first tensor "
		     "argument: give the op a shape function that returns a tensor of the output's "
		     "shape (an m.def in a NEURON_LIBRARY block, passed as shape_srcs; " +
		     std::string(doc) + ")";
		free(doc);
	} else if (misfit) {
		/* The destination is the shape function's tensor: name it, as the
		 * build's checks name it. */
		m += "; the destination is the tensor " + k.shape_about +
		     " returns: make it return the shape and dtype of the kernel's result";
	}
	return k.qualname + ": " + m;
}

/* The outputs' allocator. c10's CPU allocator takes posix_memalign,
 * which glibc serves outside its per-thread cache (consolidating its fast
 * bins on the way): about 0.2 us of a 2.7 us call that returns a small
 * tensor. Blocks up to 64 KiB come from malloc, aligned to 64 bytes by
 * hand as c10's are; bigger ones (which malloc and posix_memalign both
 * map) from c10's own. Each has Q7_RED_ZONE bytes more than its tensor,
 * which the call's q7_call.dst_room gives the runtime to check. */
/* torch 2.3 made allocate() non-const and copy_data() a must (torch's
 * c10/core/Allocator.h; docs/torch.md lists the versions run). */
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define Q7T_ALLOCATE_CONST
#define Q7T_COPY_DATA 1
#else
#define Q7T_ALLOCATE_CONST const
#define Q7T_COPY_DATA 0
#endif
class OutputAllocator final : public c10::Allocator {
	static constexpr size_t small = 64 << 10, align = 64;
	static void release(void *raw) { std::free(raw); }

public:
#if Q7T_COPY_DATA
	void copy_data(void *dest, const void *src, std::size_t count) const override
	{
		default_copy_data(dest, src, count);
	}
#endif
	c10::DataPtr allocate(size_t n) Q7T_ALLOCATE_CONST override
	{
		if (n == 0 || n > small)
			return c10::GetCPUAllocator()->allocate(n + Q7_RED_ZONE);
		void *raw = std::malloc(n + align - 1 + Q7_RED_ZONE);
		TORCH_CHECK(raw, "q7cc: out of memory allocating ", n, " bytes");
		void *p = reinterpret_cast<void *>((reinterpret_cast<uintptr_t>(raw) + align - 1) &
		                                   ~(uintptr_t)(align - 1));
		return {p, raw, &release, c10::Device(c10::DeviceType::CPU)};
	}
};

OutputAllocator output_allocator;

at::Tensor new_output(c10::IntArrayRef sizes, at::ScalarType dtype)
{
	return at::detail::empty_generic(sizes, &output_allocator, c10::DispatchKeySet(c10::DispatchKey::CPU),
	                                 dtype, c10::nullopt);
}

/* Ctrl-C during an emulated or isolated host call. Python's own SIGINT
 * handler only notes the signal for its next bytecode, which comes when
 * the call returns: up to the call's time-out later. While such calls
 * run, a handler of ours sets `interrupted` (the engine then stops QEMU
 * or the kernel's process) and passes the signal on to Python's, which
 * raises KeyboardInterrupt as the op returns. Installed by the first call
 * to start, put back by the last to end (calls from several threads
 * overlap). A call in this process (the host's direct mode) cannot be
 * stopped: Python raises as it returns (docs/torch.md). */
std::mutex sigint_lock;
unsigned sigint_users;
bool sigint_ours;
struct sigaction sigint_before;

void on_sigint(int sig, siginfo_t *info, void *uc)
{
	interrupted = 1;
	if (sigint_before.sa_flags & SA_SIGINFO)
		sigint_before.sa_sigaction(sig, info, uc);
	else if (sigint_before.sa_handler != SIG_DFL && sigint_before.sa_handler != SIG_IGN)
		sigint_before.sa_handler(sig);
}

struct SigintWatch {
	SigintWatch()
	{
		std::lock_guard<std::mutex> g(sigint_lock);
		if (sigint_users++)
			return;
		sigaction(SIGINT, nullptr, &sigint_before);
		/* only over a handler (Python's): ignored stays ignored, and
		 * the default still ends the process */
		bool handled = (sigint_before.sa_flags & SA_SIGINFO) ||
		               (sigint_before.sa_handler != SIG_DFL && sigint_before.sa_handler != SIG_IGN);
		if (!handled)
			return;
		interrupted = 0;
		struct sigaction sa = {};
		sa.sa_sigaction = on_sigint;
		sa.sa_flags = SA_SIGINFO;
		sigfillset(&sa.sa_mask);
		sigint_ours = sigaction(SIGINT, &sa, nullptr) == 0;
	}
	~SigintWatch()
	{
		std::lock_guard<std::mutex> g(sigint_lock);
		if (--sigint_users == 0 && sigint_ours) {
			sigaction(SIGINT, &sigint_before, nullptr);
			sigint_ours = false;
		}
	}
};

/* An op's warning (the runtime's, or the bridge's own): to Python's
 * warnings (q7t_set_warn), else TORCH_WARN. */
void warn(const std::string &text)
{
	void (*w)(const char *) = warn_fn.load();
	if (w)
		w(text.c_str());
	else
		TORCH_WARN(text);
}

/* Tensor argument i (from 0) of op k into a: a contiguous copy kept in
 * keep when it is not contiguous; said once per op when it requires grad. */
void tensor_arg(OpKernel &k, size_t i, const at::Tensor &t, c10::SmallVector<at::Tensor, 4> &keep,
                q7_arg *a)
{
	const std::string &qualname = k.qualname;
	TORCH_CHECK(t.defined(), qualname, ": argument ", i + 1, " is an undefined tensor");
	const at::Tensor *use = &t;
	if (!t.is_contiguous()) {
		keep.push_back(t.contiguous());
		use = &keep.back();
	}
	/* No autograd formula: no gradient would silently reach the
	 * inputs (torch 1.x's output does not require grad; 2.x's
	 * fallback's backward gives them none). Said once per op, as
	 * PyTorch's own autograd-not-implemented fallback does. */
	if (t.requires_grad() && at::GradMode::is_enabled() && !k.warned_grad.exchange(true))
		warn(qualname + ": an input requires grad, but the op has no autograd formula: "
		     "backward() does not reach the inputs through it (give it one with "
		     "custom_op.register_backward and its backward kernel, or a "
		     "torch.autograd.Function, as examples/customop_mlp/my_ops.py does)");
	a->kind = Q7_ARG_TENSOR;
	describe(qualname, i + 1, *use, &a->u.tensor);
}

/* Argument i (from 0) of op qualname, not a tensor, into a: a bool, an
 * int or a float; anything else is an error. */
void scalar_arg(const std::string &qualname, size_t i, const c10::IValue &v, q7_arg *a)
{
	if (v.isBool()) {
		a->kind = Q7_ARG_BOOL;
		a->u.i = v.toBool();
	} else if (v.isInt()) {
		a->kind = Q7_ARG_INT;
		a->u.i = v.toInt();
	} else {
		TORCH_CHECK(v.isDouble(), qualname, ": argument ", i + 1, " is a ", v.tagKind(),
		            ", which q7cc's runtime cannot pass");
		a->kind = Q7_ARG_FLOAT;
		double d = v.toDouble();
		std::memcpy(&a->u.f_bits, &d, sizeof d);
	}
}

/* The tensor op k writes its output into: shaped by its shape function,
 * or like its first tensor argument. */
at::Tensor output_of(const OpKernel &k, c10::ArrayRef<c10::IValue> args)
{
	const std::string &qualname = k.qualname;
	at::Tensor out;
	if (k.invoke) {
		out = k.invoke(k.shape, args.data());
		TORCH_CHECK(out.defined(), qualname, ": the shape function returned an undefined tensor");
		/* An argument returned (return t_in;) is never written into: a
		 * fresh tensor of its sizes, strides and dtype instead (docs/torch.md,
		 * "Shape functions and the ops they define"). */
		if (aliases_an_argument(out, args))
			out = at::empty_strided(out.sizes(), out.strides(), out.options());
		/* In this process, the output needs its red zone. */
		if (!k.apart)
			out = new_output(out.sizes(), out.scalar_type());
	} else {
		/* Straight from an allocator (new_output): the dispatcher's
		 * at::empty would cost about as much as the rest of the call. */
		const at::Tensor &first = k.first_tensor(args);
		out = new_output(first.sizes(), first.scalar_type());
	}
	return out;
}

} // namespace

const at::Tensor &OpShape::first_tensor(c10::ArrayRef<c10::IValue> args) const
{
	for (const c10::IValue &v : args)
		if (v.isTensor())
			return v.toTensor();
	TORCH_CHECK(false, qualname, ": no tensor argument to shape the output like (give the op a "
	                             "shape function: shape_srcs)");
}

void OpKernel::operator()(const c10::OperatorHandle &, c10::DispatchKeySet, torch::jit::Stack *stack)
{
	auto args = torch::jit::last(*stack, nargs);
	q7_call call = {};
	c10::SmallVector<at::Tensor, 4> keep; /* contiguous copies, alive for the call */
	TORCH_CHECK(nargs <= Q7_MAX_ARGS, qualname, ": ", nargs, " arguments, at most ", Q7_MAX_ARGS);
	for (size_t i = 0; i < nargs; i++) {
		const c10::IValue &v = args[i];
		q7_arg *a = &call.args[i];
		if (v.isTensor())
			tensor_arg(*this, i, v.toTensor(), keep, a);
		else
			scalar_arg(qualname, i, v, a);
	}
	at::Tensor out = output_of(*this, args);
	if (!out.is_contiguous() || out.storage_offset() != 0 || out.is_neg() || out.is_conj())
		out = new_output(out.sizes(), out.scalar_type());
	call.op = compute.c_str();
	call.nargs = (unsigned)nargs;
	describe(qualname, 0, out, &call.dst);
	call.dst_fresh = true; /* the op's new output: its bytes are no one's yet */
	call.check_uninit = engine->check_uninit.load(std::memory_order_relaxed);
	/* Only a block of output_allocator's has the room; a tensor of no
	 * elements may have no block at all (describe() then points at a
	 * 64-byte stand-in, which a red zone would overrun). */
	if (out.storage().allocator() == &output_allocator && out.numel() > 0 && out.data_ptr())
		call.dst_room = Q7_RED_ZONE;
	q7_run_result r;
	int failed;
	/* Another process runs the kernel: Ctrl-C can stop it. */
	if (apart) {
		SigintWatch watch;
		failed = profiles && profiling.load(std::memory_order_relaxed)
		             ? profile_call(engine.get(), qualname, &call, &r)
		             : q7_engine_call(engine->engine, &call, &r);
	} else {
		failed = q7_engine_call(engine->engine, &call, &r);
	}
	q7_run_result_free(&r); /* nothing to free with a destination; r.message stays */
	if (failed && apart && interrupted) {
		/* Python raises KeyboardInterrupt as this returns (its handler
		 * ran), before anyone sees the output: not a result, so NaN. */
		out.fill_(at::isFloatingType(out.scalar_type()) ? std::nan("") : 0.0);
	} else {
		TORCH_CHECK(!failed, message(*this, r.message));
		if (r.message[0] && !warned.exchange(true))
			warn(message(*this, r.message));
	}
	torch::jit::drop(*stack, nargs);
	stack->emplace_back(std::move(out));
}

} // namespace q7torch
