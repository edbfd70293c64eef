// The hand-in form of a game of three, where each hands in two cards: "1 of 2 chosen" as cards are ticked,
// and the button ready only for the right count (the server refuses any other, in words, beside the form).
// Without this script the form still works. Listeners sit on the document: the board is swapped in by htmx.
(function () {
  "use strict";

  function update(form) {
    var counter = form.querySelector("[data-pick-count]");
    var texts = form.querySelector("template[data-pick-count-texts]");
    if (!counter || !texts) return;
    var need = Number(counter.getAttribute("data-pick-count"));
    var chosen = form.querySelectorAll("input[name=cards]:checked").length;
    var text = texts.content.querySelector('[data-chosen="' + (chosen > need ? "more" : chosen) + '"]');
    if (text && counter.textContent !== text.textContent) counter.textContent = text.textContent;
    var button = form.querySelector("button[type=submit]");
    if (button) button.disabled = chosen !== need;
  }

  function updateAll() {
    document.querySelectorAll("form:has([data-pick-count])").forEach(update);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form && form.querySelector("[data-pick-count]")) update(form);
  });
  document.addEventListener("DOMContentLoaded", updateAll);
  document.addEventListener("htmx:afterSettle", updateAll);
})();
