"""tests/packer/elfutil: a small ELF reader for the packer's tests (both
classes, both byte orders), and the comparisons the tests make.

  elfutil.py compare A B        stripped images: sections (name, type,
                                flags, address, size, link, info, align,
                                entsize, contents) and program headers
  elfutil.py symbytes OBJ SYM N print nothing, exit 0 when the N bytes at
        FILE                    symbol SYM in OBJ equal FILE's bytes
  elfutil.py symbol OBJ SYM     print "bind type size section" of SYM
  elfutil.py has OBJ SECTION    exit 0 when OBJ has the section
  elfutil.py swap IN OUT        OUT = IN with its ELF, program and section
                                headers in the other byte order (section
                                contents untouched): an other-endian image
  elfutil.py compare-endian A B like compare, but A and B differ in byte order
"""
import struct
import sys


class Elf:
    def __init__(self, path):
        self.path = path
        self.data = open(path, 'rb').read()
        d = self.data
        if d[:4] != b'\x7fELF':
            raise ValueError(path + ': not ELF')
        self.c64 = d[4] == 2
        self.e = '<' if d[5] == 1 else '>'
        e = self.e
        if self.c64:
            (self.type, self.machine, _, self.entry, self.phoff, self.shoff, self.flags, _,
             self.phentsize, self.phnum, self.shentsize, self.shnum, self.shstrndx) = \
                struct.unpack_from(e + 'HHIQQQIHHHHHH', d, 16)
        else:
            (self.type, self.machine, _, self.entry, self.phoff, self.shoff, self.flags, _,
             self.phentsize, self.phnum, self.shentsize, self.shnum, self.shstrndx) = \
                struct.unpack_from(e + 'HHIIIIIHHHHHH', d, 16)
        self.sections = []
        for i in range(self.shnum):
            o = self.shoff + i * self.shentsize
            if self.c64:
                name, typ, flags, addr, off, size, link, info, align, entsize = \
                    struct.unpack_from(e + 'IIQQQQIIQQ', d, o)
            else:
                name, typ, flags, addr, off, size, link, info, align, entsize = \
                    struct.unpack_from(e + 'IIIIIIIIII', d, o)
            self.sections.append(dict(name_off=name, type=typ, flags=flags, addr=addr, off=off,
                                      size=size, link=link, info=info, align=align,
                                      entsize=entsize))
        strs = self.sections[self.shstrndx]
        for s in self.sections:
            start = strs['off'] + s['name_off']
            s['name'] = d[start:d.index(b'\0', start)].decode()
            s['bytes'] = b'' if s['type'] == 8 else d[s['off']:s['off'] + s['size']]
        self.phdrs = []
        for i in range(self.phnum):
            o = self.phoff + i * self.phentsize
            if self.c64:
                typ, flags, off, vaddr, paddr, filesz, memsz, align = \
                    struct.unpack_from(e + 'IIQQQQQQ', d, o)
            else:
                typ, off, vaddr, paddr, filesz, memsz, flags, align = \
                    struct.unpack_from(e + 'IIIIIIII', d, o)
            self.phdrs.append(dict(type=typ, flags=flags, off=off, vaddr=vaddr, paddr=paddr,
                                   filesz=filesz, memsz=memsz, align=align))

    def section(self, name):
        for i, s in enumerate(self.sections):
            if s['name'] == name:
                return i, s
        return None, None

    def symbols(self):
        for s in self.sections:
            if s['type'] != 2:  # SHT_SYMTAB
                continue
            strtab = self.sections[s['link']]
            n = s['size'] // s['entsize']
            for k in range(n):
                o = s['off'] + k * s['entsize']
                if self.c64:
                    name, info, other, shndx, value, size = struct.unpack_from(self.e + 'IBBHQQ', self.data, o)
                else:
                    name, value, size, info, other, shndx = struct.unpack_from(self.e + 'IIIBBH', self.data, o)
                start = strtab['off'] + name
                yield dict(name=self.data[start:self.data.index(b'\0', start)].decode(),
                           value=value, size=size, bind=info >> 4, type=info & 15, shndx=shndx)


SECTION_KEYS = ('name', 'type', 'flags', 'addr', 'size', 'link', 'info', 'align', 'entsize', 'bytes')
PHDR_KEYS = ('type', 'flags', 'vaddr', 'paddr', 'filesz', 'memsz', 'align')


