/* An ordinary C library: no kernels, linked as the compiler links it. */
int plain_twice(int x);
int plain_twice(int x)
{
	return 2 * x;
}
