/* <q7/tensor.h>: at::Tensor and its accessors. Part of <torch/torch.h>.
 *
 * Tensors are handles: a Tensor points at a descriptor in the call's heap
 * arena, and everything a call allocates is released when the loader's
 * next call resets the arena, so copies are cheap and no reference
 * counting is needed.
 *
 * The accessors, their checks and the coherence policy: docs/runtime.md,
 * "Accessors, streams and the coherence policy". */
#ifndef Q7_TENSOR_H
#define Q7_TENSOR_H

#include <q7/types.h>

#ifndef Q7_ACCESSOR_CHECKS
#if defined(__XTENSA__)
#define Q7_ACCESSOR_CHECKS 0
#else
#define Q7_ACCESSOR_CHECKS 1
#endif
#endif

namespace torch {
/* torch::CoherencyEnforcer::Policy. */
class CoherencyEnforcer {
public:
	enum Policy {
		COHERENT,           /* an incoherent mix is an error (the default) */
		INCOHERENT_VERBOSE, /* allowed, with a warning on the op's output */
		INCOHERENT_QUIET,   /* allowed */
	};
};
} // namespace torch

namespace at {

using torch::CoherencyEnforcer;

template <class T, size_t N, bool read_only>
class TensorAccessor;

namespace q7detail {
/* A number as the runtime takes it. */
inline q7rt_scalar scalar(const Scalar &v)
{
	q7rt_scalar s;
	s.reserved = 0;
	s.i = 0;
	s.d = 0;
	if (v.isFloatingPoint()) {
		s.kind = Q7RT_SCALAR_FLOAT;
		s.d = v.toDouble();
	} else {
		s.kind = v.isBoolean() ? Q7RT_SCALAR_BOOL : Q7RT_SCALAR_INT;
		s.i = v.toLong();
	}
	return s;
}

/* The element type an accessor hands out: const for read-only ones. */
template <class T, bool read_only>
struct element { typedef T type; };
template <class T>
struct element<T, true> { typedef const T type; };

/* acc[i]'s check: i within [0, size) of dimension dim, else the op ends
 * naming the index (q7rt_index_error). */
inline void check_index(int64_t i, int64_t size, unsigned dim)
{
#if Q7_ACCESSOR_CHECKS && defined(__XTENSA__)
	/* Two 32-bit compares: sizes are under 2^16, and a 64-bit compare
	 * takes the lx106 several more instructions. */
	if (__builtin_expect((uint32_t)((uint64_t)i >> 32) != 0 || (uint32_t)i >= (uint32_t)size, 0))
		q7rt_index_error(i, size, dim);
#elif Q7_ACCESSOR_CHECKS
	if (__builtin_expect((uint64_t)i >= (uint64_t)size, 0))
		q7rt_index_error(i, size, dim);
#else
	(void)i;
	(void)size;
	(void)dim;
#endif
}

/* What TensorAccessor<T, N> and its sub-accessors share. The accessor a
 * Tensor hands out holds a lease on the tensor (for the coherence check);
 * the sub-accessors operator[] makes do not. The sizes and strides are
 * held by value: a loop over acc[i][j] then keeps them in registers
 * instead of loading them through a pointer at every element (a load
 * after an index check, which may leave the loop, is not hoisted). dim_
 * is the tensor's dimension that sizes_[0] describes (0 for the accessor
 * a Tensor hands out), for the index check's message. */
template <class T, size_t N, bool read_only>
class AccessorBase {
protected:
	typedef typename element<T, read_only>::type E;
	E *data_;
	int64_t sizes_[N];
	int64_t strides_[N];
	q7rt_tensor *lease_;
	unsigned dim_;

