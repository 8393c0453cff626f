"""Subcommands of ``python -m bot`` that run the bot itself."""
