/**
 * Practice on new numbers: a lesson's exercise on a variant of its fixture, drawn, computed
 * and graded in the browser. The markup is macros/render/practice.py's (its docstring is the
 * contract); widgets.js calls makePractice for each `.abh-practice` element and passes the
 * page (stored state, save, refresh) and its own check tools (parseNumber, lands, ...), so
 * reading a typed number and the boundary rule are the lesson's own.
 *
 * - Variant 0 is the lesson's own numbers, as the build wrote them; variant N ≥ 1 is drawn
 *   by generator.js (twin of the build's generator), its answer read from engine.js's trace.
 * - `?variant=N` in the address opens variant N when N is a whole number from 0 to
 *   MAX_VARIANT; anything else opens variant 0 with a short notice.
 * - The tolerance is the block's own, else the page's first exercise's, else one unit in
 *   the lesson's last decimal place. Hints open after the same numbers of attempts as the
 *   hints of the lesson's last exercise (else after 1 and 2); their numbers are this variant's, from the trace.
 * - State: page.state.practice = {<variant>: [{value, attempts, right}, ...]}, one entry
 *   per graded value; the lesson's reset empties it.
 * - Everything a reader types is shown back through textContent or an input's value only.
 */

import { formatValues } from "../format.js";
import { answers, resolveTrace, variant as drawVariant } from "./generator.js";

export const MAX_VARIANT = 1000;

const OUT_OF_RANGE =
  `The address asks for a variant that is not a whole number from 0 to ${MAX_VARIANT}, ` +
  "so these are the lesson's own numbers (variant 0).";

/** {number, notice}: the variant that `search` (location.search) asks for, read strictly. */
export function variantFromAddress(search) {
  let raw;
  try {
    raw = new URLSearchParams(search).get("variant");
  } catch {
    return { number: 0, notice: OUT_OF_RANGE };
  }
  if (raw === null) return { number: 0, notice: "" };
  if (/^\d{1,4}$/.test(raw) && Number(raw) <= MAX_VARIANT) return { number: Number(raw), notice: "" };
  return { number: 0, notice: OUT_OF_RANGE };
}

/** The address of variant `number` of this page, other parameters kept. */
function addressOf(number) {
  const url = new URL(location.href);
  url.searchParams.set("variant", String(number));
  return url.pathname + url.search + url.hash;
}

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

/** "X", "W_Q of head 2" for a draw's field "heads[1].W_Q". */
function fieldName(field) {
  const head = /^heads\[(\d+)\]\.(\w+)$/.exec(field);
  return head ? `${head[2]} of head ${Number(head[1]) + 1}` : field;
}

/** The fixture's matrices, as [field name, path, matrix]. */
function matrices(fixture) {
  const found = [];
  for (const name of ["X", "Q", "K", "V"]) if (fixture[name]) found.push([name, [name], fixture[name]]);
  (fixture.heads ?? []).forEach((head, i) => {
    for (const name of ["W_Q", "W_K", "W_V"]) found.push([`heads[${i}].${name}`, ["heads", i, name], head[name]]);
  });
  if (fixture.W_O) found.push(["W_O", ["W_O"], fixture.W_O]);
  return found;
}

// ---------------------------------------------------------------- tables

function table(make, header, rows, caption) {
  const head = make("tr", {}, ...header.map((text) => make("th", { scope: "col" }, text)));
  const body = rows.map((row) => make("tr", {}, ...row.map((cell) => make("td", {}, cell))));
  return make(
    "table",
    { className: "abh-practice-steps" },
    make("caption", {}, caption),
    make("thead", {}, head),
    make("tbody", {}, ...body),
  );
}

function matrixFigure(make, name, matrix, places) {
  const texts = formatValues(matrix.flat(), places);
  const width = matrix[0].length;
  const rows = matrix.map((row, r) =>
    make("tr", {}, ...row.map((_, c) => make("td", {}, texts[r * width + c]))),
  );
  return make(
    "figure",
    { className: "abh-practice-matrix" },
    make("figcaption", {}, fieldName(name)),
    make("table", { className: "abh-matrix" }, make("tbody", {}, ...rows)),
  );
}

// ---------------------------------------------------------------- hints and worked solutions

