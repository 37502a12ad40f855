/* <q7/check.h>: TORCH_CHECK. Part of <torch/torch.h>.
 *
 *   TORCH_CHECK(cond);
 *   TORCH_CHECK(cond, "expected ", n, " elements, got ", x.numel());
 *
 * What a failed check reports: docs/runtime.md, "Errors, assert and abort". */
#ifndef Q7_CHECK_H
#define Q7_CHECK_H

#include <stdarg.h>
#include <stdio.h>

#include <q7/types.h>

namespace at {
namespace q7detail {

/* A message built from pieces, cut at its size. */
struct Message {
	char buf[320];
	size_t len;
	Message() : len(0) { buf[0] = 0; }
	void add(const char *fmt, ...) __attribute__((format(printf, 2, 3)))
	{
		if (len + 1 >= sizeof buf)
			return;
		va_list ap;
		va_start(ap, fmt);
		int n = vsnprintf(buf + len, sizeof buf - len, fmt, ap);
		va_end(ap);
		if (n > 0)
			len = len + (size_t)n < sizeof buf ? len + (size_t)n : sizeof buf - 1;
	}
};

inline void put(Message &m, const char *s) { m.add("%s", s ? s : "(null)"); }
inline void put(Message &m, char c) { m.add("%c", c); }
inline void put(Message &m, bool b) { m.add("%s", b ? "true" : "false"); }
inline void put(Message &m, signed char v) { m.add("%d", (int)v); }
inline void put(Message &m, unsigned char v) { m.add("%u", (unsigned)v); }
inline void put(Message &m, short v) { m.add("%d", (int)v); }
inline void put(Message &m, unsigned short v) { m.add("%u", (unsigned)v); }
inline void put(Message &m, int v) { m.add("%d", v); }
inline void put(Message &m, unsigned v) { m.add("%u", v); }
inline void put(Message &m, long v) { m.add("%ld", v); }
inline void put(Message &m, unsigned long v) { m.add("%lu", v); }
inline void put(Message &m, long long v) { m.add("%lld", v); }
inline void put(Message &m, unsigned long long v) { m.add("%llu", v); }
inline void put(Message &m, double v) { m.add("%g", v); }
inline void put(Message &m, float v) { m.add("%g", (double)v); }
inline void put(Message &m, const void *p) { m.add("%p", p); }
inline void put(Message &m, c10::ScalarType t) { m.add("%s", c10::toString(t)); }
inline void put(Message &m, c10::IntArrayRef s)
{
	m.add("[");
	for (size_t i = 0; i < s.size(); i++)
		m.add(i ? ", %lld" : "%lld", (long long)s.data()[i]);
	m.add("]");
}

template <class... A>
[[noreturn]] void check_failed(const char *file, int line, const char *cond, const A &...pieces)
{
	Message body, all;
	int unused[] = {0, (put(body, pieces), 0)...};
	(void)unused;
	all.add("expected %s", cond);
	if (body.len)
		all.add(": %s", body.buf);
	q7rt_check_failed(file, line, all.buf);
}

} // namespace q7detail
} // namespace at

/* The extra "" lets TORCH_CHECK(cond) have no message. */
#define TORCH_CHECK(...) Q7_TORCH_CHECK_(__VA_ARGS__, "")
#define Q7_TORCH_CHECK_(cond, ...)                                                   \
	do {                                                                             \
		if (!(cond))                                                                 \
			::at::q7detail::check_failed(__FILE__, __LINE__, #cond, __VA_ARGS__);    \
	} while (0)

#endif
