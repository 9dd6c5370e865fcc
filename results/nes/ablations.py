#!/usr/bin/env python3
"""Which checkpoints see which rule: each ablation changes one rule of the engine in the
source (a text replacement), runs scripts/nes_checkpoints.sh CLONE, reads how many of the 50
capped checkpoints still agree, and puts the source back. Writes results/nes/ablations.md.
Run from the crate root with a clean src/games/nes (it refuses otherwise):
    python3 results/nes/ablations.py CLONE   (a clone of github.com/negative-seven/meta_nestris)"""
import re, subprocess, sys, shutil, os

ABLATIONS = [
    ("right+left+down ends the frame early (quirk removed)", "src/games/nes/gameplay.rs",
     "if self.over() || input == Buttons::RIGHT.with(Buttons::LEFT).with(Buttons::DOWN) {",
     "if self.over() {"),
    ("level screen's two register draws a frame (removed)", "src/games/nes/menus.rs",
     "            for _ in 0..2 {\n                self.rng.step_until",
     "            for _ in 0..0 {\n                self.rng.step_until"),
    ("B-type: the extra empty cell past the blank rows (removed)", "src/games/nes/garbage.rs",
     "* 10 + 1;", "* 10;"),
    ("soft-drop points: plain decimal, no lost ones digit", "src/games/nes/score.rs",
     "            low = (low & 0xF0).wrapping_add(0x60);",
     "            low = low.wrapping_add(0x60);"),
    ("soft drop: first row after 2 frames instead of 3", "src/games/nes/moving.rs",
     "                self.autorepeat_y = 1;\n            }\n        } else if",
     "                self.autorepeat_y = 2;\n            }\n        } else if"),
    ("DAS: repeat every 5 frames instead of 6", "src/games/nes/moving.rs",
     "self.autorepeat_x = 10;", "self.autorepeat_x = 11;"),
    ("line-clear animation: every frame instead of every fourth", "src/games/nes/gameplay.rs",
     "if self.frame_counter == 1 {", "if self.frame_counter < 4 {"),
    ("entry delay: rows drawn at once (no wait by lock height)", "src/games/nes/gameplay.rs",
     "        self.vram_row = self.vram_row.min(top);", "        let _ = top;"),
    ("piece picker: no reroll", "src/games/nes/rng.rs",
     "            Some(o) if o != self.spawn_id => o,", "            Some(o) => o,"),
    ("first piece's entry delay: none instead of 96 frames", "src/games/nes/gameplay.rs",
     "const FIRST_ENTRY_DELAY: i8 = -96;", "const FIRST_ENTRY_DELAY: i8 = 0;"),
    ("level rule: unsigned comparison of level and line digits", "src/games/nes/score.rs",
     "level.wrapping_sub(lines.target_level()) >= 0x80", "level < lines.target_level()"),
    ("row-0 clear moves only the rows above (not the whole page)", "src/games/nes/playfield.rs",
     "let end = if row == 0 { 256 } else", "let end = if row == 0 { 0 } else"),
]


def agree():
    out = subprocess.run(["scripts/nes_checkpoints.sh", sys.argv[1]], capture_output=True, text=True)
    text = open("results/nes/checkpoints.md").read()
    m = re.search(r"(\d+) of (\d+) agree\*\*", text)
    d = re.search(r"listed apart: (\d+) of (\d+) agree", text)
    if not m:
        sys.exit("no agreement line: " + out.stderr[-2000:])
    return m.group(1), m.group(2), d.group(1), d.group(2)


def main():
    if subprocess.run(["git", "diff", "--quiet", "--", "src/games/nes", "results/nes/checkpoints.md"]).returncode:
        sys.exit("src/games/nes or results/nes/checkpoints.md has changes: commit them first")
    rows = []
    for name, path, old, new in ABLATIONS:
        src = open(path).read()
        if src.count(old) != 1:
            sys.exit(f"{name}: the text to replace is not once in {path}")
        shutil.copy(path, path + ".orig")
        try:
            open(path, "w").write(src.replace(old, new))
            rows.append((name,) + agree())
        finally:
            shutil.move(path + ".orig", path)
        print(rows[-1], flush=True)
    base = agree()
    with open("results/nes/ablations.md", "w") as f:
        f.write("# NES Tetris: which checkpoints see which rule\n\n")
        f.write("Command: `python3 results/nes/ablations.py` (each row changes one rule in the "
                "source, replays all 29 movies with `scripts/nes_checkpoints.sh CLONE`, and puts "
                "the source back). A rule whose change leaves every checkpoint agreeing is not "
                "checked by the movies (only by unit tests, or not at all).\n\n")
        f.write(f"Engine as committed: {base[0]} of {base[1]} capped checkpoints agree "
                f"(and {base[2]} of {base[3]} uncapped entries read as capped scores).\n\n")
        f.write("| rule changed | capped checkpoints agreeing | uncapped-as-capped agreeing |\n")
        f.write("| --- | ---: | ---: |\n")
        for name, a, n, da, dn in rows:
            f.write(f"| {name} | {a} of {n} | {da} of {dn} |\n")


main()
