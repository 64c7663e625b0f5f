/**
 * "Open the notebook" from a page opened from a folder on disk. Served, the link's download
 * attribute saves the .ipynb beside the page. On file:// Chromium ignores that attribute and
 * shows the notebook's JSON, and a page on disk cannot fetch the file either; so the notebook
 * is also published as a classic script beside the page (notebook.js, made by
 * macros/notebooks/names.py `script`), loaded on the click, and saved from it as a file.
 */

import { make } from "./dom.js";

/** The lesson's notebook ({name, text}) from its script, loaded once; rejects if it cannot be. */
function loadNotebook(slug, source) {
  const ready = () => window.abhNotebook?.[slug] ?? null;
  if (ready()) return Promise.resolve(ready());
  return new Promise((resolve, reject) => {
    const script = make("script", { src: new URL(source, document.baseURI).href });
    script.addEventListener("load", () => (ready() ? resolve(ready()) : reject(new Error("no notebook"))));
    script.addEventListener("error", () => reject(new Error("not loaded")));
    document.head.append(script);
  });
}

/** The text saved as a file named `name`, as a download would. */
function saveAs(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/x-ipynb+json" }));
  const link = make("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** On a page opened from disk, each notebook link saves the notebook instead of showing it. */
export function saveNotebooksFromDisk(root, slug) {
  if (window.location.protocol !== "file:") return;
  for (const link of root.querySelectorAll("a[data-notebook-script]")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      loadNotebook(slug, link.dataset.notebookScript).then(
        (notebook) => saveAs(notebook.name, notebook.text),
        () => window.location.assign(link.href), // without its script, show the file as before
      );
    });
  }
}
