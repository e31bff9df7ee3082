#!/usr/bin/env python3
"""Robustness campaign (issue 13): malformed and extreme inputs replayed against the binary.

Usage: scripts/robustness_campaign.py [path/to/dpsaddle] [--timeout SECONDS]
(default binary: target/release/dpsaddle; run from the repository root).

Every case is one command line with what it must do: `refuse` (exit 2, never 0), `answer`
(exit 0), `either` (exit 0, 1 or 2), or `intact` (a directory that must be byte-identical
afterwards). Each run has a wall-clock limit (default 20 s) and an address-space limit of 4 GiB.
Outcomes, one per case:

  clean             what the case requires
  panic             exit 101 or "panicked" on stderr
  hang              over the time limit
  blow-up           out of memory (exit 134, "memory allocation failed", killed by a signal)
  silently accepted exit 0 where a refusal (exit 2) is required
  vague             refused, but the message names no field (no "invalid <field>", no path)
  half-written      an output directory changed although the command failed or was interrupted
  wrong status      any other mismatch (e.g. a closed pipe not ending with 141)

The table (cases per class and outcome) is printed at the end; the exit status is 1 if any case is
not clean.
"""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/dpsaddle")
TIMEOUT = 20.0
if "--timeout" in sys.argv:
    TIMEOUT = float(sys.argv[sys.argv.index("--timeout") + 1])
MEM = 4 << 30
TMP = tempfile.mkdtemp(prefix="dpsaddle-campaign-")


def limit():
    resource.setrlimit(resource.RLIMIT_AS, (MEM, MEM))


def put(name, value):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(value if isinstance(value, str) else json.dumps(value))
    return path


def run(args, close_stdout=False):
    t0 = time.time()
    p = subprocess.Popen(
        [BIN] + args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=limit,
        start_new_session=True,
    )
    if close_stdout:
        p.stdout.close()
    try:
        out, err = p.communicate(timeout=TIMEOUT) if not close_stdout else (b"", p.communicate(timeout=TIMEOUT)[1])
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        return None, b"", b"", time.time() - t0
    return p.returncode, out or b"", err or b"", time.time() - t0


def classify(expect, code, err, secs):
    e = err.decode("utf-8", "replace")
    if code is None:
        return "hang"
    if code == 101 or "panicked" in e:
        return "panic"
    if code == 134 or "memory allocation" in e or (code is not None and code < 0):
        return "blow-up"
    if expect == "refuse":
        if code == 0:
            return "silently accepted"
        if code != 2:
            return "wrong status"
        if not any(w in e for w in ("invalid", "unknown field", ".json", "unsupported", "/")):
            return "vague"
        return "clean"
    if expect == "reject":
        # a fixture checker's refusal: exit 1 (a failing verdict) or 2 (bad input), never 0
        if code == 0:
            return "silently accepted"
        return "clean" if code in (1, 2) else "wrong status"
    if expect == "answer":
        return "clean" if code == 0 else "wrong status"
    if expect == "either":
        return "clean" if code in (0, 1, 2) else "wrong status"
    if expect == "pipe":
        # 141: met the closed pipe and ended quietly; 0: a short output was already in the pipe's
        # buffer before the reader closed it (nothing was lost that the reader asked for).
        return "clean" if code in (141, 0) else "wrong status"
    return "wrong status"


def g(z):
    return {"gaussian": {"noise_multiplier": z}}


def ledger(event, relation="add_remove"):
    return {"relation": relation, "event": event}


def nested(depth, count, leaf):
    e = leaf
    for _ in range(depth):
        e = {"self_composed": {"count": count, "event": e}}
    return e


def load(path):
    with open(path) as f:
        return json.load(f)


CASES = []  # (class, name, expect, args, close_stdout)


def case(cls, name, expect, args, close_stdout=False):
    CASES.append((cls, name, expect, args, close_stdout))


