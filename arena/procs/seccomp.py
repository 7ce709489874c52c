"""The seccomp filter every sealed bot runs under: no kernel state kept on a shared file
can carry a message from one bot to another.

Every sandbox binds the same host files read-only (``/usr``, the Python runtime, a bot's
own folder, which both of a bot's processes in a duplicate pair share). Read-only is not
enough: the kernel keeps state on the file itself (the inode), across every namespace, and
some of it needs only read access to set or to see:

* **locks**: ``fcntl`` record locks and open-file-description locks, ``flock`` and
  ``lockf`` (a read lock needs only a read descriptor, and ``F_GETLK`` or a failing
  ``F_SETLK`` tells whether another process holds a byte: a shared bitmap). Here every
  lock request *succeeds without taking a lock*: a bot's own files are in its private
  ``/tmp``, which nothing else can open, so a lock there protects nothing that another
  process could touch, and programs that lock their files (SQLite, the JVM, npm) keep
  working. ``F_GETLK`` still runs: no sealed process holds a lock, so it sees only the
  host's. Leases (``F_SETLEASE``) and directory notices (``F_NOTIFY``) are refused.
* **notifications**: inotify and fanotify report other processes' reads of a shared
  file; they are refused (``ENOSYS``, so programs that can fall back to polling do).
* **the page cache**: whether a page of a shared file is in memory. The calls that ask
  (``mincore``, ``cachestat``) are refused, and those that evict or load pages on
  purpose (``posix_fadvise``, ``readahead``, ``madvise`` with ``MADV_WILLNEED``,
  ``MADV_COLD``, ``MADV_PAGEOUT``, ``MADV_POPULATE_*``) succeed without doing anything
  (all advice may be ignored). What remains is timing a read: a bot can load a page but
  never evict one, and must tell a cached page from a disk read by its clock.
* **io_uring**, which would run the same operations without passing this filter, is
  refused; so is every system call of another architecture than the machine's own (a
  64-bit process can still make 32-bit ones), so there is no second table to slip
  through.

Classic BPF, assembled here from the kernel's constants, for x86-64 and arm64 (the
architectures bwrap and the arena run on); `program()` raises `SeccompUnsupported`
elsewhere. Pure and standard library only.
"""

from __future__ import annotations

import errno
import platform
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.settings.errors import MachineError

__all__ = ["SeccompUnsupported", "program"]


class SeccompUnsupported(MachineError):
    """No filter is known for this machine's architecture."""


# seccomp return actions (linux/seccomp.h)
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000

# classic BPF opcodes (linux/filter.h)
_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
_JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_RET_K = 0x06  # BPF_RET | BPF_K

# struct seccomp_data: nr (u32), arch (u32), instruction_pointer (u64), args[6] (u64)
_NR, _ARCH = 0, 4


def _arg_low(i: int) -> int:
    return 16 + 8 * i  # little-endian: the low 32 bits come first


@dataclass(frozen=True)
class _Arch:
    audit: int
    calls: Mapping[str, int]
    x32_bit: int = 0  # x86-64: calls with this bit set are the x32 ABI's


_X86_64 = _Arch(0xC000003E, {
    "fcntl": 72, "flock": 73, "inotify_init": 253, "inotify_init1": 294,
    "inotify_add_watch": 254, "fanotify_init": 300, "io_uring_setup": 425,
    "mincore": 27, "cachestat": 451, "fadvise64": 221, "readahead": 187, "madvise": 28,
}, x32_bit=0x40000000)
_AARCH64 = _Arch(0xC00000B7, {
    "fcntl": 25, "flock": 32, "inotify_init1": 26, "inotify_add_watch": 27,
    "fanotify_init": 262, "io_uring_setup": 425, "mincore": 232, "cachestat": 451,
    "fadvise64": 223, "readahead": 213, "madvise": 233,
})
_ARCHES = {"x86_64": _X86_64, "amd64": _X86_64, "aarch64": _AARCH64, "arm64": _AARCH64}

# fcntl commands (asm-generic/fcntl.h, the same on both architectures)
_F_SETLK, _F_SETLKW, _F_OFD_SETLK, _F_OFD_SETLKW = 6, 7, 37, 38
_F_SETLEASE, _F_NOTIFY = 1024, 1026
# madvise advice that loads or evicts page cache pages
_MADV_WILLNEED, _MADV_COLD, _MADV_PAGEOUT = 3, 20, 21
_MADV_POPULATE_READ, _MADV_POPULATE_WRITE = 22, 23

