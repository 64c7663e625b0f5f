"""Linear attention in a notebook (macros/engine/linear.py): φ = elu + 1 in place of the
exponentials, the readings computed two ways (all pairs; a running state), and PyTorch from
the paper's equations (Katharopoulos et al., 2020, eqs. 4 to 6)."""

from macros.notebooks.cells import code

TOLERANCE = "rtol=1e-9, atol=1e-12"


def head_cells(layer, head, q, k, v):
    """One head of linear attention after its projections: the feature map, the all-pairs
    similarities and weights, then the state and normaliser and the reading from them."""
    n = head.name
    phi_q, phi_k, scores, scale, scaled = n("phi_Q"), n("phi_K"), n("scores"), n("scale"), n("scaled")
    exps, sums, weights, reading = n("exps"), n("sums"), n("weights"), n("reading")
    states, normalizers = n("states"), n("normalizers")
    shape = f"({layer.n_q}, {layer.n_k})"
    visible = "visible" if layer.masked else f"np.ones({shape}, dtype=bool)"
    cells = [
        code(
            "# The feature map φ(x) = elu(x) + 1 on each entry: x + 1 above 0, e^x below; every entry above 0.",
            "def phi(x):",
            "    return np.where(x > 0, x + 1, np.exp(np.minimum(x, 0)))",
            "",
            "",
            f"{phi_q}, {phi_k} = phi({q}), phi({k})  # (n_q, d_k), (n_k, d_k)",
            f"show({phi_q}={phi_q}, {phi_k}={phi_k})",
        ),
        code(
            "# All pairs: φ(q)·φ(k) in place of e^(q·k/√d_k); no scale, no shift, no exponentials.",
            f"{scores} = {phi_q} @ {phi_k}.T  # (n_q, n_k) = {shape}",
            f"{scale} = 1.0",
            f"{scaled} = {scores} * {scale}",
            f"{exps} = np.where({visible}, {scores}, 0.0)  # a hidden key adds nothing",
            f"{sums} = {exps}.sum(axis=1, keepdims=True)  # (n_q, 1)",
            f"{weights} = {exps} / {sums}  # (n_q, n_k): each row adds up to 1",
            f"pairs_{reading} = {weights} @ {v}  # (n_q, d_v)",
            f"show({scores}={scores}, {weights}={weights}, pairs_{reading}=pairs_{reading})",
        ),
    ]
    if layer.causal and not layer.key_length:
        running = [
            "# The running state, token by token: M_i = M_(i-1) + φ(k_i)ᵀ v_i and N_i = N_(i-1) + φ(k_i).",
            f"M = np.zeros(({head.d_k}, {head.d_v}))  # (d_k, d_v): the state never grows",
            f"N = np.zeros({head.d_k})  # (d_k,)",
            f"{states}, {normalizers} = [], []",
            f"for i in range({layer.n_q}):",
            f"    M = M + np.outer({phi_k}[i], {v}[i])  # (d_k, d_v)",
            f"    N = N + {phi_k}[i]  # (d_k,)",
            f"    {states}.append(M)",
            f"    {normalizers}.append(N)",
            f"{states}, {normalizers} = np.array({states}), np.array({normalizers})  # (n, d_k, d_v), (n, d_k)",
        ]
    else:
        running = [
            "# Each query's state and normaliser over the keys it sees: M_i = Σ φ(k_j)ᵀ v_j, N_i = Σ φ(k_j).",
            f'{states} = np.einsum("ij,jk,jv->ikv", {visible}.astype(float), {phi_k}, {v})  # (n_q, d_k, d_v)',
            f"{normalizers} = {visible}.astype(float) @ {phi_k}  # (n_q, d_k)",
        ]
    cells.append(
        code(
            *running,
            "# The reading from the state alone: φ(q_i) M_i / (φ(q_i) · N_i).",
            f'{reading} = np.einsum("ik,ikv->iv", {phi_q}, {states}) / np.sum({phi_q} * {normalizers}, axis=1, '
            "keepdims=True)",
            f"np.testing.assert_allclose({reading}, pairs_{reading}, rtol=1e-12, atol=1e-12)",
            'print("The running state gives the all-pairs readings.")',
            f"show({states}={states}, {normalizers}={normalizers}, {reading}={reading})",
        )
    )
    return cells


def torch_lines(layer):
    """The comparison loop's body for linear attention: torch's elu + 1, the states as cumulative
    sums of φ(k)ᵀ v (causal) or one sum, and the reading from them."""
    visible = "tensor(visible).double()" if layer.masked else "torch.ones(q.shape[0], k.shape[0], dtype=torch.float64)"
    return [
        "        # Linear attention from its equations: φ = elu + 1,",
        "        # o_i = φ(q_i) Σ_j φ(k_j)ᵀ v_j / φ(q_i) · Σ_j φ(k_j).",
        "        fq = torch.nn.functional.elu(tensor(q)) + 1",
        "        fk = torch.nn.functional.elu(tensor(k)) + 1",
        f"        seen = {visible}  # 1 where query i sees key j",
        '        M = torch.einsum("ij,jk,jv->ikv", seen, fk, tensor(v))',
        "        N = seen @ fk",
        '        got = torch.einsum("ik,ikv->iv", fq, M) / (fq * N).sum(dim=1, keepdim=True)',
    ]


WORDS = (
    "If PyTorch is installed, this cell computes each head's linear attention from the paper's equations with "
    "torch's own `elu`, sums and products (PyTorch has no linear-attention function, and "
    "`scaled_dot_product_attention` computes a softmax), and compares the readings. Without PyTorch the cell says "
    "so and does nothing else."
)
