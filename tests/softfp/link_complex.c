/* link_complex.c: operations whose libgcc helpers (__mulsc3, __divdc3,
 * __powisf2, ...) themselves call the helpers of libq7softfp.a. With the
 * archive only before -lgcc they can be left unresolved; link_check.sh
 * shows that naming the archive again after -lgcc resolves them. */
#define V volatile
V _Complex float cf;
V _Complex double cd;
V float f;
V double d;
V int n;

void q7sf_use_complex(void);

void q7sf_use_complex(void)
{
    cf = cf * cf;
    cf = cf / cf;
    cd = cd * cd;
    cd = cd / cd;
    f = __builtin_powif(f, n);
    d = __builtin_powi(d, n);
}
