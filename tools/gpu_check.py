#!/usr/bin/env python
"""The GPU check: every method's real-size training step against a plain open_clip loop, in one table.

    python tools/gpu_check.py                     # one CUDA GPU: ViT-B-32 (random init), 224 px, batch 256, bf16; < 8
    min
    python tools/gpu_check.py --out gpu_check.json
    python tools/gpu_check.py --smoke             # any machine, CPU: argent-tiny, 64 px, batch 8, a few steps (< 1 min)

For each of the seven methods (clip, re, rcme, ceclip, meru, hycoclip, argent) the trainer's own step
(`train.setup` + `train.train_step`: Accelerate with `train.mixed_precision=bf16`, the geometry head, the method's
loss, AdamW with its parameter groups) is timed on one batch of HierShapes (rendered once, reused), interleaved with a
plain PyTorch loop over the same open_clip model: a copy of the run's towers, the same AdamW settings, open_clip's
`ClipLoss` on `model(image, text)` under the same autocast (the approach of `tools/bench_clip_step.py`). Stage-2
methods (re, rcme, ceclip) start from a random-init CLIP model here: the starting weights do not change the timing.

The table (markdown, on stdout; progress lines go to stderr) has one row per method with
- ms/step, samples/s (RE reads no images: its samples are tier texts), peak GPU memory of our run (model, AdamW
  state, batch and activations; not on the CPU), the plain loop's ms/step measured in the same rounds and the ratio;
- `bf16 Linear`: the share of `nn.Linear` calls of the step (the run's model and any model the method holds, such as
  RE's frozen tower) that ran in bfloat16: below 100% means part of the step ran outside the autocast;
- `geometry fp32`: every geometry op called during a step (each `Geometry` subclass's ops, the heads' outputs)
  returned float32 under the autocast;
- the loss of one step in fp32 and under bf16 (same weights, batch and seed), their relative difference, and the
  same difference with the tower outputs pinned to the fp32 ones (`after towers`): everything after the towers
  (heads, geometry, losses) runs in float32, so that one must be ~1e-6, whatever the towers' bf16 error.
Then rows for the plain loop itself, `torch.compile` of the clip step and of the plain loop (in a child process with
a time limit; a failure is a row, not a crash) and the HierShapes loader at the check's image size: samples/s with one
DataLoader worker, with the trainer's default `data.num_workers` and with one worker per core, against the samples/s a
step consumes (the note says how many workers feed it).

Exit status: 0 when every method was measured, 1 when one failed (its row says why), 2 without CUDA (unless --smoke).
"""

from __future__ import annotations
import argparse, atexit, contextlib, copy, gc, json, math, os, shutil, statistics, subprocess, sys, tempfile, time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

METHODS = ["clip", "re", "rcme", "ceclip", "meru", "hycoclip", "argent"]
LOADER_METHODS = ("clip", "argent")  # HierShapes fields of a plain CLIP batch, and the heaviest (+ box crops)
FULL = dict(
    arch="ViT-B-32",
    batch=256,
    image_size=224,
    warm=3,
    rounds=10,
    method_s=20.0,
    loader_rounds=5,
    compile_backend="inductor",
    compile_s=240.0,
    budget_s=450.0,
)
SMOKE = dict(
    arch="argent-tiny",
    batch=8,
    image_size=64,
    warm=1,
    rounds=2,
    method_s=1.0,
    loader_rounds=2,
    compile_backend="eager",
    compile_s=30.0,
    budget_s=45.0,
)


