"""The demo in a real headless Chromium: ask, follow up, answer the form, see the hand-off.

The demo runs as ``make demo`` starts it (``demo_url`` in conftest.py), driven by Playwright
through Debian's ``chromium``. Without Chromium the tests skip (they fail under CI=true, where
the browser is part of the set-up).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from demo_helpers import (
    ANSWER_TIMEOUT_MS,
    CHROMIUM_ARGS,
    NEXT_TUESDAY,
    ROOT,
    best_agent,
    chromium,
    labelled_request,
)

from mock_account.understanding.request_parts import split_request

# One browser walk at a time, on one worker: a cold start is timed, and answers wait on the CPU.
pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_first_minute_in_a_real_browser(demo_url: str, tmp_path: Path) -> None:
    """The README's first minute: the Berlin starter, then the suggested expense claim; the
    facts on screen agree with what was asked and with each other."""
    executable = chromium()
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1400})
            page.set_default_timeout(ANSWER_TIMEOUT_MS)
            page.goto(demo_url, timeout=ANSWER_TIMEOUT_MS)
            expect(page.get_by_text("Start with one of these")).to_be_visible(
                timeout=ANSWER_TIMEOUT_MS
            )
            page.get_by_role(
                "button", name="I need to fly to Berlin next Tuesday for a client meeting"
            ).click()
            booked = page.get_by_text(re.compile(r"I booked flight .* to Berlin, leaving"))
            expect(booked.first).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
            flight = booked.first.inner_text()
            assert f"leaving {NEXT_TUESDAY}" in flight, flight
            fare = re.search(r"returning (\d{4}-\d{2}-\d{2}), for [\d.,]+ ([A-Z]{3})", flight)
            assert fare is not None, flight
            back, currency = fare.groups()
            assert back > NEXT_TUESDAY
            # The suggested follow-up is written from the saved trip and hands it over.
            expenses = page.get_by_role(
                "button", name="File my travel expenses for the Berlin trip"
            )
            expect(expenses).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
            _shot(page, tmp_path, "first-minute-trip")
            expenses.click()
            reason = page.get_by_role("textbox", name="Business reason")
            expect(reason).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
            reason.fill("Client meeting with Hoffmann Logistics")
            # What was paid is asked, never made up from the fare the company paid.
            page.get_by_role("textbox", name="Amount paid").fill("240")
            page.get_by_role("button", name="Send answers").click()
            marker = page.get_by_text("handed off from")
            expect(marker.first).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
            expect(marker.first).to_contain_text("BookBusinessFlight")
            expect(marker.first).to_contain_text("conv.trip")
            claim = page.get_by_text(re.compile(r"Your travel claim of")).first.inner_text()
            assert f"of 240 {currency} from {NEXT_TUESDAY}" in claim, claim
            assert f"the trip to Berlin ({NEXT_TUESDAY} to {back})" in claim, claim
            _shot(page, tmp_path, "first-minute-expenses")
        finally:
            browser.close()


def _shot(page: Any, tmp_path: Path, name: str) -> None:
    """A screenshot kept next to the test's files (and in out/ when that folder exists)."""
    shot = tmp_path / f"{name}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    out = ROOT / "out"
    if out.is_dir():
        shutil.copyfile(shot, out / shot.name)


def test_two_best_multi_part_and_held_request_in_a_real_browser(
    demo_url: str, tmp_path: Path
) -> None:
    """What a person sees: two close agents to pick from, a message answered part by part,
    and a request typed while a form waits that is held with a choice, then sent."""
    executable = chromium()
    from playwright.sync_api import expect, sync_playwright

    close = labelled_request(close=True)
    hotel_and_taxi = "Book a hotel in Oslo for two nights and file last week's taxi receipt"
    hotel, taxi = (best_agent(p) for p in split_request(hotel_and_taxi))
    hoffmann = "Pull up the account for Hoffmann Logistics"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1700})
            page.set_default_timeout(ANSWER_TIMEOUT_MS)
            page.goto(demo_url, timeout=ANSWER_TIMEOUT_MS)
            chat_box = page.get_by_test_id("stChatInputTextArea")
            expect(chat_box).to_be_visible(timeout=ANSWER_TIMEOUT_MS)

            # The two best, side by side; the one picked answers.
            page.get_by_text("Offer the two best").click()
            chat_box.fill(close)
            chat_box.press("Enter")
            question = page.get_by_text("Two agents match this request about equally well")
            expect(question).to_be_visible(timeout=ANSWER_TIMEOUT_MS)
            run_buttons = page.get_by_role("button", name=re.compile(r"^Run [A-Z]"))
            expect(run_buttons).to_have_count(2)
            second = (run_buttons.nth(1).inner_text()).removeprefix("Run ").strip()
            _shot(page, tmp_path, "two-best-choice")
            run_buttons.nth(1).click()
            expect(page.get_by_text(f"You chose {second}.")).to_be_visible(
                timeout=ANSWER_TIMEOUT_MS
            )
            expect(run_buttons).to_have_count(0)

            # A message of two requests, each answered under its own agent.
            page.get_by_role("button", name="New conversation").click()
            page.get_by_text("Run the best match").click()
            chat_box.fill(hotel_and_taxi)
            chat_box.press("Enter")
            expect(page.get_by_text("Your message holds 2 requests")).to_be_visible(
                timeout=ANSWER_TIMEOUT_MS
            )
            expect(page.get_by_text("Request 1 of 2")).to_be_visible()
            expect(page.get_by_text("Request 2 of 2")).to_be_visible()
            expect(page.get_by_text(hotel).first).to_be_visible()
            expect(page.get_by_text(taxi).first).to_be_visible()
            reason = page.get_by_role("textbox", name="Business reason")
            expect(reason).to_be_visible()
            _shot(page, tmp_path, "multi-part-answer")

            # Another request while the form waits: held, with a choice; no error.
            chat_box.fill(hoffmann)
            chat_box.press("Enter")
            expect(page.get_by_text("is still waiting for your answers")).to_be_visible(
                timeout=ANSWER_TIMEOUT_MS
            )
            expect(page.get_by_text("unknownConversation")).to_have_count(0)
            _shot(page, tmp_path, "held-request-choice")
            page.get_by_role("button", name="Answer the form first, then send it").click()
            expect(page.get_by_text("will be sent here once you have answered")).to_be_visible()
            reason.fill("Taxi to the Hoffmann meeting")
            page.get_by_role("textbox", name="Amount paid").fill("38")
            page.get_by_role("button", name="Send answers").click()
            expect(page.get_by_text(best_agent(hoffmann)).first).to_be_visible(
                timeout=ANSWER_TIMEOUT_MS
            )
            expect(page.get_by_text("is still waiting for your answers")).to_have_count(0)
            expect(page.get_by_role("textbox", name="Business reason")).to_have_count(0)
        finally:
            browser.close()
