"""What ``/memory search`` and ``/memory about`` answer in Discord: the facts found, each with
whom it is about and the day it was said, and (search) the stored messages that say it, each
with its author, time and jump link — within Discord's 2,000 characters, without pings.

Facts take at most ``FACTS_CHARS``; messages fill the rest, whole lines only (a jump link is
never cut), each message's text cut to ``MESSAGE_TEXT`` characters. Member-written message
text is shown as text: markdown escaped (no masked links, no formatting) and mention syntax
defused.
"""

from __future__ import annotations

from discord.utils import escape_markdown

from bot.replies import DISCORD_LIMIT, defuse, fit, said
from memory.exporting import message_link
from memory.search.results import FactHit, MessageHit

FACTS_CHARS = 1100  # of a search answer, when messages follow
MESSAGE_TEXT = 160
NOTHING = "Nothing remembered yet."


def facts_text(title: str, hits: list[FactHit]) -> str:
    """A short list of facts, each with whom it is about and the day it was said, for a
    Discord message (no pings, ≤ 2,000 characters)."""
    if not hits:
        return f"{title}\n{NOTHING}"
    lines = [title]
    for hit in hits:
        about = "" if hit.subject_name in ("", "lore") else f" (about {hit.subject_name})"
        lines.append(f"• {hit.fact.fact}{about}{said(hit)}")
    return fit(defuse("\n".join(lines)))


def _shown(text: str, limit: int) -> str:
    """Member-written ``text`` on one line, cut to ``limit``, as plain text in Discord."""
    line = " ".join(text.split())
    if len(line) > limit:
        line = line[: limit - 1].rstrip() + "…"
    return defuse(escape_markdown(line))


def message_line(hit: MessageHit) -> str:
    """``• Sarah · 2026-10-12 18:03 UTC: text [jump](https://discord.com/channels/…)``."""
    message = hit.message
    when = message.created_at[:16].replace("T", " ")
    link = message_link(message.guild_id, message.channel_id, message.message_id)
    jump = f" [jump]({link})" if link else ""
    author = _shown(message.author_name or message.author_id, 40)
    return f"• {author} · {when} UTC: {_shown(message.content, MESSAGE_TEXT)}{jump}"


def search_text(query: str, facts: list[FactHit], messages: list[MessageHit]) -> str:
    """The answer to ``/memory search query``: the facts, then the messages that say it."""
    title = defuse(f"What I remember about “{escape_markdown(query)}”:")
    if not messages:
        return facts_text(title, facts)
    found = fit(facts_text(title, facts), FACTS_CHARS) if facts else f"{title}\nNo facts."
    text = found + "\nMessages that say it:"
    for hit in messages:
        line = "\n" + message_line(hit)
        if len(text) + len(line) > DISCORD_LIMIT:
            break
        text += line
    return text
