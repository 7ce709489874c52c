"""What both ends of the wire agree on: the protocol version, message limits and channel
options, and a bot's answer to Hello. Neither side's machinery (trio on the arena's side,
threads on the bot's) is imported here."""

from __future__ import annotations

from dataclasses import dataclass

from arena.core.features import ALL_FEATURES, Feature
from arena.wire.gen.euchre.v1 import bot_pb2

PROTOCOL_VERSION = bot_pb2.PROTOCOL_VERSION_1
MAX_MESSAGE = 1 << 20
CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE),
    ("grpc.max_send_message_length", MAX_MESSAGE),
    ("grpc.enable_retries", 0),
]


@dataclass(frozen=True, slots=True)
class BotIdentity:
    name: str
    version: str
    author: str
    refusal: str | None
    """Why the bot refused the rules, or None when it accepts them."""
    sdk: str = ""
    """The library serving the protocol for the bot ("arena.sdk"), or "" (HelloResponse.sdk)."""
    features: frozenset[Feature] = ALL_FEATURES
    """What the bot understands beyond the protocol's first revision (HelloResponse.features).
    Every feature by default, for a bot served in this process (the SDK, the tests'
    handlers), which decodes every message of today's protocol; a bot over the wire has
    what it declared."""
