"""The moderator page in a real Chromium against the real API: token handling, the guild
chooser, search results with Discord links, the MEMORY.md renderer, error messages, and
hostile member-written text that must stay text."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, expect

from dashboard_api.app import STATIC_FILES
from memory.models import LORE_SUBJECT
from memory.storage.store import Store
from tests.api_helpers import served
from tests.conftest import REPO
from tests.helpers import CHANNEL_A, CHANNEL_B, GUILD_A, GUILD_B, MIKE, SARAH
from tests.page_helpers import NURSE_SOURCE, ON_ONE_BROWSER, TOKEN_KEY, open_page, use_token
from tests.page_helpers import add_page_fact as add_fact

pytestmark = [pytest.mark.slow, ON_ONE_BROWSER]  # slow: not in the quick run (-m "not slow")

SCRIPT = "<script>window.__xss=1</script>"
IMG = '<img src=x onerror="window.__xss=1">'
JS_LINK = "[click](javascript:window.__xss=1)"
EVIL_LINK = "[x](https://evil.example)"


async def seed_two_guilds(store: Store) -> None:
    await store.record_guild(GUILD_A, "Night Shift")
    await store.record_guild(GUILD_B, "Day Shift")
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    await add_fact(store, SARAH.id, "Sarah works as a nurse.", evidence="I work as a nurse",
                   said_at="2023-05-07T21:30:00.000+00:00")  # fmt: skip
    await add_fact(store, MIKE.id, "Mike plays bass in a ska band.", source="900000000000000002")
    await add_fact(
        store,
        LORE_SUBJECT,
        "Memory line: the raid is every friday.",
        fact_type="other",
        source="900000000000000003",
    )
    await add_fact(store, SARAH.id, "Sarah trains guide dogs.", guild=GUILD_B, channel=CHANNEL_B)


async def guild_values(page: Page) -> list[str]:
    values: list[str] = await page.eval_on_selector_all(
        "#guild option", "options => options.map(o => o.value)"
    )
    return values


async def session_token(page: Page) -> str | None:
    value: str | None = await page.evaluate(f"sessionStorage.getItem({TOKEN_KEY!r})")
    return value


# --- the happy path ---------------------------------------------------------------------------


async def test_search_and_memory_with_the_right_token(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed_two_guilds) as api:
        watched = await open_page(browser, api)
        page = watched.page
        await expect(page.locator("#status")).to_contain_text("Enter the API token")

        await use_token(page, api.token)
        await expect(page.locator("#guild option")).to_have_count(3)
        assert await guild_values(page) == ["", GUILD_A, GUILD_B]
        await expect(page.locator(f'#guild option[value="{GUILD_A}"]')).to_have_text(
            f"Night Shift ({GUILD_A})"
        )
        # the token lives in this tab's sessionStorage only, and the field is emptied
        assert await session_token(page) == api.token
        assert await page.evaluate("localStorage.length") == 0
        assert await page.evaluate("document.cookie") == ""
        assert await page.input_value("#token") == ""
        assert await page.get_attribute("#token", "type") == "password"

        await page.select_option("#guild", GUILD_A)
        memory = page.locator("#memory")
        await expect(memory.locator("h1")).to_have_text("Durable Memory Snapshot")
        await expect(memory.locator("h2").first).to_have_text("People (Durable Facts)")
        await expect(memory.locator("h3", has_text="Sarah")).to_have_text(f"Sarah ({SARAH.id})")
        nurse_item = memory.locator("li", has_text="Sarah works as a nurse.")
        await expect(nurse_item).to_have_text(
            "Sarah works as a nurse. (profile, confidence 0.90) · said 2023-05-07"
        )
        await expect(nurse_item.locator("em")).to_have_text("(profile, confidence 0.90)")
        await expect(memory.locator("li", has_text="the raid is every friday")).to_have_count(1)
        assert await memory.inner_text() != ""
        assert "guide dogs" not in await memory.inner_text()  # guild B's memory

        await page.fill("#query", "nurse")
        await page.click("#search")
        rows = page.locator("#results tr")
        nurse = rows.filter(has_text="Sarah works as a nurse.")
        await expect(nurse).to_have_count(1)
        cells = nurse.locator("td")
        await expect(cells).to_have_count(7)
        await expect(cells.nth(0)).to_have_text("Sarah works as a nurse.")
        await expect(cells.nth(1)).to_have_text("Sarah")
        await expect(cells.nth(2)).to_have_text("profile")
        await expect(cells.nth(3)).to_have_text("0.90")
        await expect(cells.nth(5)).to_have_text("I work as a nurse")
        link = cells.nth(6).locator("a")
        await expect(link).to_have_attribute(
            "href", f"https://discord.com/channels/{GUILD_A}/{CHANNEL_A}/{NURSE_SOURCE}"
        )
        await expect(link).to_have_attribute("rel", "noopener noreferrer")
        await expect(link).to_have_attribute("target", "_blank")
        await expect(page.locator("#status")).to_contain_text("for “nurse”")
        await expect(page.locator("#results-table")).to_be_visible()
        await expect(rows.filter(has_text="guide dogs")).to_have_count(0)

        for target in (tmp_path / "moderator-page.png", REPO / "test-artifacts/moderator-page.png"):
            target.parent.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(target), full_page=True)
            assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        # nothing found: said so, and the table is gone
        await page.fill("#query", "zeppelin")
        await page.click("#search")
        await expect(page.locator("#status")).to_contain_text("No results for “zeppelin”")
        await expect(rows).to_have_count(0)
        await expect(page.locator("#results-table")).to_be_hidden()

        # regenerate MEMORY.md, then forget the token
        await page.click("#refresh")
        await expect(memory.locator("h1")).to_have_text("Durable Memory Snapshot")
        await page.click("#clear-token")
        assert await session_token(page) is None
        assert await guild_values(page) == [""]
        await expect(memory.locator("h1")).to_have_count(0)
        await expect(page.locator("#status")).to_contain_text("Token cleared")

        # the saved token survives a reload of the same tab
        await use_token(page, api.token)
        await expect(page.locator("#guild option")).to_have_count(3)
        await page.reload()
        await expect(page.locator("#guild option")).to_have_count(3)
        watched.assert_clean()


# --- hostile text -----------------------------------------------------------------------------


async def test_hostile_text_stays_text(browser: Browser, tmp_path: Path) -> None:
    evil_name = f"<b>Eve</b>{IMG}"

    async def seed(store: Store) -> None:
        await store.record_guild(GUILD_A, f"Guild {IMG}")
        await store.record_members(GUILD_A, [(SARAH.id, evil_name, "eve")])
        await add_fact(store, SARAH.id, f"Eve is a nurse {SCRIPT}", evidence=IMG)
        await add_fact(
            store,
            SARAH.id,
            f"Eve the nurse says {JS_LINK} and {EVIL_LINK}",
            evidence=JS_LINK,
            source="900000000000000004",
        )
        await add_fact(
            store,
            SARAH.id,
            f"Eve nurse **bold** {IMG}",
            evidence=EVIL_LINK,
            source="javascript:window.__xss=1",
        )
        await add_fact(
            store,
            LORE_SUBJECT,
            f'Memory line: nurse <a href="javascript:x()">{IMG}</a>',
            fact_type="other",
            source="12",
        )

    async with served(tmp_path / "data", seed=seed) as api:
        watched = await open_page(browser, api)
        page = watched.page

        await use_token(page, api.token)
        await expect(page.locator(f'#guild option[value="{GUILD_A}"]')).to_have_text(
            f"Guild {IMG} ({GUILD_A})"
        )
        await page.select_option("#guild", GUILD_A)
        memory = page.locator("#memory")
        await expect(memory.locator("h1")).to_have_text("Durable Memory Snapshot")
        await page.fill("#query", "nurse")
        await page.fill("#limit", "24")
        await page.click("#search")
        rows = page.locator("#results tr")
        await expect(rows).to_have_count(4)

        assert await page.evaluate("typeof window.__xss") == "undefined"
        for area in ("#results", "#memory", "#guild"):
            assert await page.locator(f"{area} script, {area} img, {area} b").count() == 0
        assert await page.locator("img").count() == 0
        # the page's own scripts only, none inline, none injected
        scripts = await page.eval_on_selector_all(
            "script", "s => s.map(e => e.getAttribute('src'))"
        )
        assert sorted(scripts) == [name for name in STATIC_FILES if name.endswith(".js")]
        assert await page.locator('a[href^="javascript:"]').count() == 0
        assert await page.locator('a[href*="evil.example"]').count() == 0
        assert await memory.locator("a").count() == 0
        hrefs: list[str] = await page.eval_on_selector_all(
            "#results a, #memory a", "links => links.map(a => a.href)"
        )
        channel_url = f"https://discord.com/channels/{GUILD_A}/{CHANNEL_A}"
        assert hrefs == [f"{channel_url}/{NURSE_SOURCE}", f"{channel_url}/900000000000000004"]
        for link in await page.locator("#results a").all():
            assert await link.get_attribute("rel") == "noopener noreferrer"

        # the hostile text is on the page, literally
        results = await page.locator("#results").inner_text()
        for literal in (
            SCRIPT,
            IMG,
            JS_LINK,
            EVIL_LINK,
            evil_name,
            "**bold**",
            "javascript:window.__xss=1",
        ):
            assert literal in results, literal
        bad_source = rows.filter(has_text="**bold**").locator("td").nth(6)
        await expect(bad_source).to_have_text("javascript:window.__xss=1")
        rendered = await memory.inner_text()
        for literal in (
            SCRIPT,
            IMG,
            evil_name,
            f"Guild {IMG}",
            "javascript:window.__xss=1",
            "https://evil.example",
            '<a href="javascript:x()">',
        ):
            assert literal in rendered, literal
        # markdown emphasis renders (the fact list and its member's profile), nothing else
        await expect(memory.locator("li strong")).to_have_text("bold")
        await expect(memory.locator("li .link-text", has_text="click")).to_have_count(1)

        # clicking the rendered link text goes nowhere
        before = page.url
        await memory.locator(".link-text", has_text="click").first.click()
        await memory.locator(".url", has_text="evil.example").first.click()
        assert page.url == before
        assert len(browser.contexts[0].pages) == 1
        assert await page.evaluate("typeof window.__xss") == "undefined"
        watched.assert_clean()


# --- errors -----------------------------------------------------------------------------------


async def test_a_wrong_token_says_401(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed_two_guilds) as api:
        watched = await open_page(browser, api)
        page = watched.page

        await use_token(page, "not-the-token")
        status = page.locator("#status")
        await expect(status).to_contain_text("HTTP 401")
        await expect(status).to_contain_text("send Authorization: Bearer <token>")
        await expect(status).to_contain_text("enter the right API token")
        await expect(status).to_have_class("status error")
        assert await guild_values(page) == [""]
        assert await session_token(page) is None
        await expect(page.locator("#results tr")).to_have_count(0)
        await expect(page.locator("#memory h1")).to_have_count(0)

        await page.fill("#query", "nurse")
        await page.click("#search")
        await expect(status).to_contain_text("Enter the API token first")
        await expect(page.locator("#results tr")).to_have_count(0)

        # the right token then works
        await use_token(page, api.token)
        await expect(page.locator("#guild option")).to_have_count(3)
        await expect(status).not_to_have_class("status error")
        watched.assert_clean()


async def test_a_token_for_another_guild(browser: Browser, tmp_path: Path) -> None:
    async with served(
        tmp_path / "data", seed=seed_two_guilds, api_guilds=frozenset({GUILD_B})
    ) as api:
        watched = await open_page(browser, api)
        page = watched.page

        await use_token(page, api.token)
        # the only guild is chosen at once and its memory shown
        await expect(page.locator("#memory li", has_text="guide dogs")).to_have_count(1)
        assert await guild_values(page) == ["", GUILD_B]
        assert await page.input_value("#guild") == GUILD_B

        # a guild the token may not read (say, an option left over): 403, shown
        await page.evaluate(
            """guild => {
                const option = document.createElement("option");
                option.value = guild;
                option.textContent = "Night Shift";
                document.getElementById("guild").append(option);
            }""",
            GUILD_A,
        )
        await page.select_option("#guild", GUILD_A)
        status = page.locator("#status")
        await expect(status).to_contain_text("HTTP 403")
        await expect(status).to_contain_text("this token may not read that guild")
        await expect(page.locator("#memory h1")).to_have_count(0)

        await page.fill("#query", "nurse")
        await page.click("#search")
        await expect(status).to_contain_text("Search failed (HTTP 403")
        await expect(page.locator("#results tr")).to_have_count(0)
        watched.assert_clean()


async def test_rate_limited_says_when_to_retry(browser: Browser, tmp_path: Path) -> None:
    async with served(
        tmp_path / "data", seed=seed_two_guilds, api_rate_limit=0.01, api_rate_burst=2
    ) as api:
        watched = await open_page(browser, api)
        page = watched.page

        await use_token(page, api.token)  # request 1: the guilds
        await page.select_option("#guild", GUILD_A)  # request 2: MEMORY.md
        await expect(page.locator("#memory h1")).to_have_text("Durable Memory Snapshot")
        await page.fill("#query", "nurse")
        await page.click("#search")  # request 3: over the limit
        status = page.locator("#status")
        await expect(status).to_contain_text("HTTP 429")
        await expect(status).to_contain_text("too many requests: slow down")
        await expect(status).to_contain_text("s and try again")
        await expect(page.locator("#results tr")).to_have_count(0)
        watched.assert_clean()
