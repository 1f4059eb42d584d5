"""Every failure comes back as an exception: the script's as
`dunlua.ScriptError` (and its subclasses for the limits and for rejected
maps) carrying the file and line; bad arguments as `ValueError` /
`TypeError` with the command line's text. A generator that failed still
generates."""

from __future__ import annotations

import pytest

import dunlua
from conftest import cli

GOOD = "return { width = 10, height = 6, generate = function(map)\n  map:carve_room(Rect.new(1, 1, 6, 3))\n  map:set_start(2, 2)\nend }\n"


def from_source(text: str, **kw) -> dunlua.Generator:
    return dunlua.Generator.from_source(text, name="mods/bad.lua", **kw)


def test_syntax_error_names_the_line():
    with pytest.raises(dunlua.ScriptError) as caught:
        from_source("return {\n  width = 10,\n  generate = function(map\nend }\n")
    e = caught.value
    assert e.kind == "syntax" and e.file == "mods/bad.lua" and e.line == 4
    assert str(e).startswith("mods/bad.lua:4:")


def test_runtime_error_names_the_line_and_keeps_the_traceback():
    gen = from_source("return { generate = function(map)\n  local t = nil\n  return t.x\nend }\n")
    with pytest.raises(dunlua.ScriptError) as caught:
        gen.generate(1)
    e = caught.value
    assert type(e) is dunlua.ScriptError
    assert (e.kind, e.file, e.line) == ("runtime", "mods/bad.lua", 3)
    assert "attempt to index" in e.message and e.message == str(e)
    assert any("mods/bad.lua:3" in frame for frame in e.traceback)


def test_contract_and_bad_start():
    with pytest.raises(dunlua.ScriptError) as caught:
        from_source("return 5\n")
    assert caught.value.kind == "contract"
    with pytest.raises(dunlua.ScriptError) as caught:
        from_source("return { generate = function(map) end }\n").generate(1)
    assert caught.value.kind == "bad_start"


def test_budget_exceeded():
    gen = from_source("return { generate = function(map)\n  while true do end\nend }\n", budget=100_000)
    with pytest.raises(dunlua.BudgetExceeded) as caught:
        gen.generate(1)
    e = caught.value
    assert isinstance(e, dunlua.LimitExceeded) and isinstance(e, dunlua.ScriptError)
    assert (e.kind, e.file, e.line) == ("limit", "mods/bad.lua", 2)
    assert "instruction budget of 100000 exceeded" in str(e)
    # The message names this binding's argument, not the command line's flag.
    assert "raise it with budget=" in str(e) and "--max-instructions" not in str(e)


def test_memory_exceeded():
    gen = from_source(
        "return { generate = function(map)\n  local t = {}\n  for i = 1, 1e9 do t[i] = { i } end\nend }\n",
        memory=16,
        budget=10**12,
    )
    with pytest.raises(dunlua.MemoryExceeded) as caught:
        gen.generate(1)
    assert "memory limit of 16 MiB exceeded" in str(caught.value)
    assert "raise it with memory=" in str(caught.value)
    assert caught.value.file == "mods/bad.lua" and caught.value.line == 3


def test_timed_out():
    gen = from_source("return { generate = function(map)\n  while true do end\nend }\n", budget=2**63, timeout=0.3)
    with pytest.raises(dunlua.TimedOut) as caught:
        gen.generate(1)
    assert isinstance(caught.value, dunlua.LimitExceeded)
    assert caught.value.kind == "timed_out" and caught.value.line == 2
    assert "timed out after 0.3 s (timeout=)" in str(caught.value)


def test_rejected_with_the_reasons():
    gen = from_source(
        "return { generate = function(map, rng)\n  map:carve_room(Rect.new(1, 1, 4, 4))\n  map:set_start(2, 2)\n  reject('too small ' .. rng:range(1, 1000))\nend }\n",
        max_attempts=3,
    )
    with pytest.raises(dunlua.Rejected) as caught:
        gen.generate(1)
    e = caught.value
    assert e.kind == "rejected" and "all 3 attempts were rejected" in str(e)
    assert [attempt for attempt, _ in e.reasons] == [0, 1, 2]
    assert all(why.startswith("mods/bad.lua:4: too small ") for _, why in e.reasons)


def test_a_failed_seed_does_not_spoil_the_generator():
    gen = from_source(
        "return { width = 10, height = 6, generate = function(map, rng)\n  map:carve_room(Rect.new(1, 1, 6, 3))\n  map:set_start(2, 2)\n  if rng:int(2) == 0 then error('odd seed') end\nend }\n"
    )
    outcomes = {}
    for seed in range(12):
        try:
            outcomes[seed] = gen.generate(seed).hash
        except dunlua.ScriptError as e:
            assert "odd seed" in str(e)
            outcomes[seed] = None
    assert None in outcomes.values() and any(outcomes.values())
    again = {seed: (h if h is None else gen.generate(seed).hash) for seed, h in outcomes.items()}
    assert again == outcomes


