# %% [markdown]
# ## The same layer, fused
#
# The cells above go head by head, as the first lessons did. The lesson page computes the
# layer the way real code does: one projection for all heads, a reshape that sorts the
# numbers into heads, and every head's scores, softmax and readings at once. Here is that
# computation in numpy, with the shape of every result.

# %%
h = 2  # heads
n, d_model = X.shape
W_Q_all = np.hstack([W_Q1, W_Q2])  # (d_model, h · d_k) = (4, 4): head 1's columns, then head 2's
W_K_all = np.hstack([W_K1, W_K2])  # (d_model, h · d_k)
W_V_all = np.hstack([W_V1, W_V2])  # (d_model, h · d_v)
XW_Q = X @ W_Q_all  # (n, d_model) @ (d_model, h · d_k) -> (n, h · d_k)
show(W_Q_all=W_Q_all, XW_Q=XW_Q)


# %%
# Reshape (n, h · d_k) -> (n, h, d_k), then move the head axis first: (h, n, d_k).
def split_heads(M):
    return M.reshape(n, h, -1).transpose(1, 0, 2)


Q_all = split_heads(XW_Q)  # (h, n, d_k)
K_all = split_heads(X @ W_K_all)  # (h, n, d_k)
V_all = split_heads(X @ W_V_all)  # (h, n, d_v)
print("by position:", XW_Q.reshape(n, h, -1).shape, " by head:", Q_all.shape)
show(Q_all=Q_all)

# %%
# Every head at once: scores, scale, mask, softmax and readings along a leading head axis.
scores_all = Q_all @ K_all.transpose(0, 2, 1)  # (h, n, d_k) @ (h, d_k, n) -> (h, n, n)
scaled_all = scores_all / np.sqrt(Q_all.shape[-1])  # (h, n, n)
masked_all = np.where(visible, scaled_all, -np.inf)  # (h, n, n): the mask is shared by the heads
exps_all = np.exp(masked_all - masked_all.max(axis=-1, keepdims=True))  # (h, n, n)
weights_all = exps_all / exps_all.sum(axis=-1, keepdims=True)  # (h, n, n)
readings_all = weights_all @ V_all  # (h, n, n) @ (h, n, d_v) -> (h, n, d_v)
show(weights_all=weights_all, readings_all=readings_all)

# %%
# Back to one row per position: transpose to (n, h, d_v), reshape to (n, h · d_v), then W_O.
concat_fused = readings_all.transpose(1, 0, 2).reshape(n, -1)  # (n, h · d_v)
output_fused = concat_fused @ W_O  # (n, h · d_v) @ (h · d_v, d_model) -> (n, d_model)
show(output_fused=output_fused)
np.testing.assert_allclose(output_fused, output, rtol=0, atol=1e-12)
print("The fused output equals the head-by-head output to within 1e-12.")

# %% [markdown]
# ## The layout trap
#
# PyTorch stores a projection as (out, in) and multiplies by its transpose. Because
# `W_Q_all` is square here, forgetting the transpose raises no error; it only gives other
# queries. Compare the two:

# %%
show(right=X @ W_Q_all, forgot_the_transpose=X @ W_Q_all.T)
