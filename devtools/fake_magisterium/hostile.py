"""Hostile content for the MENTIONS_ANSWER fault: Discord mentions and markdown everywhere."""

from __future__ import annotations

import copy

from devtools.fake_magisterium.answers import ARTIFACT_NAME
from devtools.fake_magisterium.rpc import JsonDict
from devtools.fake_magisterium.tasks import artifact, data_part, text_part

PINGS = "@everyone @here <@123> <@!123> <@&456> <#789>"
HOSTILE_ANSWER = (
    "@everyone @here this answer pings the user <@123>, the role <@&456> and the channel "
    "<#789> [1].\n\n**bold** and __underline__ and *italic* and ~~strike~~ and ||a spoiler|| "
    "and a [masked link](https://example.com) [2].\n\n```python\nprint('a code fence')\n```\n\n"
    "> a quote that says @everyone\n\n# A heading @here"
)


def hostile_citation(index: int) -> JsonDict:
    return {
        "cited_text": f"{PINGS} ||spoiler|| ```fence```",
        "cited_text_heading": "__heading__ @here",
        "document_title": f"{PINGS} **Lumen** __Gentium__ [masked](https://example.com)",
        "document_index": index,
        "document_author": "@everyone",
        "document_year": "1964",
        "document_reference": "<@&456> 1",
        "source_url": "https://example.com/@everyone",
    }


def hostile_answer() -> JsonDict:
    """A catholic_qa artifact whose answer and citations are full of mentions and markdown."""
    related = [f"{PINGS} what now?", "||spoiler|| question?", "[masked](https://example.com)?"]
    citations = [hostile_citation(0), hostile_citation(1)]
    return artifact(
        ARTIFACT_NAME,
        [
            text_part(HOSTILE_ANSWER),
            data_part({"citations": citations}),
            data_part({"related_questions": related}),
        ],
    )


def _poison(value: object) -> object:
    if isinstance(value, dict):
        return {
            k: _poison(v) if k in ("text", "title", "data", "results") else v
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_poison(v) for v in value]
    if isinstance(value, str):
        return f"{PINGS} **{value}** ||[masked](https://example.com)||"
    return value


def poison(result: JsonDict) -> JsonDict:
    """Any skill's artifact with mentions and markdown wrapped around its texts and titles."""
    poisoned = copy.deepcopy(result)
    poisoned["parts"] = _poison(poisoned["parts"])
    return poisoned
