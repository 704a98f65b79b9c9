"""A voice link for tests: what Discord's voice server would send a bot, over real UDP.

Discord's voice server cannot run here, so these helpers play its part below the voice
websocket: :func:`speech_packets` turns a WAV fixture into the RTP packets a Discord client
sends (Opus, 20 ms, a header extension, ``aead_xchacha20_poly1305_rtpsize`` transport
encryption), and :func:`connected_client` gives a real ``VoiceRecvClient`` whose connection
state is what the handshake would have left (mode, secret key, a UDP socket on loopback).
From the socket on, everything is the code that runs live: discord.py's socket reader,
voice_recv's decryption, jitter buffer and packet router, and memorybot's sink.
"""

from __future__ import annotations

import socket
import struct
import time
from typing import Any

import nacl.secret
import nacl.utils
from discord.opus import Encoder
from discord.voice_state import ConnectionFlowState

from tests.test_voice_stt import fixture_pcm, to_discord
from voice.audio import DISCORD_RATE, STT_RATE

MODE = "aead_xchacha20_poly1305_rtpsize"
SAMPLES_PER_PACKET = DISCORD_RATE // 50
# One RFC 8285 one-byte extension element (id 1, "audio level"), as Discord clients send.
EXTENSION_HEADER = b"\xbe\xde\x00\x01"
EXTENSION_VALUES = b"\x10\x7f\x00\x00"


def opus_frames(pcm48k_stereo: bytes) -> list[bytes]:
    """20 ms Opus frames of 48 kHz stereo PCM (the last one padded with silence)."""
    encoder = Encoder()
    size = Encoder.FRAME_SIZE
    frames = []
    for offset in range(0, len(pcm48k_stereo), size):
        chunk = pcm48k_stereo[offset : offset + size]
        frames.append(encoder.encode(chunk.ljust(size, b"\0"), Encoder.SAMPLES_PER_FRAME))
    return frames


def spoken_frames(name: str, *, lead: float = 0.3, tail: float = 0.2) -> list[bytes]:
    """The Opus frames of fixture ``name`` with ``lead`` / ``tail`` seconds of silence."""
    silence = bytes(int(STT_RATE * 2 * lead)), bytes(int(STT_RATE * 2 * tail))
    return opus_frames(to_discord(silence[0] + fixture_pcm(name) + silence[1]))


class Sender:
    """One speaker's RTP stream (its SSRC, sequence, timestamp and nonce counter)."""

    def __init__(self, key: bytes, ssrc: int, *, sequence: int = 1000, timestamp: int = 0):
        self._box = nacl.secret.Aead(key)
        self.ssrc = ssrc
        self.sequence = sequence
        self.timestamp = timestamp
        self._nonce = 0

    def packet(self, opus: bytes) -> bytes:
        header = bytearray(12)
        header[0] = 0x90  # RTP version 2, with a header extension
        header[1] = 0x78  # payload type 120 (Opus)
        struct.pack_into(">HII", header, 2, self.sequence, self.timestamp, self.ssrc)
        self.sequence = (self.sequence + 1) & 0xFFFF
        self.timestamp = (self.timestamp + SAMPLES_PER_PACKET) & 0xFFFFFFFF
        nonce = struct.pack(">I", self._nonce) + bytes(20)
        self._nonce += 1
        aad = bytes(header) + EXTENSION_HEADER
        sealed = self._box.encrypt(EXTENSION_VALUES + opus, aad, nonce).ciphertext
        return aad + sealed + nonce[:4]


class VoiceServer:
    """The far end of the bot's UDP socket: sends packets to it, takes its keepalives."""

    def __init__(self) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.address = self.socket.getsockname()

    def send(self, to: tuple[str, int], packets: list[bytes], *, pace: float = 0.004) -> None:
        for packet in packets:
            self.socket.sendto(packet, to)
            time.sleep(pace)

    def close(self) -> None:
        self.socket.close()


def loopback_client(server: VoiceServer, key: bytes, speakers: dict[int, int]) -> type[Any]:
    """A ``VoiceRecvClient`` class whose ``connect`` leaves the state the voice handshake
    would (transport mode and key, a loopback UDP socket whose far end is ``server``, the
    ``speakers``' SSRC → user id known) instead of talking to Discord; its ``disconnect``
    does not wait for Discord to confirm. Pass it where the bot connects
    (``VoiceCog.client_class``), or build one directly with ``(bot, channel)``.
    """
    from discord.ext import voice_recv

    class LoopbackVoiceClient(voice_recv.VoiceRecvClient):  # type: ignore[misc]
        async def connect(self, **_: Any) -> None:
            state = self._connection
            state.mode = MODE
            state.secret_key = list(key)
            state.endpoint_ip, state.voice_port = server.address
            state.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            state.socket.bind(("127.0.0.1", 0))
            state.socket.setblocking(False)
            state.state = ConnectionFlowState.connected
            state._connected.set()
            for ssrc, user_id in speakers.items():
                self._add_ssrc(user_id, ssrc)  # what SPEAKING on the voice websocket does

        def listen(self, sink: Any, **options: Any) -> None:
            super().listen(sink, **options)
            self._connection._socket_reader.resume(force=True)  # as opening the socket does

        async def disconnect(self, *, force: bool = False) -> None:
            self.stop()
            await self._connection.disconnect(force=True, wait=False)
            self.cleanup()

        @property
        def address(self) -> tuple[str, int]:
            """Where the voice server sends this client's packets."""
            address: tuple[str, int] = self._connection.socket.getsockname()
            return address

    return LoopbackVoiceClient


def new_key() -> bytes:
    return bytes(nacl.utils.random(nacl.secret.Aead.KEY_SIZE))
