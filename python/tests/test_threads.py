"""The GIL is released while a script runs (other Python threads go on,
two generators on two threads run at once) and Ctrl-C stops a running
generation within a second, even with the limits turned off."""

from __future__ import annotations

import _thread
import os
import signal
import threading
import time

import pytest

import dunlua

SPIN = "return { params = { n = 1000 }, width = 10, height = 6, generate = function(map, rng, p)\n  local x = 0\n  for i = 1, p.n do x = x + i end\n  map:carve_room(Rect.new(1, 1, 6, 3))\n  map:set_start(2, 2)\nend }\n"
FOREVER = "return { width = 10, height = 6, generate = function(map, rng)\n  map:carve_room(Rect.new(1, 1, 6, 3))\n  map:set_start(2, 2)\n  if rng:int(2) == 0 then while true do end end\nend }\n"
UNLIMITED = dict(budget=2**64 - 1, memory=1 << 20, timeout=0)


def spinner(seconds: float) -> dunlua.Generator:
    """A generator whose runs take about `seconds`."""
    n = 200_000
    while True:
        gen = dunlua.Generator.from_source(SPIN, params={"n": n}, **UNLIMITED)
        started = time.perf_counter()
        gen.generate(1)
        took = time.perf_counter() - started
        if took >= seconds:
            return gen
        n = int(n * min(10.0, 1.2 * seconds / max(took, 1e-4)))


def test_other_python_threads_run_while_a_script_runs():
    gen = spinner(0.4)
    ticks = 0
    stop = threading.Event()

    def tick():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        time.sleep(0.02)
        before = ticks
        gen.generate(2)
        during = ticks - before
    finally:
        stop.set()
        ticker.join()
    # With the GIL held for the whole run the ticker could not have counted.
    assert during > 50, during


def test_two_threads_generate_in_parallel():
    # A short run started while a long one runs on another thread ends first:
    # with the runs serialised (the GIL, or any lock of dunlua's), it would
    # end after the long one, however loaded the machine is.
    long, short = spinner(1.0), spinner(0.05)
    ended = {}

    def work(name, gen):
        gen.generate(1)
        ended[name] = time.perf_counter()

    first = threading.Thread(target=work, args=("long", long))
    first.start()
    time.sleep(0.2)
    second = threading.Thread(target=work, args=("short", short))
    second.start()
    second.join()
    first.join()
    assert ended["short"] < ended["long"]


def seeds_of(gen_limited: dunlua.Generator) -> tuple[int, int]:
    """A seed that runs forever and one that finishes."""
    forever = fine = None
    for seed in range(64):
        try:
            gen_limited.generate(seed)
            fine = seed if fine is None else fine
        except dunlua.BudgetExceeded:
            forever = seed if forever is None else forever
        if forever is not None and fine is not None:
            return forever, fine
    raise AssertionError("no seeds of both kinds")


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, however the tests were started: a
    process started in the background by a shell without job control (`cmd &`
    in a script, as some CI runners do) inherits SIGINT ignored, so Python
    installs no handler, `interrupt_main` does nothing and a run without
    limits would wait forever."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_raises")
@pytest.mark.parametrize("how", ["interrupt_main", "sigint"])
def test_ctrl_c_stops_a_generation_without_limits(how):
    forever, fine = seeds_of(dunlua.Generator.from_source(FOREVER, budget=100_000))
    gen = dunlua.Generator.from_source(FOREVER, **UNLIMITED)
    if how == "interrupt_main":
        press = _thread.interrupt_main
    else:
        press = lambda: os.kill(os.getpid(), signal.SIGINT)  # noqa: E731
    timer = threading.Timer(0.3, press)
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        gen.generate(forever)
    took = time.perf_counter() - started
    timer.join()
    assert took < 1.3, took
    # The generator is fine afterwards: the next seed is made as before.
    assert gen.generate(fine).hash == dunlua.Generator.from_source(FOREVER).generate(fine).hash


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_stops_a_script_whose_top_level_never_ends():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        dunlua.Generator.from_source("while true do end\nreturn {}\n", **UNLIMITED)
    timer.join()
    assert time.perf_counter() - started < 1.3


def _generate_in_child(queue, generator):
    started = time.perf_counter()
    try:
        if generator is None:
            generator = dunlua.Generator.from_source(
                "return { generate = function(map) while true do end end }", budget=2**63, timeout=0.5
            )
        generator.generate(1)
        queue.put("finished")
    except dunlua.TimedOut:
        queue.put(time.perf_counter() - started)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
@pytest.mark.parametrize("made_in", ["child", "parent"])
def test_deadlines_hold_in_a_forked_child(made_in):
    # multiprocessing's "fork": the child has no deadline thread of its own
    # until dunlua starts one; a generator made before the fork works too.
    import multiprocessing

    made = None
    if made_in == "parent":
        made = dunlua.Generator.from_source(
            "return { generate = function(map) while true do end end }", budget=2**63, timeout=0.5
        )
    dunlua.Generator("scripts/rooms.lua", timeout=5).generate(1)  # the parent's deadline thread runs
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_generate_in_child, args=(queue, made))
    child.start()
    child.join(10)
    if child.is_alive():
        child.kill()
        raise AssertionError("the child's run never timed out")
    took = queue.get(timeout=1)
    assert took != "finished" and took < 3, took


DAEMON = """
import threading, time, dunlua
g = dunlua.Generator("scripts/caves.lua", size=(200, 200))
threading.Thread(target=lambda: [g.generate(s) for s in iter(int, 1)], daemon=True).start()
threading.Thread(target=lambda: [dunlua.Generator("scripts/rooms.lua").generate(s) for s in range(10**9)], daemon=True).start()
time.sleep(0.3)
print("main done")
"""


def test_exit_while_daemon_threads_generate():
    # Python before 3.14 ends daemon threads at exit with a forced unwind,
    # which aborted the process when it met a generation under way.
    import subprocess
    import sys

    for _ in range(4):
        done = subprocess.run([sys.executable, "-c", DAEMON], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        assert "main done" in done.stdout and "FATAL" not in done.stderr


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_stops_only_the_interrupted_threads_run():
    # One generator, two threads: the main thread's Ctrl-C while its run is
    # queued behind another thread's run leaves that run alone.
    gen = dunlua.Generator.from_source(SPIN, params={"n": 1}, **UNLIMITED)
    long = spinner(1.0)
    outcome = {}

    def other():
        try:
            outcome["hash"] = long.generate(1).hash
        except BaseException as e:  # noqa: BLE001
            outcome["error"] = repr(e)

    # The same generator for both: `long`.
    worker = threading.Thread(target=other)
    worker.start()
    time.sleep(0.2)
    timer = threading.Timer(0.2, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        long.generate(2)
    worker.join()
    timer.join()
    assert "hash" in outcome, outcome
    assert gen.generate(1).hash


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")
def test_fork_while_another_thread_generates():
    gen = spinner(0.5)
    busy = threading.Thread(target=lambda: [gen.generate(s) for s in range(4)])
    busy.start()
    time.sleep(0.1)
    pid = os.fork()
    if pid == 0:  # the child: a clear error, no hang
        code = 3
        try:
            gen.generate(0)
            code = 1
        except RuntimeError as e:
            code = 0 if "forked" in str(e) else 2
        except BaseException:
            code = 4
        os._exit(code)
    deadline = time.time() + 20
    while time.time() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.05)
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        raise AssertionError("the child hung")
    busy.join()
    assert os.waitstatus_to_exitcode(status) == 0
