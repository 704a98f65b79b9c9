"""The moderator page on a phone held upright (390 × 844 CSS pixels) in a real Chromium: the
page fits the screen's width, search results and the review list read as cards (one field a
line, each named), and a fact shows whole lines of text, not a few characters a line."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser, Locator, Page, expect

from memory.storage.store import Store
from tests.api_helpers import served
from tests.conftest import REPO
from tests.helpers import GUILD_A, MIKE, SARAH
from tests.page_helpers import ON_ONE_BROWSER, open_page, use_token
from tests.page_helpers import add_page_fact as add_fact

pytestmark = [pytest.mark.slow, ON_ONE_BROWSER]  # slow: not in the quick run (-m "not slow")

PHONE = 390
ADMIN = "admin-token-0123456789abcdef"  # the review list needs the admin token
LONG_FACT = (
    "Sarah works as a night-shift nurse at the children's hospital and trains guide dogs "
    "on her days off."
)


async def seed(store: Store) -> None:
    await store.record_guild(GUILD_A, "Night Shift")
    await store.record_members(GUILD_A, [(SARAH.id, SARAH.name, SARAH.username)])
    await store.record_members(GUILD_A, [(MIKE.id, MIKE.name, MIKE.username)])
    await add_fact(store, SARAH.id, LONG_FACT, evidence="I work nights at the children's hospital")
    await add_fact(store, MIKE.id, "Mike plays bass in a ska band.", source="900000000000000002")


async def page_width(page: Page) -> int:
    width: int = await page.evaluate("document.documentElement.scrollWidth")
    return width


async def label_of(cell: Locator) -> str:
    label: str = await cell.evaluate("c => getComputedStyle(c, '::before').content")
    return label


async def test_the_page_fits_a_phone(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path / "data", seed=seed, api_admin_token=ADMIN) as api:
        watched = await open_page(browser, api, width=PHONE, height=844)
        page = watched.page
        await use_token(page, ADMIN)
        await expect(page.locator(f'#guild option[value="{GUILD_A}"]')).to_have_count(1)
        await page.select_option("#guild", GUILD_A)
        await page.fill("#query", "nurse")
        await page.click("#search")

        row = page.locator("#results tr", has_text="night-shift nurse")
        await expect(row).to_have_count(1)
        assert await page_width(page) <= PHONE  # nothing wider than the screen
        fact = row.locator("td").nth(0)
        box = await fact.bounding_box()
        assert box is not None and box["width"] >= 0.8 * PHONE  # the card's width, not a column's
        lines = await fact.evaluate(  # the distinct tops of the text's line boxes
            "c => { const r = document.createRange(); r.selectNodeContents(c);"
            " return new Set(Array.from(r.getClientRects(), b => Math.round(b.top))).size; }"
        )
        assert lines <= 4  # about 100 characters: a few lines, not one word a line
        assert await label_of(row.locator("td").nth(1)) == '"Member: "'
        assert await label_of(fact) == "none"  # the fact leads its card unlabelled
        await expect(row.locator("td").nth(1)).to_have_text("Sarah")

        for target in (tmp_path / "phone.png", REPO / "test-artifacts/moderator-page-phone.png"):
            target.parent.mkdir(parents=True, exist_ok=True)
            await page.screenshot(path=str(target), full_page=True)
            assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

        await page.click("#review-load")
        review = page.locator("#review-rows tr", has_text="Mike plays bass")
        await expect(review).to_have_count(1)
        assert await page_width(page) <= PHONE
        assert await label_of(review.locator("td").nth(1)) == '"Member: "'
        assert not watched.errors and not watched.console_errors
