# %% [markdown]
# ## Is the score matrix symmetric?
#
# Entry (i, j) of `scores` is query i against key j. Where `scores - scores.T` is not
# zero, token i scores token j differently from how token j scores token i.

# %%
show(difference=scores - scores.T)

# %% [markdown]
# Now use one matrix for queries and keys: every key equals its query, and the scores are
# symmetric whatever X holds. Try it with an X of your own too.

# %%
Q_same = X @ W_Q
K_same = X @ W_Q  # W_K replaced by W_Q
scores_same = Q_same @ K_same.T
show(scores_same=scores_same)
print("symmetric:", np.array_equal(scores_same, scores_same.T))
