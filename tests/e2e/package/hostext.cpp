// The host half of the project, compiled by the project's own compiler:
// q7cc's headers must not reach it (its <torch/torch.h> is the device's).
#if __has_include(<q7/kernel.h>)
#error "q7cc's include folder reached a compile of the project's own compiler"
#endif
#include <vector>

int hostext_sum(const std::vector<int> &v)
{
	int s = 0;
	for (int x : v)
		s += x;
	return s;
}