def say(*a):
    print("gpu_check:", *a, file=sys.stderr, flush=True)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--smoke", action="store_true", help="CPU smoke run: tiny model, small batch, few steps")
    p.add_argument("--out", default=None, help="also write the table's rows as JSON to this file")
    p.add_argument(
        "--methods",
        nargs="+",
        default=METHODS,
        choices=METHODS,
        help="methods to measure (clip always: the plain loop is built from its run)",
    )
    p.add_argument("--arch")
    p.add_argument("--batch", type=int)
    p.add_argument("--image-size", type=int)
    p.add_argument("--warm", type=int, help="warm-up steps per method")
    p.add_argument("--rounds", type=int, help="timed (ours, plain) rounds per method")
    p.add_argument(
        "--method-s", type=float, help="stop a method's timed rounds after this many seconds (3 rounds at least)"
    )
    p.add_argument("--loader-rounds", type=int, help="rounds of every worker's batch timed per loader setting")
    p.add_argument("--compile-backend", help="torch.compile backend (inductor; the smoke run: eager), or 'off'")
    p.add_argument("--compile-s", type=float, help="time limit of the torch.compile child process")
    p.add_argument("--budget-s", type=float, help="wall-clock budget: later parts are cut short or skipped to keep it")
    p.add_argument("--threads", type=int, default=1, help="torch threads on the CPU (--smoke), pinned")
    p.add_argument(
        "--precision", choices=("bf16", "no"), default="bf16", help="autocast dtype of every step (no: fp32)"
    )
    p.add_argument("--compile-child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    for k, v in (SMOKE if a.smoke else FULL).items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    return a


def device_check(a):
    "The device, and the precision it runs: a GPU unless --smoke; bf16 on the CPU only where torch's autocast has it."
    import torch

    if not a.smoke and not torch.cuda.is_available():
        print(
            "gpu_check: no CUDA device here: run it on a GPU machine, or `python tools/gpu_check.py --smoke` for the "
            "CPU smoke run",
            file=sys.stderr,
        )
        sys.exit(2)
    dev = torch.device("cuda" if torch.cuda.is_available() and not a.smoke else "cpu")
    if dev.type == "cpu":
        torch.set_num_threads(a.threads)
    if a.precision == "bf16":
        try:
            with torch.autocast(dev.type, dtype=torch.bfloat16):
                ok = (torch.ones(2, 2, device=dev) @ torch.ones(2, 2, device=dev)).dtype == torch.bfloat16
        except Exception:
            ok = False
        if not ok:
            say(f"bf16 autocast is not available on {dev.type}: fp32")
            a.precision = "no"
    return dev


def build_run(a, method: str, tmp: str, dev):
    """(run, batch): the trainer's own `setup` for `method` at the check's size, and its first batch (reused by every
    step)."""
    from argent_nb.core.config import load_config
    from argent_nb.schema import default_config
    from argent_nb.train import setup

    cfg = load_config(
        default_config(),
        None,
        [
            f"run.dir={tmp}/{method}",
            f"method.name={method}",
            f"model.arch={a.arch}",
            f"data.batch_size={a.batch}",
            f"data.n={a.batch}",
            f"data.image_size={a.image_size}",
            "train.log_with=[]",
            "train.eval_init=false",
            f'train.mixed_precision="{a.precision}"',
            f"train.cpu={str(dev.type == 'cpu').lower()}",
            "train.steps=100000",
            "optim.warmup_steps=0",
        ]
        + ([f"train.threads={a.threads}"] if dev.type == "cpu" else []),
    )
    run = setup(cfg, quiet=True)
    return run, next(iter(run.dl))


def plain_reference(run, batch, precision: str):
    """(model, step(module=model)): the plain PyTorch loop (also `tools/bench_clip_step.py`'s reference) over a copy of
    `run`'s open_clip
    towers (same weights), with AdamW in the run's parameter groups and settings and open_clip's `ClipLoss` on
    `module(image, text)` under the run's autocast; images and tokens of `batch` prepared once, as a data pipeline
    would."""
    import torch
    from open_clip.loss import ClipLoss
    from argent_nb.core.models import unwrap_model

    hm = unwrap_model(run.model)
    ref = copy.deepcopy(hm.clip).train().requires_grad_(True)
    og = run.opt.optimizer if hasattr(run.opt, "optimizer") else run.opt
    ids = {id(q): k for k, q in enumerate(hm.clip.parameters())}
    params = list(ref.parameters())
    groups = [
        {
            **{k: v for k, v in g.items() if k != "params"},
            "params": [params[ids[id(q)]] for q in g["params"] if id(q) in ids],
        }
        for g in og.param_groups
    ]
    opt, loss_fn = torch.optim.AdamW([g for g in groups if g["params"]]), ClipLoss()
    with torch.no_grad():
        images = hm.adapt_images(batch.images)
    texts, dev = hm.adapt_tokens(batch.captions), images.device.type

    def step(module=ref):
        with torch.autocast(dev, dtype=torch.bfloat16, enabled=precision == "bf16"):
            f_img, f_txt, scale = module(images, texts)
            loss = loss_fn(f_img, f_txt, scale)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)

    return ref, step


