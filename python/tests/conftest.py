"""Shared fixtures: the repository, the reference scripts and the `dunlua`
command the package is compared with.

`tests/run_pytest.rs` (part of `cargo test`) runs these tests against the
extension it builds, with DUNLUA_BIN set to the command it built; run by
hand after `pip install ./python`, they find `target/release/dunlua` or
`target/debug/dunlua`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "scripts").glob("*.lua"))


def dunlua_bin() -> Path:
    given = os.environ.get("DUNLUA_BIN")
    if given:
        return Path(given)
    for profile in ("release", "debug"):
        candidate = ROOT / "target" / profile / "dunlua"
        if candidate.exists():
            return candidate
    pytest.fail("no dunlua command: build it (cargo build --release) or set DUNLUA_BIN")


def cli(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Runs the command from the repository's root."""
    done = subprocess.run(
        [str(dunlua_bin()), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    if check and done.returncode != 0:
        raise AssertionError(f"dunlua {' '.join(args)} failed: {done.stderr}")
    return done


def cli_levels(script: str, seed: int, *extra: str, tmp: Path) -> tuple[list[str], list[dict]]:
    """The hash lines and the JSON of every level `dunlua SCRIPT --seed N` makes."""
    out = tmp / f"{Path(script).stem}-{seed}.json"
    done = cli(script, "--seed", str(seed), "--hash", "--out", str(out), *extra)
    hashes = done.stdout.split()
    data = json.loads(out.read_text())
    levels = data["levels"] if "levels" in data and isinstance(data["levels"], list) else [data]
    return hashes, levels


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scripts are named as the README names them, from the repository's root."""
    monkeypatch.chdir(ROOT)