def test_unknown_parameter_is_a_value_error_with_the_cli_text():
    with pytest.raises(ValueError) as caught:
        dunlua.Generator("scripts/rooms.lua", params={"nope": 1})
    text = str(caught.value)
    assert text.startswith("unknown parameter 'nope'; declared: ")
    assert text in cli("scripts/rooms.lua", "--seed", "1", "--ascii", "-p", "nope=1", check=False).stderr


def test_wrong_parameter_type_is_a_type_error():
    for value in ("twelve", 1.5, True):
        with pytest.raises(TypeError, match="parameter 'max_rooms' must be an integer"):
            dunlua.Generator("scripts/rooms.lua", params={"max_rooms": value})
    with pytest.raises(TypeError, match="parameter 'max_rooms'"):
        dunlua.Generator("scripts/rooms.lua", params={"max_rooms": [1]})
    # An integer is accepted for a number parameter, as on the command line.
    dunlua.Generator("scripts/caves.lua", params={"fill": 45})


def test_size_out_of_range_is_a_value_error():
    for size in ((0, 10), (10, -1), (100_000, 100_000), (2**70, 5)):
        with pytest.raises(ValueError, match=r"^size "):
            dunlua.Generator("scripts/rooms.lua", size=size)
    # Said once, not "size 0x5: size 0x5 is invalid: ...".
    with pytest.raises(ValueError) as caught:
        dunlua.Generator("scripts/rooms.lua", size=(0, 5))
    assert str(caught.value) == "size 0x5 is invalid: width and height must be 1..=10000"
    with pytest.raises(TypeError):
        dunlua.Generator("scripts/rooms.lua", size=(80,))
    with pytest.raises(TypeError):
        dunlua.Generator("scripts/rooms.lua", size=("80", 50))


def test_limits_out_of_range():
    with pytest.raises(ValueError, match="memory"):
        dunlua.Generator("scripts/rooms.lua", memory=0)
    with pytest.raises(ValueError, match="timeout"):
        dunlua.Generator("scripts/rooms.lua", timeout=-1)
    with pytest.raises(ValueError, match="budget"):
        dunlua.Generator("scripts/rooms.lua", budget=-5)
    with pytest.raises(TypeError, match="budget"):
        dunlua.Generator("scripts/rooms.lua", budget="lots")
    with pytest.raises(ValueError, match="seed"):
        dunlua.Generator("scripts/rooms.lua").generate(-1)
    with pytest.raises(TypeError, match="seed"):
        dunlua.Generator("scripts/rooms.lua").generate("7")


def test_missing_script_is_file_not_found():
    with pytest.raises(FileNotFoundError, match="nothere.lua"):
        dunlua.Generator("scripts/nothere.lua")


def test_numpy_integers_are_integers():
    np = pytest.importorskip("numpy")
    gen = dunlua.Generator(
        "scripts/rooms.lua", params={"max_rooms": np.int64(12), "features": np.bool_(True)}, size=(np.int32(60), np.int64(40))
    )
    assert gen.params["max_rooms"] == 12 and gen.params["features"] is True
    assert gen.generate(np.int64(7)).hash == dunlua.Generator(
        "scripts/rooms.lua", params={"max_rooms": 12, "features": True}, size=(60, 40)
    ).generate(7).hash
    assert dunlua.generate("scripts/rooms.lua", seed=np.uint64(3), budget=np.int64(10**9)).hash
    with pytest.raises(TypeError):
        dunlua.Generator("scripts/rooms.lua").generate(np.float64(7))
    with pytest.raises(TypeError):
        dunlua.Generator("scripts/rooms.lua").generate(np.bool_(True))


def test_parameter_values_out_of_range_are_value_errors():
    with pytest.raises(ValueError, match="finite"):
        dunlua.Generator("scripts/caves.lua", params={"fill": float("nan")})
    with pytest.raises(TypeError, match="must be an integer"):
        dunlua.Generator("scripts/rooms.lua", params={"max_rooms": 2**70})
    assert dunlua.Generator("scripts/caves.lua", params={"fill": 2**70}).params["fill"] == float(2**70)


def test_a_huge_argument_is_quoted_cut_short():
    # A 10 MB argument made a 10 MB message; an error quotes 200 bytes of it.
    huge = "a" * 10_000_000
    for call in (
        lambda: dunlua.Generator("scripts/rooms.lua").generate(huge),
        lambda: dunlua.Generator("scripts/rooms.lua", size=(huge, 1)),
        lambda: dunlua.Generator("scripts/rooms.lua", budget=huge),
        lambda: dunlua.Generator("scripts/rooms.lua", params={huge: 1}),
        lambda: dunlua.Generator("scripts/rooms.lua", params={"max_rooms": huge}),
        lambda: dunlua.Generator("scripts/rooms.lua", params={huge: [1]}),
        lambda: dunlua.Generator("scripts/rooms.lua", params={huge: 10**400}),
    ):
        with pytest.raises((TypeError, ValueError)) as caught:
            call()
        text = str(caught.value)
        assert len(text) < 1000, len(text)
        assert "bytes)" in text, text[:300]
