#!/usr/bin/env python3
"""Runs the README's tour commands that take under a minute and compares each figure they
print with the figure the README gives next to them.

    python3 scripts/readme_figures.py [BINARY]

BINARY defaults to target/release/beamtris, else target/debug/beamtris. The commands run in a
scratch folder that links seeds/, tests/ and results/ of this checkout, so their `runs/` is
new each time and nothing of the checkout is written. Each check names the README's command
(which must appear in README.md as written) and the figure (which must appear there too); the
figure the command prints must be the same. Exit code 1 on any difference, with one line per
difference.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def digits(text):
    """A figure without its thousands spaces: '1 431 886' and '1431886' compare equal."""
    return re.sub(r"(?<=\d)[ \u202f](?=\d)", "", text)


def readme_text():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        # Lines joined, so a figure wrapped across two lines is found.
        return " ".join(line.strip() for line in f)


class Run:
    def __init__(self, binary, folder):
        self.binary = binary
        self.folder = folder

    def __call__(self, command):
        """Runs a README command line (`beamtris ...`); gives stdout and stderr together."""
        words = command.split()
        assert words[0] == "beamtris", command
        out = subprocess.run(
            [self.binary] + words[1:],
            cwd=self.folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if out.returncode != 0:
            raise RuntimeError(f"{command}: exit {out.returncode}: {out.stderr.strip()}")
        return out.stdout + out.stderr

    def json(self, path):
        with open(os.path.join(self.folder, path), encoding="utf-8") as f:
            return json.load(f)


def tetrio_seed_42(run):
    out = run("beamtris solve --tetrio-seed 42 --beam 200")
    m = re.search(r"(\d+) attack \(verified by replay\)", out)
    return {"`1339 attack (verified by replay)`": f"`{m.group(1)} attack (verified by replay)`"}


def forty_lines(run):
    run("beamtris import tests/data/tetrio/40l.ttr --out runs/40l-player")
    run("beamtris solve --seed runs/40l-player/r1-zbrachinara.json --out runs/40l.json")
    run("beamtris export runs/40l.txt --pps 1.99 --out runs/40l.ttr")
    run("beamtris import runs/40l.ttr --out runs/40l-back")
    s = run.json("runs/40l-back/r1-beamtris.json")["tetrio"]["import"]["tetrio_stats"]
    p = run.json("runs/40l-player/r1-zbrachinara.json")["tetrio"]["import"]["tetrio_stats"]
    return {
        "takes 100 pieces": f"takes {s['piecesplaced']} pieces",
        "250 inputs, 0 finesse faults and 50.275 s": (
            f"{s['inputs']} inputs, {s['finesse']['faults']} finesse faults and "
            f"{s['finalTime'] / 1000:.3f} s"
        ),
        "the player took 102 pieces, 339 inputs (39 faults) and 51.358 s": (
            f"the player took {p['piecesplaced']} pieces, {p['inputs']} inputs "
            f"({p['finesse']['faults']} faults) and {p['finalTime'] / 1000:.3f} s"
        ),
    }


def nes_import(run):
    out = run(
        "beamtris import tests/data/nes/a_type_999999_score/tasvideos_4853m.fm2 --at 10462,10463"
    )
    frames = [json.loads(line) for line in out.splitlines() if line.startswith('{"frame"')]
    last = frames[-1]
    return {
        "988 831 then 999 999": (
            f"{frames[0]['score']:,} then {last['score']:,}".replace(",", " ")
        ),
    }


CHECKS = [
    ("beamtris solve --tetrio-seed 42 --beam 200", tetrio_seed_42),
    ("beamtris export runs/40l.txt --pps 1.99 --out runs/40l.ttr", forty_lines),
    (
        "beamtris import tests/data/nes/a_type_999999_score/tasvideos_4853m.fm2 --at 10462,10463",
        nes_import,
    ),
]


def main():
    if len(sys.argv) > 1:
        binary = os.path.abspath(sys.argv[1])
    else:
        binary = next(
            (
                os.path.join(ROOT, "target", p, "beamtris")
                for p in ("release", "debug")
                if os.path.isfile(os.path.join(ROOT, "target", p, "beamtris"))
            ),
            None,
        )
    if not binary or not os.path.isfile(binary):
        print("readme_figures: no beamtris binary (build it, or give its path)", file=sys.stderr)
        return 2
    readme = digits(readme_text())
    folder = tempfile.mkdtemp(prefix="beamtris-readme-")
    for name in ("seeds", "tests", "results"):
        os.symlink(os.path.join(ROOT, name), os.path.join(folder, name))
    run = Run(binary, folder)
    wrong = 0
    checked = 0
    try:
        for command, check in CHECKS:
            if command not in readme:
                print(f"readme_figures: README.md does not show the command `{command}`")
                wrong += 1
                continue
            for said, printed in check(run).items():
                checked += 1
                if digits(said) not in readme:
                    print(f"readme_figures: README.md does not say {said!r} (`{command}`)")
                    wrong += 1
                elif digits(said) != digits(printed):
                    print(
                        f"readme_figures: README.md says {said!r}, `{command}` gives {printed!r}"
                    )
                    wrong += 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"readme_figures: {checked - wrong} of {checked} figures as the README gives them")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
