// Think Alike's pages, enhanced: everything here is optional, the forms work without it.
//
// 1. The answer form counts the answers written as the player types, and asks
//    in a <dialog> before it hands in blank ones (the server takes them anyway).
// 2. The new-game form's course is built on the drawn circle: choose a place,
//    then a field of the palette. The course's <select>s stay the form's inputs;
//    this only sets them, and follows them when they are changed by hand.
//
// The words come from the page (rendered with their plural forms by the server),
// so nothing here is in one language.
(function () {
  "use strict";

  // ---- 1. Answers ---------------------------------------------------------------

  function answerInputs(form) {
    return Array.prototype.slice.call(form.querySelectorAll("input[name=answers]"));
  }

  function blanks(form) {
    return answerInputs(form).filter(function (input) { return !input.value.trim(); });
  }

  function textFor(template, attribute, number) {
    if (!template) return "";
    var span = template.content.querySelector("[" + attribute + '="' + number + '"]');
    return span ? span.textContent : "";
  }

  function updateCount(form) {
    var counter = form.querySelector("[data-answer-count]");
    if (!counter) return;
    var written = answerInputs(form).length - blanks(form).length;
    var text = textFor(form.querySelector("template[data-answer-count-texts]"), "data-written", written);
    if (text && counter.textContent !== text) counter.textContent = text;
    counter.setAttribute("data-written", String(written));
  }

  function updateAllCounts() {
    document.querySelectorAll("form[data-answer-form]").forEach(updateCount);
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-answer-form]");
    if (form) updateCount(form);
  });

  // Before htmx (which listens on the form itself) sees the submit: a capturing
  // listener on the document runs first, and may stop it there.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-answer-form]")) return;
    var dialog = form.querySelector("dialog[data-blank-dialog]");
    var left = blanks(form).length;
    if (form.fabulaBlanksConfirmed || !left || !dialog || typeof dialog.showModal !== "function") {
      form.fabulaBlanksConfirmed = false;
      return;
    }
    event.preventDefault();
    event.stopPropagation();
    form.fabulaSubmitter = event.submitter || null;
    dialog.querySelector("[data-blank-question]").textContent =
      textFor(dialog.querySelector("template[data-blank-texts]"), "data-blank", left);
    dialog.showModal();
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-blank-confirm], [data-blank-cancel]");
    if (!button) return;
    var dialog = button.closest("dialog[data-blank-dialog]");
    var form = dialog && dialog.closest("form[data-answer-form]");
    if (!form) return;
    dialog.close();
    if (button.hasAttribute("data-blank-confirm")) {
      form.fabulaBlanksConfirmed = true;
      var submitter = form.fabulaSubmitter;
      if (form.requestSubmit) form.requestSubmit(submitter && form.contains(submitter) ? submitter : undefined);
      else form.submit();
    } else {
      var first = blanks(form)[0];
      if (first) first.focus();
    }
  });

  // ---- 2. The course on the circle ------------------------------------------------

  function Builder(root) {
    this.root = root;
    this.fieldset = root.closest("fieldset") || root.parentNode;
    this.places = Array.prototype.slice.call(root.querySelectorAll("[data-place]"));
    this.fields = Array.prototype.slice.call(root.querySelectorAll("[data-field]"));
    this.status = root.querySelector("[data-course-status]");
    this.active = 1;
    this.byId = {};
    var self = this;
    this.fields.forEach(function (button) { self.byId[button.getAttribute("data-field")] = button; });
  }

  Builder.prototype.select = function (number) {
    return this.fieldset.querySelector('select[name="course_' + number + '"]');
  };

  Builder.prototype.value = function (number) {
    var select = this.select(number);
    return select ? select.value : "";
  };

  Builder.prototype.message = function (name, values) {
    var text = this.root.getAttribute("data-say-" + name) || "";
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(values[key]);
    });
    return text;
  };

  // The circle and the palette as the <select>s say.
  Builder.prototype.render = function () {
    var self = this;
    var used = {};
    var chosen = 0;
    this.places.forEach(function (place) {
      var number = Number(place.getAttribute("data-place"));
      var id = self.value(number);
      var field = id && self.byId[id];
      place.className = place.className.replace(/\s*kind-\S+|\s*empty\b|\s*active\b/g, "");
      place.querySelector(".field-text").textContent = field ? field.getAttribute("data-text") : "";
      place.querySelector("[data-empty]").hidden = !!field;
      place.classList.add(field ? "kind-" + field.getAttribute("data-kind") : "empty");
      if (field) { used[id] = number; chosen += 1; }
      var active = number === self.active;
      place.classList.toggle("active", active);
      place.setAttribute("aria-pressed", active ? "true" : "false");
      place.tabIndex = active ? 0 : -1;
    });
    this.fields.forEach(function (button) {
      var at = used[button.getAttribute("data-field")];
      button.classList.toggle("used", !!at);
      button.setAttribute("aria-pressed", at === self.active ? "true" : "false");
      var mark = button.querySelector("[data-used]");
      if (mark) mark.textContent = at ? self.message("used", { n: at }) : "";
    });
    if (!this.fields.some(function (b) { return b.tabIndex === 0; }) && this.fields.length) this.fields[0].tabIndex = 0;
    var count = this.root.querySelector("[data-course-count]");
    if (count) count.textContent = textFor(this.root.querySelector("template[data-course-counts]"), "data-n", chosen);
    return chosen;
  };

  Builder.prototype.say = function (text) {
    if (this.status && text) this.status.textContent = text;
  };

  Builder.prototype.activate = function (number, focus) {
    this.active = number;
    this.render();
    var place = this.places[number - 1];
    var id = this.value(number);
    var text = id && this.byId[id] ? this.byId[id].getAttribute("data-text") : this.message("empty");
    this.say(this.message("chosen", { n: number, field: text }));
    if (focus && place) place.focus();
  };

  Builder.prototype.nextEmpty = function (after) {
    for (var step = 1; step <= this.places.length; step++) {
      var number = ((after - 1 + step) % this.places.length) + 1;
      if (!this.value(number)) return number;
    }
    return null;
  };

  Builder.prototype.lay = function (id) {
    var number = this.active;
    var select = this.select(number);
    if (!select) return;
    var self = this;
    // A field is on a course once: laid here, it leaves the place it had.
    this.places.forEach(function (place) {
      var other = Number(place.getAttribute("data-place"));
      if (other !== number && self.value(other) === id) self.setValue(other, "");
    });
    this.setValue(number, id);
    var next = this.nextEmpty(number);
    if (next !== null) this.active = next;
    var chosen = this.render();
    var said = this.message("laid", { n: number, field: this.byId[id].getAttribute("data-text") });
    this.say(next !== null ? said + " " + this.message("next", { n: next }) : said + " " + this.message("done", { n: chosen }));
  };

  Builder.prototype.setValue = function (number, id) {
    var select = this.select(number);
    select.value = id;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  };

  Builder.prototype.clear = function () {
    this.setValue(this.active, "");
    this.render();
    this.say(this.message("cleared", { n: this.active }));
  };

  // Arrow keys move along a row of buttons (the circle wraps round), one tab stop a row.
  function roving(buttons, current, key) {
    var index = buttons.indexOf(current);
    if (index < 0) return null;
    var forward = key === "ArrowRight" || key === "ArrowDown";
    var back = key === "ArrowLeft" || key === "ArrowUp";
    if (key === "Home") return buttons[0];
    if (key === "End") return buttons[buttons.length - 1];
    if (!forward && !back) return null;
    return buttons[(index + (forward ? 1 : -1) + buttons.length) % buttons.length];
  }

  Builder.prototype.start = function () {
    var self = this;
    this.root.hidden = false;
    this.fieldset.classList.add("course-enhanced");
    var lists = this.fieldset.querySelector("details.course-lists");
    // The lists stay at hand, folded, unless they carry an error to read.
    if (lists && !lists.querySelector(".error")) lists.open = false;
    this.active = this.nextEmpty(0) || 1;
    this.render();

    this.root.addEventListener("click", function (event) {
      var place = event.target.closest("[data-place]");
      var field = event.target.closest("[data-field]");
      if (place) self.activate(Number(place.getAttribute("data-place")), false);
      else if (field) self.lay(field.getAttribute("data-field"));
      else if (event.target.closest("[data-course-clear]")) self.clear();
    });
    this.root.addEventListener("keydown", function (event) {
      var place = event.target.closest("[data-place]");
      var field = event.target.closest("[data-field]");
      if (place) {
        var toPlace = roving(self.places, place, event.key);
        if (!toPlace) return;
        event.preventDefault();
        self.activate(Number(toPlace.getAttribute("data-place")), true);
      } else if (field) {
        var toField = roving(self.fields, field, event.key);
        if (!toField) return;
        event.preventDefault();
        self.fields.forEach(function (b) { b.tabIndex = b === toField ? 0 : -1; });
        toField.focus();
      }
    });
    this.fieldset.addEventListener("change", function (event) {
      if (event.target.matches("select[name^=course_]")) self.render();
    });
  };

  function startBuilders() {
    document.querySelectorAll("[data-course-builder]").forEach(function (root) {
      if (root.fabulaBuilder) return;
      root.fabulaBuilder = new Builder(root);
      root.fabulaBuilder.start();
    });
  }

  function start() {
    updateAllCounts();
    startBuilders();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // A live refresh re-renders the board with the server's count (none written): count again.
  document.addEventListener("htmx:afterSettle", updateAllCounts);
})();
