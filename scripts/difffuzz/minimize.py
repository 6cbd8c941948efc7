"""Shrinks a differing script while it keeps differing the same way.

First delta debugging over the statement list, then dropping single words
inside the statements that remain. "The same way" means the same set of
differing streams; a shrink that makes the script agree, or differ in other
streams, is undone.
"""

from .runner import differences, run_bash, run_wabash, timed_out


def _signature(statements):
    script = "\n".join(text for _, text in statements)
    bash = run_bash(script)
    if timed_out(bash):
        # Not comparable: a shrink that makes bash loop is no smaller case.
        return ("bash-timeout",)
    return differences(bash, run_wabash(script), script)


def _ddmin(items, keeps, budget):
    """Classic ddmin over `items` with `keeps(subset) -> bool`; `budget` is a one-element list."""
    n = 2
    while len(items) >= 2 and budget[0] > 0:
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            complement = items[:start] + items[start + chunk:]
            if not complement:
                continue
            budget[0] -= 1
            if keeps(complement):
                items = complement
                n = max(n - 1, 2)
                reduced = True
                break
            if budget[0] <= 0:
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def minimize(statements, target, max_runs=150):
    """The smallest `(kind, text)` list found whose differences equal `target`."""
    budget = [max_runs]
    keeps = lambda subset: _signature(subset) == target  # noqa: E731
    statements = _ddmin(list(statements), keeps, budget)
    for index in range(len(statements)):
        kind, text = statements[index]
        words = text.split(" ")
        if len(words) < 2:
            continue

        def keeps_words(subset, index=index):
            trial = statements[:index] + [(kind, " ".join(subset))] + statements[index + 1:]
            return _signature(trial) == target

        words = _ddmin(words, keeps_words, budget)
        statements[index] = (kind, " ".join(words))
    return statements
