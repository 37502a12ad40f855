// A kernel that reaches for the host's files through QEMU's semihosting
// (SIMCALL open, write, close, as the boot program reads and writes its
// descriptors), for run_emu.py's semihosting case: by default the
// emulated core has no host file access (docs/emulated.md).
#include <stdint.h>
#include <torch/torch.h>
#include <q7/kernel.h>
#include "simcall.h" // runtime/boot


// Opens the host file named by `path` (NUL-terminated bytes) with
// `flags`; writes "q7" into it when `flags` opens it for writing.
// Returns {the descriptor or -1, its errno, what the write returned}.
Q7_KERNEL torch::Tensor host_open(const torch::Tensor &path, int64_t flags)
{
    enum { SYS_WRITE = 4, SYS_OPEN = 5, SYS_CLOSE = 6 };
    int err = 0, werr = 0, wrote = -1;
    int fd = q7_simcall(SYS_OPEN, (int)(uintptr_t)path.data_ptr<uint8_t>(), (int)flags, 0644, &err);
    if (fd >= 0 && (flags & 3))
        wrote = q7_simcall(SYS_WRITE, fd, (int)(uintptr_t) "q7", 2, &werr);
    if (fd >= 0)
        q7_simcall(SYS_CLOSE, fd, 0, 0, &werr);
    torch::Tensor y = torch::zeros({3}, torch::kInt);
    int32_t *p = y.data_ptr<int32_t>();
    p[0] = fd;
    p[1] = err;
    p[2] = wrote;
    return y;
}

// Closes QEMU's descriptor `fd` (the session's socket is 3 and 4; 5 was
// its data file, and is no longer given): what a kernel can do to the
// session that runs it.
Q7_KERNEL torch::Tensor close_fd(const torch::Tensor &x, int64_t fd)
{
    enum { SYS_CLOSE = 6 };
    int err = 0;
    q7_simcall(SYS_CLOSE, (int)fd, 0, 0, &err);
    torch::Tensor y = torch::zeros({x.numel()}, torch::kInt);
    const int32_t *in = x.data_ptr<int32_t>();
    int32_t *out = y.data_ptr<int32_t>();
    for (int64_t i = 0; i < x.numel(); i++)
        out[i] = in[i] + 1;
    return y;
}

// Writes 4096 bytes into QEMU's descriptor 5 (where the session's data
// file was) at `offset`: what a kernel could do to make the host hold
// memory while there was one. Returns
// {what the seek returned, what the write returned, the write's errno}.
Q7_KERNEL torch::Tensor grow_data(const torch::Tensor &x, int64_t offset)
{
    enum { SYS_WRITE = 4, SYS_LSEEK = 19 };
    static const char page[4096] = {1};
    int err = 0, werr = 0;
    int at = q7_simcall(SYS_LSEEK, 5, (int)offset, 0 /* SEEK_SET */, &err);
    int wrote = q7_simcall(SYS_WRITE, 5, (int)(uintptr_t)page, sizeof page, &werr);
    torch::Tensor y = torch::zeros({3 + x.numel() * 0}, torch::kInt);
    int32_t *p = y.data_ptr<int32_t>();
    p[0] = at;
    p[1] = wrote;
    p[2] = werr;
    return y;
}
