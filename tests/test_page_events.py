"""The moderator page's "Audit log" panel in a real Chromium against the real API and a real
SQLite store (issue 19, item 6): a guild's events newest first with who asked, a kind filter,
paging, what the read token is told, and member-chosen names that must stay text."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from memory.audit import API, MemoryEvent
from memory.storage.store import Store
from tests.api_helpers import TOKEN, Api, served
from tests.helpers import GUILD_A, GUILD_B, MIKE, SARAH, add_fact
from tests.page_helpers import ON_ONE_BROWSER, Watched, open_page, use_token

pytestmark = [pytest.mark.slow, ON_ONE_BROWSER]  # slow: not in the quick run (-m "not slow")

ADMIN = "admin-token-for-the-events-page"
HOSTILE_NAME = '<img src=x onerror="window.__xss=1">'


async def seed(store: Store) -> None:
    await store.record_guild(GUILD_A, "Night Shift")
    await store.record_guild(GUILD_B, "Day Shift")
    await store.record_members(GUILD_A, [(SARAH.id, HOSTILE_NAME, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    await add_fact(store, SARAH.id, "Sarah works as a nurse.")  # fact.stored
    await add_fact(store, SARAH.id, "Sarah trains guide dogs.", guild=GUILD_B)
    events = [MemoryEvent(GUILD_A, "member.optin", MIKE.id, MIKE.id, MIKE.id, f"n{n}")
              for n in range(60)]  # fmt: skip
    events.append(MemoryEvent(GUILD_A, "fact.deleted", API, "7", SARAH.id, "profile, 0.90"))
    await store.record_events(events)


async def open_events(browser: Browser, api: Api, token: str = ADMIN) -> Watched:
    watched = await open_page(browser, api)
    page = watched.page
    await use_token(page, token)
    await expect(page.locator(f'#guild option[value="{GUILD_A}"]')).to_have_count(1)
    await page.select_option("#guild", GUILD_A)
    # the guild's MEMORY.md loads first and reports in the same status line: wait for it,
    # or its report may land after the events' own
    await expect(page.locator("#status")).to_contain_text("MEMORY.md of")
    await expect(page.locator("#events-note")).to_contain_text("Load events")
    await page.click("#events-load")
    return watched


async def test_a_guilds_events_newest_first_with_a_kind_filter_and_paging(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path / "data", seed=seed, api_admin_token=ADMIN,
                      api_rate_limit=0) as api:  # fmt: skip
        watched = await open_events(browser, api)
        page = watched.page
        lines = page.locator("#events-rows tr")
        await expect(lines).to_have_count(50)
        first = lines.nth(0).locator("td")
        await expect(first.nth(1)).to_have_text("fact.deleted")
        await expect(first.nth(2)).to_have_text("api")
        await expect(first.nth(3)).to_have_text(f"fact 7 · {HOSTILE_NAME} ({SARAH.id})")
        await expect(first.nth(4)).to_have_text("profile, 0.90")
        await expect(lines.nth(1).locator("td").nth(2)).to_have_text(f"Mike ({MIKE.id})")
        await expect(page.locator("#status")).to_contain_text("50 events of Night Shift")

        await page.click("#events-more")
        await expect(lines).to_have_count(62)  # 61 events of A, and its fact's fact.stored
        await expect(page.locator("#events-more")).to_be_hidden()
        await expect(lines.nth(61).locator("td").nth(1)).to_have_text("fact.stored")

        await page.select_option("#events-kind", "fact.stored")
        await page.click("#events-load")
        await expect(lines).to_have_count(1)
        await expect(page.locator("#status")).to_contain_text("1 event of kind fact.stored")
        # the hostile display name stayed text everywhere
        assert await page.evaluate("typeof window.__xss") == "undefined"
        assert await page.locator("#events-panel img, #events-panel script").count() == 0
        watched.assert_clean()


async def test_the_read_token_is_told_the_log_needs_the_admin_token(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path / "data", seed=seed, api_admin_token=ADMIN,
                      api_rate_limit=0) as api:  # fmt: skip
        watched = await open_events(browser, api, token=TOKEN)
        page = watched.page
        note = page.locator("#events-note")
        await expect(note).to_contain_text("needs the admin token")
        await expect(note).to_have_class("note error")
        await expect(page.locator("#events-table")).to_be_hidden()
        await expect(page.locator("#status")).not_to_contain_text("HTTP 403")
        watched.assert_clean()
