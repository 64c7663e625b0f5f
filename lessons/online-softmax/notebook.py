# %% [markdown]
# ## Reading the keys in blocks
#
# This notebook computes the softmax in one pass. The lesson's blocks are not computed
# above; the code below, pasted into a new code cell, reads the keys in blocks and
# checks the result against the readings above.
#
# ```python
# block_size = 2
# m = np.full(len(Q), -np.inf)  # (n_q,)
# l = np.zeros(len(Q))  # (n_q,)
# acc = np.zeros((len(Q), V.shape[1]))  # (n_q, d_v)
# for start in range(0, len(K), block_size):
#     s = Q @ K[start : start + block_size].T / np.sqrt(Q.shape[1])  # (n_q, d_k) @ (d_k, b) -> (n_q, b)
#     m_new = np.maximum(m, s.max(axis=1))  # (n_q,)
#     rescale = np.exp(m - m_new)  # (n_q,); 0 before the first block
#     e = np.exp(s - m_new[:, None])  # (n_q, b)
#     l = l * rescale + e.sum(axis=1)
#     acc = acc * rescale[:, None] + e @ V[start : start + block_size]  # (n_q, b) @ (b, d_v) -> (n_q, d_v)
#     m = m_new
#     show(**{f"keys {start + 1} on: m": m, "l": l, "acc": acc})
# assert np.allclose(acc / l[:, None], reading, atol=1e-12), "the blocks should give the one-pass readings"
# print("acc / l equals the one-pass readings.")
# ```
