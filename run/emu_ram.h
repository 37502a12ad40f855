/* run/emu_ram: the emulated core's RAM, read and written by the host in
 * QEMU's memory (docs/emulated.md, "The emulated machine"): found once
 * per QEMU after its READY record, then the call's tensors go in and
 * the bytes handed back come out, one copy a byte each way, and a
 * kernel's block move is made there. */
#ifndef Q7_EMU_RAM_H
#define Q7_EMU_RAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "q7/boot.h"
#include "support.h"

/* sysram0's bytes: QEMU's -m. */
#define Q7_EMU_RAM_BYTES ((size_t)(Q7_BOOT_RAM_END - Q7_BOOT_BLOCK_ADDR))

/* Moves iov[0..*n) past the done bytes a transfer took (its first
 * iovecs dropped, the next one shortened). */
void q7_emu_iov_skip(struct iovec **iov, int *n, size_t done);
/* True when [addr, addr + n) lies in the core's RAM. */
bool q7_emu_ram_holds(uint64_t addr, uint64_t n);
/* Finds the core's RAM in QEMU pid's memory: the read-write private
 * mapping of Q7_EMU_RAM_BYTES whose first bytes are block (the boot
 * block QEMU's loader put at Q7_BOOT_BLOCK_ADDR). Its address in QEMU,
 * or 0 with err set. */
uintptr_t q7_emu_ram_find(pid_t pid, const void *block, size_t size, struct q7_err *err);
/* Writes (write) or reads local[0..n) to or from the core's RAM from
 * addr on, whole (local is consumed). 0, or -1 with errno set. */
int q7_emu_ram_io(pid_t pid, uintptr_t ram, bool write, struct iovec *local, int n,
                  uint32_t addr);
/* memmove of n bytes from src to dst in the core's RAM, through buf of
 * size bytes. 0, or -1 with errno set. */
int q7_emu_ram_move(pid_t pid, uintptr_t ram, uint32_t dst, uint32_t src, uint32_t n,
                    unsigned char *buf, size_t size);

#endif
