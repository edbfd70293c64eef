// Small behaviours of the pages, here rather than in inline handlers (onclick="...")
// that the Content-Security-Policy refuses. Listeners sit on the document, so that
// fragments swapped in later (htmx, live updates) behave the same without rebinding.
//
//   <select data-submit-on-change>   sends its form when a choice is made (the language)
//   <input data-select-on-focus>     selects its whole text to copy (an invite link, a token)
//   <form data-confirm="question">   asks before it is sent (resigning)
//   <button data-copy="#input">     copies the input's text (an invite link), "Copied" in [data-copy-status]
//   <template data-share-button>     a <button data-share="#input"> shown only where navigator.share exists
//   <table> in <main>                 wrapped in a box of its own that scrolls sideways (focusable and named
//                                    when it does), so that a wide table never widens the page on a phone
//   .messages > .message.success     a confirmation, gone once the game's board moves on (a live update)
//   <details data-open-wide>         folded on a phone (a tap away), opened once in a wide window; after that
//                                    as the viewer leaves it (the score track, the table talk)
//   <details data-menu>              the header's menu: a button with aria-expanded toggles it on a phone,
//                                    Escape or a click elsewhere closes it; always open in a wide window
(function () {
  "use strict";

  document.addEventListener("change", function (event) {
    var select = event.target.closest && event.target.closest("select[data-submit-on-change]");
    if (select && select.form) select.form.submit();
  });

  function selectAll(event) {
    var input = event.target.closest && event.target.closest("input[data-select-on-focus]");
    if (input) input.select();
  }
  document.addEventListener("focusin", selectAll);
  document.addEventListener("click", selectAll);

  document.addEventListener("submit", function (event) {
    var form = event.target.closest && event.target.closest("form[data-confirm]");
    if (form && !window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
  }, true);

  // A Share button only where the browser can share: made from its <template>, again after each swap.
  function shareButtons(root) {
    if (!navigator.share) return;
    root.querySelectorAll("template[data-share-button]").forEach(function (template) {
      var next = template.nextElementSibling;
      if (next && next.matches("button[data-share]")) return;
      template.parentNode.insertBefore(template.content.cloneNode(true), template.nextSibling);
    });
  }
  shareButtons(document);
  document.addEventListener("htmx:afterSettle", function () { shareButtons(document); });

  // A confirmation ("A bot has taken a seat.") says its piece once: it goes as soon as the game's board moves on,
  // rather than stay on top of a page left open for the whole game. Errors stay until the next page.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.matches || !target.matches('[data-live="game"]')) return;
    document.querySelectorAll(".messages > .message.success").forEach(function (message) {
      var list = message.parentNode;
      message.remove();
      if (!list.children.length) list.remove();
    });
  });

  var WIDE = window.matchMedia("(min-width: 48rem)");
  function openWide(root) {
    root.querySelectorAll("details[data-open-wide]").forEach(function (details) {
      if (details.fabulaOpenedWide) return;  // once: a morph keeps the element, and what the viewer did with it
      details.fabulaOpenedWide = true;
      if (WIDE.matches) details.open = true;
    });
  }
  openWide(document);
  document.addEventListener("htmx:afterSettle", function () { openWide(document); });

  document.addEventListener("click", function (event) {
    var copy = event.target.closest && event.target.closest("button[data-copy]");
    if (copy) {
      var input = document.querySelector(copy.getAttribute("data-copy"));
      var status = copy.parentNode.querySelector("[data-copy-status]");
      if (!input || !navigator.clipboard) return;
      navigator.clipboard.writeText(input.value).then(function () {
        if (status) status.textContent = copy.getAttribute("data-copied");
      }, function () {
        input.select();  // no clipboard here: the link is selected, to copy by hand
      });
      return;
    }
    var share = event.target.closest && event.target.closest("button[data-share]");
    if (share && navigator.share) {
      var link = document.querySelector(share.getAttribute("data-share"));
      if (link) navigator.share({title: share.getAttribute("data-share-title"), url: link.value}).catch(function () {});
    }
  });

  // The header's menu. Without this script it is a plain <details>; here its <summary> gives way to a
  // button that says whether the menu is open (aria-expanded) and names what it opens (aria-controls).
  function headerMenu(details) {
    var summary = details.querySelector("summary");
    var panel = details.querySelector(".menu-panel");
    if (!summary || !panel) return;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "menu-button";
    summary.childNodes.forEach(function (node) { button.appendChild(node.cloneNode(true)); });
    button.setAttribute("aria-controls", panel.id);
    button.setAttribute("aria-expanded", "false");
    details.parentNode.insertBefore(button, details);  // outside: a closed <details> shows only its summary
    details.classList.add("menu-js");
    var wide = window.matchMedia("(min-width: 960px)");

    function sync() { button.setAttribute("aria-expanded", String(details.open)); }
    function fit() { details.open = wide.matches; sync(); }
    function close(focus) {
      if (wide.matches || !details.open) return;
      details.open = false;
      sync();
      if (focus) button.focus();
    }
    button.addEventListener("click", function () { details.open = !details.open; sync(); });
    details.addEventListener("toggle", sync);
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && details.open && !wide.matches) close(details.contains(document.activeElement));
    });
    document.addEventListener("click", function (event) {
      if (!details.contains(event.target) && !button.contains(event.target)) close(false);
    });
    details.addEventListener("focusout", function (event) {
      if (event.relatedTarget && !details.contains(event.relatedTarget)) close(false);
    });
    if (wide.addEventListener) wide.addEventListener("change", fit); else wide.addListener(fit);
    fit();
  }
  document.querySelectorAll("details[data-menu]").forEach(headerMenu);

  // Wide tables scroll in their own box. A table already in a .table-scroll is left as its page made it.
  function tableName(table) {
    var caption = table.querySelector("caption");
    if (caption && caption.textContent.trim()) return caption.textContent.trim();
    if (table.getAttribute("aria-label")) return table.getAttribute("aria-label");
    var section = table.closest("section, article, main");
    var heading = section && section.querySelector("h1, h2, h3");
    return heading ? heading.textContent.trim() : "";
  }
  function fitTables() {
    var named = {};
    document.querySelectorAll("main .table-scroll[aria-label]").forEach(function (box) { named[box.getAttribute("aria-label")] = true; });
    document.querySelectorAll("main table").forEach(function (table) {
      if (table.closest(".sr-only")) return;  // for screen readers only: nothing to scroll
      var box = table.parentNode;
      if (box.classList.contains("table-wrap")) box.classList.add("table-scroll");  // a page's own scroll box
      if (!box.classList.contains("table-scroll")) {
        box = document.createElement("div");
        box.className = "table-scroll";
        table.parentNode.insertBefore(box, table);
        box.appendChild(table);
      }
      if (!box.hasAttribute("data-fitted")) {
        box.setAttribute("data-fitted", "");
        var name = tableName(table);
        if (name && !named[name] && !box.hasAttribute("aria-label")) {  // landmarks' names are unique
          named[name] = true;
          box.setAttribute("role", "region");
          box.setAttribute("aria-label", name);
        }
      }
      // Focusable only when it scrolls: the keyboard can then move it; otherwise no extra stop.
      if (box.scrollWidth > box.clientWidth + 1) {
        if (!box.hasAttribute("tabindex")) box.setAttribute("data-scroll-tab", "");
        box.setAttribute("tabindex", "0");
      } else if (box.hasAttribute("data-scroll-tab")) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-scroll-tab");
      }
    });
  }
  fitTables();
  document.addEventListener("htmx:afterSettle", fitTables);
  window.addEventListener("resize", fitTables);

  // The notification bell tells the server whether this page is being looked at
  // (formerly hx-vals="js:...", which htmx would have to evaluate).
  document.addEventListener("htmx:configRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (element && element.matches && element.matches('[data-live="bell"]')) {
      event.detail.parameters.visible = document.visibilityState;
    }
  });
})();
