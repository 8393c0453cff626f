"""Reading the question out of a message that mentions the bot, as a pure function: what counts
as addressing the bot (not a mention only in code or a quote), the question without the bot's
mention, other mentions as names, and the cap at 2,000 characters."""

from __future__ import annotations

import pytest

from cogs.qa.mention_text import (
    Mentioned,
    Question,
    addresses,
    mention_names,
    outside_code_and_quotes,
    question_of,
)
from cogs.qa.text import MAX_QUESTION

BOT, ROLE, ANNA = 1_000_000_000_000_000_001, 2_000_000_000_000_000_002, 42
ME = Mentioned(BOT, ROLE)
AT, AT_NICK, AT_ROLE = f"<@{BOT}>", f"<@!{BOT}>", f"<@&{ROLE}>"


@pytest.mark.parametrize(
    "content",
    [
        f"{AT} What is grace?",
        f"What is grace? {AT}",
        f"What is {AT} grace?",
        f"{AT_NICK} What is grace?",
        f"{AT_ROLE} What is grace?",
        f"{AT}What is grace?",
        f"\u200b{AT}\u200b What is grace?",
    ],
)
def test_the_question_is_the_text_without_the_bots_mention(content: str) -> None:
    assert addresses(content, ME)
    assert question_of(content, ME) == Question("What is grace?")


def test_a_role_mention_counts_only_for_the_bots_own_role() -> None:
    other_role = "<@&999> What is grace?"
    assert not addresses(other_role, ME)
    assert not addresses(AT_ROLE, Mentioned(BOT, None))


@pytest.mark.parametrize(
    "content", [AT, f"  {AT}  ", f"{AT}\n\n\t", f"{AT} \u200b\u2060 ", AT_ROLE]
)
def test_a_bare_mention_is_an_empty_question(content: str) -> None:
    assert addresses(content, ME)
    assert question_of(content, ME) == Question("")


@pytest.mark.parametrize(
    "content",
    [
        f"```\n{AT} What is grace?\n```",
        f"`{AT}` is how you ask the bot",
        f"``{AT} What is grace?``",
        f"> {AT} What is grace?\nI wondered that too",
        f"Someone wrote:\n>>> {AT} What is grace?\nand more",
        f"  > {AT} quoted with leading spaces",
    ],
)
def test_a_mention_only_in_code_or_a_quote_asks_nothing(content: str) -> None:
    assert not addresses(content, ME)


def test_a_mention_outside_keeps_the_quote_and_code_in_the_question() -> None:
    content = f"> Grace is a free gift\n{AT} is this right? See `Rom 3:24`"
    assert addresses(content, ME)
    assert question_of(content, ME).text == "> Grace is a free gift\nis this right? See `Rom 3:24`"


def test_outside_code_and_quotes_keeps_the_rest() -> None:
    content = "before ```x``` `y` after\n> quoted\nlast"
    assert outside_code_and_quotes(content).split() == ["before", "after", "last"]


def test_other_mentions_read_as_names_and_unknown_ones_stay() -> None:
    names = mention_names([(ANNA, "Anna")], [(7, "Catechists")], [(8, "general")])
    content = f"{AT} what did <@{ANNA}> and <@!{ANNA}> ask <@&7> in <#8> and <@5>?"
    assert question_of(content, ME, names=names).text == (
        "what did @Anna and @Anna ask @Catechists in #general and <@5>?"
    )


def test_whitespace_is_tidied_but_paragraphs_stay() -> None:
    content = f"{AT}   What   is\tgrace?  \n\n\n\n  And mercy?  "
    assert question_of(content, ME).text == "What is grace?\n\nAnd mercy?"


def test_a_question_of_2000_characters_is_whole() -> None:
    text = "Why " + "x" * (MAX_QUESTION - 4)
    assert question_of(f"{AT} {text}", ME) == Question(text)


def test_a_4000_character_message_asks_its_first_2000_and_says_it_was_cut() -> None:
    text = "Why " + "long question " * 300  # 4,204 characters
    asked = question_of(f"{AT} {text}", ME)
    assert asked.cut
    assert len(asked.text) <= MAX_QUESTION
    assert text.startswith(asked.text)
    assert len(asked.text) >= MAX_QUESTION - 1  # only trailing whitespace trimmed
