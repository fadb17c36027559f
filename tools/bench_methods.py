#!/usr/bin/env python
"""Cost of one training step (forward + backward + AdamW) per method, on the same model size and batch.

    python tools/bench_methods.py [--arch argent-tiny] [--batch 64] [--steps 10]

Prints seconds/step and the ratios the issues set as bars: argent/hycoclip <= 1.1 and hycoclip/clip <= 2.2
(HyCoCLIP encodes twice the inputs: images + box crops, captions + box noun phrases), rcme/re <= 1.3 (RCME encodes
2R + 1 texts and the image per sample and trains both towers; RE encodes 2T texts, twice, one of them frozen),
ceclip/clip <= 1.6 (CE-CLIP encodes four more texts per sample, its hard negatives, through the text tower). Also
times the losses alone on fixed embeddings, which must be noise next to the encoders (RCME's: under 5% of its step;
CE-CLIP's share of its step is printed too).

    python tools/bench_methods.py --threads 1 --methods clip ceclip     # only some methods (and their ratios)
    python tools/bench_methods.py --threads 1 --methods clip ceclip --text-buckets 4   # texts grouped by length

The methods' steps are interleaved (one of each per round) and the medians compared.
"""

import argparse, os, time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch
from argent_nb.core.data import Collator
from argent_nb.worlds.hiershapes2 import HierShapes2
from argent_nb.core.models import build_model
from argent_nb.core.losses import CLIP
from argent_nb.core.registry import METHODS

ALL = ["clip", "meru", "hycoclip", "argent", "re", "rcme", "ceclip"]
RATIOS = [("argent", "hycoclip", 1.1), ("hycoclip", "clip", 2.2), ("rcme", "re", 1.3), ("ceclip", "clip", 1.6)]


def prepare(name, arch, batch, ds, text_buckets=1):
    "(one training step as a function, model, method, batch) for method `name` on the first `batch` samples of `ds`."
    torch.manual_seed(0)
    method = CLIP() if name == "clip" else METHODS[name]()
    model = build_model(arch, head=method.head, text_buckets=text_buckets)
    method.setup(model, None, ds)
    keep = {id(p) for _, p in method.trainable_parameters(model)}
    for p in model.parameters():
        p.requires_grad_(id(p) in keep)
    b = Collator(model.tokenizer, method.needs)([ds[i] for i in range(batch)])
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)

    def one():
        opt.zero_grad(set_to_none=True)
        method.loss(model, b)["loss"].backward()
        opt.step()

    return one, model, method, b


