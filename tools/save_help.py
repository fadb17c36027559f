#!/usr/bin/env python
"""Write the `--help` texts of the two command lines into the package (argent_nb/help.json), from which
`python -m argent_nb.train --help` and `python -m argent_nb.evaluate --help` answer before torch is imported.
Run it after changing a config key, a default, a doc string of a key or an option; the tests of 50_train and
51_evaluate fail while the saved text differs from the live one.

    python tools/save_help.py
"""

from argent_nb.core.registry import help_text, save_help
from argent_nb.evaluate import evaluate_parser
from argent_nb.train import train_parser

if __name__ == "__main__":
    save_help({"train": help_text(train_parser()), "evaluate": help_text(evaluate_parser())})
    print("wrote argent_nb/help.json")