# --- closed pipes -------------------------------------------------------------------------------
ev = put("g.json", ledger(g(1.0)))
for args in (
    ["claims"],
    ["claims", "--json"],
    ["fixtures", "check", "fixtures/core/rng.json"],
    ["privacy", "epsilon", "--event", ev, "--delta", "1e-5"],
    ["privacy", "delta", "--event", ev, "--epsilon", "1"],
    ["privacy", "calibrate", "--epsilon", "1", "--delta", "1e-5", "--sensitivity", "1"],
    ["run", "output_perturbation", "--config", "fixtures/configs/output_perturbation.json"],
    ["run", "noisy_sgda", "--config", "fixtures/configs/noisy_sgda.json", "--privacy-only"],
    ["verify", "--claim", "core.gap_zero_iff_saddle", "--out", os.path.join(TMP, "pipe-out")],
):
    case("closed pipe", " ".join(args[:2]), "pipe", args, True)

# --- numeric searches ---------------------------------------------------------------------------
for eps in ["1", "1e-300", "1e300", "0", "-1", "nan", "inf"]:
    for delta in ["1e-5", "1e-300", "1e-310", "5e-324", "0", "1", "nan"]:
        for sens in ["1", "0", "1e300", "-1"]:
            good = (
                eps not in ("0", "-1", "nan", "inf")
                and delta in ("1e-5", "1e-300")
                and sens in ("1", "0", "1e300")
            )
            case(
                "calibrate",
                f"ε={eps} δ={delta} Δ={sens}",
                "either" if good else "refuse",
                ["privacy", "calibrate", f"--epsilon={eps}", f"--delta={delta}", f"--sensitivity={sens}"],
            )

# --- privacy events -----------------------------------------------------------------------------
hanging = {
    "10^4 Gaussians σ=100": {"composed": [g(100.0)] * 10000},
    "10^4 Poisson-subsampled Gaussians": {
        "composed": [{"poisson_sampled": {"q": 0.01, "event": g(1.0)}}] * 10000
    },
    "40 nested self_composed count 2": nested(40, 2, g(1.0)),
    "count 10^18": {"self_composed": {"count": 10**18, "event": g(1e6)}},
}
for name, e in hanging.items():
    p = put(f"hang-{len(CASES)}.json", ledger(e))
    case("default accountant", name + " (ε)", "answer", ["privacy", "epsilon", "--event", p, "--delta", "1e-5"])
    case("default accountant", name + " (δ)", "answer", ["privacy", "delta", "--event", p, "--epsilon", "1"])

bad_events = {
    "unknown field in gaussian": {"gaussian": {"noise_multiplier": 1.0, "sensitivity": 2}},
    "unknown field in self_composed": {"self_composed": {"count": 2, "event": g(1.0), "k": 3}},
    "unknown event type": {"gausian": {"noise_multiplier": 1.0}},
    "negative noise": g(-1.0),
    "zero noise": g(0.0),
    "count 0": {"self_composed": {"count": 0, "event": g(1.0)}},
    "negative count": {"self_composed": {"count": -1, "event": g(1.0)}},
    "count 2^64": {"self_composed": {"count": 2**64, "event": g(1.0)}},
    "nested counts overflowing u64": nested(3, 2**30, g(1.0)),
    "q = 0": {"poisson_sampled": {"q": 0.0, "event": g(1.0)}},
    "q = 1.5": {"poisson_sampled": {"q": 1.5, "event": g(1.0)}},
    "m > n without replacement": {"sampled_without_replacement": {"n": 3, "m": 5, "event": g(1.0)}},
    "m = 0": {"sampled_with_replacement": {"n": 3, "m": 0, "event": g(1.0)}},
    "depth 300": nested(300, 2, g(1.0)),
    "1.1e6 events": {"composed": ["no_op"] * 1_100_000},
}
for name, e in bad_events.items():
    p = put(f"bad-{len(CASES)}.json", ledger(e))
    case("events", name, "refuse", ["privacy", "epsilon", "--event", p, "--delta", "1e-5"])
