"""`arena proto`: the installed arena hands out every file of proto/, in its tree, so that
`protoc -I DIR` compiles a bot against it; it never overwrites a differing file
unasked; and a wheel of the arena holds the files."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from arena import __version__

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto"


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", "proto", *map(str, args)],
                          capture_output=True, text=True, timeout=60)


def tree(folder: Path) -> dict[Path, bytes]:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_installed_folder_holds_every_file_of_proto():
    proc = arena()
    assert proc.returncode == 0, proc.stderr
    folder = Path(proc.stdout.strip())
    assert len(proc.stdout.splitlines()) == 1  # for protoc -I "$(arena proto)"
    assert tree(folder) == tree(PROTO)
    assert {"euchre/v1/bot.proto", "euchre/v1/types.proto", "euchre/v1/record.proto"} <= {
        str(p) for p in tree(folder)}


def test_written_files_compile_with_dash_i_and_are_not_overwritten_unasked(tmp_path):
    out = tmp_path / "proto"
    proc = arena("--out", out)
    assert proc.returncode == 0, proc.stderr
    assert tree(out) == tree(PROTO)
    for rel in tree(PROTO):
        assert f"wrote {out / rel}\n" in proc.stdout
    gen = tmp_path / "gen"
    gen.mkdir()
    compiled = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", f"-I{out}", f"--python_out={gen}",
         "euchre/v1/bot.proto", "euchre/v1/types.proto", "euchre/v1/record.proto"],
        capture_output=True, text=True, timeout=60)
    assert compiled.returncode == 0, compiled.stderr
    assert (gen / "euchre" / "v1" / "bot_pb2.py").exists()

    again = arena("--out", out)  # the same files: nothing to do, and no refusal
    assert again.returncode == 0 and "wrote" not in again.stdout
    assert f"unchanged {out / 'euchre/v1/bot.proto'}" in again.stdout

    bot = out / "euchre" / "v1" / "bot.proto"
    bot.write_text("// an older protocol\n")
    (out / "euchre" / "v1" / "types.proto").unlink()
    refused = arena("--out", out)
    assert refused.returncode == 2
    assert refused.stderr.strip() == (f"arena: error: {bot}: differs from arena {__version__}'s; "
                                      "nothing was written (add --force to overwrite)")
    assert bot.read_text() == "// an older protocol\n"
    assert not (out / "euchre" / "v1" / "types.proto").exists()  # nothing, not some

    forced = arena("--out", out, "--force")
    assert forced.returncode == 0, forced.stderr
    assert tree(out) == tree(PROTO)
    assert f"wrote {bot}" in forced.stdout


def test_a_path_that_cannot_be_written_is_bad_input(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = arena("--out", blocker)
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "cannot write" in proc.stderr


def test_a_wheel_ships_every_copied_file(tmp_path):
    """The copies are package data (pyproject's [tool.setuptools.package-data]), data
    files beside the .proto ones included: built from a copy of the sources, without the
    repository's own metadata, so that nothing but the package data can bring them."""
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(ROOT / "pyproject.toml", src)
    shutil.copy(ROOT / "README.md", src)
    skip = shutil.ignore_patterns("__pycache__", "node_modules", "*.egg-info")
    for package in ("arena", "ladder", "sample_bots"):
        shutil.copytree(ROOT / package, src / package, ignore=skip)
    extra = src / "arena" / "wire" / "gen" / "proto" / "notes" / "readme.txt"
    extra.parent.mkdir()
    extra.write_text("any file kept with the protocol ships, at any depth\n")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", str(src), "-w", str(tmp_path / "wheel")],
        capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (tmp_path / "wheel").glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {n.removeprefix("arena/wire/gen/proto/") for n in names
               if n.startswith("arena/wire/gen/proto/")}
    assert shipped == {str(p) for p in tree(PROTO)} | {"notes/readme.txt"}
    assert "card_vectors.json" in shipped
