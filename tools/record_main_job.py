#!/usr/bin/env python
"""Run the main job, `accelerate launch -m argent_nb.train`, at its defaults, and keep its record: the run's config,
evaluation, metrics and provenance, and what it cost (wall time, CPU time, peak memory). The README and `50_train` read
their main-job table and timing from that record (`argent_nb.train.main_job_table`). Run it on a quiet machine: the
timing is of the whole command, as a user sees it.

    python tools/record_main_job.py                      # writes runs/main_job (refused if it exists)
    python tools/record_main_job.py --replace            # replaces the committed record
"""

import argparse, json, os, resource, shutil, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEEP = ("config.yaml", "eval.json", "metrics.jsonl", "provenance.json")
COMMAND = ["accelerate", "launch", "-m", "argent_nb.train"]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--out", type=Path, default=ROOT / "runs" / "main_job", help="record folder (default: runs/main_job)"
    )
    p.add_argument("--replace", action="store_true", help="replace an existing record")
    a = p.parse_args(argv)
    if a.out.exists() and not a.replace:
        p.error(f"{a.out} exists; --replace replaces it")  # one line, exit status 2, nothing run
    with tempfile.TemporaryDirectory(prefix="main_job_") as tmp:
        run = Path(tmp) / "run"
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        t0, r0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([*COMMAND, f"run.dir={run}"], env=env, cwd=tmp)
        wall, r1 = time.perf_counter() - t0, resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode:
            sys.exit(f"the main job failed (exit status {done.returncode}); nothing recorded")
        staged = Path(tmp) / "record"
        staged.mkdir()
        for f in KEEP:
            shutil.copy2(run / f, staged / f)
        cost = {
            "command": " ".join(COMMAND),
            "wall_s": round(wall, 1),
            "cpu_s": round((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), 1),
            "peak_rss_gb": round(r1.ru_maxrss / 2**20, 2),  # Linux: KiB, the largest process of the command
        }
        (staged / "cost.json").write_text(json.dumps(cost, indent=1) + "\n")
        if a.out.exists():
            shutil.rmtree(a.out)
        a.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), a.out)
    print(f"recorded {a.out}: {cost}")


if __name__ == "__main__":
    main()