def sync(dev):
    import torch

    if dev.type == "cuda":
        torch.cuda.synchronize()


def timed(fns: dict, rounds: int, dev, max_s: float, min_rounds: int = 3) -> dict:
    """{name: [seconds]}: `rounds` rounds of one call of each fn in turn (a change of load hits all alike), cut after
    `max_s`."""
    t = {k: [] for k in fns}
    t_end = time.perf_counter() + max_s
    for r in range(rounds):
        for k, fn in fns.items():
            sync(dev)
            t0 = time.perf_counter()
            fn()
            sync(dev)
            t[k].append(time.perf_counter() - t0)
        if r + 1 >= min(rounds, min_rounds) and time.perf_counter() > t_end:
            break
    return t


def method_modules(run) -> list:
    "The run's model and every model the method holds (e.g. RE's frozen tower)."
    import torch
    from argent_nb.core.models import unwrap_model

    return [unwrap_model(run.model)] + [v for v in vars(run.method).values() if isinstance(v, torch.nn.Module)]


def _geometry_classes():
    from argent_nb.core.geometry import Geometry

    out, todo = [], [Geometry]
    while todo:
        c = todo.pop()
        out.append(c)
        todo += c.__subclasses__()
    return out


@contextlib.contextmanager
def precision_probe():
    """Records, while open, the output dtypes of every geometry op (each `Geometry` subclass's ops, wrapped at class
    level, restored on exit): yields {"Class.op": set of dtype names}."""
    import torch

    seen, saved = {}, []

    def rec(cls, op, fn):
        def wrapper(*args, **kw):
            out = fn(*args, **kw)
            for o in out if isinstance(out, (tuple, list)) else (out,):
                if isinstance(o, torch.Tensor) and o.is_floating_point():
                    seen.setdefault(f"{cls.__name__}.{op}", set()).add(str(o.dtype))
            return out

        return wrapper

    for cls in _geometry_classes():
        for op in cls.OPS:
            if op in vars(cls):
                saved.append((cls, op, vars(cls)[op]))
                setattr(cls, op, rec(cls, op, vars(cls)[op]))
    try:
        yield seen
    finally:
        for cls, op, fn in saved:
            setattr(cls, op, fn)


def probe_step(run, batch) -> dict:
    """One training step with hooks: the share of `nn.Linear` calls in bfloat16, and whether every geometry op and
    head output was float32 (`{"linear_bf16": share, "geometry_fp32": bool, "geometry_note": str}`)."""
    import torch
    from argent_nb.core.heads import Head
    from argent_nb.train import train_step

    lin, heads, hooks = [], set(), []
    for m in method_modules(run):
        for mod in m.modules():
            if isinstance(mod, torch.nn.Linear):
                hooks.append(mod.register_forward_hook(lambda _m, _i, o: lin.append(o.dtype == torch.bfloat16)))
            if isinstance(mod, Head):
                hooks.append(mod.register_forward_hook(lambda _m, _i, o: heads.add(str(o.dtype))))
    try:
        with precision_probe() as seen:
            train_step(run, batch)
    finally:
        for h in hooks:
            h.remove()
    bad = sorted(k for k, v in seen.items() if v != {"torch.float32"}) + [
        f"head:{d}" for d in sorted(heads - {"torch.float32"})
    ]
    n_ops = len(seen)
    return {
        "linear_bf16": (sum(lin) / len(lin)) if lin else float("nan"),
        "geometry_fp32": not bad and n_ops > 0,
        "geometry_note": f"{n_ops} geometry ops seen, all float32" if not bad else "not float32: " + ", ".join(bad),
    }


@contextlib.contextmanager
def _fp32_forward(model):
    "Accelerate's model without its autocast wrapper (its original forward), while open."
    fwd = model.__dict__.get("forward")
    if fwd is not None and hasattr(model, "_original_forward"):
        model.forward = model._original_forward
    try:
        yield
    finally:
        if fwd is not None:
            model.forward = fwd