/** What a graded path points at: {head, field, row, col} or {layer: true, row, col}, or null. */
function parsePath(path) {
  const parts = String(path).split(".");
  const whole = (text) => /^\d+$/.test(text);
  if (parts.length === 5 && parts[0] === "heads" && [1, 3, 4].every((i) => whole(parts[i]))) {
    return { head: Number(parts[1]), field: parts[2], row: Number(parts[3]), col: Number(parts[4]) };
  }
  if (parts.length === 3 && parts[0] === "output" && whole(parts[1]) && whole(parts[2])) {
    return { layer: true, row: Number(parts[1]), col: Number(parts[2]) };
  }
  return null;
}

/** This variant's hints for one graded value, easiest last: each a sentence of its own numbers. */
function hintsFor(t, path, fmt) {
  const at = parsePath(path);
  if (!at) return [`Read the value at ${path} from the steps of the computation.`];
  if (at.layer) {
    const column = t.W_O.map((row) => row[at.col]);
    return [
      `Start from row ${at.row + 1} of the concatenated heads: ${fmt(t.concat[at.row])}.`,
      `Multiply it by column ${at.col + 1} of W_O, ${fmt(column)}, entry by entry, and add.`,
    ];
  }
  const head = t.heads[at.head];
  const scaled = head.scaled[at.row].map((x) => (x === null ? "masked" : fmt([x])));
  const hints = [
    `Query ${at.row + 1}'s scaled scores in head ${at.head + 1} are ${scaled.join(", ")}.`,
    `Their weights are exp(score − ${fmt([head.shift[at.row]])}) divided by the sum of those exponentials, ` +
      `${fmt([head.sums[at.row]])}.`,
  ];
  if (at.field === "output") {
    hints.push(
      `Multiply the weights ${fmt(head.weights[at.row])} by coordinate ${at.col + 1} of the value rows, ` +
        `${fmt(head.V.map((v) => v[at.col]))}, and add.`,
    );
  }
  return hints;
}

/** The steps of one variant's graded value, as a table computed from its trace. */
function solutionFor(make, t, path, fmt) {
  const at = parsePath(path);
  if (!at) return make("p", {}, `The value at ${path} is ${fmt([resolveTrace(t, path)])}.`);
  if (at.layer) {
    const z = t.concat[at.row];
    const w = t.W_O.map((row) => row[at.col]);
    const rows = z.map((x, k) => [String(k + 1), fmt([x]), fmt([w[k]]), fmt([x * w[k]])]);
    rows.push(["sum", "", "", fmt([t.output[at.row][at.col]])]);
    return table(
      make,
      ["entry", "concatenated row", `W_O column ${at.col + 1}`, "product"],
      rows,
      `Coordinate ${at.col + 1} of the output at position ${at.row + 1}`,
    );
  }
  const head = t.heads[at.head];
  const i = at.row;
  const withValues = at.field === "output";
  const header = ["key", "q·k", "scaled", "exponential", "weight"];
  if (withValues) header.push(`value ${at.col + 1}`, "weight × value");
  const rows = head.scores[i].map((s, j) => {
    const visible = head.visible[i][j];
    const row = [
      String(j + 1),
      fmt([s]),
      visible ? fmt([head.scaled[i][j]]) : "masked",
      fmt([head.exps[i][j]]),
      fmt([head.weights[i][j]]),
    ];
    if (withValues) row.push(fmt([head.V[j][at.col]]), fmt([head.weights[i][j] * head.V[j][at.col]]));
    return row;
  });
  const total = ["sum", "", "", fmt([head.sums[i]]), fmt([1])];
  if (withValues) total.push("", fmt([head.output[i][at.col]]));
  rows.push(total);
  return table(make, header, rows, `Head ${at.head + 1}, query ${i + 1}: scale ${fmt([head.scale])}`);
}

// ---------------------------------------------------------------- the widget

