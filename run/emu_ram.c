/* run/emu_ram: the emulated core's RAM in QEMU's memory (emu_ram.h):
 * what QEMU maps, and why the host may write it only while the boot
 * program waits on its request descriptor: docs/emulated.md, "The
 * emulated machine". */
#include "emu_ram.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

void q7_emu_iov_skip(struct iovec **iov, int *n, size_t done)
{
	while (*n > 0 && done >= (*iov)->iov_len) {
		done -= (*iov)->iov_len;
		(*iov)++;
		(*n)--;
	}
	if (*n > 0) {
		(*iov)->iov_base = (char *)(*iov)->iov_base + done;
		(*iov)->iov_len -= done;
	}
}

bool q7_emu_ram_holds(uint64_t addr, uint64_t n)
{
	return addr >= Q7_BOOT_BLOCK_ADDR && addr <= Q7_BOOT_RAM_END && n <= Q7_BOOT_RAM_END - addr;
}

/* One mapping line of /proc/PID/maps: true for a private read-write
 * anonymous one of the RAM's size, its start in *lo. */
static bool ram_sized(const char *line, uintptr_t *lo)
{
	unsigned long long a, b, off;
	char perms[8];
	unsigned long inode;
	int used = 0;
	if (sscanf(line, "%llx-%llx %7s %llx %*s %lu%n", &a, &b, perms, &off, &inode, &used) < 5)
		return false;
	const char *rest = line + used;
	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (strcmp(perms, "rw-p") != 0 || inode != 0 || (*rest && *rest != '\n') ||
	    b - a != Q7_EMU_RAM_BYTES)
		return false;
	*lo = (uintptr_t)a;
	return true;
}

uintptr_t q7_emu_ram_find(pid_t pid, const void *block, size_t size, struct q7_err *err)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/maps", (long)pid);
	FILE *f = fopen(path, "re");
	if (!f) {
		q7_err_set(err, path, "cannot read QEMU's memory map: %s", strerror(errno));
		return 0;
	}
	char line[512];
	uintptr_t found = 0;
	unsigned char *head = q7_xmalloc(size);
	int e = 0;
	while (!found && fgets(line, sizeof line, f)) {
		uintptr_t lo;
		if (!ram_sized(line, &lo))
			continue;
		struct iovec v = {head, size};
		if (q7_emu_ram_io(pid, lo, false, &v, 1, Q7_BOOT_BLOCK_ADDR) != 0)
			e = errno;
		else if (memcmp(head, block, size) == 0)
			found = lo;
	}
	fclose(f);
	free(head);
	if (!found)
		q7_err_set(err, path, "the emulated core's RAM is not in QEMU's memory (a mapping of "
		           "%zu bytes starting with the boot block)%s%s", Q7_EMU_RAM_BYTES,
		           e ? ": " : "", e ? strerror(e) : "");
	return found;
}

int q7_emu_ram_io(pid_t pid, uintptr_t ram, bool write, struct iovec *local, int n, uint32_t addr)
{
	size_t total = 0;
	for (int i = 0; i < n; i++)
		total += local[i].iov_len;
	if (!q7_emu_ram_holds(addr, total)) {
		errno = EFAULT;
		return -1;
	}
	uintptr_t at = ram + (addr - Q7_BOOT_BLOCK_ADDR);
	while (n > 0 && total > 0) {
		struct iovec remote = {(void *)at, total};
		int k = n < IOV_MAX ? n : IOV_MAX;
		ssize_t done = write ? process_vm_writev(pid, local, (unsigned long)k, &remote, 1, 0)
		                     : process_vm_readv(pid, local, (unsigned long)k, &remote, 1, 0);
		if (done < 0 && errno == EINTR)
			continue;
		if (done <= 0) {
			if (done == 0)
				errno = EIO;
			return -1;
		}
		at += (size_t)done;
		total -= (size_t)done;
		q7_emu_iov_skip(&local, &n, (size_t)done);
	}
	return 0;
}

int q7_emu_ram_move(pid_t pid, uintptr_t ram, uint32_t dst, uint32_t src, uint32_t n,
                    unsigned char *buf, size_t size)
{
	if (!q7_emu_ram_holds(dst, n) || !q7_emu_ram_holds(src, n)) {
		errno = EFAULT;
		return -1;
	}
	/* From the end when the destination overlaps the source from above:
	 * each piece is read whole before it is written. */
	bool up = dst > src && dst - src < n;
	for (uint32_t done = 0; done < n;) {
		uint32_t k = n - done < size ? n - done : (uint32_t)size;
		uint32_t at = up ? n - done - k : done;
		struct iovec in = {buf, k}, out = {buf, k};
		if (q7_emu_ram_io(pid, ram, false, &in, 1, src + at) != 0 ||
		    q7_emu_ram_io(pid, ram, true, &out, 1, dst + at) != 0)
			return -1;
		done += k;
	}
	return 0;
}