def loss_pair(run, batch, seed: int = 0) -> dict:
    """The loss of one step on `batch` with the run's current weights, three ways (no update; the same seed and method
    counters each time): fp32 (the autocast wrapper off), bf16 as the trainer runs it, and bf16 with every head's input
    (the towers' output) replaced by the fp32 one. {"fp32", "bf16", "rel", "rel_after_towers"}."""
    import torch
    from argent_nb.core.heads import Head

    heads = [mod for m in method_modules(run) for mod in m.modules() if isinstance(mod, Head)]
    feats, mode, k = [], ["off"], [0]

    def pre(_m, args):
        if mode[0] == "record":
            feats.append(args[0].detach().float())
        elif mode[0] == "replay":
            k[0] += 1
            return (feats[k[0] - 1], *args[1:])

    hooks = [h.register_forward_pre_hook(pre) for h in heads]

    counters = {
        n: v for n, v in vars(run.method).items() if isinstance(v, (bool, int, float))
    }  # e.g. the box choice's call count

    def loss():
        torch.manual_seed(seed)
        vars(run.method).update(counters)
        with torch.no_grad():
            return float(run.method.loss(run.model, batch)["loss"])

    try:
        mode[0] = "record"
        with _fp32_forward(run.model):
            l32 = loss()
        mode[0] = "off"
        l16 = loss()
        mode[0] = "replay"
        l16p = loss()
    finally:
        for h in hooks:
            h.remove()
    den = max(abs(l32), 1e-12)
    return {"fp32": l32, "bf16": l16, "rel": abs(l16 - l32) / den, "rel_after_towers": abs(l16p - l32) / den}


def free(dev, *objs):
    "Drop a run (its Accelerator's references too) and return its memory."
    import torch

    for o in objs:
        acc = getattr(o, "acc", None)
        if acc is not None:
            acc.free_memory()
    del objs
    gc.collect()
    if dev.type == "cuda":
        torch.cuda.empty_cache()


def mem_start(dev) -> int:
    import torch

    if dev.type != "cuda":
        return 0
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    return torch.cuda.memory_allocated()


def mem_peak(dev, base: int) -> float | None:
    "GiB allocated at the peak since `mem_start` above what was allocated then (None on the CPU)."
    import torch

    return (torch.cuda.max_memory_allocated() - base) / 2**30 if dev.type == "cuda" else None


def med(v) -> float:
    return statistics.median(v) if v else float("nan")


def measure_method(a, m: str, tmp: str, dev, ref_step) -> tuple[dict, object, object]:
    """The row of method `m`: build its run, warm up (probe step first), peak memory, the loss three ways, then its
    steps interleaved with the plain loop's (`ref_step`, or for the first method the reference built from its run).
    Returns (row, the plain loop's (model, step) for the next methods, the run's tokenizer)."""
    from argent_nb.core.models import unwrap_model
    from argent_nb.train import train_step

    base = mem_start(dev)
    run, batch = build_run(a, m, tmp, dev)
    try:
        probe = probe_step(run, batch)
        for _ in range(max(0, a.warm - 1)):
            train_step(run, batch)
        sync(dev)
        peak = mem_peak(dev, base)
        lp = loss_pair(run, batch)
        row = {
            "row": m,
            "kind": "method",
            "peak_gib": peak,
            "linear_bf16": probe["linear_bf16"],
            "geometry_fp32": probe["geometry_fp32"],
            "loss_fp32": lp["fp32"],
            "loss_bf16": lp["bf16"],
            "loss_rel": lp["rel"],
            "loss_rel_after_towers": lp["rel_after_towers"],
            "note": probe["geometry_note"],
        }
        if ref_step is None and m == "clip":  # the plain loop, from this clip run's towers
            base = mem_start(dev)
            ref_step = plain_reference(run, batch, a.precision)
            for _ in range(a.warm):
                ref_step[1]()
            sync(dev)
            row["plain_peak_gib"] = mem_peak(dev, base)
        elif ref_step is not None:
            ref_step[1]()  # one warm-up step after the method's build
        fns = {"ours": lambda: train_step(run, batch), **({"plain": ref_step[1]} if ref_step else {})}
        t = timed(fns, a.rounds, dev, a.method_s)
        ms, mp = med(t["ours"]) * 1e3, med(t.get("plain")) * 1e3
        row.update(ms=ms, samples_s=a.batch / ms * 1e3, plain_ms=mp, ratio=ms / mp, rounds=len(t["ours"]))
        return row, ref_step, unwrap_model(run.model).tokenizer
    finally:
        free(dev, run)


