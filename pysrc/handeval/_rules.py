"""Turning the ``rules=`` argument into one game's rule options."""


def game_rules(rules, game, default_cls):
    """``None`` -> defaults; a game's own ``Rules`` -> itself; ``handeval.Rules`` -> its
    ``game`` part. Anything else is a HandevalError."""
    from handeval.errors import fail

    if rules is None:
        return default_cls()
    if isinstance(rules, default_cls):
        return rules
    part = getattr(rules, game, None)
    if isinstance(part, default_cls):
        return part
    fail("rules", f"expected handeval.Rules or {game}.Rules, got {type(rules).__name__}")
