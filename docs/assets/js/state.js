/**
 * A reader's work on a lesson, kept in this browser: localStorage under "abh:<slug>".
 *
 *   { checks: {<check id>: {value, attempts, right, landed}},  typed text; evaluated attempts;
 *                                                         whether the last one landed; whether
 *                                                         any one has (a worked solution that
 *                                                         opened stays open)
 *     predictions: {<name>: {tries: [<option>, ...]}},    every lock-in, in order; the last counts
 *     takeaways: {<name>: {text, saved}},                 the reader's own words, and whether saved
 *     whys: {<name>: <text>},                             one line on why, beside a prediction
 *     labs: {<lab name>: {<field>: [[cell text]]}},       edited lab cells, as typed
 *     practice: {<variant>: [{value, attempts, right, landed}]},  one entry per practice check
 *     visited, tracked, done }                            read by other pages: the home page's
 *                                                         track map and the facts line of
 *                                                         lessons that require this one
 * A lesson is tracked when it has at least one gate, and done when every gate is met.
 * Storage can be blocked, full, or hold junk edited by hand: every reader here checks each
 * field it uses, and the page works (forgetting on reload) when nothing can be stored.
 */

const storageKey = (slug) => `abh:${slug}`;

export const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);

export function emptyState() {
  return { checks: {}, predictions: {}, takeaways: {}, whys: {}, labs: {}, practice: {} };
}

/** A lesson's stored state, or null. */
export function readState(slug) {
  try {
    const state = JSON.parse(localStorage.getItem(storageKey(slug)));
    return isObject(state) ? state : null;
  } catch {
    return null;
  }
}

export function writeState(slug, state) {
  try {
    localStorage.setItem(storageKey(slug), JSON.stringify(state));
  } catch {
    // Storage full or blocked: the page keeps working, it only forgets on reload.
  }
}

/** The stored state with every part present; a part that is not an object starts empty. */
export function loadState(slug) {
  const stored = readState(slug) ?? {};
  const state = emptyState();
  for (const key of Object.keys(state)) if (isObject(stored[key])) state[key] = stored[key];
  return state;
}

/** One graded answer's record, read field by field: {value, attempts, right, landed}. */
export function answerRecord(stored) {
  const record = isObject(stored) ? stored : {};
  const right = typeof record.right === "boolean" ? record.right : null;
  return {
    value: typeof record.value === "string" ? record.value : "",
    attempts: Number.isInteger(record.attempts) && record.attempts > 0 ? record.attempts : 0,
    right,
    landed: record.landed === true || right === true,
  };
}