	void copy_shape(const int64_t *sz, const int64_t *st)
	{
		for (size_t d = 0; d < N; d++) {
			sizes_[d] = sz[d];
			strides_[d] = st[d];
		}
	}

public:
	AccessorBase(E *d, const int64_t *sz, const int64_t *st, q7rt_tensor *lease = nullptr,
	             unsigned dim = 0)
		: data_(d), lease_(lease), dim_(dim)
	{
		copy_shape(sz, st);
		if (lease_)
			lease_->coh.n_standard++;
	}
	AccessorBase(const AccessorBase &o)
		: AccessorBase(o.data_, o.sizes_, o.strides_, o.lease_, o.dim_) {}
	AccessorBase &operator=(const AccessorBase &o)
	{
		if (o.lease_)
			o.lease_->coh.n_standard++;
		if (lease_)
			lease_->coh.n_standard--;
		data_ = o.data_;
		copy_shape(o.sizes_, o.strides_);
		lease_ = o.lease_;
		dim_ = o.dim_;
		return *this;
	}
	~AccessorBase()
	{
		if (lease_)
			lease_->coh.n_standard--;
	}
	int64_t size(size_t d) const { return sizes_[d]; }
	int64_t stride(size_t d) const { return strides_[d]; }
	IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
	IntArrayRef strides() const { return IntArrayRef(strides_, N); }
	E *data() const { return data_; }
};
} // namespace q7detail

/* acc[i][j]...: element access by indices, through the strides; each
 * index checked against its dimension (Q7_ACCESSOR_CHECKS). */
template <class T, size_t N, bool read_only = false>
class TensorAccessor : public q7detail::AccessorBase<T, N, read_only> {
	typedef q7detail::AccessorBase<T, N, read_only> Base;

public:
	using typename Base::E;
	using Base::Base;
	TensorAccessor<T, N - 1, read_only> operator[](int64_t i) const
	{
		q7detail::check_index(i, this->sizes_[0], this->dim_);
		return TensorAccessor<T, N - 1, read_only>(this->data_ + this->strides_[0] * i,
		                                           this->sizes_ + 1, this->strides_ + 1, nullptr,
		                                           this->dim_ + 1);
	}
};

template <class T, bool read_only>
class TensorAccessor<T, 1, read_only> : public q7detail::AccessorBase<T, 1, read_only> {
	typedef q7detail::AccessorBase<T, 1, read_only> Base;

public:
	using typename Base::E;
	using Base::Base;
	E &operator[](int64_t i) const
	{
		q7detail::check_index(i, this->sizes_[0], this->dim_);
		return this->data_[this->strides_[0] * i];
	}
};

/* Chunked copies between a tensor (in HBM on the device) and a buffer in
 * the fast local memory (tcm_malloc). Offsets and counts are in elements
 * of the flattened tensor. */
template <bool read_only>
class TensorTcmAccessor {
	const q7rt_tensor *t_;

public:
	explicit TensorTcmAccessor(const q7rt_tensor *t) : t_(t) {}
	template <class T>
	void tensor_to_tcm(T *tcm_ptr, size_t tensor_offset, size_t num_elem) const
	{
		q7rt_copy_tcm(t_, (int)c10::CppTypeToScalarType<T>::value, tcm_ptr, tensor_offset, num_elem,
		              1);
	}
	template <class T>
	void tcm_to_tensor(const T *tcm_ptr, size_t tensor_offset, size_t num_elem) const
	{
		static_assert(!read_only || sizeof(T) == 0,
		              "tcm_to_tensor through a read-only TensorTcmAccessor: a const Tensor's "
		              "tcm_accessor() cannot write to the tensor");
		q7rt_copy_tcm(t_, (int)c10::CppTypeToScalarType<T>::value, const_cast<T *>(tcm_ptr),
		              tensor_offset, num_elem, 0);
	}
};
typedef TensorTcmAccessor<false> TcmAccessor; /* the name before the guide's */

namespace q7detail {
/* A stream's state and its lifetime: closed at scope exit, movable (the
 * Tensor hands it out by value), not copyable. */
class StreamBase {
protected:
	q7rt_stream s_;
	StreamBase(q7rt_tensor *t, int dtype, int write) { q7rt_stream_open(&s_, t, dtype, write); }
	StreamBase(StreamBase &&o) : s_(o.s_)
	{
		if (o.s_.buf == &o.s_.one)
			s_.buf = &s_.one;
		o.s_.mode = 0;
		o.s_.pooled = 0;
	}
	~StreamBase()
	{
		if (s_.mode)
			q7rt_stream_close(&s_);
	}

public:
	StreamBase(const StreamBase &) = delete;
	StreamBase &operator=(const StreamBase &) = delete;
	/* Closes the stream (a write stream writes back first): 0, or -1 when
	 * it was closed already. */
	int close() { return q7rt_stream_close(&s_); }
};
} // namespace q7detail

template <class T>
class TensorReadStreamAccessor : public q7detail::StreamBase {
public:
	TensorReadStreamAccessor(q7rt_tensor *t)
		: StreamBase(t, (int)c10::CppTypeToScalarType<T>::value, 0) {}
	TensorReadStreamAccessor(TensorReadStreamAccessor &&o) = default;
	/* The next element. */
	T read()
	{
		if (s_.pos == s_.count)
			q7rt_stream_refill(&s_);
		return static_cast<T *>(s_.buf)[s_.pos++];
	}
};

template <class T>
class TensorWriteStreamAccessor : public q7detail::StreamBase {
public:
	TensorWriteStreamAccessor(q7rt_tensor *t)
		: StreamBase(t, (int)c10::CppTypeToScalarType<T>::value, 1) {}
	TensorWriteStreamAccessor(TensorWriteStreamAccessor &&o) = default;
	/* Writes the next element (to the tensor by close() at the latest). */
	void write(T value)
	{
		if (s_.pos == s_.count)
			q7rt_stream_flush(&s_);
		static_cast<T *>(s_.buf)[s_.pos++] = value;
	}
};

class Tensor {
	q7rt_tensor *impl_;

