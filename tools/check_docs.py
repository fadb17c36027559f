#!/usr/bin/env python
"""Run the execution step of nbdev's doc tools (`nbdev_docs`, `nbdev_readme`) on notebooks, without Quarto.

The doc tools do not run a notebook top to bottom: they execute only its exported cells, its import cells and its
`show_doc` cells, then hand the result to Quarto. A cell that mixes `import x` with code using a name from a test cell
therefore breaks the docs while `nbdev_test` passes (nbdev warns "Found cells containing imports and other code";
here that warning fails the notebook too: imports sit in their own cells). This runs nbdev's own processing driver (as
`nbdev_proc_nbs` does, one notebook at a time, into a temporary folder) and names each notebook that fails.

    python tools/check_docs.py                 # every notebook
    python tools/check_docs.py nbs/04_core.lorentz.ipynb
"""

import argparse, os, sys, tempfile, warnings
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MPLBACKEND", "Agg")


def main(argv=None):
    from nbdev.processors import FilterDefaults
    from nbdev.serve_drv import main as process

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("notebooks", nargs="*", help="notebooks to check (default: every notebook of nbs/)")
    a = p.parse_args(argv)
    root = Path(__file__).resolve().parent.parent / "nbs"
    if missing := [f for f in a.notebooks if not Path(f).is_file()]:
        p.error(f"no such notebook: {missing[0]}")
    files = [Path(f).resolve() for f in a.notebooks] or sorted(root.glob("[!_.]*.ipynb"))
    failed = []
    with tempfile.TemporaryDirectory() as out:
        for f in files:
            cwd = os.getcwd()
            os.chdir(f.parent)  # as nbdev runs each notebook: from its own folder
            try:
                with warnings.catch_warnings(record=True) as w:
                    warnings.simplefilter("always")
                    process((f, Path(out) / f.name, FilterDefaults))
                mixed = [x for x in w if "containing imports and other code" in str(x.message)]
                if mixed:
                    raise RuntimeError(
                        f"{len(mixed)} cell(s) mix imports with other code, e.g.: "
                        + str(mixed[0].message).split("---")[1].strip().splitlines()[0]
                    )
                print(f"ok    {f.name}", flush=True)
            except Exception as e:
                failed.append(f.name)
                print(f"FAIL  {f.name}: {str(e).strip().splitlines()[-1][:300]}", flush=True)
            finally:
                os.chdir(cwd)
    print(f"{len(files) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
