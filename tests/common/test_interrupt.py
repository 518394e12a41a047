"""Ctrl-C stops a long command within about a second: the console script on a
pseudo-terminal, sent SIGINT while its progress display shows, exits with code 130 and one
line ``oddsbot: error: interrupted``, no traceback (analyser/cli/entry.py). Long kernels
run on kernel threads (``kernels/threads.py``: the main thread only waits) or in chunks
(Five Tribes turn tables: Python runs between chunks, checked in-process below)."""

from __future__ import annotations

import pytest

from terminal import interrupted

CASES = {
    # name: (arguments of a run of minutes, text shown once the long work runs)
    "advise --rollouts": (["advise", "examples/camel-up-mid-leg.json", "--rollouts",
                           "1000000"], "rollouts"),
    "odds camel-up": (["odds", "examples/camel-up-start-4p.json", "--target-se", "0.00001"],
                      "odds"),
    "new --play five-tribes": (["new", "five-tribes", "--play", "greedy"],
                               "playing a whole five-tribes game"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_ctrl_c_stops_a_long_command_at_once(case):
    args, running = CASES[case]
    code, screen, took = interrupted(args, running)
    assert "Traceback" not in screen, screen[-3000:]
    assert code == 130, screen[-3000:]
    assert screen.count("oddsbot: error: interrupted") == 1, screen[-3000:]
    assert took < 2.0, f"{took:.1f} s from Ctrl-C to the exit"


def test_a_sampled_turn_table_returns_to_python_between_chunks():
    """Ctrl-C raised between two chunks of a Five Tribes turn table (here by its progress
    callback) stops it: the table is built in many chunks, each a short kernel call."""
    from five_tribes_positions import stacked
    from oddsbot.analyser.five_tribes import face as ft

    with open("examples/five-tribes-opening-4p.json") as f:
        pos = ft.validate(stacked(ft.parse(f.read()), {14: 20}))
    calls = []

    def progress(done: int, planned: int) -> None:
        calls.append((done, planned))
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        ft.advise(pos, progress=progress)
    assert len(calls) == 2 and calls[1][0] < calls[1][1]


def test_ctrl_c_while_the_modules_load_is_one_line(monkeypatch, capsys):
    """Ctrl-C in the first fraction of a second, while the command's modules load (here
    raised by the import of the entry module itself): one line and 130, no traceback."""
    import sys

    from oddsbot.analyser import cli

    class Interrupting:
        def find_spec(self, name, path=None, target=None):
            if name == "oddsbot.analyser.cli.entry":
                raise KeyboardInterrupt
            return None

    monkeypatch.delitem(sys.modules, "oddsbot.analyser.cli.entry", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Interrupting(), *sys.meta_path])
    with pytest.raises(SystemExit) as leaving:
        cli.console()
    assert leaving.value.code == 130
    assert capsys.readouterr().err == "oddsbot: error: interrupted\n"
