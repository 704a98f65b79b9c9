"""The discord-ext-voice-recv sink: each speaker's Opus packets → PCM → the collector.

This is the code that runs on the live receive path (discord-ext-voice-recv's packet-router
thread calls :meth:`MemorySink.write` for every packet, in order, per speaker). It asks for
raw Opus rather than voice_recv's decoded PCM because Discord voice is end-to-end encrypted
(DAVE): after voice_recv removes the transport encryption, each frame is still encrypted for
the call's members, and only discord.py's DAVE session (``davey``) can open it. So the sink

1. opens the DAVE layer with the voice connection's session when the call uses DAVE
   (:class:`DaveFrames`; a call without DAVE passes frames through unchanged),
2. decodes Opus with one decoder per speaker (a lost packet becomes Opus's concealment),
3. pushes the 48 kHz stereo PCM into the :class:`voice.receive.UtteranceCollector`.

Bots' audio (including our own) is ignored.
"""

from __future__ import annotations

import logging
from typing import Any

import davey
import discord
from discord.ext import voice_recv
from discord.opus import Decoder, OpusError

from voice.receive import UtteranceCollector

log = logging.getLogger(__name__)

OPUS_SILENCE = b"\xf8\xff\xfe"


class DaveFrames:
    """Opens DAVE (end-to-end) encrypted Opus frames with the voice connection's session.

    discord.py (>= 2.7, with ``davey``) runs the DAVE handshake and keeps the session on the
    voice connection state, which it only reads privately itself (``_connection``); voice
    receive has no public hook for it yet. A call without DAVE (protocol 0, or no session
    ready) sends plain Opus: frames pass through.
    """

    def __init__(self) -> None:
        self.failures = 0

    def open(self, voice_client: Any, user_id: int, frame: bytes) -> bytes | None:
        """The Opus frame inside ``frame``; None when it cannot be opened (dropped)."""
        state = getattr(voice_client, "_connection", None)
        session = getattr(state, "dave_session", None)
        if session is None or not getattr(state, "dave_protocol_version", 0) or not session.ready:
            return frame
        try:
            return bytes(session.decrypt(user_id, davey.MediaType.audio, frame))
        except Exception as exc:  # davey raises plain exceptions for every failure kind
            if frame == OPUS_SILENCE:  # silence frames are sent unencrypted
                return frame
            self.failures += 1
            if self.failures == 1 or self.failures % 500 == 0:
                log.warning("could not open a DAVE frame of %s (%d so far): %s",
                            user_id, self.failures, exc)  # fmt: skip
            return None


class MemorySink(voice_recv.AudioSink):
    """Every person's audio in the channel → ``collector`` (see the module docstring)."""

    def __init__(self, collector: UtteranceCollector) -> None:
        super().__init__()
        self.collector = collector
        self.dave = DaveFrames()
        self._decoders: dict[int, Decoder] = {}
        self.packets = 0

    def wants_opus(self) -> bool:
        return True

    def write(self, user: discord.abc.User | None, data: Any) -> None:
        """One packet of one speaker (``data`` is voice_recv's ``VoiceData``)."""
        if user is None or user.bot:
            return  # an SSRC not yet matched to a member, or a bot (us included)
        frame: bytes | None = data.opus or None  # a lost packet arrives empty
        if frame is not None:
            frame = self.dave.open(self.voice_client, user.id, frame)
        decoder = self._decoders.get(user.id)
        if decoder is None:
            decoder = self._decoders[user.id] = Decoder()  # type: ignore[no-untyped-call]
        try:
            pcm = decoder.decode(frame, fec=False)
        except OpusError as exc:
            log.debug("undecodable Opus frame from %s: %s", user.id, exc)
            return
        self.packets += 1
        self.collector.push(user.id, pcm, data.packet.timestamp)

    @voice_recv.AudioSink.listener()  # type: ignore[untyped-decorator]
    def on_voice_member_disconnect(self, member: discord.Member, ssrc: int | None) -> None:
        """A speaker left the channel: their utterance ends now."""
        self._decoders.pop(member.id, None)
        self.collector.end_speaker(member.id)

    def cleanup(self) -> None:
        self._decoders.clear()
