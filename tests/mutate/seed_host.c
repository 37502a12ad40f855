/* A host shared library for the mutation harness's packer seeds: code,
 * data, bss, a constructor and an exported table (ELF64). */
int q7_seed_counter;
static int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
const char q7_seed_name[] = "seed";
int q7_seed_entry(int x);
int q7_seed_entry(int x)
{
	return table[x & 7] + q7_seed_counter++;
}
__attribute__((constructor)) static void q7_seed_init(void)
{
	q7_seed_counter = 3;
}
