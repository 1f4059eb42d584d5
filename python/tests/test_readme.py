"""The guide's Python section (docs/guide/src/game.md, once the README's)
runs as written: its code blocks, in order, in one namespace (the game
loop, which opens a window, is only compiled)."""

from __future__ import annotations

import re

from conftest import ROOT


def python_blocks() -> list[str]:
    text = (ROOT / "docs/guide/src/game.md").read_text()
    start = text.index("## Python\n")
    end = text.index("**C, C++**", start)
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


def test_readme_python_blocks_run():
    blocks = python_blocks()
    assert len(blocks) >= 4
    namespace: dict = {}
    ran = 0
    for block in blocks:
        code = compile(block, "docs/guide/src/game.md", "exec")
        if "tcod" in block:
            try:
                import tcod  # noqa: F401
            except ImportError:
                continue
        if "tcod.context" in block:
            continue  # a window and an event loop
        exec(code, namespace)
        ran += 1
    assert ran >= 2
    assert namespace["m"].hash and namespace["gen"].levels == 1