def loader_rate(ds, collate, batch: int, workers: int, rounds: int) -> float:
    """Samples/s of the trainer's DataLoader over `ds` (its sampler, `collate` with tokenisation), `workers` as the
    trainer sets them (restarted every epoch): `rounds` batches per worker, timed from the loader's start (so the
    workers' start-up counts, and no batch comes from a buffer filled before the clock started)."""
    from torch.utils.data import DataLoader
    from argent_nb.train import EpochSampler

    n = rounds * max(1, workers)
    t0 = time.perf_counter()
    dl = DataLoader(
        ds, batch_size=batch, sampler=EpochSampler(len(ds)), drop_last=True, num_workers=workers, collate_fn=collate
    )
    it = iter(dl)
    for _ in range(n):
        next(it)
    dt = time.perf_counter() - t0
    del it
    return n * batch / dt


def loader_rows(a, consumed: dict, tok) -> list[dict]:
    """HierShapes through the trainer's loader (tokenizer `tok`) at the check's image size: 1 worker, the trainer's
    default, one per core; against `consumed` {method: samples/s of its step}."""
    from argent_nb.core.data import Collator
    from argent_nb.core.registry import get_method
    from argent_nb.schema import DataCfg
    from argent_nb.train import build_dataset, data_workers
    import torch

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    default = DataCfg().num_workers  # None: the trainer resolves it by device (`train.data_workers`)
    default = data_workers("cuda" if torch.cuda.is_available() else "cpu", 1) if default is None else default
    rows = []
    for m in [m for m in LOADER_METHODS if m in a.methods]:
        needs = get_method(m).needs
        for w, what in dict.fromkeys(
            [
                (1, "1 worker"),
                (default, f"default data.num_workers ({default} here)"),
                (cores, f"{cores} workers (one per core)"),
            ]
        ):
            n = a.loader_rounds * max(1, w) * a.batch
            ds = build_dataset(DataCfg(n=n, image_size=a.image_size, batch_size=a.batch), needs, f"method {m!r}")
            say(f"loader: {m} fields, {what}")
            try:
                r = loader_rate(ds, Collator(tok, needs), a.batch, w, a.loader_rounds)
            except Exception as e:
                rows.append(
                    {
                        "row": f"HierShapes loader, {m} fields, {what}",
                        "kind": "loader",
                        "note": f"failed: {type(e).__name__}: {e}",
                    }
                )
                continue
            row = {"row": f"HierShapes loader, {m} fields, {what}", "kind": "loader", "samples_s": r, "workers": w}
            if m in consumed:
                c = consumed[m]
                row["note"] = (
                    f"{r / c:.2f}x what one {m} step consumes ({c:.0f}/s); {math.ceil(c / (r / max(1, w)))} "
                    f"worker(s) at this rate per worker feed it ({cores} cores here)"
                )
                if w == 0:
                    row["note"] += (
                        f"; rendered between steps in the training process: {1 / (1 / c + 1 / r):.0f} samples/s at most"
                    )
            rows.append(row)
    return rows