def swap(e, out):
    """Rewrites the three header tables of e in the other byte order."""
    d = bytearray(e.data)
    src, dst = e.e, '>' if e.e == '<' else '<'
    d[5] = 3 - d[5]
    ehdr = 'HHIQQQIHHHHHH' if e.c64 else 'HHIIIIIHHHHHH'
    struct.pack_into(dst + ehdr, d, 16, *struct.unpack_from(src + ehdr, e.data, 16))
    ph = 'IIQQQQQQ' if e.c64 else 'IIIIIIII'
    for i in range(e.phnum):
        o = e.phoff + i * e.phentsize
        struct.pack_into(dst + ph, d, o, *struct.unpack_from(src + ph, e.data, o))
    sh = 'IIQQQQIIQQ' if e.c64 else 'IIIIIIIIII'
    for i in range(e.shnum):
        o = e.shoff + i * e.shentsize
        struct.pack_into(dst + sh, d, o, *struct.unpack_from(src + sh, e.data, o))
    open(out, 'wb').write(d)


def compare(a, b, endian=False):
    """Differences between two stripped images, as text lines."""
    out = []
    for k in ('c64', 'type', 'machine', 'entry', 'flags', 'phnum', 'shnum') + (() if endian else ('e',)):
        if getattr(a, k) != getattr(b, k):
            out.append('header %s: %r != %r' % (k, getattr(a, k), getattr(b, k)))
    if endian and a.e == b.e:
        out.append('same byte order')
    if a.data[:5] + a.data[6:16] != b.data[:5] + b.data[6:16] or (not endian and a.data[5] != b.data[5]):
        out.append('e_ident differs')
    for i, (x, y) in enumerate(zip(a.sections, b.sections)):
        for k in SECTION_KEYS:
            if x[k] != y[k]:
                shown = (len(x[k]), len(y[k])) if k == 'bytes' else (x[k], y[k])
                out.append('section %d %s: %s %r != %r' % (i, x['name'], k, *shown))
    for i, (x, y) in enumerate(zip(a.phdrs, b.phdrs)):
        for k in PHDR_KEYS:
            if x[k] != y[k]:
                out.append('phdr %d %s: %#x != %#x' % (i, k, x[k], y[k]))
    # Segment contents: what a loader copies must be the same bytes (apart
    # from the header tables, whose byte order differs in compare-endian).
    for i, (x, y) in enumerate(zip(a.phdrs, b.phdrs)):
        if x['type'] == 1 and not endian and \
                a.data[x['off']:x['off'] + x['filesz']] != b.data[y['off']:y['off'] + y['filesz']]:
            out.append('phdr %d: segment contents differ' % i)
    return out


def main(argv):
    cmd = argv[1]
    if cmd == 'swap':
        swap(Elf(argv[2]), argv[3])
        return 0
    if cmd in ('compare', 'compare-endian'):
        a, b = Elf(argv[2]), Elf(argv[3])
        diffs = compare(a, b, cmd == 'compare-endian')
        for d in diffs:
            print(d)
        print('%s: %d sections, %d program headers: %s%s' % (
            argv[2], a.shnum, a.phnum, 'equal' if not diffs else 'DIFFERENT',
            ' (and byte-identical files)' if a.data == b.data else ''))
        return 1 if diffs else 0
    if cmd == 'symbytes':
        o, name, want = Elf(argv[2]), argv[3], open(argv[4], 'rb').read()
        for s in o.symbols():
            if s['name'] == name:
                sec = o.sections[s['shndx']]
                off = s['value'] - sec['addr']
                got = sec['bytes'][off:off + len(want)]
                if got == want:
                    return 0
                print('%s: %s: %d bytes at %s+%#x differ from %s' % (argv[2], name, len(want), sec['name'], s['value'], argv[4]))
                return 1
        print('%s: no symbol %s' % (argv[2], name))
        return 1
    if cmd == 'symbol':
        o = Elf(argv[2])
        for s in o.symbols():
            if s['name'] == argv[3]:
                print(s['bind'], s['type'], s['size'], o.sections[s['shndx']]['name'])
                return 0
        return 1
    if cmd == 'has':
        return 0 if Elf(argv[2]).section(argv[3])[1] else 1
    print(__doc__)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