	q7rt_tensor &impl() const
	{
		if (!impl_)
			q7rt_fail("use of an undefined tensor");
		return *impl_;
	}
	int64_t wrap_dim(int64_t d) const
	{
		int64_t n = impl().ndim;
		int64_t w = d < 0 ? d + n : d;
		if (w < 0 || w >= n)
			q7rt_fail("dimension %d out of range for a %d-dim tensor", (int)d, (int)n);
		return w;
	}
	void check_dtype(ScalarType want, const char *what) const
	{
		if (impl().dtype != (int)want)
			q7rt_fail_dtype(impl_, what, (int)want);
	}
	template <class T, size_t N, bool read_only>
	TensorAccessor<T, N, read_only> make_accessor() const
	{
		check_dtype(c10::CppTypeToScalarType<typename c10::q7_remove_const<T>::type>::value,
		            "accessor");
		if (impl().ndim != (int32_t)N)
			q7rt_fail("accessor<%u>: tensor has %d dims", (unsigned)N, (int)impl().ndim);
		if (impl().coh.n_write)
			q7rt_incoherent(impl_, Q7RT_ACCESS_STANDARD, "accessor");
		return TensorAccessor<T, N, read_only>(static_cast<T *>(impl().data), impl().sizes,
		                                       impl().strides, impl_);
	}

public:
	Tensor() : impl_(0) {}
	explicit Tensor(q7rt_tensor *impl) : impl_(impl) {}
	Tensor(const Tensor &) = default;
	Tensor(Tensor &&) = default;
	Tensor &operator=(const Tensor &x) &
	{
		impl_ = x.impl_;
		return *this;
	}
	Tensor &operator=(Tensor &&x) &
	{
		impl_ = x.impl_;
		return *this;
	}
	q7rt_tensor *unsafeGetTensorImpl() const { return impl_; }

	bool defined() const { return impl_ != 0; }
	int64_t dim() const { return impl().ndim; }
	int64_t ndimension() const { return dim(); }
	IntArrayRef sizes() const { return IntArrayRef(impl().sizes, (size_t)impl().ndim); }
	IntArrayRef strides() const { return IntArrayRef(impl().strides, (size_t)impl().ndim); }
	int64_t size(int64_t d) const { return impl().sizes[wrap_dim(d)]; }
	int64_t stride(int64_t d) const { return impl().strides[wrap_dim(d)]; }
	int64_t numel() const
	{
		int64_t n = 1;
		for (int32_t i = 0; i < impl().ndim; i++)
			n *= impl().sizes[i];
		return n;
	}
	ScalarType scalar_type() const { return (ScalarType)impl().dtype; }
	ScalarType dtype() const { return scalar_type(); }
	/* The options of a tensor like this one: torch::zeros(s, x.options()). */
	TensorOptions options() const { return TensorOptions(scalar_type()); }
	size_t element_size() const { return q7rt_dtype_size(impl().dtype); }
	size_t itemsize() const { return element_size(); }
	size_t nbytes() const { return (size_t)numel() * element_size(); }
	bool is_contiguous() const
	{
		int64_t expect = 1;
		for (int32_t i = impl().ndim - 1; i >= 0; i--) {
			if (impl().sizes[i] != 1 && impl().strides[i] != expect)
				return false;
			expect *= impl().sizes[i];
		}
		return true;
	}

