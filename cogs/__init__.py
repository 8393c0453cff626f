"""Discord cogs, one package per skill."""
