"""`arena proto [--out DIR]`: the protocol files of the installed arena, for a bot's
repository to pin what it was built against.

They are copies of the repository's proto/ that scripts/gen_proto.py makes beside the
generated code (arena/wire/gen/proto/), since proto/ itself is no package and is not
installed; the staleness test holds them to proto/. Every file there is handed out, in
the same tree (euchre/v1/...), so that `-I DIR` works as it does for proto/.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from arena import __version__
from arena.settings.errors import KINDS, ArenaBug, ConfigError, exit_status_help, kind_of

DESCRIPTION = (
    "Write the protocol files of this arena (euchre/v1/bot.proto, types.proto, record.proto "
    "and whatever else ships with them) to DIR, in the tree their imports name, so that "
    "'protoc -I DIR' finds them: a bot's repository keeps them to pin the protocol it was "
    "built against. Without --out, print the folder of the installed arena that holds "
    "them, itself an include path: protoc -I \"$(arena proto)\" ...")

EPILOG = exit_status_help("written, or the folder printed")


def add_proto_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, default=None, metavar="DIR",
                   help="write the files under DIR (DIR/euchre/v1/bot.proto, ...); default: "
                   "write nothing, print the installed folder")
    p.add_argument("--force", action="store_true",
                   help="overwrite files in DIR that differ from this arena's (by default "
                   "nothing is written when any does)")


def proto_folder() -> Path:
    """The installed copies of proto/; ArenaBug when the installation lacks them."""
    from arena.wire import gen

    folder = Path(gen.__file__).resolve().parent / "proto"
    if not any(folder.rglob("*.proto")):
        raise ArenaBug(f"{folder}: this installation of the arena holds no protocol files "
                       "(scripts/gen_proto.py makes them; the package's data ships them)")
    return folder


def proto_files(folder: Path) -> list[Path]:
    """Every file of the protocol, relative to its folder."""
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())


def cmd_proto(args: argparse.Namespace) -> int:
    folder = proto_folder()
    if args.out is None:
        print(folder)
        return 0
    out: Path = args.out
    files = proto_files(folder)
    differing = [rel for rel in files
                 if (out / rel).is_file() and (out / rel).read_bytes() != (folder / rel).read_bytes()]
    if differing and not args.force:
        more = f" (and {len(differing) - 1} more)" if len(differing) > 1 else ""
        raise ConfigError(f"{out / differing[0]}{more}: differs from arena {__version__}'s; "
                          "nothing was written (add --force to overwrite)")
    written = 0
    for rel in files:
        dest, data = out / rel, (folder / rel).read_bytes()
        if dest.is_file() and dest.read_bytes() == data:
            print(f"unchanged {dest}")
            continue
        try:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        except OSError as e:  # bad input for a path, the machine for a full disk
            raise KINDS[kind_of(e)](f"{dest}: cannot write: {e.strerror or e}") from None
        print(f"wrote {dest}")
        written += 1
    print(f"arena {__version__}'s protocol: {len(files)} files in {out} ({written} written); "
          f"compile with -I {out}")
    return 0
