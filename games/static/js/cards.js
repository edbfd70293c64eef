// Open any card large: a button with data-zoom inside a card shows its picture
// and alt text in a dialog. Clicking it never selects the card it sits on.
(function () {
  "use strict";
  function dialog() {
    var d = document.getElementById("card-zoom");
    if (d) return d;
    d = document.createElement("dialog");
    d.id = "card-zoom";
    d.className = "card-zoom";
    d.innerHTML = '<form method="dialog"><button class="close" aria-label="' +
      (document.body.dataset.closeLabel || "Close") + '">×</button></form><img alt=""><p class="alt"></p>';
    d.addEventListener("click", function (e) { if (e.target === d) d.close(); });
    document.body.appendChild(d);
    return d;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-zoom]");
    if (!button) return;
    event.preventDefault();
    event.stopPropagation();
    var img = button.closest(".card-pick").querySelector("img");
    var d = dialog();
    d.querySelector("img").src = img.src;
    d.querySelector("img").alt = img.alt;
    d.querySelector(".alt").textContent = img.alt;
    // Words in another language than the page's (a card not yet translated) keep their lang.
    [d.querySelector("img"), d.querySelector(".alt")].forEach(function (el) {
      if (img.lang) el.lang = img.lang; else el.removeAttribute("lang");
    });
    d.showModal();
  }, true);
})();