def step_times(names, arch, batch, steps, ds, text_buckets=1):
    """{method: (median seconds per step, model, method, batch)}: two warm-up steps each, then the methods' steps
    interleaved (one of each per round), so that a change in the machine's load hits every method alike."""
    prep = {m: prepare(m, arch, batch, ds, text_buckets) for m in names}
    for one, *_ in prep.values():
        one()
        one()
    t = {m: [] for m in names}
    for _ in range(steps):
        for m, (one, *_) in prep.items():
            t0 = time.perf_counter()
            one()
            t[m].append(time.perf_counter() - t0)
    return {m: (sorted(v)[len(v) // 2], *prep[m][1:]) for m, v in t.items()}


def argent_loss_share(res, B, steps):
    "The HyCoCLIP and ARGENT losses alone on fixed Lorentz embeddings, as a share of an argent step."
    from argent_nb.argent.losses import Embeddings, argent_loss, hycoclip_loss
    from argent_nb.core.lorentz import LorentzGeometry

    _, model, _, _ = res["argent"]
    geo, D = LorentzGeometry(c=float(torch.as_tensor(model.geometry.curvature).detach())), model.embed_dim
    x = [geo.embed(torch.randn(B, D) / D**0.5).detach().requires_grad_() for _ in range(4)]
    valid = torch.ones(B, dtype=torch.bool)
    for name, fn in [("hycoclip loss", hycoclip_loss), ("argent loss", argent_loss)]:
        t0 = time.perf_counter()
        for _ in range(steps):
            fn(Embeddings(*x, valid), torch.tensor(10.0), geo)["loss"].backward()
        dt = (time.perf_counter() - t0) / steps
        print(f"{name:14s} {dt * 1000:6.2f} ms = {dt / res['argent'][0] * 100:.1f}% of an argent step")


def rcme_loss_share(res, ds, B, steps):
    "RCME's losses alone on fixed embeddings, as a share of an rcme step (bar < 5%)."
    from argent_nb.rcme.losses import cma_loss, global_entailment_loss, local_entailment_loss

    R, D = len(ds[0]["rank_texts"]), res["rcme"][1].embed_dim
    T, N = (torch.nn.functional.normalize(torch.randn(B, R, D), dim=-1).requires_grad_() for _ in range(2))
    img, root = torch.nn.functional.normalize(torch.randn(B, D), dim=-1).requires_grad_(), torch.zeros(D)
    valid = torch.ones(B, R, dtype=torch.bool)
    t0 = time.perf_counter()
    for _ in range(steps):
        (
            local_entailment_loss(T, N, valid, root)["loss"]
            + global_entailment_loss(T, root)["loss"]
            + 0.1 * cma_loss(img, T[:, -1], 10.0)
        ).backward()
    dt = (time.perf_counter() - t0) / steps
    print(f"{'rcme loss':14s} {dt * 1000:6.2f} ms = {dt / res['rcme'][0] * 100:.1f}% of an rcme step   (bar < 5%)")


def ceclip_loss_share(res, B, steps):
    "CE-CLIP's losses alone (every logit matrix, Eq. 2-8, backward) on fixed embeddings, as a share of a ceclip step."
    from argent_nb.ceclip.losses import ceclip_logits, ceclip_loss

    t_step, model, method, b = res["ceclip"]
    D, K = model.embed_dim, b.hard_negatives.shape[1]
    I, T = (torch.nn.functional.normalize(torch.randn(B, D), dim=-1).requires_grad_() for _ in range(2))
    N = torch.nn.functional.normalize(torch.randn(B, K, D), dim=-1).requires_grad_()
    scale = torch.tensor(10.0, requires_grad=True)
    t0 = time.perf_counter()
    for _ in range(steps):
        s = ceclip_logits(I, T, N, model.geometry, scale, b.hard_negatives_valid)
        ceclip_loss(s, b.hard_negative_types, method.thresholds)["loss"].backward()
    dt = (time.perf_counter() - t0) / steps
    print(f"{'ceclip loss':14s} {dt * 1000:6.2f} ms = {dt / t_step * 100:.1f}% of a ceclip step")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arch", default="argent-tiny")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument(
        "--threads", type=int, default=2, help="torch CPU threads, pinned so a loaded machine does not skew the ratios"
    )
    p.add_argument(
        "--methods", nargs="+", default=ALL, choices=ALL, help="methods to time (a ratio needs both of its methods)"
    )
    p.add_argument(
        "--text-buckets",
        type=int,
        default=1,
        help="model.text_buckets of every model: texts encoded in up to N groups of similar length",
    )
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    ds = HierShapes2("train", n=a.batch)
    res = step_times(a.methods, a.arch, a.batch, a.steps, ds, a.text_buckets)
    print(f"{a.arch}, batch {a.batch}, {a.threads} thread(s), model.text_buckets={a.text_buckets}")
    for m, (t, *_) in res.items():
        print(f"{m:9s} {t * 1000:8.1f} ms/step (median of {a.steps})")
    for num, den, bar in RATIOS:
        if num in res and den in res:
            print(f"{num + ' / ' + den:17s} = {res[num][0] / res[den][0]:.3f}   (bar <= {bar})")
    # the losses alone, on embeddings that need no encoder
    if "argent" in res:
        argent_loss_share(res, a.batch, a.steps)
    if "rcme" in res:
        rcme_loss_share(res, ds, a.batch, a.steps)
    if "ceclip" in res:
        ceclip_loss_share(res, a.batch, a.steps)


if __name__ == "__main__":
    main()
