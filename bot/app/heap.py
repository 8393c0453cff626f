"""Keeping the garbage collector's full collections short in a bot that runs for weeks."""

from __future__ import annotations

import gc


def freeze_startup_heap() -> bool:
    """Leave everything startup made out of future garbage collections; True when it did.

    A full collection walks every tracked object, and no interaction moves meanwhile. The
    imports alone (discord.py, SQLAlchemy, pydantic, the bot) leave ~140k objects: ~0.1 s per
    full collection, paid by whatever is in flight (bench/bot_load.py). What exists at the end
    of startup lives as long as the process, so it is frozen: never walked again (nor
    collected, which it would not be anyway). What interactions allocate is collected as
    before. Once per process: nothing is done when something is frozen already.
    """
    global _frozen  # noqa: PLW0603 (the heap is the process's: so is whether it was frozen)
    # gc.get_freeze_count() walks the whole frozen generation: asked once per process only.
    if _frozen or gc.get_freeze_count():
        _frozen = True
        return False
    gc.freeze()
    _frozen = True
    return True


_frozen = False