p = put("bad-top.json", {"relation": "add_remove", "event": g(1.0), "delta": 1e-5})
case("events", "unknown top-level field", "refuse", ["privacy", "epsilon", "--event", p, "--delta", "1e-5"])
p = put("bad-rel.json", {"relation": "replace", "event": g(1.0)})
case("events", "unknown relation", "refuse", ["privacy", "epsilon", "--event", p, "--delta", "1e-5"])
for d in ["1e-310", "5e-324", "0", "1", "nan", "-1"]:
    case("events", f"δ = {d}", "refuse", ["privacy", "epsilon", "--event", ev, f"--delta={d}"])
for acc in ["rdp", "gdp", "zcdp", "moments", "pld"]:
    p = put(f"wr-{acc}.json", ledger({"sampled_with_replacement": {"n": 100, "m": 5, "event": g(1.0)}}, "replace_one"))
    case("events", f"with replacement, {acc}", "refuse", ["privacy", "epsilon", "--event", p, "--delta", "1e-5", "--accountant", acc])

# --- run configs --------------------------------------------------------------------------------
def cfg_case(name, path, alg, edit, expect="refuse"):
    c = load(path)
    edit(c)
    p = put(f"cfg-{len(CASES)}.json", c)
    case("run configs", name, expect, ["run", alg, "--config", p])


def set_n(n):
    def f(c):
        d = c["data"]
        if "n" in d:
            d["n"] = n
        else:
            atoms = d["points"]
            c["data"] = {"distribution": {"atoms": atoms, "probs": [1.0 / len(atoms)] * len(atoms)}, "n": n}
    return f


for n in [10**9, 10**7, 2 * 10**6, -1, 0, 1e300, "100"]:
    cfg_case(f"noisy_sgda data.n = {n}", "fixtures/configs/noisy_sgda.json", "noisy_sgda", set_n(n))
    cfg_case(f"ldp_sgda data.n = {n}", "fixtures/configs/ldp_sgda.json", "ldp_sgda", set_n(n))
for steps in [10**7, 10**12, 0, -5]:
    cfg_case(f"dp_gda steps = {steps}", "fixtures/configs/dp_gda.json", "dp_gda",
             lambda c, s=steps: c["params"].__setitem__("steps", s))
cfg_case("points of dimension 10^5", "fixtures/configs/output_perturbation.json", "output_perturbation",
         lambda c: c["data"].__setitem__("points", [[0.0] * 100000]))
for key, val in [("epsilon", 0), ("epsilon", -1), ("delta", 1), ("delta", 1e-320), ("epsilon", 1e400), ("lambdaa", 1)]:
    cfg_case(f"output_perturbation params.{key} = {val}", "fixtures/configs/output_perturbation.json",
             "output_perturbation", lambda c, k=key, v=val: c["params"].__setitem__(k, v))
cfg_case("unknown top-level key", "fixtures/configs/output_perturbation.json", "output_perturbation",
         lambda c: c.__setitem__("extra", 1))
for alg in ["regularized_saddle_point", "output_perturbation", "noisy_sgda", "ldp_sgda", "dp_gda"]:
    case("run configs", f"{alg} example (privacy-only)", "answer",
         ["run", alg, "--config", f"fixtures/configs/{alg}.json", "--privacy-only"])

# --- fixture documents --------------------------------------------------------------------------
fx = load("fixtures/core/rng.json")


def fx_case(name, edit, expect="reject"):
    d = json.loads(json.dumps(fx))
    edit(d)
    p = put(f"fx-{len(CASES)}.json", d)
    case("fixtures", name, expect, ["fixtures", "check", p])


fx_case("missing schema", lambda d: d.pop("schema"))
fx_case("misspelt schema value", lambda d: d.__setitem__("schema", "dpsaddle-fixtur-v1"))
fx_case("misspelt schema key", lambda d: d.__setitem__("schemma", d.pop("schema")))
fx_case("wrong numberOfTests", lambda d: d.__setitem__("numberOfTests", 1))
fx_case("unknown top-level key", lambda d: d.__setitem__("extra", 1))
fx_case("negative minLre", lambda d: d["testGroups"][0]["tests"][0].__setitem__("minLre", -5))
fx_case("duplicate tcId", lambda d: d["testGroups"][0]["tests"][1].__setitem__(
    "tcId", d["testGroups"][0]["tests"][0]["tcId"]))
