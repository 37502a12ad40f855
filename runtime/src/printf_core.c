/* The device's printf formatter (see printf_core.h). */
#include "printf_core.h"

#include <stdint.h>
#include <string.h>

struct out {
	q7fmt_put put;
	void *ctx;
	int n;
};

static void emit(struct out *o, char c)
{
	o->put(o->ctx, c);
	o->n++;
}

static void emit_n(struct out *o, char c, int n)
{
	while (n-- > 0)
		emit(o, c);
}

struct spec {
	int left, plus, space, alt, zero;
	int width, prec; /* prec -1: none */
};

/* Pads and emits prefix (sign, 0x) + body (+ zeros for precision). */
static void field(struct out *o, const struct spec *s, const char *prefix, const char *body,
                  int body_len, int min_digits)
{
	int plen = (int)strlen(prefix);
	int zeros = min_digits > body_len ? min_digits - body_len : 0;
	int total = plen + zeros + body_len;
	int pad = s->width > total ? s->width - total : 0;
	if (!s->left && !s->zero)
		emit_n(o, ' ', pad);
	for (int i = 0; i < plen; i++)
		emit(o, prefix[i]);
	if (!s->left && s->zero)
		emit_n(o, '0', pad);
	emit_n(o, '0', zeros);
	for (int i = 0; i < body_len; i++)
		emit(o, body[i]);
	if (s->left)
		emit_n(o, ' ', pad);
}

static int utoa(char *end, uint64_t v, unsigned base, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	int n = 0;
	/* 32-bit division where it suffices: the lx106 has no 64-bit divide. */
	while (v > 0xffffffffu) {
		*--end = digits[v % base];
		v /= base;
		n++;
	}
	uint32_t w = (uint32_t)v;
	do {
		*--end = digits[w % base];
		w /= base;
		n++;
	} while (w);
	return n;
}

static void integer(struct out *o, struct spec *s, uint64_t v, int neg, unsigned base, int upper)
{
	char buf[32];
	char *end = buf + sizeof buf;
	int len = (v == 0 && s->prec == 0) ? 0 : utoa(end, v, base, upper);
	const char *body = end - len;
	char prefix[3] = "";
	if (neg)
		strcpy(prefix, "-");
	else if (s->plus && base == 10)
		strcpy(prefix, "+");
	else if (s->space && base == 10)
		strcpy(prefix, " ");
	int min_digits = s->prec;
	if (s->alt && base == 16 && v != 0)
		strcpy(prefix, upper ? "0X" : "0x");
	if (s->alt && base == 8 && (len == 0 || body[0] != '0') && min_digits <= len)
		min_digits = len + 1;
	if (s->prec >= 0)
		s->zero = 0;
	field(o, s, prefix, body, len, min_digits);
}

/* Decimal digits of a double in [0, 10), count of them, into buf:
 * returns the value's decimal exponent after rounding to ndigits. */
static int digits_of(double x, int *exp10, char *buf, int ndigits)
{
	int e = 0;
	if (x != 0.0) {
		while (x >= 1e16) { x /= 1e16; e += 16; }
		while (x >= 10.0) { x /= 10.0; e++; }
		while (x < 1e-16) { x *= 1e16; e -= 16; }
		while (x < 1.0) { x *= 10.0; e--; }
	}
	/* ndigits significant digits, rounded on the rest; an exact half (a
	 * short binary fraction such as 0.25 leaves exactly 5.0) goes to even. */
	for (int i = 0; i < ndigits; i++) {
		int d = (int)x;
		if (d > 9)
			d = 9;
		buf[i] = (char)('0' + d);
		x = (x - d) * 10.0;
	}
	if (x > 5.0 || (x == 5.0 && ((buf[ndigits - 1] - '0') & 1))) {
		int i = ndigits - 1;
		while (i >= 0 && buf[i] == '9')
			buf[i--] = '0';
		if (i >= 0) {
			buf[i]++;
		} else { /* 9.99 -> 10.0 */
			memmove(buf + 1, buf, (size_t)ndigits - 1);
			buf[0] = '1';
			e++;
		}
	}
	*exp10 = e;
	return ndigits;
}

#define MAXD 40 /* significant digits kept; the rest print as 0 */

