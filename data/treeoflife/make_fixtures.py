#!/usr/bin/env python
"""Write the tree-of-life fixtures of `argent_nb.datasets.treeoflife` (nbs/75_datasets.treeoflife.ipynb).

Four tiny datasets in the exact published formats (see data/README.md), over real taxa with made-up ids, made-up
images (8x8 JPEGs of one colour per species, a shade per image) and made-up iNat ids:

    tol/train_folders/image_metadata.csv + tol/train_folders/{NNNNNN}_{Kingdom}_..._{Genus}_{epithet}/{uuid}.jpg
    inat21/val.json + inat21/val/{NNNNN}_{Kingdom}_..._{epithet}/{uuid}.jpg
    inat21/hier_retrieval.csv      (img_fn, captions: 7 rank texts joined by " => ", images of inat21/val)
    rare/metadata.csv + rare/dataset/{Kingdom}_..._{epithet}/{content}_{page}_eol_full-size-copy.jpg

Deterministic: run it from anywhere (`python data/treeoflife/make_fixtures.py`); it rewrites the folders above.
"""
import csv, json, shutil, uuid
from pathlib import Path
import numpy as np
from PIL import Image

HERE = Path(__file__).resolve().parent

# (kingdom, phylum, class, order, family, genus, epithet, common name): real taxa, ITIS / iNat-style ranks
SPECIES = [
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "leo", "lion"),
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "tigris", "tiger"),
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Felis", "catus", "domestic cat"),
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Canidae", "Canis", "lupus", "gray wolf"),
    ("Animalia", "Chordata", "Mammalia", "Carnivora", "Canidae", "Vulpes", "vulpes", "red fox"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Passeridae", "Passer", "domesticus", "house sparrow"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Passeridae", "Passer", "montanus", "Eurasian tree sparrow"),
    ("Animalia", "Chordata", "Aves", "Passeriformes", "Corvidae", "Corvus", "corax", "common raven"),
    ("Animalia", "Arthropoda", "Insecta", "Lepidoptera", "Nymphalidae", "Danaus", "plexippus", "monarch"),
    ("Animalia", "Mollusca", "Cephalopoda", "Octopoda", "Octopodidae", "Octopus", "vulgaris", "common octopus"),
    ("Plantae", "Tracheophyta", "Magnoliopsida", "Fagales", "Fagaceae", "Quercus", "robur", "English oak"),
    ("Plantae", "Tracheophyta", "Magnoliopsida", "Fagales", "Fagaceae", "Quercus", "alba", "white oak"),
    ("Plantae", "Tracheophyta", "Magnoliopsida", "Rosales", "Rosaceae", "Rosa", "canina", "dog rose"),
    ("Plantae", "Tracheophyta", "Pinopsida", "Pinales", "Pinaceae", "Pinus", "sylvestris", "Scots pine"),
    ("Fungi", "Basidiomycota", "Agaricomycetes", "Agaricales", "Amanitaceae", "Amanita", "muscaria", "fly agaric"),
]
BY_NAME = {f"{s[5]} {s[6]}": s for s in SPECIES}

# TreeOfLife train split: species -> number of images (the octopus is left out)
TOL = {"Panthera leo": 3, "Panthera tigris": 2, "Felis catus": 2, "Canis lupus": 2, "Vulpes vulpes": 1,
       "Passer domesticus": 2, "Passer montanus": 1, "Corvus corax": 1, "Danaus plexippus": 2, "Quercus robur": 3,
       "Quercus alba": 1, "Rosa canina": 1, "Pinus sylvestris": 1, "Amanita muscaria": 2}
TOL_SOURCES = ("EOL", "iNat21", "BIOSCAN")
# iNat21 val: species -> number of images
INAT = {"Panthera leo": 2, "Felis catus": 1, "Canis lupus": 2, "Passer domesticus": 1, "Corvus corax": 1,
        "Octopus vulgaris": 1, "Danaus plexippus": 2, "Quercus robur": 1, "Rosa canina": 1, "Amanita muscaria": 1}
# BioCLIP-Rare: IUCN Red List animals (two phyla), 1-2 images each
RARE = [("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "tigris", "tiger", 2),
        ("Animalia", "Chordata", "Mammalia", "Carnivora", "Felidae", "Panthera", "onca", "jaguar", 1),
        ("Animalia", "Chordata", "Mammalia", "Primates", "Hominidae", "Gorilla", "gorilla", "western gorilla", 2),
        ("Animalia", "Chordata", "Reptilia", "Testudines", "Cheloniidae", "Chelonia", "mydas", "green sea turtle", 1),
        ("Animalia", "Chordata", "Aves", "Accipitriformes", "Accipitridae", "Aquila", "heliaca",
         "eastern imperial eagle", 1),
        ("Animalia", "Cnidaria", "Anthozoa", "Scleractinia", "Acroporidae", "Acropora", "palmata", "elkhorn coral", 2)]


def colour(k: int, n: int, j: int) -> tuple:
    "RGB of image j of species k (of n): one hue per species, darker for later images."
    import colorsys
    r, g, b = colorsys.hsv_to_rgb(k / n, 0.8, 0.95 - 0.2 * j)
    return tuple(int(round(255 * v)) for v in (r, g, b))


def write_jpeg(path: Path, rgb: tuple):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), rgb).save(path, format="JPEG", quality=95)


