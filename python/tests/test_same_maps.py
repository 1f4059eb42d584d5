"""The package makes the command line's maps: for every reference script and
seeds 0..9, every level's hash, tile ids and JSON equal what `dunlua SCRIPT
--seed N --hash --out x.json` prints and writes."""

from __future__ import annotations

import json

import numpy as np
import pytest

import dunlua
from conftest import SCRIPTS, cli, cli_levels

SEEDS = range(10)


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_reference_script_matches_the_cli(script, tmp_path):
    name = f"scripts/{script.name}"
    gen = dunlua.Generator(name)
    for seed in SEEDS:
        hashes, levels = cli_levels(name, seed, tmp=tmp_path)
        maps = gen.generate_levels(seed)
        assert [m.hash for m in maps] == hashes, f"{name} seed {seed}"
        assert gen.generate(seed).hash == hashes[0]
        for m, expected in zip(maps, levels):
            cells = np.array(expected["cells"], dtype=np.uint8).reshape(
                expected["height"], expected["width"]
            )
            assert np.array_equal(m.tiles, cells), f"{name} seed {seed} level {m.level}"
            mine = json.loads(m.to_json())
            # The export names the script relative to the file it writes
            # (here a temporary folder); the package, as it was given.
            assert mine.pop("script") == name
            expected.pop("script")
            assert mine == expected
            assert m.start == (expected["start"]["x"], expected["start"]["y"])
            assert [k["name"] for k in m.kinds] == [t["name"] for t in expected["tiles"]]


def test_params_and_size_as_the_cli(tmp_path):
    gen = dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 12, "features": True}, size=(60, 40))
    for seed in (3, 7):
        hashes, (expected,) = cli_levels(
            "scripts/rooms.lua", seed, "-p", "max_rooms=12", "-p", "features=true", "--size", "60x40", tmp=tmp_path
        )
        m = gen.generate(seed)
        assert m.hash == hashes[0]
        assert (m.width, m.height) == (60, 40) == (expected["width"], expected["height"])
        assert m.params == expected["params"]


def test_one_shot_generate_is_the_generators_map():
    m = dunlua.generate("scripts/caves.lua", seed=3, size=(120, 60), params={})
    assert m.hash == dunlua.Generator("scripts/caves.lua", size=(120, 60)).generate(3).hash
    assert m.hash == cli("scripts/caves.lua", "--seed", "3", "--size", "120x60", "--hash").stdout.strip()


def test_str_is_the_ascii_text():
    for script in ("scripts/rooms.lua", "scripts/keys.lua"):
        m = dunlua.Generator(script).generate(5)
        assert str(m) == cli(script, "--seed", "5", "--ascii").stdout


def test_a_reused_generator_equals_fresh_ones():
    gen = dunlua.Generator("scripts/digger.lua")
    forwards = [gen.generate(s).hash for s in range(6)]
    backwards = [gen.generate(s).hash for s in reversed(range(6))][::-1]
    fresh = [dunlua.Generator("scripts/digger.lua").generate(s).hash for s in range(6)]
    assert forwards == backwards == fresh


NUMBERS = """return { width = 30, height = 20, params = { f = 0.5 },
  generate = function(map, rng, p)
    map:fill("wall")
    local c = tostring(p.f) == "0.5" and string.format("%.2f", 1.5) == "1.50" and tonumber("0,5") == nil
    map:carve_room(Rect.new(1, 1, c and 10 or 20, 8))
    map:set_start(3, 3)
  end }
"""


def test_a_program_in_another_locale_gets_the_same_maps(tmp_path):
    """A program that set a German locale (a comma for the decimal point)
    with `locale.setlocale` gets the command line's maps, and keeps its
    locale: Lua's numbers followed the process's locale, and
    `tostring(0.5)` was "0,5"."""
    import os
    import shutil
    import subprocess
    import sys

    if shutil.which("localedef") is None:
        assert "CI" not in os.environ, "localedef (package locales) is missing, and CI must run this"
        pytest.skip("localedef is not installed")
    locales = tmp_path / "locales"
    locales.mkdir()
    subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(locales / "de_DE.UTF-8")], capture_output=True)
    assert (locales / "de_DE.UTF-8").exists(), "localedef could not make de_DE.UTF-8"
    script = tmp_path / "numbers.lua"
    script.write_text(NUMBERS)
    program = (
        "import locale, sys, dunlua\n"
        "locale.setlocale(locale.LC_ALL, 'de_DE.UTF-8')\n"
        "assert locale.localeconv()['decimal_point'] == ','\n"
        "print(dunlua.Generator(sys.argv[1]).generate(1).hash)\n"
        "print(locale.localeconv()['decimal_point'], locale.str(0.5))\n"
    )
    env = dict(os.environ, LOCPATH=str(locales))
    done = subprocess.run(
        [sys.executable, "-c", program, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    c_locale = dunlua.Generator.from_source(NUMBERS.replace("c and 10 or 20", "10")).generate(1).hash
    assert done.stdout.split("\n")[:2] == [c_locale, ", 0,5"]
    assert cli(str(script), "--seed", "1", "--hash").stdout.strip() == c_locale