static void fixed(struct out *o, struct spec *s, double x, const char *sign, int strip)
{
	int prec = s->prec < 0 ? 6 : s->prec;
	if (prec > 300)
		prec = 300;
	char body[720];
	int len = 0;
	if (x < 9.2e18) {
		/* The integer part converts exactly; the fraction's digits come
		 * from multiplying by ten, exact for short binary fractions. */
		uint64_t ip = (uint64_t)x;
		double fr = x - (double)ip;
		char fd[301];
		for (int i = 0; i < prec; i++) {
			fr *= 10.0;
			int d = (int)fr;
			if (d > 9)
				d = 9;
			fd[i] = (char)('0' + d);
			fr -= d;
		}
		int last_odd = prec ? (fd[prec - 1] - '0') & 1 : (int)(ip & 1);
		if (fr > 0.5 || (fr == 0.5 && last_odd)) {
			int i = prec - 1;
			while (i >= 0 && fd[i] == '9')
				fd[i--] = '0';
			if (i >= 0)
				fd[i]++;
			else
				ip++;
		}
		char ib[24];
		int n = utoa(ib + sizeof ib, ip, 10, 0);
		memcpy(body, ib + sizeof ib - n, (size_t)n);
		len = n;
		if (prec || s->alt)
			body[len++] = '.';
		memcpy(body + len, fd, (size_t)prec);
		len += prec;
	} else { /* huge: the leading significant digits, then zeros */
		char digs[MAXD + 2];
		int e = 0;
		digits_of(x, &e, digs, 17);
		for (int i = 0; i <= e && len < 400; i++)
			body[len++] = i < 17 ? digs[i] : '0';
		if (prec || s->alt)
			body[len++] = '.';
		for (int i = 0; i < prec; i++)
			body[len++] = '0';
	}
	if (strip && !s->alt && memchr(body, '.', (size_t)len)) {
		while (len > 0 && body[len - 1] == '0')
			len--;
		if (len > 0 && body[len - 1] == '.')
			len--;
	}
	field(o, s, sign, body, len, 0);
}

static void expo(struct out *o, struct spec *s, double x, const char *sign, int upper, int strip)
{
	char digs[MAXD + 2];
	int e = 0;
	int prec = s->prec < 0 ? 6 : s->prec;
	int nd = prec + 1 > MAXD ? MAXD : prec + 1;
	if (x == 0.0) {
		memset(digs, '0', (size_t)nd);
		e = 0;
	} else {
		digits_of(x, &e, digs, nd);
	}
	char body[400];
	int len = 0;
	body[len++] = digs[0];
	if (prec || s->alt)
		body[len++] = '.';
	for (int i = 1; i <= prec; i++)
		body[len++] = i < nd ? digs[i] : '0';
	if (strip && !s->alt) {
		while (len > 1 && body[len - 1] == '0')
			len--;
		if (body[len - 1] == '.')
			len--;
	}
	body[len++] = upper ? 'E' : 'e';
	body[len++] = e < 0 ? '-' : '+';
	int ae = e < 0 ? -e : e;
	char eb[8];
	int el = utoa(eb + sizeof eb, (uint64_t)ae, 10, 0);
	if (el < 2)
		body[len++] = '0';
	memcpy(body + len, eb + sizeof eb - el, (size_t)el);
	len += el;
	field(o, s, sign, body, len, 0);
}

static void floating(struct out *o, struct spec *s, double x, char conv)
{
	int upper = conv == 'F' || conv == 'E' || conv == 'G' || conv == 'A';
	union { double d; uint64_t u; } bits;
	bits.d = x;
	const char *sign = (bits.u >> 63) ? "-" : s->plus ? "+" : s->space ? " " : "";
	if (bits.u >> 63)
		x = -x;
	if (x != x || x - x != 0.0) { /* NaN, infinity */
		s->zero = 0;
		const char *t = x != x ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
		field(o, s, sign, t, 3, 0);
		return;
	}
	if (conv == 'f' || conv == 'F') {
		fixed(o, s, x, sign, 0);
	} else if (conv == 'e' || conv == 'E' || conv == 'a' || conv == 'A') {
		expo(o, s, x, sign, upper, 0);
	} else { /* g: %e when the exponent is < -4 or >= precision */
		int p = s->prec < 0 ? 6 : s->prec == 0 ? 1 : s->prec;
		char digs[MAXD + 2];
		int e = 0;
		if (x != 0.0)
			digits_of(x, &e, digs, p > MAXD ? MAXD : p);
		struct spec t = *s;
		if (e < -4 || e >= p) {
			t.prec = p - 1;
			expo(o, &t, x, sign, upper, 1);
		} else {
			t.prec = p - 1 - e;
			fixed(o, &t, x, sign, 1);
		}
	}
}

/* The flags, width and precision of the conversion after the '%' at *pp
 * (a '*' takes an int argument); *pp is left on the length modifier. */
