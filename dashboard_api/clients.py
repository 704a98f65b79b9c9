"""Who sent a request: the peer's address, or — when the peer is one of
``MEMORYBOT_API_TRUSTED_PROXIES`` — the address its ``X-Forwarded-For`` names. The rate limits
count per client, and the log names it.

The header is read from the right (the hop nearest this server) and each trusted proxy's
word is believed until an address that is not a trusted proxy: that one is the client. A
client can write anything to the left of it, never change it. Something in the header that
is no address ends the walk at the proxy that passed it on.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from aiohttp import web

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address
CLIENT = web.RequestKey("client", str)  # the request's client address, as logged and limited


def parse_networks(values: Iterable[str]) -> tuple[Network, ...]:
    """Addresses or CIDR blocks (``10.0.0.0/8``, ``::1``); ValueError names a bad one."""
    networks = []
    for value in values:
        try:
            networks.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an address or CIDR block: {value!r}") from None
    return tuple(networks)


def _address(text: str) -> Address | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: Address | None, proxies: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in proxies)


def client_address(
    peer: str | None, forwarded_for: Iterable[str], proxies: tuple[Network, ...]
) -> str:
    """The client's address (``?`` when the peer's is unknown, as over a Unix socket)."""
    hop = _address(peer or "")
    if hop is None:
        return peer or "?"
    if not _trusted(hop, proxies):
        return str(hop)
    hops = [part for header in forwarded_for for part in header.split(",")]
    for text in reversed(hops):
        found = _address(text)
        if found is None:
            break
        hop = found
        if not _trusted(hop, proxies):
            break
    return str(hop)
