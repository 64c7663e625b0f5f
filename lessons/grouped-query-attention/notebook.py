# %% [markdown]
# ## Sharing keys and values
#
# This notebook computes the four heads with their own keys and values. The lesson's
# grouped and multi-query variants are not computed above; the code below, pasted into a
# new code cell, computes the multi-query one.
#
# ```python
# W_K_shared = np.mean([W_K1, W_K2, W_K3, W_K4], axis=0)  # (d_model, d_k)
# W_V_shared = np.mean([W_V1, W_V2, W_V3, W_V4], axis=0)  # (d_model, d_v)
# K_shared, V_shared = X @ W_K_shared, X @ W_V_shared  # (n, d_k), (n, d_v): computed once
#
#
# def causal_head(Q, K, V):
#     s = np.where(np.tril(np.ones((len(Q), len(K)), dtype=bool)), Q @ K.T / np.sqrt(Q.shape[1]), -np.inf)
#     a = np.exp(s - s.max(axis=1, keepdims=True))
#     return (a / a.sum(axis=1, keepdims=True)) @ V  # (n, d_v)
#
#
# multi_query = np.hstack([causal_head(X @ W_Q, K_shared, V_shared) for W_Q in (W_Q1, W_Q2, W_Q3, W_Q4)])
# show(W_K_shared=W_K_shared, W_V_shared=W_V_shared, multi_query=multi_query)
# print("One key and one value per token are cached instead of four of each.")
# ```
