#!/usr/bin/env python
"""Regenerate the `coco_hn` fixture: a CE-CLIP training file `processed_dataset0.jsonl` in the project's format (JSON
lines, written by `argent_nb.ceclip.negatives.cache_negatives`), the same records in CE-CLIP's release format
`release/processed_dataset0.npy` (`np.save` of an object array of dicts, a pickle: read only with the opt-in, or
converted), both made by `argent_nb.ceclip.negatives.generate_negatives` from a handful of COCO-like captions with the
offline lexicon tagger and `VocabularyFiller`, and one tiny JPEG per image, `train2014/COCO_train2014_{image_id:012d}.jpg`.

    python data/coco_hn/make_fixture.py                 # rewrite the fixture in this folder
    python data/coco_hn/make_fixture.py --out /tmp/x    # write it elsewhere (the notebook compares the two)
"""
import argparse
from pathlib import Path

HERE = Path(__file__).resolve().parent
# (image_id, annotation id, caption): COCO-like captions, two per image, written for this fixture
CAPTIONS = [(9, 101, "A young man throws a red frisbee to a dog in the park."),
            (9, 102, "A dog catches a frisbee on the grass."),
            (25, 103, "A giraffe eating leaves from a tall tree."),
            (25, 104, "Two giraffes standing next to a tree in a field."),
            (30, 105, "A white plate with pizza on a wooden table."),
            (30, 106, "A table with a plate and a cup.")]
LEXICON = {**{w: "NOUN" for w in "man dog frisbee park grass giraffe giraffes leaves tree field plate pizza table cup".split()},
           **{w: "ADJ" for w in "young red tall white wooden".split()},
           **{w: "VERB" for w in "throws catches eating standing".split()}}
LEMMAS = {"giraffes": "giraffe", "leaves": "leaf", "throws": "throw", "catches": "catch", "eating": "eat", "standing": "stand"}
COLOURS = {9: (200, 60, 40), 25: (220, 180, 60), 30: (90, 140, 200)}


def make(out: Path) -> Path:
    "Write the fixture under `out`; returns the path of its training file."
    import numpy as np
    from PIL import Image
    from argent_nb.ceclip.negatives import (SpacyTagger, VocabularyFiller, cache_negatives, generate_negatives,
                                            lexicon_pipeline)
    out = Path(out); (out / "train2014").mkdir(parents=True, exist_ok=True)
    target, release = out / "processed_dataset0.jsonl", out / "release" / "processed_dataset0.npy"
    for f in (target, release):
        if f.exists(): f.unlink()                            # regenerate, never reuse
    tagger = SpacyTagger(lexicon_pipeline(LEXICON, LEMMAS))
    caps, image_ids, ids = [c for _, _, c in CAPTIONS], [i for i, _, _ in CAPTIONS], [a for _, a, _ in CAPTIONS]
    filler = VocabularyFiller(caps, tagger, seed=0)
    cache_negatives(caps, image_ids, out, tagger, filler, ids=ids, seed=0)
    records = generate_negatives(caps, tagger, filler, image_ids=image_ids, ids=ids, seed=0)
    arr = np.empty(len(records), dtype=object); arr[:] = records   # the release's writer: np.save of an object array
    release.parent.mkdir(exist_ok=True)
    with open(release, "wb") as f: np.save(f, arr)
    for image_id, rgb in COLOURS.items():
        im = np.zeros((12, 16, 3), np.uint8) + np.array(rgb, np.uint8)
        im[3:9, 4:12] = 255 - np.array(rgb, np.uint8)
        Image.fromarray(im).save(out / "train2014" / f"COCO_train2014_{image_id:012d}.jpg", quality=90)
    return target


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=str(HERE))
    print(make(Path(p.parse_args().out)))