case("fixtures", "empty object", "refuse", ["fixtures", "check", put("fx-empty.json", {})])
case("fixtures", "not JSON", "refuse", ["fixtures", "check", put("fx-bad.json", "{")])
case("fixtures", "claims --paper with no claims", "refuse", ["claims", "--paper", "NOPAPER"])
case("fixtures", "verify --paper with no claims", "refuse", ["verify", "--paper", "NOPAPER", "--out", os.path.join(TMP, "v")])

# --- run all ------------------------------------------------------------------------------------
results = []
for cls, name, expect, args, close in CASES:
    code, out, err, secs = run(args, close)
    results.append((cls, name, classify(expect, code, err, secs), code, secs, err.decode("utf-8", "replace")))


# --- half-written output ------------------------------------------------------------------------
def tree(d):
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = fh.read()
    return out


# verify --out: report.md blocked by a directory; report.json must stay as it was.
vout = os.path.join(TMP, "verify-out")
os.makedirs(os.path.join(vout, "report.md"))
with open(os.path.join(vout, "report.json"), "w") as f:
    f.write("OLD\n")
before = tree(vout)
code, _, err, secs = run(["verify", "--claim", "core.gap_zero_iff_saddle", "--out", vout])
outcome = classify("refuse", code, err, secs)
if tree(vout) != before:
    outcome = "half-written"
results.append(("output", "verify --out with report.md blocked", outcome, code, secs, err.decode()))

# fixtures generate interrupted at several moments: the tree is either untouched or complete.
for delay in [0.2, 1.0, 3.0]:
    fdir = os.path.join(TMP, f"fx-gen-{delay}")
    shutil.copytree("fixtures", fdir)
    ref = tree(fdir)
    p = subprocess.Popen([BIN, "fixtures", "generate", "--dir", fdir], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, preexec_fn=limit)
    time.sleep(delay)
    p.send_signal(signal.SIGKILL)
    p.wait()
    now = tree(fdir)
    partial = any(now.get(k) != v for k, v in ref.items())
    leftovers = [n for n in os.listdir(TMP) if ".staging-" in n]
    outcome = "half-written" if partial else "clean"
    results.append(("output", f"fixtures generate killed after {delay} s", outcome, None, delay,
                    f"staging leftovers (hidden, harmless): {leftovers}" if leftovers else ""))
    for n in leftovers:
        shutil.rmtree(os.path.join(TMP, n), ignore_errors=True)

# --- table --------------------------------------------------------------------------------------
OUTCOMES = ["clean", "panic", "hang", "blow-up", "silently accepted", "vague", "half-written", "wrong status"]
classes = []
for r in results:
    if r[0] not in classes:
        classes.append(r[0])
print(f"{'class':<20}{'cases':>6}" + "".join(f"{o:>19}" for o in OUTCOMES))
tot = {o: 0 for o in OUTCOMES}
for c in classes:
    rs = [r for r in results if r[0] == c]
    counts = {o: sum(1 for r in rs if r[2] == o) for o in OUTCOMES}
    for o in OUTCOMES:
        tot[o] += counts[o]
    print(f"{c:<20}{len(rs):>6}" + "".join(f"{counts[o]:>19}" for o in OUTCOMES))
print(f"{'total':<20}{len(results):>6}" + "".join(f"{tot[o]:>19}" for o in OUTCOMES))
slow = max(results, key=lambda r: r[4] or 0)
print(f"slowest case: {slow[0]} / {slow[1]}: {slow[4]:.2f} s")
bad = [r for r in results if r[2] != "clean"]
for r in bad:
    print(f"NOT CLEAN [{r[2]}] {r[0]} / {r[1]} (exit {r[3]}, {r[4]:.1f} s): {r[5].strip()[:300]}")
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(1 if bad else 0)
