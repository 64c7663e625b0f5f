"""Linear attention (Katharopoulos et al., 2020): a feature map in place of the softmax.

Softmax attention weighs key j for query i by e^(q_i·k_j/√d_k), which needs every pair.
Linear attention weighs it by φ(q_i)·φ(k_j) with a feature map φ whose entries are
positive, here elu(x) + 1 (x + 1 for x > 0, e^x otherwise), and no scale. The reading

    o_i = Σ_j φ(q_i)·φ(k_j) v_j / Σ_j φ(q_i)·φ(k_j)

can then be regrouped: o_i = φ(q_i) S_i / (φ(q_i) · z_i), with the state S_i = Σ_j φ(k_j)ᵀ v_j
(d_k × d_v) and the normaliser z_i = Σ_j φ(k_j) (d_k) summed over the keys query i sees.
Under a causal mask S_i = S_(i−1) + φ(k_i)ᵀ v_i: one fixed-size state updated token by token,
so a sequence costs time in proportion to n rather than n².

The head's trace keeps both ways: the all-pairs similarities and their normalised rows (in
the softmax's fields) and the states, normalisers and readings.
"""

import numpy as np

from macros.engine.trace import HeadTrace


def elu_plus_one(x):
    """φ(x) = elu(x) + 1: x + 1 where x > 0, e^x elsewhere; every entry above 0."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))  # same shape as x


FEATURES = {"elu_plus_one": elu_plus_one}


def similarities(phi_Q, phi_K):
    """φ(q_i) · φ(k_j) for every query and key: what replaces e^(score)."""
    return phi_Q @ phi_K.T  # (n_q, d_k) @ (d_k, n_k) -> (n_q, n_k)


def states(phi_K, V, visible):
    """S_i = Σ_j φ(k_j)ᵀ v_j over the keys query i sees: one d_k × d_v matrix per query."""
    outer = phi_K[:, :, None] * V[:, None, :]  # (n_k, d_k, d_v): φ(k_j)ᵀ v_j for each key
    return np.einsum("ij,jkv->ikv", visible.astype(float), outer)  # (n_q, d_k, d_v)


def normalizers(phi_K, visible):
    """z_i = Σ_j φ(k_j) over the keys query i sees."""
    return visible.astype(float) @ phi_K  # (n_q, n_k) @ (n_k, d_k) -> (n_q, d_k)


def readings(phi_Q, S, z):
    """o_i = φ(q_i) S_i / (φ(q_i) · z_i): the reading from the state alone, no pair kept."""
    numerators = np.einsum("ik,ikv->iv", phi_Q, S)  # (n_q, d_v)
    denominators = np.sum(phi_Q * z, axis=1)  # (n_q,)
    return numerators / denominators[:, None]  # (n_q, d_v)


def attend(Q, K, V, visible, feature="elu_plus_one"):
    """One head of linear attention under a mask: its trace, both ways."""
    phi = FEATURES[feature]
    phi_Q, phi_K = phi(Q), phi(K)  # (n_q, d_k), (n_k, d_k)
    similar = similarities(phi_Q, phi_K)  # (n_q, n_k)
    kept = np.where(visible, similar, 0.0)  # (n_q, n_k): a hidden key adds nothing
    sums = kept.sum(axis=1)  # (n_q,)
    S, z = states(phi_K, V, visible), normalizers(phi_K, visible)  # (n_q, d_k, d_v), (n_q, d_k)
    return HeadTrace(
        Q=Q,
        K=K,
        V=V,
        scores=similar,
        scale=1.0,
        scaled=similar,
        visible=visible,
        shift=np.zeros(Q.shape[0]),
        shifted=np.where(visible, similar, -np.inf),
        exps=kept,
        sums=sums,
        weights=kept / sums[:, None],
        output=readings(phi_Q, S, z),
        plain_exps=kept,
        plain_sums=sums,
        phi_Q=phi_Q,
        phi_K=phi_K,
        states=S,
        normalizers=z,
    )


def step(M, N, phi_q, phi_k, v):
    """One more token on a causal state: M + φ(k)ᵀ v, N + φ(k), and the new token's reading
    φ(q) M / (φ(q) · N), from the state alone."""
    M = M + np.outer(phi_k, v)  # (d_k, d_v)
    N = N + phi_k  # (d_k,)
    return M, N, (phi_q @ M) / (phi_q @ N)  # (d_v,)
