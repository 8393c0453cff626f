"""“Was it helpful?”: the two buttons under every catholic_qa answer (/ask, the message menu,
related questions, the new-conversation form, mentions, DMs), shared by the QA and DM cogs."""

from cogs._feedback.buttons import (
    FEEDBACK_PREFIX,
    FEEDBACK_TEMPLATE,
    FeedbackButton,
    feedback_buttons,
    feedback_custom_id,
    shown_feedback,
)

# Registered by each cog whose answers carry them (and never removed by one of them alone).
DYNAMIC_ITEMS = (FeedbackButton,)

__all__ = [
    "DYNAMIC_ITEMS",
    "FEEDBACK_PREFIX",
    "FEEDBACK_TEMPLATE",
    "FeedbackButton",
    "feedback_buttons",
    "feedback_custom_id",
    "shown_feedback",
]