def make_tol(rng):
    root = HERE / "tol" / "train_folders"
    shutil.rmtree(HERE / "tol", ignore_errors=True)
    rows, folders = [], {}
    for name, m in TOL.items():
        s = BY_NAME[name]
        folder = folders.setdefault(name, f"{len(folders) + 1:06d}_" + "_".join(s[:7]))
        for j in range(m):
            gid = str(uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)), version=4))
            write_jpeg(root / folder / f"{gid}.jpg", colour(SPECIES.index(s), len(SPECIES), j))
            rows.append([gid, folder, f"{gid}.jpg", TOL_SOURCES[len(rows) % 3], f"{folder}/{gid}.jpg",
                         f"{s[5]} {s[6]}", s[7], *s[:7]])
    order = rng.permutation(len(rows))             # the real file is in the order images were written
    with open(root / "image_metadata.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)                              # csv's default \r\n line ends, as RCME's export writes them
        w.writerow(["global_id", "folder_name", "image_filename", "source_dataset", "relative_path", "scientific_name",
                    "common_name", "kingdom", "phylum", "class", "order", "family", "genus", "species"])
        w.writerows(rows[i] for i in order)


def make_inat(rng):
    root = HERE / "inat21"
    shutil.rmtree(root, ignore_errors=True)
    cats, images, anns, hier = [], [], [], []
    for cid, (name, m) in enumerate(INAT.items()):
        s = BY_NAME[name]
        d = f"{cid:05d}_" + "_".join(s[:7])
        cats.append({"id": cid, "name": name, "common_name": s[7], "supercategory": s[0], "kingdom": s[0],
                     "phylum": s[1], "class": s[2], "order": s[3], "family": s[4], "genus": s[5],
                     "specific_epithet": s[6], "image_dir_name": d, "image_files_count": m})
        for j in range(m):
            iid = 2_686_843 + len(images)
            fn = f"val/{d}/{uuid.UUID(int=int(rng.integers(0, 2**63)) << 64 | int(rng.integers(0, 2**63)), version=4)}.jpg"
            write_jpeg(root / fn, colour(SPECIES.index(s), len(SPECIES), j))
            images.append({"id": iid, "width": 8, "height": 8, "file_name": fn, "license": 1,
                           "rights_holder": "fixture", "date": "2021-01-01 00:00:00+00:00", "latitude": 0.0,
                           "longitude": 0.0, "location_uncertainty": 10})
            anns.append({"id": iid, "image_id": iid, "category_id": cid})
            if j == 0: hier.append([fn, " => ".join(" ".join(s[:k + 1]) for k in range(7))])
    val = {"info": {"year": 2021, "version": "fixture", "description": "iNat21 val format, made-up content"},
           "images": images, "categories": cats, "annotations": anns,
           "licenses": [{"id": 1, "name": "CC BY 4.0", "url": "http://creativecommons.org/licenses/by/4.0/"}]}
    (root / "val.json").write_text(json.dumps(val, indent=1) + "\n")
    with open(root / "hier_retrieval.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n"); w.writerow(["img_fn", "captions"]); w.writerows(hier)


def make_rare(rng):
    root = HERE / "rare"
    shutil.rmtree(root, ignore_errors=True)
    rows = []
    for k, (*ranks, common, m) in enumerate(RARE):
        page = int(rng.integers(1_000, 50_000_000))
        for j in range(m):
            fp = f"dataset/{'_'.join(ranks)}/{int(rng.integers(1_000_000, 30_000_000))}_{page}_eol_full-size-copy.jpg"
            write_jpeg(root / fp, colour(k, len(RARE), j))
            rows.append([*ranks, common, fp, f"{ranks[5]} {ranks[6]}"])
    with open(root / "metadata.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")              # as pandas' to_csv writes it
        w.writerow(["kingdom", "phylum", "cls", "order", "family", "genus", "species", "common_name", "filepath", "class"])
        w.writerows(rows)


if __name__ == "__main__":
    make_tol(np.random.default_rng(0)); make_inat(np.random.default_rng(1)); make_rare(np.random.default_rng(2))
    files = [p for p in HERE.rglob("*") if p.is_file() and p.name != "make_fixtures.py"]
    print(f"wrote {len(files)} files, {sum(p.stat().st_size for p in files)} bytes under {HERE}")
