"""tests/packer/mkcorpus: damaged images made from a good one.

  mkcorpus.py GOOD OUTDIR   writes OUTDIR/<damage>.so, one per kind

Every file must be refused by q7-pkg-loadlib (exit 1, a message naming
the file, no output). Both ELF classes and byte orders. An Xtensa image
whose .rela.dyn names symbols also gets the bind-* kinds: damage to what
the packer reads to bind them without -l."""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfutil  # noqa: E402


def main(good, out):
    e = elfutil.Elf(good)
    d = e.data
    c64, en = e.c64, e.e
    os.makedirs(out, exist_ok=True)
    n = [0]

    def put(name, data):
        with open(os.path.join(out, name + '.so'), 'wb') as f:
            f.write(bytes(data))
        n[0] += 1

    def with_ehdr(field, value):
        # ELF header field offsets by class: (32-bit, 64-bit, format)
        offs = dict(type=(16, 16, 'H'), phoff=(28, 32, 'I' if not c64 else 'Q'),
                    shoff=(32, 40, 'I' if not c64 else 'Q'), ehsize=(40, 52, 'H'),
                    phentsize=(42, 54, 'H'), phnum=(44, 56, 'H'), shentsize=(46, 58, 'H'),
                    shnum=(48, 60, 'H'), shstrndx=(50, 62, 'H'))
        o32, o64, fmt = offs[field]
        b = bytearray(d)
        struct.pack_into(en + fmt, b, o64 if c64 else o32, value)
        return b

    def with_shdr(i, field, value):
        names = ['name', 'type', 'flags', 'addr', 'off', 'size', 'link', 'info', 'align', 'entsize']
        fmt = 'IIQQQQIIQQ' if c64 else 'IIIIIIIIII'
        at = e.shoff + i * e.shentsize + struct.calcsize(en + fmt[:names.index(field)])
        b = bytearray(d)
        struct.pack_into(en + fmt[names.index(field)], b, at, value)
        return b

    def with_phdr(i, field, value):
        names = (['type', 'flags', 'off', 'vaddr', 'paddr', 'filesz', 'memsz', 'align'] if c64 else
                 ['type', 'off', 'vaddr', 'paddr', 'filesz', 'memsz', 'flags', 'align'])
        fmt = 'IIQQQQQQ' if c64 else 'IIIIIIII'
        at = e.phoff + i * e.phentsize + struct.calcsize(en + fmt[:names.index(field)])
        b = bytearray(d)
        struct.pack_into(en + fmt[names.index(field)], b, at, value)
        return b

    big = 0xffffffffffffff00 if c64 else 0xffffff00
    rnd = random.Random(7)
    put('empty', b'')
    for cut in (3, 16, 20, (64 if c64 else 52) - 1, len(d) // 2, len(d) - 1):
        put('trunc-%d' % cut, d[:cut])
    put('not-elf', b'INPUT(libfoo.a)\n' * 8)
    put('garbage', bytes(rnd.getrandbits(8) for _ in range(4096)))
    put('garbage-magic', b'\x7fELF' + bytes(rnd.getrandbits(8) for _ in range(4092)))
    b = bytearray(d); b[4] = 3 - b[4]; put('class-swap', b)
    b = bytearray(d); b[5] = 3 - b[5]; put('endian-swap', b)
    b = bytearray(d); b[6] = 9; put('bad-version', b)
    put('type-rel', with_ehdr('type', 1))
    put('shoff-beyond', with_ehdr('shoff', len(d) + 100))
    put('shoff-huge', with_ehdr('shoff', big))
    put('shnum-huge', with_ehdr('shnum', 0xfeff))
    put('shentsize-bad', with_ehdr('shentsize', 20))
    put('shstrndx-out', with_ehdr('shstrndx', e.shnum + 5))
    put('phoff-beyond', with_ehdr('phoff', len(d) - 4))
    put('phnum-huge', with_ehdr('phnum', 0xfff0))
    put('ehsize-bad', with_ehdr('ehsize', 7))
    # Sections: pick two with contents.
    full = [i for i, s in enumerate(e.sections) if s['type'] not in (0, 8) and s['size'] >= 8 and s['flags'] & 2]
    a, b2 = full[0], full[1]
    put('sec-offset-beyond', with_shdr(a, 'off', len(d) + 10))
    put('sec-size-absurd', with_shdr(a, 'size', 0x7fffffff))
    put('sec-offset-wraps', with_shdr(a, 'off', big))
    put('sec-overlap', with_shdr(b2, 'off', e.sections[a]['off'] + 4))
    put('sec-over-header', with_shdr(a, 'off', 0))
    put('sec-name-out', with_shdr(a, 'name', 0xffffff))
    put('sec-link-out', with_shdr(a, 'link', 999))
    put('sec-align-bad', with_shdr(a, 'align', 3))
    put('sec0-not-null', with_shdr(0, 'type', 1))
    # Entry sizes libelf would refuse only when writing the stripped image
    # (they reached the writer before): caught among the input checks instead.
    put('sec-entsize-ragged', with_shdr(a, 'entsize', e.sections[a]['size'] + 1))
    typed = [i for i, s in enumerate(e.sections) if s['type'] in (4, 6)]  # RELA, DYNAMIC
    put('sec-entsize-type', with_shdr(typed[0], 'entsize', 4))
    ss = e.sections[e.shstrndx]
    b = bytearray(d); b[ss['off'] + ss['size'] - 1] = ord('x'); put('shstrtab-unterminated', b)
    put('shstrtab-not-strtab', with_shdr(e.shstrndx, 'type', 1))
    load = [i for i, p in enumerate(e.phdrs) if p['type'] == 1][0]
    put('seg-filesz-beyond', with_phdr(load, 'filesz', len(d) * 4))
    put('seg-filesz-gt-memsz', with_phdr(load, 'memsz', 0))
    put('seg-align-bad', with_phdr(load, 'align', 0x1001))
    put('seg-addr-wraps', with_phdr(load, 'vaddr', big))
    # The loadable segment gone: its sections have no place in the
    # stripped image (found by the mutation harness: with .text moved too,
    # libelf refused the layout as "invalid data", naming the output).
    put('seg-load-gone', with_phdr(load, 'type', 0))
    if e.machine == 94 and not c64:
        bind_damage(e, put, with_shdr)
    return n[0]


def bind_damage(e, put, with_shdr):
    """What binding without -l reads, damaged, in an Xtensa image whose
    .rela.dyn names symbols (fixture/bind.c): symbol indexes, the tables'
    entry sizes, sizes and links, names, values and bindings, and the
    relocated word's address."""
    d, en = e.data, e.e
    ri, rela = e.section('.rela.dyn')
    si, dynsym = e.section('.dynsym')
    if rela is None or dynsym is None:
        return

    def u32(pos):
        return struct.unpack_from(en + 'I', d, pos)[0]

    def with_u32(pos, value):
        b = bytearray(d)
        struct.pack_into(en + 'I', b, pos, value)
        return b

    def sym_is(i, weak_undef):
        at = dynsym['off'] + 16 * i
        undef = struct.unpack_from(en + 'H', d, at + 14)[0] == 0
        return undef == weak_undef and (d[at + 12] >> 4 == 2) == weak_undef

    # The GLOB_DATs that name an undefined weak and a defined symbol.
    glob = {}
    for k in range(rela['size'] // 12):
        at = rela['off'] + 12 * k
        info = u32(at + 4)
        if info & 0xff == 3 and info >> 8:
            glob.setdefault(sym_is(info >> 8, True), (at, info >> 8))
    if len(glob) != 2:
        return
    at, sym = glob[True]
    nsyms = dynsym['size'] // 16
    put('bind-sym-huge', with_u32(at + 4, 0xffffff << 8 | 3))
    put('bind-sym-past', with_u32(at + 4, nsyms << 8 | 3))
    put('bind-sym-zero', with_u32(at + 4, 3))
    put('bind-type-32', with_u32(at + 4, sym << 8 | 1))
    put('bind-word-outside', with_u32(at, 0xfffffff0))
    put('bind-name-outside', with_u32(dynsym['off'] + 16 * sym, 0xffffff))
    b = bytearray(d)
    b[dynsym['off'] + 16 * sym + 12] = 0x10  # GLOBAL NOTYPE: strong undefined
    put('bind-sym-strong', b)
    put('bind-value-outside', with_u32(dynsym['off'] + 16 * glob[False][1] + 4, 0x10))
    put('bind-dynsym-entsize', with_shdr(si, 'entsize', 12))
    put('bind-dynsym-ragged', with_shdr(si, 'size', dynsym['size'] - 4))
    put('bind-dynstr-not-strtab', with_shdr(dynsym['link'], 'type', 1))
    put('bind-rela-entsize', with_shdr(ri, 'entsize', 8))
    put('bind-rela-ragged', with_shdr(ri, 'size', rela['size'] - 5))
    put('bind-rela-link', with_shdr(ri, 'link', e.section('.text')[0]))


if __name__ == '__main__':
    print(main(sys.argv[1], sys.argv[2]))
