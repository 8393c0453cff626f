"""Discord presentation: embeds within limits, splitting, citations, pager."""