static struct spec spec_of(const char **pp, va_list *ap)
{
	const char *p = *pp;
	struct spec s = {0, 0, 0, 0, 0, 0, -1};
	for (;; p++) {
		char f = p[1];
		if (f == '-') s.left = 1;
		else if (f == '+') s.plus = 1;
		else if (f == ' ') s.space = 1;
		else if (f == '#') s.alt = 1;
		else if (f == '0') s.zero = 1;
		else break;
	}
	p++;
	if (*p == '*') {
		s.width = va_arg(*ap, int);
		if (s.width < 0) {
			s.left = 1;
			s.width = -s.width;
		}
		p++;
	} else {
		while (*p >= '0' && *p <= '9')
			s.width = s.width * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		p++;
		s.prec = 0;
		if (*p == '*') {
			s.prec = va_arg(*ap, int);
			if (s.prec < 0)
				s.prec = -1;
			p++;
		} else {
			while (*p >= '0' && *p <= '9')
				s.prec = s.prec * 10 + (*p++ - '0');
		}
	}
	if (s.left)
		s.zero = 0;
	*pp = p;
	return s;
}

/* The length modifier at *pp (1 h, 2 hh, 3 l, 4 ll, 5 z, 6 j, 7 t; 0
 * none or L); *pp is left on the conversion. */
static int length_of(const char **pp)
{
	int len = 0;
	for (;; (*pp)++) {
		char c = **pp;
		if (c == 'h') len = len == 1 ? 2 : 1;
		else if (c == 'l') len = len == 3 ? 4 : 3;
		else if (c == 'z') len = 5;
		else if (c == 'j') len = 6;
		else if (c == 't') len = 7;
		else if (c == 'L') len = 0;
		else break;
	}
	return len;
}

/* The argument of %d or %i with length modifier len. */
static int64_t signed_arg(va_list *ap, int len)
{
	int64_t v;
	if (len == 3) v = va_arg(*ap, long);
	else if (len == 4 || len == 6) v = va_arg(*ap, long long);
	else if (len == 5 || len == 7) v = (int64_t)va_arg(*ap, ptrdiff_t);
	else v = va_arg(*ap, int);
	if (len == 1) v = (short)v;
	if (len == 2) v = (signed char)v;
	return v;
}

/* The argument of %u, %o, %x or %X with length modifier len. */
static uint64_t unsigned_arg(va_list *ap, int len)
{
	uint64_t v;
	if (len == 3) v = va_arg(*ap, unsigned long);
	else if (len == 4 || len == 6) v = va_arg(*ap, unsigned long long);
	else if (len == 5 || len == 7) v = va_arg(*ap, size_t);
	else v = va_arg(*ap, unsigned);
	if (len == 1) v = (unsigned short)v;
	if (len == 2) v = (unsigned char)v;
	return v;
}

/* %s: at most the precision's characters of the string, "(null)" for none. */
static void string(struct out *o, struct spec *s, const char *str)
{
	if (!str)
		str = "(null)";
	int n = 0;
	while (str[n] && (s->prec < 0 || n < s->prec))
		n++;
	s->zero = 0;
	field(o, s, "", str, n, 0);
}

/* One conversion c, its argument taken from ap. */
static void convert(struct out *o, struct spec *s, char c, int len, va_list *ap)
{
	switch (c) {
	case 'd':
	case 'i': {
		int64_t v = signed_arg(ap, len);
		integer(o, s, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, 10, 0);
		break;
	}
	case 'u':
	case 'o':
	case 'x':
	case 'X':
		integer(o, s, unsigned_arg(ap, len), 0, c == 'u' ? 10 : c == 'o' ? 8 : 16, c == 'X');
		break;
	case 'p': {
		uintptr_t v = (uintptr_t)va_arg(*ap, void *);
		s->alt = 1;
		integer(o, s, v, 0, 16, 0);
		break;
	}
	case 'c': {
		char ch = (char)va_arg(*ap, int);
		field(o, s, "", &ch, 1, 0);
		break;
	}
	case 's':
		string(o, s, va_arg(*ap, const char *));
		break;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		floating(o, s, va_arg(*ap, double), c);
		break;
	case 'n':
		(void)va_arg(*ap, int *);
		break;
	case '%':
		emit(o, '%');
		break;
	default: /* unknown: print it as written */
		emit(o, '%');
		emit(o, c);
		break;
	}
}

int q7fmt(q7fmt_put put, void *ctx, const char *fmt, va_list ap)
{
	struct out o = {put, ctx, 0};
	va_list args; /* a copy, whose address the helpers take (va_list may be an array) */
	va_copy(args, ap);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			emit(&o, *p);
			continue;
		}
		struct spec s = spec_of(&p, &args);
		int len = length_of(&p);
		char c = *p;
		if (!c)
			break;
		convert(&o, &s, c, len, &args);
	}
	va_end(args);
	return o.n;
}
