#!/usr/bin/env python
"""Generation speed of HierShapes: 10,000 samples with images and every text field (target: < 30 s on 2 cores).

    python tools/bench_hiershapes.py [--dataset hiershapes2] [--n 10000] [--workers 0] [--image_size 64]

`--dataset hiershapes2` (the default) is HierShapes 2 (`06b_worlds.hiershapes2`), `hiershapes` the first benchmark.

Prints samples/s for (a) every field, (b) images + captions only (what CLIP training reads), and (c) every field
collated and tokenised into Batches through a DataLoader.
"""

import argparse, time
from torch.utils.data import DataLoader
from argent_nb.core.data import Collator, get_tokenizer
from argent_nb.schema import WORLDS


def rate(fn, n):
    t0 = time.perf_counter()
    fn()
    dt = time.perf_counter() - t0
    return dt, n / dt


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dataset", choices=list(WORLDS), default=next(iter(WORLDS)))
    p.add_argument("--n", type=int, default=10000)
    p.add_argument("--workers", type=int, default=0, help="DataLoader workers for (c)")
    p.add_argument("--image_size", type=int, default=64)
    a = p.parse_args()
    cls = WORLDS[a.dataset]
    name = cls.__name__
    full = cls("train", n=a.n, image_size=a.image_size)
    lite = cls("train", n=a.n, image_size=a.image_size, fields=["images", "captions"])
    print(f"{name}: {full!r}")
    dt, r = rate(lambda: [full[i] for i in range(a.n)], a.n)
    print(
        f"all fields        : {a.n} samples in {dt:5.1f} s = {r:7.0f} samples/s  (target: {a.n} in < 30 s -> "
        f"{'OK' if a.n / r < 30 * a.n / 10000 else 'MISSED'})"
    )
    dt, r = rate(lambda: [lite[i] for i in range(a.n)], a.n)
    print(f"images + captions : {a.n} samples in {dt:5.1f} s = {r:7.0f} samples/s")
    dl = DataLoader(full, batch_size=256, num_workers=a.workers, collate_fn=Collator(get_tokenizer(context_length=40)))
    dt, r = rate(lambda: [b for b in dl], a.n)
    print(f"all fields, collated + tokenised ({a.workers} workers): {a.n} samples in {dt:5.1f} s = {r:7.0f} samples/s")


if __name__ == "__main__":
    main()