def compile_child(a) -> None:
    """(The child process of `compile_rows`.) The clip step and the plain loop, eager and `torch.compile`d
    (`a.compile_backend`), interleaved; prints one JSON line: ms per step of each and the compile times."""
    import logging, warnings, torch
    from torch._dynamo.utils import counters
    from argent_nb.train import train_step

    warnings.filterwarnings("ignore")
    torch._logging.set_logs(dynamo=logging.ERROR)  # graph breaks: counted below
    dev = device_check(a)
    tmp = tempfile.mkdtemp(prefix="gpu_check_compile_")
    atexit.register(shutil.rmtree, tmp, ignore_errors=True)
    run, batch = build_run(a, "clip", tmp, dev)
    ref, ref_step = plain_reference(run, batch, a.precision)
    eager, comp, ref_c = (
        run.model,
        torch.compile(run.model, backend=a.compile_backend),
        torch.compile(ref, backend=a.compile_backend),
    )

    def ours(model):
        def step():
            run.model = model
            try:
                train_step(run, batch)
            finally:
                run.model = eager

        return step

    fns = {
        "ours": ours(eager),
        "ours_compiled": ours(comp),
        "plain": ref_step,
        "plain_compiled": lambda: ref_step(ref_c),
    }
    first = {}
    for k, fn in fns.items():  # the first call of a compiled one compiles it
        sync(dev)
        t0 = time.perf_counter()
        fn()
        sync(dev)
        first[k] = time.perf_counter() - t0
        say(f"compile child: first {k} step {first[k]:.1f} s")
    for _ in range(max(0, a.warm - 1)):
        for fn in fns.values():
            fn()
    t = timed(fns, a.rounds, dev, a.method_s)
    breaks = sum(counters["graph_break"].values())
    print(
        json.dumps({"ms": {k: med(v) * 1e3 for k, v in t.items()}, "first_s": first, "graph_breaks": breaks}),
        flush=True,
    )


def compile_rows(a, budget_s: float) -> list[dict]:
    """Rows for the clip step and the plain loop under `torch.compile`, run in a child process limited to `budget_s`
    seconds."""
    name = f"torch.compile ({a.compile_backend})"
    rows = lambda note, ms=None: [{"row": f"clip, {name}", "kind": "compile", "note": note, **(ms or {})}]
    if a.compile_backend == "off":
        return rows("off (--compile-backend off)")
    if budget_s < 20:
        return rows(f"skipped: {budget_s:.0f} s allowed (what the time budget leaves, at most --compile-s)")
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--compile-child",
        "--arch",
        a.arch,
        "--batch",
        str(a.batch),
        "--image-size",
        str(a.image_size),
        "--warm",
        str(a.warm),
        "--rounds",
        str(a.rounds),
        "--method-s",
        str(a.method_s),
        "--compile-backend",
        a.compile_backend,
        "--precision",
        a.precision,
        "--threads",
        str(a.threads),
    ] + (["--smoke"] if a.smoke else [])
    say(f"torch.compile child ({a.compile_backend}), at most {budget_s:.0f} s")
    p = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, text=True, start_new_session=True
    )  # its own group: its compile workers too
    try:
        out, _ = p.communicate(timeout=budget_s)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.communicate()
        return rows(f"failed: not done within {budget_s:.0f} s (compile and timed steps)")
    lines = [l for l in out.splitlines() if l.startswith("{")]
    if p.returncode or not lines:
        return rows(f"failed: the child exited with status {p.returncode} (its error is in the progress output)")
    r = json.loads(lines[-1])
    ms, first = r["ms"], r["first_s"]
    return [
        {
            "row": f"clip, {name}",
            "kind": "compile",
            "ms": ms["ours_compiled"],
            "samples_s": a.batch / ms["ours_compiled"] * 1e3,
            "plain_ms": ms["plain"],
            "ratio": ms["ours_compiled"] / ms["plain"],
            "note": f"eager in the same run: {ms['ours']:.1f} ms/step (compiled / eager = "
            f"{ms['ours_compiled'] / ms['ours']:.2f}); first step {first['ours_compiled']:.0f} s; "
            f"{r.get('graph_breaks', '?')} graph breaks in both",
        },
        {
            "row": f"plain loop, {name}",
            "kind": "compile",
            "ms": ms["plain_compiled"],
            "samples_s": a.batch / ms["plain_compiled"] * 1e3,
            "plain_ms": ms["plain"],
            "ratio": ms["plain_compiled"] / ms["plain"],
            "note": f"compiled / eager = {ms['plain_compiled'] / ms['plain']:.2f}; first step "
            f"{first['plain_compiled']:.0f} s",
        },
    ]


