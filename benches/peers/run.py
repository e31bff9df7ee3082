"""Side-by-side noisy SGDA throughput on the instance of issue 12, in one run on one machine:
the crate through its library (the criterion bench `benches/noisy_sgda.rs`) and through
`dpsaddle run` (CPU time at T and 2T, so start-up and data generation cancel), the NumPy peer
(`noisy_sgda.py` here, and the reference one if given), and a tuned C floor doing the same whole
step. Ratios are crate / C and crate / NumPy; every figure is per-sample gradient evaluations per
second of CPU time. Also reports the peak memory (max RSS) of `dpsaddle run noisy_sgda` at
T = 10^4 and 10^6.

Usage (from the repository root, after `cargo build --release`):
    python3 benches/peers/run.py --reference DIR [--skip-criterion] [--repeat K]
DIR holds the reference programs `noisy_sgda_floor.c` and (optionally) `noisy_sgda_numpy.py`
(they are not part of this repository). Standard library only; the NumPy columns are skipped
when numpy is not installed. With --repeat K every measurement is taken K times, interleaved,
and the best (highest rate, lowest CPU) is kept, which damps the load of a shared machine.
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile

CASES = [(10, 10), (10, 1), (100, 100)]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def timed_child(cmd):
    """Run cmd; return (stdout, CPU seconds, max RSS KiB) measured by wait4 on that child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, ru = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {os.waitstatus_to_exitcode(status)}")
    return b"".join(chunks).decode(), ru.ru_utime + ru.ru_stime, ru.ru_maxrss


def config_with_steps(d, m, steps, tmp):
    src = os.path.join(ROOT, "fixtures", "configs", f"noisy_sgda_explicit_d{d}_m{m}.json")
    with open(src) as f:
        cfg = json.load(f)
    cfg["params"]["steps"] = steps
    path = os.path.join(tmp, f"d{d}_m{m}_T{steps}.json")
    with open(path, "w") as f:
        json.dump(cfg, f)
    return path


def cli_rate(binary, d, m, steps, tmp):
    """Per-sample evaluations per CPU second of `dpsaddle run` from the T and 2T difference."""
    a = config_with_steps(d, m, steps, tmp)
    b = config_with_steps(d, m, 2 * steps, tmp)
    _, ta, _ = timed_child([binary, "run", "noisy_sgda", "--config", a])
    _, tb, _ = timed_child([binary, "run", "noisy_sgda", "--config", b])
    return m * steps / max(tb - ta, 1e-9)


def c_rate(floor, d, m, steps):
    out, _, _ = timed_child([floor, "full", "10000", str(d), str(m), str(steps)])
    return float(re.search(r"([0-9.e+]+) evals/s cpu", out).group(1))


def numpy_rate(script, d, m):
    try:
        out, _, _ = timed_child([sys.executable, script, str(d), str(m)])
    except RuntimeError:
        return None
    return float(re.search(r"([0-9.]+e[+-][0-9]+) per-sample", out).group(1))


def criterion_rates():
    """Run the criterion bench once; return {(d, m): mean elements/s}."""
    out = subprocess.run(
        ["cargo", "bench", "--bench", "noisy_sgda", "--", "--noplot"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout
    rates, name = {}, None
    unit = {"elem/s": 1.0, "Kelem/s": 1e3, "Melem/s": 1e6, "Gelem/s": 1e9}
    for line in out.splitlines():
        mname = re.search(r"noisy_sgda/d(\d+)_m(\d+)_T\d+", line)
        if mname:
            name = (int(mname.group(1)), int(mname.group(2)))
        mt = re.search(r"thrpt:\s*\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
        if mt and name:
            rates[name] = float(mt.group(1)) * unit[mt.group(2)]
            name = None
    return rates


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", required=True, help="directory with noisy_sgda_floor.c [, noisy_sgda_numpy.py]")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "dpsaddle"))
    ap.add_argument("--skip-criterion", action="store_true")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="dpsaddle-peers-")
    floor = os.path.join(tmp, "floor")
    subprocess.run(["gcc", "-O3", "-march=native", os.path.join(args.reference, "noisy_sgda_floor.c"),
                    "-lm", "-o", floor], check=True)
    ours_np = os.path.join(os.path.dirname(os.path.abspath(__file__)), "noisy_sgda.py")
    ref_np = os.path.join(args.reference, "noisy_sgda_numpy.py")
    lib = {} if args.skip_criterion else criterion_rates()
    rows = []
    for d, m in CASES:
        # CLI at T and 2T with T large enough for the difference to dominate timer noise.
        t_cli = 10_000 if d == 100 else 500_000
        t_c = 20_000 if d == 100 else 500_000
        best = {"cli": 0.0, "c": 0.0, "np": None, "np_ref": None}
        for _ in range(args.repeat):
            best["c"] = max(best["c"], c_rate(floor, d, m, t_c))
            best["cli"] = max(best["cli"], cli_rate(args.bin, d, m, t_cli, tmp))
            for key, script in (("np", ours_np), ("np_ref", ref_np)):
                if os.path.exists(script):
                    r = numpy_rate(script, d, m)
                    if r is not None:
                        best[key] = max(best[key] or 0.0, r)
        rows.append((d, m, lib.get((d, m)), best))
    load = os.getloadavg()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    print("per-sample gradient evaluations per CPU second (best of %d)" % args.repeat)
    hdr = ("(d, m)", "crate lib", "crate CLI", "C floor", "NumPy", "NumPy ref", "lib/C", "CLI/C", "lib/NumPy", "CLI/NumPy")
    print(" | ".join(f"{h:>10}" for h in hdr))

    def fmt(x):
        return f"{x:10.3e}" if x else f"{'-':>10}"

    def ratio(a, b):
        return f"{a / b:10.2f}" if a and b else f"{'-':>10}"

    for d, m, lib_rate, b in rows:
        cells = [f"{f'({d}, {m})':>10}", fmt(lib_rate), fmt(b["cli"]), fmt(b["c"]), fmt(b["np"]), fmt(b["np_ref"]),
                 ratio(lib_rate, b["c"]), ratio(b["cli"], b["c"]), ratio(lib_rate, b["np"]), ratio(b["cli"], b["np"])]
        print(" | ".join(cells))
    # Peak memory at T = 10^4 and 10^6 (d = 10, m = 10).
    rss = {}
    for steps in (10_000, 1_000_000):
        _, _, rss[steps] = timed_child([args.bin, "run", "noisy_sgda", "--config", config_with_steps(10, 10, steps, tmp)])
    print(f"max RSS of dpsaddle run noisy_sgda (d = 10, m = 10): T = 1e4 {rss[10_000]} KiB, "
          f"T = 1e6 {rss[1_000_000]} KiB (ratio {rss[1_000_000] / rss[10_000]:.3f})")


if __name__ == "__main__":
    main()
