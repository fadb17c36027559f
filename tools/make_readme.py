#!/usr/bin/env python
"""Write README.md from nbs/index.ipynb, the landing page (settings.ini: readme_nb).

nbdev's own `nbdev_readme` renders through Quarto; this writes the same content without it: markdown cells as they
are, code cells (not `#| hide`) as Python blocks followed by their text output, so the README's code is code the
test suite ran; a `#| echo: false` cell gives its output alone (a displayed `Markdown` as markdown). Edit the notebook,
execute it (`python tools/run_nbs.py nbs/index.ipynb`), then run this.

    python tools/make_readme.py           # write README.md
    python tools/make_readme.py --check   # exit 1 if README.md is not what the notebook gives (tools/test_nbs.py runs
    it)
"""

import argparse, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HEADER = "<!-- Generated from nbs/index.ipynb by tools/make_readme.py: edit the notebook, not this file. -->\n\n"
_DIRECTIVE = re.compile(r"^\s*#\|")


def _markdown_outputs(cell) -> str:
    "The markdown a code cell displayed (`IPython.display.Markdown`), as it is."
    return "\n\n".join(
        "".join(o["data"]["text/markdown"]).strip()
        for o in cell.get("outputs", [])
        if o["output_type"] in ("execute_result", "display_data") and "text/markdown" in o.get("data", {})
    )


def _text_outputs(cell) -> str:
    "The text a code cell showed: its stdout and its last value (no stderr, no images)."
    out = []
    for o in cell.get("outputs", []):
        if o["output_type"] == "stream" and o.get("name") == "stdout":
            out.append("".join(o["text"]))
        elif (
            o["output_type"] in ("execute_result", "display_data")
            and "text/plain" in o.get("data", {})
            and not any(k.startswith("image/") for k in o["data"])
        ):
            out.append("".join(o["data"]["text/plain"]) + "\n")
    return "".join(out).rstrip("\n")


def render(nb_path: Path) -> str:
    "README text of a notebook: markdown cells verbatim, shown code cells with their text output."
    parts = []
    for c in json.loads(nb_path.read_text())["cells"]:
        src = "".join(c["source"]).strip("\n")
        if c["cell_type"] == "markdown":
            parts.append(src)
        elif c["cell_type"] == "code":
            lines = src.splitlines()
            if any(re.match(r"^\s*#\|\s*hide\b", l) for l in lines):
                continue
            if any(re.match(r"^\s*#\|\s*echo:\s*false\b", l) for l in lines):  # the output alone: markdown as markdown
                if md := _markdown_outputs(c):
                    parts.append(md)
                elif out := _text_outputs(c):
                    parts.append(f"```\n{out}\n```")
                continue
            code = "\n".join(l for l in lines if not _DIRECTIVE.match(l)).strip("\n")
            if not code:
                continue
            parts.append(f"```python\n{code}\n```")
            if out := _text_outputs(c):
                parts.append(f"```\n{out}\n```")
    return HEADER + "\n\n".join(parts) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--check", action="store_true", help="only check that README.md is up to date")
    a = p.parse_args(argv)
    text, readme = render(ROOT / "nbs" / "index.ipynb"), ROOT / "README.md"
    if a.check:
        if not readme.exists() or readme.read_text() != text:
            sys.exit(
                "README.md is not what nbs/index.ipynb gives: edit the notebook, then run python tools/make_readme.py"
            )
        return
    readme.write_text(text)


if __name__ == "__main__":
    main()
