"""Noisy SGDA (BGM23 App. C.2) in vectorized NumPy, the way a practitioner would write it: the
peer of the crate's `benches/noisy_sgda.rs` on the instance of issue 12.

Instance: n points uniform in [-1, 1]^{2d}; f(w, th; x) = (mu/2)|w|^2 + w^T C th + <x_w, w>
- <x_th, th> - (mu/2)|th|^2 with mu = 0.1 and C uniform in [-0.3, 0.3]^{d x d}; W = Th = the unit
l2 ball of R^d; T steps, each: m indices with replacement, the minibatch-mean saddle operator,
N(0, sigma^2 I_{2d}) noise, a projected step of size eta, running averages of the iterates.

Usage: python3 noisy_sgda.py D M [T] [N]   (prints per-sample gradient evaluations per second).
Needs numpy; exits with status 3 and a message when it is missing.
"""
import sys
import time

try:
    import numpy as np
except ImportError:  # the comparison is optional
    print("numpy is not installed: skipping the NumPy peer", file=sys.stderr)
    sys.exit(3)


def project(v, radius=1.0):
    norm = np.linalg.norm(v)
    return v if norm <= radius else v * (radius / norm)


def noisy_sgda(X, C, steps, m, sigma=0.1, eta=0.01, mu=0.1, seed=0):
    rng = np.random.default_rng(seed)
    n, k = X.shape
    d = k // 2
    w, th = np.zeros(d), np.zeros(d)
    w_sum, th_sum = np.zeros(d), np.zeros(d)
    for _ in range(steps):
        w_sum += w
        th_sum += th
        xb = X[rng.integers(0, n, size=m)].mean(axis=0)
        g_w = mu * w + C @ th + xb[:d]
        g_th = mu * th - C.T @ w + xb[d:]
        xi = rng.normal(0.0, sigma, size=2 * d)
        w = project(w - eta * (g_w + xi[:d]))
        th = project(th - eta * (g_th + xi[d:]))
    return w_sum / steps, th_sum / steps


def main():
    d = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    m = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
    rng = np.random.default_rng(1)
    X = rng.uniform(-1.0, 1.0, size=(n, 2 * d))
    C = rng.uniform(-0.3, 0.3, size=(d, d))
    t0 = time.process_time()
    noisy_sgda(X, C, steps, m)
    cpu = time.process_time() - t0
    print(f"numpy-peer d={d} m={m} T={steps}: {steps * m / cpu:.3e} per-sample gradient evaluations/s (cpu)")


if __name__ == "__main__":
    main()
