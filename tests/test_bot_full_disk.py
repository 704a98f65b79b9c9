"""The bot on a full disk (dpytest, a real size-limited tmpfs in a mount namespace of its
own): the messages memory cannot store are lost with one warning, not a traceback each; a
member who asks still gets an answer; once there is space, messages are stored again and
the log says how many were not."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.mounts import in_namespace

pytestmark = pytest.mark.slow  # not in the quick run (pytest -m "not slow")

# The bot under dpytest with its data directory on a 6 MiB tmpfs: a fact to answer from,
# then long messages until storing them fails, a question, more space, one more message.
DRIVER = """
import asyncio, logging
sys.path.insert(0, ARGS["repo"])
mount = ARGS["mount"]
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", mount], check=True)

class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.seen = []
    def emit(self, record):
        self.seen.append([record.name, record.levelname, record.getMessage(),
                          record.exc_info is not None])

async def main():
    import discord.ext.test as dpytest
    from memory.runtime import open_memory
    from memory.settings import load_settings
    from tests.helpers import dpytest_bot

    records = Records()
    logging.getLogger().addHandler(records)
    logging.getLogger().setLevel(logging.INFO)
    settings = load_settings(data_dir=mount + "/data", notice=False)
    async with open_memory(settings) as runtime:
        bot = await dpytest_bot(runtime)
        config = dpytest.get_config()
        guild, channel = str(config.guilds[0].id), str(config.channels[0].id)
        await dpytest.message("i work as a nurse at the children's hospital", member=0)
        await runtime.join()
        sent = 0
        while sent < 3000 and not any("not being stored" in r[2] for r in records.seen):
            await dpytest.message(f"long message {sent} " + "lorem ipsum dolor " * 200, member=1)
            sent += 1
        for n in range(5):
            await dpytest.message(f"lost message {n}", member=1)
        await dpytest.message(f"<@{bot.user.id}> who is a nurse?", member=1)
        answer = dpytest.get_message().content
        subprocess.run(["mount", "-o", "remount,size=256m", mount], check=True)
        await dpytest.message("there is room again, keep this one", member=0)
        for _ in range(60):  # the queue retries what failed; until then join says why
            try:
                await runtime.join()
                break
            except Exception:
                await asyncio.sleep(0.5)
        kept = [m.content for m in await runtime.recent_messages(guild, channel, 10000)]
        await dpytest.empty_queue()
    return {"sent": sent, "answer": answer, "kept": kept, "records": records.seen}

print(json.dumps(asyncio.run(main())))
"""


def test_the_bot_on_a_full_disk_loses_messages_with_one_warning_and_still_answers(
    tmp_path: Path,
) -> None:
    (tmp_path / "mnt").mkdir()
    outcome = in_namespace(DRIVER, {"repo": str(REPO), "mount": str(tmp_path / "mnt")})
    assert outcome["sent"] < 3000, "storing never failed on a 6 MiB disk"
    records = outcome["records"]
    assert not [r for r in records if r[3]]  # no traceback anywhere
    assert "nurse" in outcome["answer"]  # answered from what was stored before
    # One warning as storing stops and one line as it works again, with how many were not
    # stored. A nearly full disk may store a short message in space the database already
    # holds, so an outage may come and go; the lines still come in pairs, and their counts
    # are the messages that are not there.
    lines = [r for r in records if r[0] == "bot.cogs.ingest" and "stored" in r[2]]
    assert 2 <= len(lines) <= 6, lines
    for stopped, again in zip(lines[::2], lines[1::2], strict=True):
        assert stopped[1] == "WARNING" and "not being stored" in stopped[2]
        assert "disk is full" in stopped[2]
        assert "stored again" in again[2]
    said_lost = sum(int(re.findall(r"\((\d+) were not\)", r[2])[0]) for r in lines[1::2])
    kept = outcome["kept"]
    after = [f"long message {outcome['sent'] - 1} ", *(f"lost message {n}" for n in range(5)),
             "who is a nurse?"]  # fmt: skip
    lost = [m for m in after if not any(k.startswith(m) or k.endswith(m) for k in kept)]
    assert len(lost) >= 2 and said_lost == len(lost), (lost, lines)
    assert "there is room again, keep this one" in kept
