"""The moderator page's search in a real Chromium against the real API, over chats imported
by the real importer: the facts and messages tabs, each message with its author, time,
channel, Discord link and neighbouring turns (the hit marked), and member-written message
text that must stay text."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from bot.commands_ingest import run_import
from memory.models import Author
from memory.settings import load_settings
from tests.api_helpers import served
from tests.helpers import CHANNEL_A, GUILD_A, SARAH, export_message, write_export
from tests.page_helpers import ON_ONE_BROWSER, open_page, use_token
from tests.search_helpers import POTTERY, import_chats, link, seed_facts

pytestmark = [pytest.mark.slow, ON_ONE_BROWSER]  # slow: not in the quick run (-m "not slow")

IMG = '<img src=x onerror="window.__xss=1">'


async def test_facts_and_messages_tabs(browser: Browser, tmp_path: Path) -> None:
    await import_chats(tmp_path / "data")
    async with served(tmp_path / "data", seed=seed_facts) as api:
        watched = await open_page(browser, api)
        page = watched.page
        await use_token(page, api.token)
        await expect(page.locator("#guild option")).to_have_count(3)
        await page.select_option("#guild", GUILD_A)

        # both kinds found: the facts tab first, the messages tab a click away
        await page.fill("#query", "nurse")
        await page.click("#search")
        await expect(page.locator("#status")).to_have_text("1 fact and 1 message for “nurse”.")
        facts_tab, messages_tab = page.locator("#tab-facts"), page.locator("#tab-messages")
        await expect(facts_tab).to_have_text("Facts (1)")
        await expect(messages_tab).to_have_text("Messages (1)")
        await expect(facts_tab).to_have_attribute("aria-selected", "true")
        await expect(page.locator("#results-table")).to_be_visible()
        await expect(page.locator("#results tr td.fact")).to_have_text(["Sarah works as a nurse."])
        await expect(page.locator("#messages-list")).to_be_hidden()
        await messages_tab.click()
        await expect(messages_tab).to_have_attribute("aria-selected", "true")
        await expect(page.locator("#results-table")).to_be_hidden()
        hit = page.locator("#messages-list > li")
        await expect(hit).to_have_count(1)
        await expect(hit.locator(".turn.hit .turn-text")).to_have_text(
            "night shifts again, nurse life is tiring"
        )
        await facts_tab.click()
        await expect(page.locator("#results-table")).to_be_visible()

        # only messages found: the messages tab is shown, with the turns around each hit
        await page.fill("#query", "pottery class")
        await page.click("#search")
        await expect(page.locator("#status")).to_have_text(
            "0 facts and 1 message for “pottery class”."
        )
        await expect(messages_tab).to_have_attribute("aria-selected", "true")
        await expect(page.locator("#results-table")).to_be_hidden()
        item = page.locator("#messages-list > li")
        await expect(item).to_have_count(1)
        meta = item.locator(".meta")
        await expect(meta.locator(".author")).to_have_text("Sarah")
        await expect(meta.locator(".time")).to_have_text("2026-10-12 18:03")
        await expect(meta.locator(".channel")).to_have_text(f"channel {CHANNEL_A}")
        jump = meta.locator("a")
        await expect(jump).to_have_attribute("href", link(POTTERY))
        await expect(jump).to_have_attribute("rel", "noopener noreferrer")
        turns = item.locator(".turn")
        await expect(turns).to_have_count(3)
        await expect(turns.locator(".turn-author")).to_have_text(["Sarah", "Mike", "Sarah"])
        await expect(turns.nth(0)).to_have_class("turn hit")
        await expect(turns.nth(0)).to_have_attribute("aria-current", "true")
        await expect(item.locator(".turn.hit")).to_have_count(1)
        await expect(turns.nth(1).locator(".turn-text")).to_have_text(
            "nice, is it still at the community centre?"
        )
        await facts_tab.click()
        await expect(page.locator("#no-facts")).to_be_visible()
        await expect(page.locator("#results-table")).to_be_hidden()

        # nothing relevant: no tabs, nothing listed
        await page.fill("#query", "what does Sarah think about quantum chromodynamics")
        await page.click("#search")
        await expect(page.locator("#status")).to_contain_text("No results for")
        await expect(page.locator("#search-tabs")).to_be_hidden()
        await expect(page.locator("#messages-list > li")).to_have_count(0)
        await expect(page.locator("#messages-list")).to_be_hidden()

        # choosing another guild clears what was found
        await page.fill("#query", "pottery class")
        await page.click("#search")
        await expect(item).to_have_count(1)
        await page.select_option("#guild", "")
        await expect(page.locator("#messages-list > li")).to_have_count(0)
        await expect(page.locator("#search-tabs")).to_be_hidden()
        watched.assert_clean()


async def test_hostile_message_text_stays_text(browser: Browser, tmp_path: Path) -> None:
    exports = tmp_path / "exports"
    exports.mkdir()
    eve = Author(SARAH.id, f"<b>Eve</b>{IMG}", "eve")
    evil = [export_message(1, f"pottery {IMG} <script>window.__xss=1</script> [x](javascript:1)",
                           author=eve),
            export_message(2, f"reply {IMG}", author=eve)]  # fmt: skip
    write_export(exports / "a.json", evil)
    await run_import(load_settings(data_dir=tmp_path / "data", extractor="none"), [exports])
    async with served(tmp_path / "data") as api:
        watched = await open_page(browser, api)
        page = watched.page
        await use_token(page, api.token)
        await expect(page.locator(f'#guild option[value="{GUILD_A}"]')).to_have_count(1)
        await page.select_option("#guild", GUILD_A)
        await page.fill("#query", "pottery")
        await page.click("#search")
        hit = page.locator("#messages-list .turn.hit .turn-text")
        await expect(hit).to_have_text(
            f"pottery {IMG} <script>window.__xss=1</script> [x](javascript:1)"
        )
        assert await page.evaluate("typeof window.__xss") == "undefined"
        area = "#messages-list"
        assert await page.locator(f"{area} script, {area} img, {area} b").count() == 0
        await expect(page.locator(f"{area} .meta .author")).to_have_text(f"<b>Eve</b>{IMG}")
        hrefs = await page.eval_on_selector_all(f"{area} a", "links => links.map(a => a.href)")
        assert hrefs == [link(1)]
        watched.assert_clean()