COLUMNS = [
    ("row", "row", "{}"),
    ("ms", "ms/step", "{:.1f}"),
    ("samples_s", "samples/s", "{:.0f}"),
    ("peak_gib", "peak GiB", "{:.2f}"),
    ("plain_ms", "plain ms/step", "{:.1f}"),
    ("ratio", "ours / plain", "{:.2f}"),
    ("linear_bf16", "bf16 Linear", "{:.0%}"),
    ("geometry_fp32", "geometry fp32", "{}"),
    ("loss_fp32", "loss fp32", "{:.4f}"),
    ("loss_bf16", "loss bf16", "{:.4f}"),
    ("loss_rel", "loss rel. diff", "{:.1e}"),
    ("loss_rel_after_towers", "rel. diff after towers", "{:.1e}"),
    ("note", "note", "{}"),
]


def cell(v, fmt: str) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    return fmt.format(v).replace("|", "/")


def table(rows: list[dict]) -> str:
    "The rows as one markdown table (a missing value: '-')."
    out = [
        "| " + " | ".join(h for _, h, _ in COLUMNS) + " |",
        "|" + "|".join("---" if k in ("row", "note", "geometry_fp32") else "---:" for k, _, _ in COLUMNS) + "|",
    ]
    return "\n".join(out + ["| " + " | ".join(cell(r.get(k), f) for k, _, f in COLUMNS) + " |" for r in rows])


def main(argv=None):
    a = parse_args(argv)
    if a.compile_child:
        return compile_child(a)
    t_start = time.perf_counter()
    import torch, open_clip, shutil

    dev = device_check(a)
    name = torch.cuda.get_device_name(dev) if dev.type == "cuda" else f"CPU, {torch.get_num_threads()} thread(s)"
    a.methods = ["clip"] + [
        m for m in METHODS if m in a.methods and m != "clip"
    ]  # the plain loop comes from clip's run
    meta = {
        "device": name,
        "torch": torch.__version__,
        "open_clip": open_clip.__version__,
        "arch": a.arch,
        "batch": a.batch,
        "image_size": a.image_size,
        "precision": a.precision,
        "smoke": a.smoke,
    }
    say(
        f"{name}; {a.arch} (random init), {a.image_size} px, batch {a.batch}, autocast {a.precision}; budget "
        f"{a.budget_s:.0f} s"
    )
    tmp = tempfile.mkdtemp(prefix="gpu_check_")
    rows, ref, tok, failed = [], None, None, []
    for m in a.methods:
        say(
            f"{m}: build, {a.warm} warm-up step(s), loss in fp32 / bf16, timed rounds "
            f"({time.perf_counter() - t_start:.0f} s)"
        )
        try:
            row, ref, t = measure_method(a, m, tmp, dev, ref)
            tok = tok or t
        except Exception as e:  # one method's failure (e.g. out of memory) is its row
            row = {
                "row": m,
                "kind": "method",
                "note": f"failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300],
            }
            failed.append(m)
            free(dev)
        rows.append(row)
    clip = next((r for r in rows if r["row"] == "clip" and "plain_ms" in r), None)
    if clip:
        rows.append(
            {
                "row": "plain open_clip loop (ClipLoss, AdamW)",
                "kind": "plain",
                "ms": clip["plain_ms"],
                "samples_s": a.batch / clip["plain_ms"] * 1e3,
                "peak_gib": clip.get("plain_peak_gib"),
                "plain_ms": clip["plain_ms"],
                "ratio": 1.0,
                "note": "the reference, timed with every method",
            }
        )
    ref = None
    free(dev)
    consumed = {r["row"]: r["samples_s"] for r in rows if r.get("kind") == "method" and "samples_s" in r}
    if tok is not None:
        try:
            rows += loader_rows(a, consumed, tok)
        except Exception as e:
            rows.append({"row": "HierShapes loader", "kind": "loader", "note": f"failed: {type(e).__name__}: {e}"})
    rows += compile_rows(a, min(a.compile_s, a.budget_s - (time.perf_counter() - t_start) - 5))
    meta["seconds"] = time.perf_counter() - t_start
    print(
        f"GPU check: {name}; torch {torch.__version__}, open_clip {open_clip.__version__}; {a.arch} (random init), "
        f"{a.image_size} px, batch {a.batch}, autocast {a.precision}; {meta['seconds']:.0f} s\n"
    )
    print(table(rows), flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1, default=str))
    shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        say(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
