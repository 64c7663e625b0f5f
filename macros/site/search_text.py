"""Math as a reader would type it into the search box: the numbers, not the markup.

The search index is made from each page's HTML, where a formula is still its TeX source
between arithmatex's delimiters (KaTeX typesets the page later, in ``on_post_page``). This
module gives the index a plain reading of each formula instead:

    \\(1.4142\\)                                ->  1.4142
    \\[ a \\approx [0.6090, 0.0730] \\]           ->  a ≈ [0.6090, 0.0730]
    \\begin{bmatrix} 1 & 0 \\\\ 0 & 1 \\end{bmatrix} ->  [[1, 0], [0, 1]]
    \\frac{Q K^\\top}{\\sqrt{ 2 }}                 ->  Q Kᵀ / √2

Numbers pass through untouched; commands become their symbol or their name.
"""

import html
import re

from macros.render.katex import MATH

SYMBOLS = {
    "approx": "≈",
    "cdot": "·",
    "times": "×",
    "top": "ᵀ",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "neq": "≠",
    "ne": "≠",
    "to": "→",
    "rightarrow": "→",
    "mapsto": "↦",
    "in": "∈",
    "infty": "∞",
    "sum": "Σ",
    "prod": "Π",
    "pm": "±",
    "ldots": "…",
    "dots": "…",
    "cdots": "…",
    "vdots": "⋮",
    "ddots": "⋱",
    "mid": "|",
    "lvert": "|",
    "rvert": "|",
    "lVert": "‖",
    "rVert": "‖",
    "langle": "⟨",
    "rangle": "⟩",
    "odot": "⊙",
    "circ": "∘",
    "prime": "′",
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "eta": "η",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "omega": "ω",
    "Delta": "Δ",
    "Sigma": "Σ",
    "Theta": "Θ",
    "Omega": "Ω",
    "{": "{",
    "}": "}",
    "%": "%",
    "&": "&",
    "#": "#",
    "_": "_",
    "$": "$",
}
SPACES = {",", ";", ":", "!", " ", "quad", "qquad", "enspace", "thinspace"}
DROPPED = {"left", "right", "big", "Big", "bigg", "Bigg", "displaystyle", "limits", "nolimits"}
WRAPPERS = {"text", "mathrm", "mathbf", "mathit", "mathsf", "mathtt", "operatorname", "boldsymbol", "textbf", "textit"}
ACCENTS = {"bar": "\u0304", "hat": "\u0302", "tilde": "\u0303", "vec": "\u20d7", "dot": "\u0307"}
FRACTIONS = {"frac", "tfrac", "dfrac"}
MATRICES = re.compile(r"\\begin\{([pbBvV]?matrix|array|cases|aligned)\}(?:\{[^}]*\})?(.*?)\\end\{\1\}", re.S)
TOKEN = re.compile(r"\\([A-Za-z]+|.)|([{}^_])|([^\\{}^_]+)", re.S)


def readable(tex):
    """A formula's TeX as plain text with its numbers kept."""
    text = MATRICES.sub(lambda m: _matrix(m.group(2)), tex)
    out, _ = _group(list(TOKEN.finditer(text)), 0, closing=False)
    return " ".join(out.split())


def _matrix(body):
    rows = [row for row in re.split(r"\\\\", body) if row.strip()]
    cells = [[readable(cell) for cell in row.split("&")] for row in rows]
    if len(cells) == 1:
        return "[" + ", ".join(cells[0]) + "]"
    return "[" + ", ".join("[" + ", ".join(row) + "]" for row in cells) + "]"


def _group(tokens, i, closing):
    """Text of tokens from ``i`` up to the matching ``}`` (when ``closing``), and where it ended."""
    parts = []
    while i < len(tokens):
        command, brace, plain = tokens[i].groups()
        i += 1
        if brace == "}":
            if closing:
                break
            continue
        if brace == "{":
            text, i = _group(tokens, i, closing=True)
            parts.append(text)
        elif brace in ("^", "_"):
            text, rest, i = _argument(tokens, i)
            parts.append(_script(brace, text) + rest)
        elif plain is not None:
            parts.append(plain)
        elif command in FRACTIONS:
            top, rest, i = _argument(tokens, i)
            if rest:  # \frac12: one digit each
                bottom, rest = rest[0], rest[1:]
            else:
                bottom, rest, i = _argument(tokens, i)
            parts.append(f" {_atom(top)}/{_atom(bottom)} {rest}")
        elif command == "sqrt":
            body, rest, i = _argument(tokens, i)
            parts.append("√" + _atom(body) + rest)
        elif command in WRAPPERS:
            body, rest, i = _argument(tokens, i)
            parts.append(body.strip() + rest)
        elif command in ACCENTS:
            body, rest, i = _argument(tokens, i)
            body = body.strip()
            parts.append((body + ACCENTS[command] if len(body) == 1 else body) + rest)
        elif command in SPACES:
            parts.append(" ")
        elif command in DROPPED:
            continue
        elif command in SYMBOLS:
            spaced = len(command) > 1 and command not in ("top", "prime")
            parts.append(f" {SYMBOLS[command]} " if spaced else SYMBOLS[command])
        else:
            parts.append(f" {command} ")
    return "".join(parts), i


def _argument(tokens, i):
    """The next argument of a command or script (a braced group or one character), the rest
    of a plain run it was taken from (``x^2y``: ``2`` then ``y``), and where it ended."""
    while i < len(tokens):
        command, brace, plain = tokens[i].groups()
        if brace == "{":
            text, i = _group(tokens, i + 1, closing=True)
            return text, "", i
        if plain is not None:
            stripped = plain.lstrip()
            if not stripped:
                i += 1
                continue
            return stripped[0], stripped[1:], i + 1
        text, _ = _group([tokens[i]], 0, closing=False)
        return text.strip(), "", i + 1
    return "", "", i


def _script(kind, text):
    text = " ".join(text.split())
    if kind == "^" and text == "ᵀ":
        return text
    if len(text) <= 1 or text.startswith("("):
        return f"{kind}{text}"
    return f"{kind}({text})" if kind == "^" else f"{kind}{text.replace(' ', '')}"


def _atom(text):
    text = " ".join(text.split())
    return text if re.fullmatch(r"[\w.·−√-]+", text) or text.startswith("[") else f"({text})"


def for_search(content):
    """A page's HTML with each formula replaced by its plain reading (for the search index only)."""

    def plain(match):
        tex = html.unescape(match["inline"] if match["inline"] is not None else match["display"])
        return f"<{match['tag']}>{html.escape(readable(tex), quote=False)}</{match['tag']}>"

    return MATH.sub(plain, content)
