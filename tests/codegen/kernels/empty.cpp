// golden/empty.cpp declares no kernels.
