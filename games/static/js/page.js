// Small behaviours of the pages, here rather than in inline handlers (onclick="...")
// that the Content-Security-Policy refuses. Listeners sit on the document, so that
// fragments swapped in later (htmx, live updates) behave the same without rebinding.
//
//   <select data-submit-on-change>   sends its form when a choice is made (the language)
//   <input data-select-on-focus>     selects its whole text to copy (an invite link, a token)
//   <form data-confirm="question">   asks before it is sent (resigning)
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

  // The notification bell tells the server whether this page is being looked at
  // (formerly hx-vals="js:...", which htmx would have to evaluate).
  document.addEventListener("htmx:configRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (element && element.matches && element.matches('[data-live="bell"]')) {
      event.detail.parameters.visible = document.visibilityState;
    }
  });
})();