export function makePractice(element, page, tools) {
  const { parseNumber, lands, make, answerForm, plural, asText, notices } = tools;
  const places = Number(element.dataset.decimals) || page.lesson.decimals || 3;
  const fmt = (values) => formatValues(values, places).join(", ");
  const spec = JSON.parse(element.dataset.spec);
  const base = page.lesson.fixture;
  const own = { fixture: element.dataset.fixture, answers: [] };
  const items = [...element.querySelectorAll("li.abh-practice-check[data-path]")];
  own.answers = items.map((item) => Number(item.dataset.answer));
  const gate = document.querySelector(".abh-gate[data-tolerance]");
  const tolerance = spec.tolerance ?? (gate ? Number(gate.dataset.tolerance) : 10 ** -places);
  // The ladder of the last exercise before the practice: the one these numbers replace (a
  // page with several checks has several ladders, and mixing them would open hints early).
  const ladder = [...document.querySelectorAll(".abh-hints")].at(-1);
  const thresholds = [...(ladder ? ladder.querySelectorAll("details.abh-hint[data-after]") : [])]
    .map((details) => Number(details.dataset.after))
    .filter((n) => Number.isInteger(n) && n > 0)
    .sort((a, b) => a - b);

  // The controls, above the exercise.
  const title = make("p", { className: "abh-practice-title" });
  const newNumbers = make("button", { type: "button", className: "abh-button abh-new-numbers" }, "New numbers");
  const own0 = make("button", { type: "button", className: "abh-button abh-own-numbers" }, "The lesson's numbers");
  const link = make("a", { className: "abh-practice-link" }, "Link to these numbers");
  const notice = make("p", { className: "abh-practice-notice", "aria-live": "polite", hidden: true });
  const drawn = make("div", { className: "abh-practice-numbers" });
  const others = make("details", { className: "abh-practice-others" }, make("summary", {}, "The other numbers"));
  const rule = make("p", { className: "abh-practice-rule" });
  const hintBox = make("div", { className: "abh-practice-hints" });
  const solution = make("details", { className: "abh-practice-solution" });
  const solutionSummary = make("summary", {}, "Worked solution for these numbers");
  solution.append(solutionSummary);
  const solutionBody = make("div", {});
  solution.append(solutionBody);
  element
    .querySelector(".abh-practice-intro")
    ?.replaceChildren(
      "The same kind of question on other numbers. Each set of numbers has a number of its own, ",
      "so the same link shows the same numbers anywhere.",
    );
  element.prepend(
    make("div", { className: "abh-practice-actions" }, title, " ", newNumbers, " ", own0, " ", link),
    notice,
  );
  const list = element.querySelector("ol.abh-practice-checks");
  list.before(drawn, others, rule);
  list.after(hintBox, solution);

  const current = { number: 0, trace: null, answers: own.answers };

  const checks = items.map((item, index) => {
    const label = item.querySelector(".abh-practice-label") ?? make("span", { className: "abh-practice-label" });
    const { form, input, result, attempts } = answerForm(label, `abh-practice-answer-${index}`);
    item.replaceChildren(form);
    let inputNotice = null;
    const record = () => {
      const list = page.state.practice[current.number];
      const stored = Array.isArray(list) && isObject(list[index]) ? list[index] : {};
      return {
        value: typeof stored.value === "string" ? stored.value : "",
        attempts: Number.isInteger(stored.attempts) && stored.attempts > 0 ? stored.attempts : 0,
        right: typeof stored.right === "boolean" ? stored.right : null,
      };
    };
    const store = (value) => {
      const list = Array.isArray(page.state.practice[current.number]) ? page.state.practice[current.number] : [];
      list[index] = value;
      page.state.practice[current.number] = list;
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const parsed = parseNumber(input.value);
      const next = { ...record(), value: input.value };
      if (parsed.error) inputNotice = notices[parsed.error];
      else {
        inputNotice = null;
        next.attempts += 1;
        next.right = lands(parsed.value, current.answers[index], tolerance);
      }
      store(next);
      page.refresh();
    });
    input.addEventListener("input", () => {
      store({ ...record(), value: input.value });
      page.save();
    });
    return {
      item,
      attempts: () => record().attempts,
      restore() {
        input.value = record().value;
        inputNotice = null;
      },
      render() {
        const { attempts: count, right } = record();
        input.setAttribute("aria-invalid", inputNotice ? "true" : "false");
        const kind = inputNotice ? "abh-invalid" : right === true ? "abh-right" : right === false ? "abh-wrong" : "";
        result.className = `abh-result ${kind}`;
        if (inputNotice) result.textContent = inputNotice;
        else if (right === true) result.textContent = `✓ Within ${asText(tolerance)}: it counts.`;
        else if (right === false) result.textContent = `✗ Not within ${asText(tolerance)}.`;
        else result.textContent = "";
        attempts.textContent = count ? `(${plural(count, "attempt")})` : "";
      },
    };
  });

  const totalAttempts = () => checks.reduce((sum, check) => sum + check.attempts(), 0);
  let hints = [];

  /** Shows variant `number`: numbers, answers, hints and solution; false when it cannot be drawn. */
  function show(number) {
    let fixture, t, values;
    try {
      if (number === 0) {
        fixture = JSON.parse(own.fixture);
        ({ trace: t } = drawVariant(spec, base, 0));
        values = own.answers;
      } else {
        ({ fixture, trace: t } = drawVariant(spec, base, number));
        values = answers(spec, t);
      }
    } catch {
      return false;
    }
    Object.assign(current, { number, trace: t, answers: values });
    element.dataset.variant = String(number);
    element.dataset.fixture = number === 0 ? own.fixture : JSON.stringify(fixture);
    checks.forEach((check, i) => (check.item.dataset.answer = String(values[i])));
    title.textContent = number === 0 ? "The lesson's own numbers (variant 0)." : `New numbers: variant ${number}.`;
    link.setAttribute("href", addressOf(number));
    own0.hidden = number === 0;

    const drawnFields = new Set(spec.draws.map((d) => d.field));
    const figures = matrices(fixture).map(([name, , matrix]) => [name, matrixFigure(make, name, matrix, places)]);
    drawn.replaceChildren(...figures.filter(([name]) => drawnFields.has(name) || number === 0).map(([, f]) => f));
    const rest = figures.filter(([name]) => !drawnFields.has(name) && number !== 0);
    others.hidden = rest.length === 0;
    others.replaceChildren(
      make("summary", {}, "The lesson's other numbers, unchanged"),
      make("div", { className: "abh-practice-numbers" }, ...rest.map(([, f]) => f)),
    );
    rule.textContent = `An answer counts when it is within ${asText(tolerance)} of the value computed from these numbers.`;

    const texts = spec.answers.flatMap((path) => hintsFor(t, path, fmt));
    hints = texts.map((text, k) => {
      const after = thresholds[k] ?? (thresholds.length ? thresholds.at(-1) + k - thresholds.length + 1 : k + 1);
      const summary = make("summary", {}, `Hint ${k + 1}`);
      const lock = make("span", { className: "abh-hint-lock" });
      summary.append(lock);
      const details = make("details", { className: "abh-practice-hint" }, summary, make("p", {}, text));
      details.dataset.after = String(after);
      const locked = () => totalAttempts() < after;
      summary.addEventListener("click", (event) => {
        if (locked()) event.preventDefault();
      });
      details.addEventListener("toggle", () => {
        if (details.open && locked()) details.open = false;
      });
      return { details, summary, lock, locked, after };
    });
    hintBox.replaceChildren(...hints.map((hint) => hint.details));
    solution.open = false;
    solutionBody.replaceChildren(...spec.answers.map((path) => solutionFor(make, t, path, fmt)));
    checks.forEach((check) => check.restore());
    return true;
  }

  function go(number, message = "") {
    if (!show(number)) {
      show(0);
      message = `Variant ${number} could not be drawn, so these are the lesson's own numbers (variant 0).`;
    }
    notice.textContent = message;
    notice.hidden = !message;
  }

  newNumbers.addEventListener("click", () => {
    const next = current.number >= MAX_VARIANT ? 1 : current.number + 1;
    go(next);
    history.replaceState(history.state, "", addressOf(current.number));
    page.refresh();
  });
  own0.addEventListener("click", () => {
    go(0);
    history.replaceState(history.state, "", addressOf(0));
    page.refresh();
  });
  solution.addEventListener("toggle", () => {
    if (solution.open && totalAttempts() === 0) solution.open = false;
  });
  solutionSummary.addEventListener("click", (event) => {
    if (totalAttempts() === 0) event.preventDefault();
  });

  const asked = variantFromAddress(location.search);
  go(asked.number, asked.notice);

  return {
    restore() {
      checks.forEach((check) => check.restore());
    },
    render() {
      checks.forEach((check) => check.render());
      const count = totalAttempts();
      for (const hint of hints) {
        const isLocked = hint.locked();
        if (isLocked) hint.details.open = false;
        hint.details.classList.toggle("abh-locked", isLocked);
        hint.summary.setAttribute("aria-disabled", String(isLocked));
        hint.lock.textContent = isLocked
          ? ` Opens after ${plural(hint.after, "evaluated attempt")} (you have ${count}).`
          : "";
      }
      const solutionLocked = count === 0;
      if (solutionLocked) solution.open = false;
      solution.classList.toggle("abh-locked", solutionLocked);
      solutionSummary.setAttribute("aria-disabled", String(solutionLocked));
      solutionSummary.textContent = solutionLocked
        ? "Worked solution for these numbers (opens after your first attempt)"
        : "Worked solution for these numbers";
    },
  };
}
