"""What the page tests share: Debian's Chromium driven by playwright (never a downloaded
browser), a page watched for everything that must not happen (dialogs nobody expected, script
errors, CSP violations, requests to anywhere but the API), and the token form."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from playwright.async_api import (
    Browser,
    ConsoleMessage,
    Dialog,
    Error,
    Page,
    Request,
    async_playwright,
)

from memory.storage.store import Store
from tests.api_helpers import Api
from tests.helpers import CHANNEL_A, GUILD_A, add_fact
from tests.machine import chromium_path

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ON_ONE_BROWSER = pytest.mark.asyncio(loop_scope="session")
"""A page test module's mark: its tests run on the session's event loop, where the one
Chromium of their worker runs (``conftest.chromium_once``; launching one per test cost
about a second of CPU each)."""
TOKEN_KEY = "memorybot.apiToken"
NURSE_SOURCE = "900000000000000001"  # the source message of the pages' seeded facts


async def add_page_fact(
    store: Store,
    subject: str,
    text: str,
    *,
    guild: str = GUILD_A,
    channel: str = CHANNEL_A,
    evidence: str = "",
    source: str = NURSE_SOURCE,
    fact_type: str = "profile",
    said_at: str = "",
) -> None:
    """A fact as the page tests seed them: a profile fact of guild A from one message."""
    await add_fact(
        store, subject, text, guild=guild, channel=channel, evidence=evidence,
        source=source, fact_type=fact_type, said_at=said_at,
    )  # fmt: skip


@contextlib.asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    """A headless Chromium (a test module's ``browser`` fixture wraps this); the test is
    skipped when Chromium is not installed (``tests.machine``)."""
    executable = chromium_path()
    async with async_playwright() as p:
        launched = await p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            await launched.close()


@dataclass
class Watched:
    """A page and everything it did that a test must see go wrong.

    Every dialog is recorded in ``dialogs``; it is accepted when the test queued ``True`` in
    ``answers`` for it (one answer per dialog, in order), else dismissed."""

    page: Page
    dialogs: list[str] = field(default_factory=list)
    answers: list[bool] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.dialogs == []
        assert self.errors == []
        # CSP violations (an inline style or script) show up as console errors; an expected
        # failed request (401/403/429) is logged as "Failed to load resource".
        unexpected = [m for m in self.console_errors if "Failed to load resource" not in m]
        assert unexpected == []
        assert self.foreign_requests == []


async def open_page(browser: Browser, api: Api, *, width: int = 1280, height: int = 800) -> Watched:
    page = await browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(5_000)  # a missing element fails fast instead of after 30 s
    watched = Watched(page)

    async def on_dialog(dialog: Dialog) -> None:
        watched.dialogs.append(dialog.message)
        if watched.answers and watched.answers.pop(0):
            await dialog.accept()
        else:
            await dialog.dismiss()

    def on_error(error: Error) -> None:
        watched.errors.append(str(error))

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            watched.console_errors.append(message.text)

    def on_request(request: Request) -> None:
        if not request.url.startswith(api.url):
            watched.foreign_requests.append(request.url)

    page.on("dialog", on_dialog)
    page.on("pageerror", on_error)
    page.on("console", on_console)
    page.on("request", on_request)
    await page.goto(api.url)
    return watched


async def use_token(page: Page, token: str) -> None:
    await page.fill("#token", token)
    await page.click("#use-token")