	void *data_ptr() const { return impl().data; }
	template <class T>
	T *data_ptr() const
	{
		check_dtype(c10::CppTypeToScalarType<typename c10::q7_remove_const<T>::type>::value,
		            "data_ptr");
		return static_cast<T *>(impl().data);
	}
	template <class T>
	T *mutable_data_ptr() const { return data_ptr<T>(); }
	template <class T>
	const T *const_data_ptr() const { return data_ptr<T>(); }

	/* Read-only from a const Tensor (or a temporary), read-write from a
	 * modifiable one, as documented. */
	template <class T, size_t N>
	TensorAccessor<T, N, true> accessor() const & { return make_accessor<T, N, true>(); }
	template <class T, size_t N>
	TensorAccessor<T, N, false> accessor() & { return make_accessor<T, N, false>(); }

	TensorTcmAccessor<true> tcm_accessor() const & { return TensorTcmAccessor<true>(&impl()); }
	TensorTcmAccessor<false> tcm_accessor() & { return TensorTcmAccessor<false>(&impl()); }

	template <class T>
	TensorReadStreamAccessor<T> read_stream_accessor() const &
	{
		return TensorReadStreamAccessor<T>(&impl());
	}
	template <class T>
	TensorWriteStreamAccessor<T> write_stream_accessor() &
	{
		return TensorWriteStreamAccessor<T>(&impl());
	}
	/* Chosen for a const Tensor (or a temporary) only to say why not. */
	template <class T>
	TensorWriteStreamAccessor<T> write_stream_accessor() const &
	{
		static_assert(sizeof(T) == 0, "write_stream_accessor() on a const Tensor (or a "
		                              "temporary): a write stream cannot write to it");
		return TensorWriteStreamAccessor<T>(&impl());
	}

	CoherencyEnforcer::Policy get_accessor_coherence_policy() const
	{
		return (CoherencyEnforcer::Policy)impl().coh.policy;
	}
	void set_accessor_coherence_policy(CoherencyEnforcer::Policy policy) const
	{
		if (policy < CoherencyEnforcer::COHERENT || policy > CoherencyEnforcer::INCOHERENT_QUIET)
			q7rt_fail("set_accessor_coherence_policy: %d is not a policy", (int)policy);
		impl().coh.policy = (int32_t)policy;
	}

	/* Every element set to value, converted to the tensor's dtype. */
	Tensor &fill_(const Scalar &value) const
	{
		q7rt_scalar s = q7detail::scalar(value);
		q7rt_fill(&impl(), &s);
		return const_cast<Tensor &>(*this);
	}

	template <class T>
	T item() const
	{
		if (numel() != 1)
			q7rt_fail("item(): tensor has %d elements, not 1", (int)numel());
		switch (scalar_type()) {
		case ScalarType::Byte: return static_cast<T>(*static_cast<uint8_t *>(impl().data));
		case ScalarType::Char: return static_cast<T>(*static_cast<int8_t *>(impl().data));
		case ScalarType::Short: return static_cast<T>(*static_cast<int16_t *>(impl().data));
		case ScalarType::Int: return static_cast<T>(*static_cast<int32_t *>(impl().data));
		case ScalarType::Long: return static_cast<T>(*static_cast<int64_t *>(impl().data));
		case ScalarType::Half: return static_cast<T>((float)*static_cast<Half *>(impl().data));
		case ScalarType::Float: return static_cast<T>(*static_cast<float *>(impl().data));
		case ScalarType::Double: return static_cast<T>(*static_cast<double *>(impl().data));
		case ScalarType::Bool: return static_cast<T>(*static_cast<bool *>(impl().data));
		case ScalarType::BFloat16:
			return static_cast<T>((float)*static_cast<BFloat16 *>(impl().data));
		default: break;
		}
		q7rt_fail("item(): unsupported dtype");
	}
};

} // namespace at

#endif
