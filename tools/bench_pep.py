#!/usr/bin/env python
"""Benchmark PEP scoring (`argent_nb.eval.pep.pep_scores`) against a naive float64 numpy reference.

    python tools/bench_pep.py                       # 1,000,000 pairs, D = 512, radial geometry, index pairs into a
    table
    python tools/bench_pep.py --geometry lorentz    # the Lorentz geometry (needs argent_nb.core.lorentz)
    python tools/bench_pep.py --mode dense          # row-aligned [P, D] inputs (about 4 GB of float32 for 1M x 512)

The pairs index a table of `--table` random embeddings (as the PEP benchmark does: embeddings are computed once per
text or image, pairs refer to them). The reference computes the textbook formula of the same exterior angle
(arccos of a clamped cosine: RE's radial geometry, `03_core.radial`, and the Lorentz exterior angle, `04_core.lorentz`)
in float64 numpy, `--ref-chunk` pairs at a time, in the same run.
Prints both times, the speed-up and the largest difference in p.
"""

import argparse, math, os, time

import numpy as np
import torch


def naive_radial(table, root, ia, ib, chunk):
    "p from Xi_r = arccos(<x - r, y - x> / (||x - r|| ||y - x||)), float64 numpy."
    T, r, out = table.astype(np.float64), root.astype(np.float64), np.empty(len(ia))
    for s in range(0, len(ia), chunk):
        x, y = T[ia[s : s + chunk]], T[ib[s : s + chunk]]
        u, v = x - r, y - x
        cos = (u * v).sum(1) / (np.linalg.norm(u, axis=1) * np.linalg.norm(v, axis=1))
        out[s : s + chunk] = (1 + np.cos(np.arccos(np.clip(cos, -1, 1)))) / 2
    return out


def naive_lorentz(table, c, ia, ib, chunk):
    """p from the Lorentz exterior angle (`04_core.lorentz`) ext(x, y) = arccos((y_t + c<x,y>_L x_t) / (||x~||
    sqrt((c<x,y>_L)^2 - 1))), float64 numpy."""
    T, out = table.astype(np.float64), np.empty(len(ia))
    t = np.sqrt(1 / c + (T * T).sum(1))
    for s in range(0, len(ia), chunk):
        a, b = ia[s : s + chunk], ib[s : s + chunk]
        x, y = T[a], T[b]
        cxy = c * ((x * y).sum(1) - t[a] * t[b])
        cos = (t[b] + cxy * t[a]) / (np.linalg.norm(x, axis=1) * np.sqrt(np.maximum(cxy * cxy - 1, 1e-300)))
        out[s : s + chunk] = (1 + np.cos(np.arccos(np.clip(cos, -1, 1)))) / 2
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pairs", type=int, default=1_000_000)
    p.add_argument("--dim", type=int, default=512)
    p.add_argument("--table", type=int, default=50_000, help="number of distinct embeddings the pairs index")
    p.add_argument("--geometry", choices=["radial", "lorentz"], default="radial")
    p.add_argument("--mode", choices=["indexed", "dense"], default="indexed")
    p.add_argument("--chunk", type=int, default=1024, help="pep_scores chunk size")
    p.add_argument("--ref-chunk", type=int, default=8192, help="reference chunk size")
    p.add_argument("--repeats", type=int, default=3, help="timed runs of pep_scores (the best is reported)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="pep_scores threads (its default, 1); 0 = torch's setting")
    a = p.parse_args(argv)
    from argent_nb.eval.pep import pep_scores

    g = torch.Generator().manual_seed(a.seed)
    if a.geometry == "radial":
        from argent_nb.core.radial import RadialGeometry

        table = torch.nn.functional.normalize(torch.randn(a.table, a.dim, generator=g), dim=-1)
        root = torch.nn.functional.normalize(torch.randn(a.dim, generator=g), dim=0)
        geo = RadialGeometry(root=root)
        ref = lambda ia, ib: naive_radial(table.numpy(), root.numpy(), ia, ib, a.ref_chunk)
    else:
        from argent_nb.core.lorentz import LorentzGeometry

        geo = LorentzGeometry(c=1.0)
        table = geo.exp_map0(
            torch.randn(a.table, a.dim, generator=g) * (2.0 / math.sqrt(a.dim))
        )  # norms ~ 2 in the tangent space
        ref = lambda ia, ib: naive_lorentz(table.numpy(), 1.0, ia, ib, a.ref_chunk)
    ia = torch.randint(0, a.table, (a.pairs,), generator=g)
    ib = torch.randint(0, a.table, (a.pairs,), generator=g)
    keep = ia != ib  # identical points have no exterior angle
    ia, ib = ia[keep], ib[keep]
    n = len(ia)
    if a.mode == "dense":
        A, B = table[ia], table[ib]
        run = lambda: pep_scores(A, B, geo, chunk=a.chunk, threads=a.threads or None)
    else:
        run = lambda: pep_scores(table, table, geo, ia, ib, chunk=a.chunk, threads=a.threads or None)
    times = []
    for _ in range(max(1, a.repeats)):
        t0 = time.perf_counter()
        pv = run()
        times.append(time.perf_counter() - t0)
    t_pep = min(times)
    t0 = time.perf_counter()
    pr = ref(ia.numpy(), ib.numpy())
    t_ref = time.perf_counter() - t0
    diff = np.abs(pv - pr)
    print(
        f"PEP {a.geometry} ({a.mode}): {n:,} pairs, D={a.dim}, table {a.table:,}, "
        f"chunk {a.chunk}, pep_scores threads {a.threads or torch.get_num_threads()}, cpus {os.cpu_count()}, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"pep_scores: {t_pep:.2f} s (best of {len(times)}: {', '.join(f'{t:.2f}' for t in times)}), "
        f"{n / t_pep / 1e6:.2f} M pairs/s"
    )
    print(f"naive float64 numpy reference: {t_ref:.2f} s")
    print(f"speed-up vs reference: {t_ref / t_pep:.1f}x; max |p - p_ref| = {diff.max():.2e}, mean {diff.mean():.2e}")
    return t_pep, t_ref, float(diff.max())


if __name__ == "__main__":
    main()
