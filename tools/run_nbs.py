#!/usr/bin/env python
"""Execute notebooks top to bottom and save them with their outputs (figures, printed results), as they are committed.

    python tools/run_nbs.py nbs/02_core.geometry.ipynb nbs/04_core.lorentz.ipynb
    python tools/run_nbs.py --flags slow nbs/50_train.ipynb     # also run the cells flagged `slow`
    python tools/run_nbs.py --cells 1a2b3c4d nbs/06c_worlds.learnability.ipynb  # and this cell (id; repeatable)

Cells carrying a `tst_flags` flag (settings.ini: slow, gpu) that is not asked for, and `#| eval: false` cells, keep the
outputs they had. `--cells` runs the cells of those ids too (e.g. a new `slow` cell whose inputs exist here while the
notebook's other slow cells need runs this machine does not have; what it uses must come from unflagged cells). Each
notebook runs in its own folder (as `nbdev_test` runs it) with HF_HUB_OFFLINE=1 and the Agg backend; a failing cell
stops the notebook, which is then left untouched. Run `nbdev_clean` afterwards (it keeps
outputs, drops metadata).
"""

import argparse, os, re, sys, time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"  # always: an inherited Agg would save no figures


def _flags(src: str) -> set:
    "The nbdev directives of a cell (`#| slow` -> 'slow')."
    return {m.group(1) for line in src.splitlines() if (m := re.fullmatch(r"#\|\s*(\w+)", line.strip()))}


# nbdev's `#| eval: false`: never executed (e.g. `if __name__ == ...`)
_NO_EVAL = re.compile(r"^#\|\s*eval:\s*false", re.M)


def run(path: Path, skip: set, timeout: int, cells: frozenset = frozenset()) -> float:
    import nbformat
    from nbconvert.preprocessors import ExecutePreprocessor

    class _Skipping(ExecutePreprocessor):
        def preprocess_cell(self, cell, resources, index):
            skipped = _flags(cell.source) & skip and cell.get("id") not in cells
            if cell.cell_type == "code" and (skipped or _NO_EVAL.search(cell.source)):
                return cell, resources
            return super().preprocess_cell(cell, resources, index)

    nb = nbformat.read(path, as_version=4)
    t0 = time.time()
    _Skipping(timeout=timeout, kernel_name="python3").preprocess(nb, {"metadata": {"path": str(path.parent)}})
    nbformat.write(nb, path)
    return time.time() - t0


def main(argv=None):
    from nbdev.config import get_config

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="+", help="notebooks to execute in place")
    p.add_argument("--flags", default="", help="space-separated tst_flags whose cells should run too, e.g. 'slow'")
    p.add_argument("--cells", action="append", default=[], help="id of a cell to run whatever its flags (repeatable)")
    p.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    a = p.parse_args(argv)
    skip = set(get_config().tst_flags.split()) - set(a.flags.split())
    failed = []
    for f in map(Path, a.paths):
        try:
            print(
                f"ran   {time.strftime('%H:%M:%S')} {run(f, skip, a.timeout, frozenset(a.cells)):6.1f}s  {f}",
                flush=True,
            )
        except Exception as e:
            failed.append(f)
            print(f"FAILED {f}: {str(e)[-2000:]}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
