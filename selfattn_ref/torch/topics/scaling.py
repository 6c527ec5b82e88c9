"""Why attention divides the scores by √d, in PyTorch.

The same functions and signatures as :mod:`selfattn_ref.topics.scaling`. The experiments draw
from ``torch.Generator().manual_seed(seed)`` (float64, in the same order as the NumPy
module), which gives other random numbers than NumPy's generator: the same experiment,
other samples, so the figures agree only as far as sampling allows.
"""

from __future__ import annotations

import math

import torch

from ..._validate import positive_float
from ...topics.scaling import (
    DIMS,
    KEYS,
    SAMPLES,
    SEED,
    TRIALS,
    _check_dot_products,
    _check_draws,
    _check_largest,
    _count,
    _dims,
)
from .._validate import as_float_tensor, common_dtype, finite, shape
from ..attention import softmax

__all__ = [
    "dot_product_variance",
    "dot_products",
    "largest_weight_experiment",
    "largest_weights",
    "variance_experiment",
]


def dot_products(q, k) -> torch.Tensor:
    """Row by row dot products: q (..., d), k (..., d) -> (...), entry i is q[i] · k[i]."""
    q = as_float_tensor(q, "q", min_ndim=1)
    k = as_float_tensor(k, "k", min_ndim=1)
    if q.shape != k.shape:
        raise ValueError(f"q and k must have the same shape, got q {shape(q)} and k {shape(k)}")
    q, k = common_dtype(q, k)
    _check_dot_products(q, k, q.dtype)  # the NumPy package's bounds: the same inputs refused
    return finite((q * k).sum(dim=-1), "the dot products q . k overflow", q=q, k=k)


def dot_product_variance(q, k) -> float:
    """The variance of the dot products q[i] · k[i] over all pairs (mean squared distance
    from their mean). q, k: (samples, d) with samples >= 2."""
    q = as_float_tensor(q, "q", ndim=2)
    k = as_float_tensor(k, "k", ndim=2)
    if q.shape[0] < 2:
        raise ValueError(f"q must hold at least 2 samples to have a variance, got shape {shape(q)}")
    _check_dot_products(q, k, common_dtype(q, k)[0].dtype, variance=True)
    variance = dot_products(q, k).var(correction=0)
    return float(finite(variance, "the variance of the dot products overflows", q=q, k=k))


def largest_weights(q, K, scale=None) -> torch.Tensor:
    """The largest attention weight of each query over its keys.

    q: (..., d); K: (..., n, d); scale: the factor the scores are multiplied by before the
    softmax, None for 1/√d (scaled attention) and 1.0 for none. Returns (...,): for each
    query, max_j softmax(scale · q · K[j]).
    """
    q = as_float_tensor(q, "q", min_ndim=1)
    K = as_float_tensor(K, "K", min_ndim=2)
    if K.shape[:-2] != q.shape[:-1] or K.shape[-1] != q.shape[-1]:
        raise ValueError(f"K must have shape (..., n, d) for q of shape (..., d), got q {shape(q)} and K {shape(K)}")
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else positive_float(scale, "scale")
    q, K = common_dtype(q, K)
    _check_largest(q, K, scale, q.dtype)  # the NumPy package's bound
    S = (K @ q[..., :, None])[..., 0] * scale  # (..., n, d) @ (..., d, 1) -> (..., n)
    finite(S, "the scores q . K[j] * scale overflow", q=q, K=K, scale=scale)
    return softmax(S, axis=-1).amax(dim=-1)


def variance_experiment(dims=DIMS, samples: int = SAMPLES, seed: int = SEED) -> list[dict]:
    """The variance of q · k for random q, k with standard normal entries, at each width.

    One generator, torch.Generator().manual_seed(seed); for each d in ``dims``, in order, it
    draws q (samples, d) and then k (samples, d), float64. Returns one dict per width:
    {"d", "variance", "variance_scaled"}, the second the variance of q · k / √d.
    """
    dims, samples = _dims(dims), _count(samples, "samples", 2)
    _check_draws("q (samples, d)", samples=samples, **{"d, the widest of dims,": max(dims)})
    g = torch.Generator().manual_seed(_count(seed, "seed", 0))
    rows = []
    for d in dims:
        q = torch.randn((samples, d), generator=g, dtype=torch.float64)  # (samples, d)
        k = torch.randn((samples, d), generator=g, dtype=torch.float64)  # (samples, d)
        variance = dot_product_variance(q, k)
        scaled = float((dot_products(q, k) / math.sqrt(d)).var(correction=0))
        rows.append({"d": d, "variance": variance, "variance_scaled": scaled})
    return rows


def largest_weight_experiment(dims=DIMS, n: int = KEYS, trials: int = TRIALS, seed: int = SEED) -> list[dict]:
    """The largest softmax weight of a random query over n random keys, averaged over trials.

    One generator, torch.Generator().manual_seed(seed); for each d in ``dims``, in order, it
    draws the queries q (trials, d) and then the keys K (trials, n, d), float64. The same
    draws are scored twice. Returns one dict per width: {"d", "unscaled", "scaled"}.
    """
    dims, n, trials = _dims(dims), _count(n, "n"), _count(trials, "trials")
    _check_draws("K (trials, n, d)", trials=trials, n=n, **{"d, the widest of dims,": max(dims)})
    g = torch.Generator().manual_seed(_count(seed, "seed", 0))
    rows = []
    for d in dims:
        q = torch.randn((trials, d), generator=g, dtype=torch.float64)  # (trials, d)
        K = torch.randn((trials, n, d), generator=g, dtype=torch.float64)  # (trials, n, d)
        rows.append(
            {
                "d": d,
                "unscaled": float(largest_weights(q, K, scale=1.0).mean()),
                "scaled": float(largest_weights(q, K).mean()),
            }
        )
    return rows
