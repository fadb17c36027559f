#!/usr/bin/env python
"""Our `clip` training step against a plain PyTorch loop over the same open_clip model.

Ours: the trainer's own `train.train_step` on a run that `train.setup` built (`method.name=clip`: Accelerate's
wrappers, the geometry head, the project's contrastive loss with gather-with-gradient, AdamW with its parameter
groups, the LR schedule, the method's hooks). The reference: the same open_clip model (a copy of the run's tower, same
weights), the same batch and the same AdamW settings, stepped by hand with open_clip's own `ClipLoss` on
`model(image, text)`; images are normalised once beforehand, as a data pipeline would. Steps alternate (ours, then
the reference, repeated) so that a change in machine load hits both alike; the thread count is pinned.

    python tools/bench_clip_step.py                              # argent-tiny, batch 64, 1 thread, 20 rounds
    python tools/bench_clip_step.py --arch ViT-B-32 --batch 16 --image-size 224 --threads 2

Prints the median seconds per step of each and their ratio (the bar: ours / reference <= 1.1), once with the
text tower trimmed to the batch's longest caption (our default, `HierModel.trim_text`) and once at full context
length, as open_clip runs it.
"""

import argparse, atexit, os, shutil, statistics, sys, tempfile, time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--arch", default="argent-tiny")
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--image-size", type=int, default=64, help="HierShapes canvas size (the model resizes)")
    p.add_argument(
        "--rounds", type=int, default=20, help="interleaved (ours, reference) pairs timed after 3 warm-up pairs"
    )
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads, pinned")
    a = p.parse_args(argv)
    import torch
    from argent_nb.core.config import load_config
    from argent_nb.core.models import unwrap_model
    from argent_nb.schema import default_config
    from argent_nb.train import setup, train_step
    from gpu_check import plain_reference  # tools/ is on sys.path when this script runs

    torch.set_num_threads(a.threads)
    tmp = tempfile.mkdtemp(prefix="bench_clip_step_")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    cfg = load_config(
        default_config(),
        None,
        [
            f"run.dir={tmp}/run",
            "method.name=clip",
            f"model.arch={a.arch}",
            f"data.batch_size={a.batch}",
            f"data.n={a.batch}",
            f"data.image_size={a.image_size}",
            "train.log_with=[]",
            "train.eval_init=false",
            f"train.threads={a.threads}",
            "train.steps=100000",
            "optim.warmup_steps=0",
        ],
    )
    run = setup(cfg, quiet=True)
    batch = next(iter(run.dl))
    hm = unwrap_model(run.model)
    ref, reference = plain_reference(run, batch, "no")  # the plain loop of tools/gpu_check.py: a copy of the
    texts = hm.adapt_tokens(batch.captions)  # tower, the run's AdamW groups, open_clip's ClipLoss

    def ours():
        train_step(run, batch)

    print(
        f"{a.arch}, batch {a.batch}, {a.threads} thread(s), {a.rounds} interleaved rounds "
        f"(texts: {tuple(texts.shape)} tokens; the batch's longest caption ends at token "
        f"{int((texts != hm.pad_id).sum(1).max())})"
    )
    for trim in (True, False):
        hm.trim_text = trim
        t = {"ours": [], "reference": []}
        for r in range(a.rounds + 3):
            for name, fn in (("ours", ours), ("reference", reference)):
                t0 = time.perf_counter()
                fn()
                dt = time.perf_counter() - t0
                if r >= 3:
                    t[name].append(dt)
        mo, mr = statistics.median(t["ours"]), statistics.median(t["reference"])
        what = "texts trimmed (our default)" if trim else "texts at full context length"
        print(
            f"{what:32s} ours {mo * 1000:8.1f} ms/step   reference {mr * 1000:8.1f} ms/step   "
            f"ours / reference = {mo / mr:.3f}   (bar <= 1.1)"
        )


if __name__ == "__main__":
    sys.exit(main())
