#!/usr/bin/env python
"""Run the notebooks' tests (as `nbdev_test` does) and end with a summary line `N passed, M failed`.

Before running, each notebook file is checked as it is committed: every cell that draws (matplotlib) must hold its
saved image (notebooks are committed executed: `python tools/run_nbs.py NB`); an exported cell defines one function
or class, and a function's cell is at most MAX_EXPORT_LINES lines, directives included (a class is exempt: it stays
whole, in one cell however long, or grows over later cells with fastcore's `@patch`, each method followed by its
test); and no stored output may hold a machine path, a warning or a progress-bar frame. Run on the whole project,
it also checks that README.md is what nbs/index.ipynb gives (`tools/make_readme.py`), that the landing page names
every notebook, that nothing cites files outside the repository, that no module imports a private name from another of
the package's parts (`core`, `worlds`, a paper's package, `datasets`, `eval`: what parts share is public), that no
function takes more than MAX_PARAMETERS parameters (more go into a parameter object, e.g. a config group), and that
ruff finds the sources formatted and clean (`ruff format --check` and `ruff check` over nbs/ and tools/, `ruff check`
over the generated package; pyproject.toml [tool.ruff]). There are no opt-outs.

    python tools/test_nbs.py                 # every notebook, cells flagged `slow`/`gpu` skipped
    python tools/test_nbs.py --flags slow    # also run the cells flagged `slow`
    python tools/test_nbs.py --path nbs/06_worlds.hiershapes.ipynb

Notebooks run `--n_workers` at a time (default 2), each in a fresh process whose torch gets cores / workers threads
(`OMP_NUM_THREADS`, unless it is set).
"""

import argparse, json, multiprocessing, os, re, sys, time, traceback
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("MPLBACKEND", "Agg")


MAX_EXPORT_LINES = 40
MAX_PARAMETERS = 8
_DRAWS = re.compile(r"\bplt\.|\.subplots\(|\bplot_\w+\(")


def _definitions(src: str) -> list[str]:
    "Names of the functions and classes a cell defines at its top level (none where it does not parse)."
    import ast

    body = "\n".join(l for l in src.splitlines() if not l.lstrip().startswith("#|"))
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return []
    return [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]


def _is_class_cell(src: str) -> bool:
    "An exported cell that holds one class and nothing else at the top level: exempt from the line cap."
    import ast

    body = "\n".join(l for l in src.splitlines() if not l.lstrip().startswith("#|"))
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return False
    return len(tree.body) == 1 and isinstance(tree.body[0], ast.ClassDef)


_MACHINE_PATH = re.compile(
    r"(?<![\w.])/(?:work|tmp|root|home|Users|private/var|var/folders)/|[A-Za-z]:\\\\Users\\\\|site-packages"
)
_WARNING = re.compile(r"\b\w*Warning\b:|^\s*warnings\.warn\(", re.M)
_BAR = re.compile(r"\r|\d+%\|[ \u2588-\u258f#]*\||\d+(?:it|s)/(?:s|it)\]")


def output_problems(cell) -> list[str]:
    "What a committed cell's outputs must not hold: machine paths, warnings, progress-bar frames."
    out = []
    for o in cell.get("outputs", []):
        text = (
            "".join(o.get("text", ""))
            + "".join(o.get("data", {}).get("text/plain", ""))
            + "".join(o.get("traceback", []))
        )
        for what, pat in (("a machine path", _MACHINE_PATH), ("a warning", _WARNING), ("a progress bar", _BAR)):
            if (m := pat.search(text)) and what not in " ".join(out):
                out.append(f"output holds {what} ({text[max(0, m.start() - 30) : m.end() + 30].strip()!r})")
    return out


_OUTSIDE = re.compile(r"\bSPEC(?:\s*\d|\.md)|\bDESIGN\.md|\.\./shared\b|\b[Ii]ssue\s+#?\d+")


