"""Turning the ``rules=`` argument into one game's rule options."""


def game_rules(rules, game, default_cls):
    """``None`` -> ``None`` (the core's defaults, which are RULES.md's and equal
    ``default_cls()``; skipping the conversion keeps single calls cheap); a game's own
    ``Rules`` -> itself; ``handeval.Rules`` -> its ``game`` part. Anything else is a
    HandevalError."""
    from handeval.errors import fail

    if rules is None:
        return None
    if isinstance(rules, default_cls):
        return rules
    part = getattr(rules, game, None)
    if isinstance(part, default_cls):
        return part
    fail("rules", f"expected handeval.Rules or {game}.Rules, got {type(rules).__name__}")
