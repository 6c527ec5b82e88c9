"""Why attention divides the scores by √d: the experiment of ``docs/scaling.md``.

Queries and keys with independent standard normal entries have dot products whose
variance is d, so the scores spread out as the vectors get wider, and the softmax of
widely spread scores puts nearly all the weight on one key. Dividing by √d brings the
variance back to 1. The functions here measure both on seeded random vectors:

- :func:`variance_experiment`: the variance of q · k over many pairs, for each width d;
- :func:`largest_weight_experiment`: the largest softmax weight of a query over n keys,
  averaged over many trials, with and without the division.

The draws come from ``numpy.random.default_rng(seed)``, in the order the docstrings give,
so a standalone script that draws the same way gets the same numbers.
``selfattn_ref.torch.topics.scaling`` has the same functions drawing from a seeded
``torch.Generator``: the same experiment on other random numbers.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import as_float_array, check_bound, check_size, finite, magnitudes, positive_float, value_text
from ..attention import softmax

DIMS = (4, 64, 512)  # the widths the page shows
SAMPLES = 10_000  # pairs per width in the variance experiment
KEYS = 8  # keys per query in the largest-weight experiment
TRIALS = 1_000  # queries per width in the largest-weight experiment
SEED = 0


def dot_products(q, k) -> np.ndarray:
    """Row by row dot products: q (..., d), k (..., d) -> (...), entry i is q[i] · k[i]."""
    q = as_float_array(q, "q", min_ndim=1)
    k = as_float_array(k, "k", min_ndim=1)
    if q.shape != k.shape:
        raise ValueError(f"q and k must have the same shape, got q {q.shape} and k {k.shape}")
    _check_dot_products(q, k, np.result_type(q, k))
    with np.errstate(over="ignore", invalid="ignore"):
        return finite((q * k).sum(axis=-1), "the dot products q . k overflow", q=q, k=k)


def _check_dot_products(q, k, dtype, variance: bool = False) -> None:
    """Refuse q and k (arrays or tensors, both packages) whose dot products, or with ``variance`` their
    variance, could overflow: a dot product is at most the sum of its terms' sizes, and its distance
    from the mean at most twice the largest."""
    with np.errstate(over="ignore", invalid="ignore"):
        sizes = (magnitudes(q) * magnitudes(k)).sum(axis=-1)  # (...,)
        check_bound(sizes, "the dot products q . k overflow", dtype, {"q": q, "k": k}, np.shape(q)[-1])
        if variance:  # the mean adds them up, the variance adds up squares of differences from it
            spread = np.array([sizes.sum(), sizes.size * (2 * sizes.max()) ** 2])
            check_bound(spread, "the variance of the dot products overflows", dtype, {"q": q, "k": k}, sizes.size + 2)


def dot_product_variance(q, k) -> float:
    """The variance of the dot products q[i] · k[i] over all pairs (mean squared distance
    from their mean). q, k: (samples, d) with samples >= 2."""
    q = as_float_array(q, "q", ndim=2)
    k = as_float_array(k, "k", ndim=2)
    if q.shape[0] < 2:
        raise ValueError(f"q must hold at least 2 samples to have a variance, got shape {q.shape}")
    _check_dot_products(q, k, np.result_type(q, k), variance=True)
    with np.errstate(over="ignore", invalid="ignore"):
        variance = np.var(dot_products(q, k))
    return float(finite(variance, "the variance of the dot products overflows", q=q, k=k))


def largest_weights(q, K, scale=None) -> np.ndarray:
    """The largest attention weight of each query over its keys.

    q: (..., d); K: (..., n, d); scale: the factor the scores are multiplied by before the
    softmax, None for 1/√d (scaled attention) and 1.0 for none. Returns (...,): for each
    query, max_j softmax(scale · q · K[j]).
    """
    q = as_float_array(q, "q", min_ndim=1)
    K = as_float_array(K, "K", min_ndim=2)
    if K.shape[:-2] != q.shape[:-1] or K.shape[-1] != q.shape[-1]:
        raise ValueError(f"K must have shape (..., n, d) for q of shape (..., d), got q {q.shape} and K {K.shape}")
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else positive_float(scale, "scale")
    _check_largest(q, K, scale, np.result_type(q, K))
    with np.errstate(over="ignore", invalid="ignore"):
        S = (K @ q[..., :, None])[..., 0] * scale  # (..., n, d) @ (..., d, 1) -> (..., n)
    finite(S, "the scores q . K[j] * scale overflow", q=q, K=K, scale=scale)
    return softmax(S, axis=-1).max(axis=-1)


def _check_largest(q, K, scale: float, dtype) -> None:
    """Refuse q and K (both packages) whose scores q . K[j] times ``scale`` could overflow."""
    with np.errstate(over="ignore", invalid="ignore"):
        bound = (magnitudes(K) @ magnitudes(q)[..., :, None])[..., 0] * scale  # (..., n)
    check_bound(
        bound, "the scores q . K[j] * scale overflow", dtype, {"q": q, "K": K, "scale": scale}, np.shape(q)[-1] + 1
    )


def _count(x, name: str, least: int = 1) -> int:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)) or x < least:
        raise ValueError(f"{name} must be an integer of at least {least}, got {value_text(x)}")
    return int(x)


def _check_draws(what: str, **sizes: int) -> None:
    """Refuse draws of more than MAX_ENTRIES numbers before they are drawn: ``what`` of shape ``sizes``."""
    given = ", ".join(f"{k} = {value_text(v)}" for k, v in sizes.items())
    check_size(tuple(sizes.values()), f"with {given}, {what}")


def _dims(dims) -> tuple[int, ...]:
    try:
        dims = tuple(dims)
    except TypeError:
        raise ValueError(f"dims must be a sequence of positive integers, got {value_text(dims)}") from None
    if not dims:
        raise ValueError("dims must hold at least one width, got ()")
    return tuple(_count(d, "each of dims") for d in dims)


def variance_experiment(dims=DIMS, samples: int = SAMPLES, seed: int = SEED) -> list[dict]:
    """The variance of q · k for random q, k with standard normal entries, at each width.

    One generator, default_rng(seed); for each d in ``dims``, in order, it draws
    q (samples, d) and then k (samples, d). Returns one dict per width:
    {"d", "variance", "variance_scaled"}, the second the variance of q · k / √d (= variance / d).
    """
    dims, samples = _dims(dims), _count(samples, "samples", 2)
    _check_draws("q (samples, d)", samples=samples, **{"d, the widest of dims,": max(dims)})
    rng = np.random.default_rng(_count(seed, "seed", 0))
    rows = []
    for d in dims:
        q = rng.standard_normal((samples, d))  # (samples, d)
        k = rng.standard_normal((samples, d))  # (samples, d)
        variance = dot_product_variance(q, k)
        rows.append({"d": d, "variance": variance, "variance_scaled": float(np.var(dot_products(q, k) / math.sqrt(d)))})
    return rows


def largest_weight_experiment(dims=DIMS, n: int = KEYS, trials: int = TRIALS, seed: int = SEED) -> list[dict]:
    """The largest softmax weight of a random query over n random keys, averaged over trials.

    One generator, default_rng(seed); for each d in ``dims``, in order, it draws the queries
    q (trials, d) and then the keys K (trials, n, d). The same draws are scored twice.
    Returns one dict per width: {"d", "unscaled", "scaled"}, the mean of the largest weight
    of softmax(q · K[j]) and of softmax(q · K[j] / √d).
    """
    dims, n, trials = _dims(dims), _count(n, "n"), _count(trials, "trials")
    _check_draws("K (trials, n, d)", trials=trials, n=n, **{"d, the widest of dims,": max(dims)})
    rng = np.random.default_rng(_count(seed, "seed", 0))
    rows = []
    for d in dims:
        q = rng.standard_normal((trials, d))  # (trials, d)
        K = rng.standard_normal((trials, n, d))  # (trials, n, d)
        rows.append(
            {
                "d": d,
                "unscaled": float(largest_weights(q, K, scale=1.0).mean()),
                "scaled": float(largest_weights(q, K).mean()),
            }
        )
    return rows