def outside_references(root: Path) -> list[str]:
    """Places that cite files outside the repository (the team's notes) or its issue tracker: the repository stands
    alone."""
    files = [
        *root.glob("nbs/*.ipynb"),
        *root.glob("argent_nb/**/*.py"),
        *root.glob("argent_nb/*.json"),
        *root.glob("tools/*.py"),
        *root.glob("configs/*.yaml"),
        *root.glob("data/**/*.md"),
        *root.glob("*.md"),
        *root.glob("*.cff"),
    ]
    out = []
    for f in sorted(files):
        if f.resolve() == Path(__file__).resolve():
            continue
        for n, line in enumerate(f.read_text(errors="replace").splitlines(), 1):
            if m := _OUTSIDE.search(line):
                out.append(f"{f.relative_to(root)}:{n}: {m.group(0)!r}")
    return out


def unmapped_notebooks(nbs: Path) -> list[str]:
    "Notebooks the landing page (index.ipynb, the README's source) does not name: it must map every one."
    index = json.loads((nbs / "index.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in index["cells"] if c["cell_type"] == "markdown")
    return [f.stem for f in sorted(nbs.glob("*.ipynb")) if f.stem != "index" and f"`{f.stem}`" not in text]


def private_imports(pkg: Path) -> list[str]:
    """`from X import _name` in a module of the package `pkg` where X lies in another of its parts (the first folder
    under the package, or a top-level module): a private name is its own part's business."""
    import ast

    def part(mod: tuple) -> str:
        return mod[0] if mod else ""

    out = []
    for f in sorted(pkg.rglob("*.py")):
        here = f.relative_to(pkg).with_suffix("").parts
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = here[: len(here) - node.level]  # the package the dots lead to (a module's own folder at level 1)
            target = (*base, *(node.module or "").split(".")) if node.module else base
            private = [a.name for a in node.names if a.name.startswith("_") and not a.name.startswith("__")]
            if private and part(target) != part(here):
                out.append(
                    f"{f.relative_to(pkg.parent)}:{node.lineno}: imports {', '.join(private)} from {'.'.join(target)}"
                )
    return out


def wide_functions(pkg: Path) -> list[str]:
    """Functions of the package `pkg` with more than MAX_PARAMETERS parameters (positional and keyword, not `self` /
    `cls`, not `*args` / `**kwargs`)."""
    import ast

    out = []
    for f in sorted(pkg.rglob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                n = len(names) - (names[:1] in (["self"], ["cls"]))
                if n > MAX_PARAMETERS:
                    out.append(f"{f.relative_to(pkg.parent)}:{node.lineno}: {node.name} takes {n} parameters")
    return out


def ruff_problems(root: Path) -> list[str]:
    "What `ruff format --check` (nbs/, tools/) and `ruff check` (nbs/, tools/, the package) report, one line each."
    import subprocess

    cmds = [["format", "--check", "nbs", "tools"], ["check", "--output-format", "concise", "nbs", "tools", "argent_nb"]]
    out = []
    for args in cmds:
        r = subprocess.run([sys.executable, "-m", "ruff", *args], cwd=root, capture_output=True, text=True)
        if r.returncode:
            out += [l for l in (r.stdout + r.stderr).splitlines() if l.strip() and not l.startswith("Found ")]
    return out


def lint(fn) -> list[str]:
    """Problems of a committed notebook: drawing cells without a saved image, exported cells over MAX_EXPORT_LINES or
    defining more than one function or class."""
    out = []
    for i, c in enumerate(json.loads(Path(fn).read_text())["cells"]):
        if c["cell_type"] != "code":
            continue
        s = "".join(c["source"])
        first = s.lstrip().split("\n", 1)[0]
        n = len(s.splitlines())  # every line counts, directives included
        if first.startswith("#| export") and n > MAX_EXPORT_LINES and not _is_class_cell(s):
            out.append(f"cell {i}: exported cell of {n} lines (> {MAX_EXPORT_LINES}): one function per cell")
        elif first.startswith("#| export") and len(defs := _definitions(s)) > 1:
            out.append(f"cell {i}: exported cell defines {', '.join(defs)}: one function or class per cell")
        elif (
            not first.startswith(("#| export", "#| hide"))
            and _DRAWS.search(s)
            and not any("image/png" in o.get("data", {}) for o in c.get("outputs", []))
        ):
            out.append(
                f"cell {i}: draws but holds no saved figure (execute it: python tools/run_nbs.py {Path(fn).name})"
            )
        out += [f"cell {i}: {pr}" for pr in output_problems(c)]
    return out


def _run(fn, skip_flags, force_flags):
    from nbdev.test import test_nb

    os.chdir(Path(fn).parent)  # nbdev runs each notebook from its own folder
    t0 = time.time()
    try:
        ok, _ = test_nb(Path(fn), skip_flags=skip_flags, force_flags=force_flags, showerr=True, do_print=False)
    except Exception:
        traceback.print_exc()
        ok = False
    return fn, ok, time.time() - t0


def main(argv=None):
    from nbdev.config import get_config

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--path", default=None, help="a notebook or a folder (default: the project's nbs/)")
    p.add_argument("--flags", default="", help="space-separated tst_flags whose cells should run too, e.g. 'slow'")
    p.add_argument("--n_workers", type=int, default=min(2, os.cpu_count() or 1))
    a = p.parse_args(argv)
    cfg = get_config()
    root = Path(a.path) if a.path else Path(cfg.nbs_path)
    files = (
        [root]
        if root.is_file()
        else sorted(
            f
            for f in root.rglob("*.ipynb")
            if not any(part.startswith(("_", ".")) for part in f.relative_to(root).parts)
        )
    )
    if not files:
        sys.exit(f"no notebooks found under {root}")
    skip, force = cfg.tst_flags.split(), a.flags.split()
    unknown = set(force) - set(skip)
    if unknown:
        sys.exit(f"unknown flag(s) {sorted(unknown)}; settings.ini tst_flags are {skip}")
    # each worker's torch gets its share of the cores (unless OMP_NUM_THREADS is set): at torch's default every worker
    # runs one thread per core, the threads of two workers then spin against each other, and on 2 cores the suite took
    # 1.6-1.9x the time and twice the CPU. Processes a notebook starts (CLI runs) inherit the share.
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, cores // min(a.n_workers, len(files)))))
    t0, results = time.time(), []
    # a fresh process per notebook: an executed notebook (IPython) replaces `__main__` in the process that ran it
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=a.n_workers, mp_context=ctx, max_tasks_per_child=1) as ex:
        futs = [ex.submit(_run, str(f.resolve()), skip, force) for f in files]
        for fut in futs:
            fn, ok, dt = fut.result()
            results.append((fn, ok))
            print(f"{'PASS' if ok else 'FAIL'}  {dt:6.1f}s  {Path(fn).name}", flush=True)
    failed = [f for f, ok in results if not ok]
    if a.path is None:  # the whole project: the README is the landing page's output
        import subprocess

        r = subprocess.run(
            [sys.executable, str(Path(__file__).with_name("make_readme.py")), "--check"], capture_output=True, text=True
        )
        if r.returncode:
            print(r.stderr.strip())
            failed.append("README.md")
        if outside := outside_references(Path(cfg.config_path)):
            print("references outside the repository:", *outside[:20], sep="\n  ")
            failed.append("references")
        if missing := unmapped_notebooks(Path(cfg.nbs_path)):
            print(f"index.ipynb: notebooks the landing page does not name: {missing}")
            failed.append("index.ipynb")
        if private := private_imports(Path(cfg.lib_path)):
            print("private names imported across the package's parts:", *private, sep="\n  ")
            failed.append("private imports")
        if wide := wide_functions(Path(cfg.lib_path)):
            print(f"functions over {MAX_PARAMETERS} parameters (give them a parameter object):", *wide, sep="\n  ")
            failed.append("parameters")
        if lint_out := ruff_problems(Path(cfg.config_path)):
            print("ruff (run `ruff format nbs tools` and fix what `ruff check nbs tools argent_nb` reports):")
            print(*lint_out[:40], sep="\n  ")
            failed.append("ruff")
    for f in files:
        problems = lint(f)
        for pr in problems:
            print(f"{f.name}: {pr}")
        if problems and str(f.resolve()) not in failed:
            failed.append(str(f.resolve()))
    for f in failed:
        print(f"failed: {f}")
    print(f"{time.time() - t0:.0f}s for {len(results)} notebooks (flags run: {force or 'none'})")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
