"""Game records in and out: the one place that turns a GameLog into bytes, JSON, a file
or a database blob, and back.

A record is the GameRecord message of proto/euchre/v1/record.proto: bytes for `.pb`
files and ladder databases, protobuf's JSON mapping for `.json` files and `arena replay
--json`. Whatever reads one gets a GameLog or a RecordError saying what is wrong with
it: a record can come from anywhere (a file someone edited, an old database), so a bad
one is the input's fault, never a crash.
"""

from __future__ import annotations

from pathlib import Path

from google.protobuf import json_format
from google.protobuf.message import DecodeError

from arena.core.errors import RuleSetError
from arena.records.codec import gamelog_from_pb, gamelog_to_pb
from arena.records.gamelog import GameLog
from arena.settings.errors import BadInput, Kind, MachineError, kind_of
from arena.wire.codec import MalformedMessage
from arena.wire.gen.euchre.v1 import record_pb2

__all__ = ["RecordError", "decode", "encode", "from_json", "read", "to_json", "write"]

SUFFIXES = (".pb", ".json")


class RecordError(BadInput):
    """Bytes or text that are not a readable game record; the message names where."""


def encode(log: GameLog) -> bytes:
    data: bytes = gamelog_to_pb(log).SerializeToString()  # protobuf's Message is untyped
    return data


def decode(data: bytes, where: str = "record") -> GameLog:
    msg = record_pb2.GameRecord()
    try:
        msg.ParseFromString(data)
    except DecodeError as e:
        raise RecordError(f"{where}: not a game record: {e}") from None
    return _from_pb(msg, where)


def to_json(log: GameLog) -> str:
    text: str = json_format.MessageToJson(gamelog_to_pb(log), indent=2)  # untyped: protobuf
    return text


def from_json(text: str | bytes, where: str = "record") -> GameLog:
    msg = record_pb2.GameRecord()
    try:
        json_format.Parse(text.decode("utf-8") if isinstance(text, bytes) else text, msg)
    except (json_format.ParseError, UnicodeDecodeError) as e:
        raise RecordError(f"{where}: not a game record: {e}") from None
    return _from_pb(msg, where)


def write(path: Path, log: GameLog) -> None:
    """Writes a `.json` path as JSON, anything else as bytes."""
    if path.suffix == ".json":
        path.write_text(to_json(log))
    else:
        path.write_bytes(encode(log))


def read(path: Path) -> GameLog:
    try:
        data = path.read_bytes()
    except OSError as e:  # a path that is not there, or the disk failing
        kind = MachineError if kind_of(e) is Kind.MACHINE else RecordError
        raise kind(f"{path}: cannot read: {e.strerror or e}") from None
    return from_json(data, str(path)) if path.suffix == ".json" else decode(data, str(path))


def is_database(path: Path) -> bool:
    """An SQLite file (a ladder's database), by its header: not a record, and read by the
    ladder's commands rather than these."""
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _from_pb(msg: record_pb2.GameRecord, where: str) -> GameLog:
    try:
        return gamelog_from_pb(msg)
    except (MalformedMessage, RuleSetError) as e:
        raise RecordError(f"{where}: unreadable record: {e}") from None
