#!/usr/bin/env python
"""Write the compositional-benchmark fixtures of `argent_nb.datasets.compositional` (nbs/76_datasets.compositional.ipynb).

Tiny datasets in the exact published formats (see data/compositional/README.md), with made-up captions and made-up
images (small PNGs / JPEGs of coloured rectangles):

    aro/visual_genome_relation.json, aro/visual_genome_attribution.json + aro/images/*.jpg
    valse/<11 instrument files>.json + valse/images/*.jpg
    vlchecklist/corpus/<Type>/.../*.yaml (ANNO_PATH, IMG_ROOT, TYPE) + vlchecklist/anno/*.json + vlchecklist/images/*.png
    sugarcrepe/<7 files>.json + sugarcrepe/images/*.jpg

Deterministic: run it from anywhere (`python data/compositional/make_fixtures.py`); it rewrites the folders above.
"""
import json, shutil
from pathlib import Path
import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent
COLOURS = [(200, 30, 30), (30, 160, 40), (30, 60, 200), (220, 200, 40), (150, 60, 170), (240, 140, 20)]


def image(path: Path, k: int, size=(48, 40)):
    "A `size` image: white, one rectangle of colour k and a smaller one of colour k+1."
    a = np.full((size[1], size[0], 3), 255, np.uint8)
    a[4:20, 6:26] = COLOURS[k % len(COLOURS)]
    a[22:36, 28:44] = COLOURS[(k + 1) % len(COLOURS)]
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(a).save(path, quality=95) if path.suffix == ".jpg" else Image.fromarray(a).save(path)


def dump(path: Path, obj):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(obj, indent=1) + "\n")


def aro():
    d = HERE / "aro"
    for k in range(3): image(d / "images" / f"23{k}0001.jpg", k)
    rel = [("on", "the cup is on the table", "the table is on the cup"),
           ("on", "the book is on the shelf", "the shelf is on the book"),
           ("on", "the cat is on the mat", "the mat is on the cat"),
           ("behind", "the tree is behind the house", "the house is behind the tree"),
           ("behind", "the man is behind the car", "the car is behind the man"),
           ("sitting near", "the dog is sitting near the boy", "the boy is sitting near the dog")]   # symmetric: dropped
    dump(d / "visual_genome_relation.json", [
        dict(image_path=f"23{i % 3}0001.jpg", question_id=100 + i, relation_name=r, bbox_x=2 + i, bbox_y=1, bbox_w=30,
             bbox_h=28 + (i % 3), true_caption=t, false_caption=f) for i, (r, t, f) in enumerate(rel)])
    att = [(["red", "wooden"], "the red chair and the wooden table", "the wooden chair and the red table")] * 25 \
        + [(["white", "small"], "the white dog and the small cat", "the small dog and the white cat")] * 3
    dump(d / "visual_genome_attribution.json", [
        dict(image_path=f"23{i % 3}0001.jpg", question_id=200 + i, attributes=a, obj1_name="x", obj2_name="y",
             bbox_x=i % 10, bbox_y=i % 5, bbox_w=30 + i % 8, bbox_h=20 + i % 6, true_caption=t, false_caption=f)
        for i, (a, t, f) in enumerate(att)])


VALSE = ["existence", "plurals", "counting-hard", "counting-small-quant", "counting-adversarial", "relations",
         "action-replacement", "actant-swap", "coreference-standard", "coreference-hard", "foil-it"]


def valse():
    d = HERE / "valse"
    for k in range(3): image(d / "images" / f"v7w_{k + 1}.jpg", k + 2)
    for j, name in enumerate(VALSE):
        items = {}
        for i in range(3 if j % 2 == 0 else 2):
            votes = 1 if (i == 1 and j % 3 == 0) else 2 + (i % 2)          # some items fail the mturk filter
            items[f"{name}_{i}"] = dict(
                dataset="visual7w", original_split="test", dataset_idx=f"v7w_{i + 1}", linguistic_phenomena=name.split("-")[0],
                image_file=f"v7w_{i + 1}.jpg", caption=f"there are {i + 2} red boxes ({name})",
                classes=None, classes_foil=None, foil=f"there are {i + 5} green boxes ({name})",
                mturk=dict(foil=3 - votes, caption=votes, other=0))
        dump(d / f"{name}.json", items)


# (yaml path under corpus/, TYPE, annotation file, number of items)
VLC = [("Object/Location/vg_location.yaml", "Object", "object_location_vg.json", 3),
       ("Object/Size/vg_size.yaml", "Object", "object_size_vg.json", 2),
       ("Attribute/vaw/action.yaml", "Attribute", "attribute_action_vaw.json", 2),
       ("Attribute/vaw/color.yaml", "Attribute", "attribute_color_vaw.json", 3),
       ("Attribute/vg/color.yaml", "Attribute", "attribute_color_vg.json", 2),
       ("Attribute/vaw/material.yaml", "Attribute", "attribute_material_vaw.json", 2),
       ("Attribute/vaw/size.yaml", "Attribute", "attribute_size_vaw.json", 2),
       ("Attribute/vaw/state.yaml", "Attribute", "attribute_state_vaw.json", 2),
       ("Relation/action/hake.yaml", "Relation", "relation_action_hake.json", 2),
       ("Relation/spatial/vg.yaml", "Relation", "relation_spatial_vg.json", 4)]


def vlchecklist():
    d = HERE / "vlchecklist"
    for k in range(3): image(d / "images" / "VG_100K" / f"{k + 10}.png", k + 4)
    for y, typ, anno, n in VLC:
        (d / "corpus" / y).parent.mkdir(parents=True, exist_ok=True)
        (d / "corpus" / y).write_text(f"ANNO_PATH: anno/{anno}\nIMG_ROOT: images\nTYPE: {typ}\n")
        stem = anno[:-5].replace("_", " ")
        dump(d / "anno" / anno, [[f"VG_100K/{10 + i % 3}.png", {"POS": [f"a {stem} scene {i}"], "NEG": [f"a wrong {stem} scene {i}"]}]
                                 for i in range(n)])


SUGAR = ["add_att", "add_obj", "replace_att", "replace_obj", "replace_rel", "swap_att", "swap_obj"]


def sugarcrepe():
    d = HERE / "sugarcrepe"
    for k in range(3): image(d / "images" / f"00000000013{k}.jpg", k + 1)
    for j, name in enumerate(SUGAR):
        dump(d / f"{name}.json", {str(i): dict(filename=f"00000000013{(i + j) % 3}.jpg", caption=f"a {name} caption {i}",
                                               negative_caption=f"a {name} foil {i}") for i in range(2 + j % 2)})


if __name__ == "__main__":
    for sub in ("aro", "valse", "vlchecklist", "sugarcrepe"): shutil.rmtree(HERE / sub, ignore_errors=True)
    aro(); valse(); vlchecklist(); sugarcrepe()
