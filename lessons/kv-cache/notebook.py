# %% [markdown]
# ## One token at a time, with a cache
#
# This notebook computes the layer all at once. The lesson's step-by-step run with a
# cache and its memory table are not computed above; the code below, pasted into a new
# code cell, runs the steps and checks them against the readings above.
#
# ```python
# K_cache = np.zeros((0, W_K.shape[1]))  # (0, d_k): nothing remembered yet
# V_cache = np.zeros((0, W_V.shape[1]))  # (0, d_v)
# steps = []
# for t, x_t in enumerate(X):
#     q, k, v = x_t @ W_Q, x_t @ W_K, x_t @ W_V  # (d_model,) @ (d_model, d) -> (d,)
#     K_cache = np.vstack([K_cache, k])  # (t + 1, d_k)
#     V_cache = np.vstack([V_cache, v])  # (t + 1, d_v)
#     s = K_cache @ q / np.sqrt(len(q))  # (t + 1,)
#     a = np.exp(s - s.max()) / np.exp(s - s.max()).sum()  # (t + 1,)
#     steps.append(a @ V_cache)  # (t + 1,) @ (t + 1, d_v) -> (d_v,)
#     show(**{f"step {t + 1}: K_cache": K_cache, f"step {t + 1}: reading": steps[-1]})
# assert np.allclose(np.array(steps), reading, atol=1e-12), "the cache should give the all-at-once readings"
# print("Every step's reading equals the matching row computed all at once.")
# ```