_NO_OP = _ERRNO | 0  # the call returns 0 and does nothing
_ENOSYS = _ERRNO | errno.ENOSYS
_EPERM = _ERRNO | errno.EPERM

# what each call gets: an action, or a rule on one argument (its index, values -> action)
_CALLS: dict[str, int | tuple[int, dict[int, int]]] = {
    "flock": _NO_OP,
    "fcntl": (1, {_F_SETLK: _NO_OP, _F_SETLKW: _NO_OP, _F_OFD_SETLK: _NO_OP,
                  _F_OFD_SETLKW: _NO_OP, _F_SETLEASE: _EPERM, _F_NOTIFY: _EPERM}),
    "inotify_init": _ENOSYS,
    "inotify_init1": _ENOSYS,
    "inotify_add_watch": _ENOSYS,
    "fanotify_init": _ENOSYS,
    "io_uring_setup": _ENOSYS,
    "mincore": _ENOSYS,
    "cachestat": _ENOSYS,
    "fadvise64": _NO_OP,
    "readahead": _NO_OP,
    "madvise": (2, {_MADV_WILLNEED: _NO_OP, _MADV_COLD: _NO_OP, _MADV_PAGEOUT: _NO_OP,
                    _MADV_POPULATE_READ: _NO_OP, _MADV_POPULATE_WRITE: _NO_OP}),
}


class _Asm:
    """Instructions with forward jumps to labels, resolved at the end."""

    def __init__(self) -> None:
        self.code: list[tuple[int, str | int, str | int, int]] = []
        self.labels: dict[str, int] = {}

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def op(self, code: int, k: int, jt: str | int = 0, jf: str | int = 0) -> None:
        self.code.append((code, jt, jf, k))

    def assemble(self) -> bytes:
        out = []
        for at, (code, jt, jf, k) in enumerate(self.code):
            def offset(target: str | int, at: int = at) -> int:
                if isinstance(target, int):
                    return target
                distance = self.labels[target] - at - 1
                if not 0 <= distance <= 255:
                    raise AssertionError(f"jump to {target} out of range")
                return distance
            out.append(struct.pack("=HBBI", code, offset(jt), offset(jf), k))
        return b"".join(out)


def _program(arch: _Arch, calls: Sequence[str]) -> bytes:
    asm = _Asm()
    asm.op(_LD_W_ABS, _ARCH)
    asm.op(_JEQ_K, arch.audit, 0, "foreign")
    asm.op(_LD_W_ABS, _NR)
    if arch.x32_bit:
        asm.op(_JGE_K, arch.x32_bit, "foreign", 0)
    rules: list[tuple[str, tuple[int, dict[int, int]]]] = []
    for name in calls:
        nr = arch.calls.get(name)
        if nr is None:
            continue
        rule = _CALLS[name]
        if isinstance(rule, int):
            asm.op(_JEQ_K, nr, f"ret{rule}", 0)
        else:
            asm.op(_JEQ_K, nr, f"args_{name}", 0)
            rules.append((name, rule))
    asm.op(_RET_K, _ALLOW)
    for name, (index, values) in rules:
        asm.label(f"args_{name}")
        asm.op(_LD_W_ABS, _arg_low(index))
        for value, action in values.items():
            asm.op(_JEQ_K, value, f"ret{action}", 0)
        asm.op(_RET_K, _ALLOW)
    asm.label("foreign")
    asm.op(_RET_K, _ENOSYS)
    for action in sorted({a for r in _CALLS.values()
                          for a in ([r] if isinstance(r, int) else r[1].values())}):
        asm.label(f"ret{action}")
        asm.op(_RET_K, action)
    return asm.assemble()


def program(machine: str | None = None) -> bytes:
    """The filter as bwrap's ``--seccomp`` reads it: an array of ``struct sock_filter``."""
    name = (machine or platform.machine()).lower()
    arch = _ARCHES.get(name)
    if arch is None:
        raise SeccompUnsupported(
            f"no seccomp filter for the {name} architecture (x86_64 and aarch64 have one)"
        )
    return _program(arch, tuple(_CALLS))
