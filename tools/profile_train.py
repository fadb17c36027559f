#!/usr/bin/env python
"""Where the time of a training run goes: setup, the initial evaluation (per benchmark), each phase of the training
step (data, forward, backward, optimizer), the final evaluation and the plots. The benchmarks share their embeddings
as in `run_benchmarks`, so the first benchmark of an evaluation pays for embedding the split. Wall and CPU seconds per
phase (CPU / wall = cores in use); the training phases are timed over `--steps` steps and scaled to `train.steps`.

    python tools/profile_train.py                          # the embedded default run (what `accelerate launch -m
    argent_nb.train` runs)
    python tools/profile_train.py --steps 60 --config configs/clip_hiershapes.yaml method.name=clip

Runs in a temporary run folder; prints one row per phase and the total.
"""

import argparse, atexit, os, shutil, sys, tempfile, time

os.environ.setdefault("HF_HUB_OFFLINE", "1")


class Clock:
    "Accumulates wall and process-CPU seconds per phase name."

    def __init__(self, verbose=True):
        self.rows, self.verbose = {}, verbose

    def __call__(self, name):
        clock = self

        class _T:
            def __enter__(self):
                self.w, self.c = time.perf_counter(), time.process_time()

            def __exit__(self, *a):
                w, c = clock.rows.get(name, (0.0, 0.0))
                clock.rows[name] = (w + time.perf_counter() - self.w, c + time.process_time() - self.c)
                if clock.verbose and not name.startswith("train:"):
                    print(f"  {name}: {clock.rows[name][0]:.1f} s", flush=True)

        return _T()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=60, help="training steps to time (scaled to train.steps)")
    p.add_argument("--config")
    p.add_argument("overrides", nargs="*")
    a = p.parse_args(argv)
    clk, t_start = Clock(), time.perf_counter()
    with clk("import"):
        import torch
        from argent_nb.schema import default_config
        from argent_nb.train import setup, plot_run
        from argent_nb.core.config import load_config
        from argent_nb.core.models import unwrap_model
        from argent_nb.core.registry import BENCHMARKS
        from argent_nb.eval.suite import shared_embeddings
    tmp = tempfile.mkdtemp(prefix="profile_train_")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    cfg = load_config(default_config(), a.config, [*a.overrides, f"run.dir={tmp}/run", "train.log_with=[]"])
    with clk("setup (config, model, data, accelerator)"):
        run = setup(cfg, quiet=True)
    model = unwrap_model(run.model)
    print(
        f"threads: torch {torch.get_num_threads()}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}, "
        f"cores {len(os.sched_getaffinity(0))}",
        flush=True,
    )

    def evaluate(tag):
        model.eval()
        with (
            torch.no_grad(),
            shared_embeddings(),
        ):  # as run_benchmarks does: the first benchmark embeds, the others reuse
            for b in dict.fromkeys(cfg.eval.benchmarks):
                with clk(f"{tag} eval: {b}"):
                    BENCHMARKS[b](model, cfg.eval, run.acc)
        model.train()

    if cfg.train.eval_init:
        evaluate("init")
    it, n = iter(run.dl), min(a.steps, cfg.train.steps)
    run.model.train()
    for i in range(n):
        with clk("train: data"):
            try:
                batch = next(it)
            except StopIteration:
                it = iter(run.dl)
                batch = next(it)
        with clk("train: forward (method.loss)"):
            parts = run.method.loss(run.model, batch)
        with clk("train: backward"):
            run.acc.backward(parts["loss"])
        with clk("train: optimizer"):
            run.opt.step()
            run.opt.zero_grad(set_to_none=True)
            run.sched.step()
            run.method.after_step({})
    scale = cfg.train.steps / n
    for k in [k for k in clk.rows if k.startswith("train:")]:
        clk.rows[k] = tuple(v * scale for v in clk.rows[k])
    evaluate("final")
    with clk("plots (loss curve)"):
        plot_run(run.run_dir)
    total_w = sum(w for w, _ in clk.rows.values())
    print(f"\n{'phase':44s} {'wall s':>8s} {'share':>6s} {'CPU s':>8s} {'cores':>6s}")
    for k, (w, c) in clk.rows.items():
        print(f"{k:44s} {w:8.1f} {w / total_w:6.1%} {c:8.1f} {c / max(w, 1e-9):6.2f}")
    tot_c = sum(c for _, c in clk.rows.values())
    print(
        f"{'total (training scaled from ' + str(n) + ' to ' + str(cfg.train.steps) + ' steps)':44s} {total_w:8.1f} "
        f"{1:6.0%} {tot_c:8.1f} {tot_c / total_w:6.2f}"
    )
    print(f"(profiled in {time.perf_counter() - t_start:.0f} s)")


if __name__ == "__main__":
    main()
