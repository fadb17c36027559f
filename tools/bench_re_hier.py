#!/usr/bin/env python
"""Speed of RE's hierarchical image->text retrieval (HierarCaps, RE supp. B.5): vectorised vs a per-image loop.

    python tools/bench_re_hier.py [--n 1000] [--m 52401] [--d 512] [--steps 50] [--loop_n 40] [--chunk 256]

Random unit vectors stand in for embeddings. For each procedure ("paper" and "sweep") the script times
`argent_nb.radial_emb.metrics.hierarchical_retrieval` on all `n` images, which includes the similarities, predictions
and P/R/tau_d. It then times the straightforward reference on the first `loop_n` images, in the same run: the image's
similarity row, then `hierarchical_predictions_loop`, which does a masked argmax over all candidates at every step.
The loop time is extrapolated to `n` images. The script prints both times, the speed-up, and whether the two
versions predict the same texts on the timed subset. Target: the vectorised version under 30 s for 1,000 x 52,401 x 50.
"""

import argparse, time

import torch
import torch.nn.functional as F

from argent_nb.radial_emb.metrics import RadiusWalk, hierarchical_predictions_loop, hierarchical_retrieval


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--n", type=int, default=1000, help="images")
    p.add_argument("--m", type=int, default=52401, help="candidate texts")
    p.add_argument("--d", type=int, default=512, help="embedding dimension")
    p.add_argument("--steps", type=int, default=50)
    p.add_argument("--loop_n", type=int, default=40, help="images the loop reference is timed on (then extrapolated)")
    p.add_argument("--chunk", type=int, default=256, help="images per chunk in the vectorised version")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    g = torch.Generator().manual_seed(a.seed)
    img = F.normalize(torch.randn(a.n, a.d, generator=g), dim=-1)
    txt = F.normalize(torch.randn(a.m, a.d, generator=g), dim=-1)
    root = F.normalize(torch.randn(a.d, generator=g), dim=0)
    gt = torch.randint(0, a.m, (a.n, 4), generator=g)
    print(f"{a.n} images x {a.m} candidates x {a.steps} steps, D = {a.d}, torch threads = {torch.get_num_threads()}")
    for proc in ("paper", "sweep"):
        t0 = time.perf_counter()
        res, per = hierarchical_retrieval(img, txt, root, gt, RadiusWalk(a.steps, proc, a.chunk), per_image=True)
        t_vec = time.perf_counter() - t0

        k = min(a.loop_n, a.n)
        t0 = time.perf_counter()
        radii = torch.linalg.vector_norm(txt.double() - root.double(), dim=-1)
        ref = [hierarchical_predictions_loop((img[i : i + 1] @ txt.T), radii, a.steps, proc)[0] for i in range(k)]
        t_loop = (time.perf_counter() - t0) * a.n / k

        vec = [[int(v) for v in row if v >= 0] for row in per["predictions"][:k]]
        same = sum(x == y for x, y in zip(vec, ref))
        print(
            f"[{proc:5s}] vectorised: {t_vec:7.2f} s ({'OK' if t_vec < 30 else 'MISSED'} < 30 s)   "
            f"loop: {t_loop:8.1f} s (extrapolated from {k} images)   speed-up: {t_loop / t_vec:6.1f}x   "
            f"same predictions on the subset: {same}/{k}   P={res['P']:.4f} R={res['R']:.4f} tau_d={res['tau_d']:.4f}"
        )


if __name__ == "__main__":
    main()
