#!/usr/bin/env python
"""Regenerate the `standard` fixture: tiny files in the on-disk formats of the standard zero-shot and retrieval sets
(`argent_nb.datasets.standard`), every image a solid colour (with seeded noise) named in its class or captions, so
that a colour-reading model scores exactly 1.

    imagenet/val/<wnid>/*.JPEG                 ImageNet-1k val as class folders (clip-benchmark `imagenet1k-unverified`)
    zeroshot/cifar10/test/<class name>/*.png   a suite dataset whose folders are its class names
    zeroshot/eurosat/test/<k>/*.png            a suite dataset with numbered folders + classnames.txt
    coco/dataset_coco.json                     Karpathy split json (6 test images x 5 captions, 1 train image)
    coco/coco_test_karpathy.json               the same test images as a COCO-captions json (clip-benchmark `mscoco_captions`)
    coco/val2014/COCO_val2014_<id:012d>.jpg
    flickr30k/dataset_flickr30k.json           Karpathy split json (6 test images x 5 captions, 1 val image)
    flickr30k/flickr30k_test_karpathy.txt      the same test images in clip-benchmark's `flickr30k` text format
    flickr30k/flickr30k_images/<id>.jpg

    python data/standard/make_fixture.py                 # rewrite the fixture in this folder
    python data/standard/make_fixture.py --out /tmp/x    # write it elsewhere (the notebook compares the two)
"""
import argparse, json
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ImageNet: (wnid, clip-benchmark class name, colour)
IMAGENET = [("n01440764", "tench", (200, 30, 30)), ("n01443537", "goldfish", (30, 160, 40)),
            ("n01484850", "great white shark", (40, 60, 200))]
# suite datasets: (folder, class name, colour); eurosat's folders are numbers, its names come from classnames.txt
CIFAR10 = [("airplane", "airplane", (230, 230, 40)), ("automobile", "automobile", (40, 220, 220)), ("bird", "bird", (210, 40, 210))]
EUROSAT = [("0", "forest", (120, 60, 10)), ("1", "river", (250, 140, 0)), ("2", "highway or road", (128, 128, 128))]
# retrieval: (image id, colour word, colour); 5 captions per image, each naming its colour word
COCO = [(391895, "crimson", (160, 0, 40)), (522418, "amber", (255, 190, 0)), (184613, "olive", (110, 110, 0)),
        (318219, "teal", (0, 120, 120)), (554625, "indigo", (70, 0, 130)), (397133, "magenta", (255, 0, 255))]
COCO_TRAIN = (9, "ivory", (255, 250, 235))
FLICKR = [(1000092795, "scarlet", (255, 36, 0)), (10002456, "navy", (0, 0, 110)), (1000268201, "lime", (150, 255, 0)),
          (1000344755, "maroon", (100, 0, 0)), (1000366164, "cyan", (0, 255, 255)), (1000523639, "coral", (255, 127, 80))]
FLICKR_VAL = (1001465944, "khaki", (195, 176, 145))
SCENES = ["A {} kite flies over the beach.", "Two people stand next to a {} car.", "A {} umbrella in the rain.",
          "A dog plays with a {} ball on the grass.", "The {} door of an old house."]


def _image(rgb, seed: int, size=(20, 16)):
    import numpy as np
    from PIL import Image
    noise = np.random.default_rng(seed).integers(-6, 7, size=(size[1], size[0], 3))
    return Image.fromarray(np.clip(np.array(rgb)[None, None] + noise, 0, 255).astype(np.uint8))


def _classes(root: Path, classes, ext: str, seed: int, per_class: int = 2):
    for k, (folder, _, rgb) in enumerate(classes):
        (root / folder).mkdir(parents=True, exist_ok=True)
        for j in range(per_class):
            _image(rgb, seed + 10 * k + j).save(root / folder / f"img_{j}{ext}", **({"quality": 95} if ext.lower() in (".jpeg", ".jpg") else {}))


def _captions(word: str) -> list[str]:
    return [s.format(word) for s in SCENES]


def _coco(out: Path):
    d = out / "coco"; (d / "val2014").mkdir(parents=True, exist_ok=True)
    images, sent = [], 0
    for k, (iid, word, rgb) in enumerate([*COCO, COCO_TRAIN]):
        name = f"COCO_val2014_{iid:012d}.jpg"
        _image(rgb, 100 + k).save(d / "val2014" / name, quality=95)
        sents = [{"raw": c, "tokens": c.lower().rstrip(".").split(), "imgid": k, "sentid": sent + j} for j, c in enumerate(_captions(word))]
        images.append({"filepath": "val2014", "sentids": [s["sentid"] for s in sents], "filename": name, "imgid": k,
                       "split": "train" if iid == COCO_TRAIN[0] else "test", "sentences": sents, "cocoid": iid})
        sent += len(sents)
    (d / "dataset_coco.json").write_text(json.dumps({"images": images, "dataset": "coco"}) + "\n")
    anns = [{"image_id": iid, "id": 1000 * iid + j, "caption": c} for iid, w, _ in COCO for j, c in enumerate(_captions(w))]
    cc = {"images": [{"id": iid, "file_name": f"COCO_val2014_{iid:012d}.jpg"} for iid, _, _ in COCO], "annotations": anns}
    (d / "coco_test_karpathy.json").write_text(json.dumps(cc) + "\n")


def _flickr(out: Path):
    d = out / "flickr30k"; (d / "flickr30k_images").mkdir(parents=True, exist_ok=True)
    images, sent, lines = [], 0, ["image,caption"]
    for k, (iid, word, rgb) in enumerate([*FLICKR, FLICKR_VAL]):
        name = f"{iid}.jpg"
        _image(rgb, 200 + k).save(d / "flickr30k_images" / name, quality=95)
        caps = _captions(word)
        sents = [{"raw": c, "tokens": c.lower().rstrip(".").split(), "imgid": k, "sentid": sent + j} for j, c in enumerate(caps)]
        split = "val" if iid == FLICKR_VAL[0] else "test"
        images.append({"sentids": [s["sentid"] for s in sents], "imgid": k, "sentences": sents, "split": split, "filename": name})
        sent += len(sents)
        if split == "test": lines += [f"{name},{c}" for c in caps]
    (d / "dataset_flickr30k.json").write_text(json.dumps({"images": images, "dataset": "flickr30k"}) + "\n")
    (d / "flickr30k_test_karpathy.txt").write_text("\n".join(lines) + "\n")


def make(out: Path) -> Path:
    "Write the fixture under `out`; returns `out`."
    out = Path(out)
    _classes(out / "imagenet" / "val", IMAGENET, ".JPEG", seed=0)
    _classes(out / "zeroshot" / "cifar10" / "test", CIFAR10, ".png", seed=40)
    _classes(out / "zeroshot" / "eurosat" / "test", EUROSAT, ".png", seed=70)
    (out / "zeroshot" / "eurosat" / "classnames.txt").write_text("".join(f"{n}\n" for _, n, _ in EUROSAT))
    _coco(out); _flickr(out)
    return out


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default=str(HERE))
    print(make(Path(p.parse_args().out)))
