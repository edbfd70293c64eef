// A deck's page: several pictures at once (chosen, taken with the camera, or dropped), each uploaded on its own
// with a progress bar and its own error, then the list of cards read again so that each new picture can be
// described. Without this script the form uploads one picture with its words.
(function () {
  "use strict";

  function setup(form) {
    var list = form.querySelector("[data-upload-list]");
    var zone = form.querySelector("[data-drop-zone]");
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    var chooser = form.querySelector("#deck-files");
    var camera = form.querySelector("#deck-camera");
    document.documentElement.classList.add("js");
    form.querySelectorAll("[data-no-js]").forEach(function (el) { el.hidden = true; el.querySelectorAll("input").forEach(function (input) { input.required = false; input.disabled = true; }); });
    form.querySelectorAll("[data-js-only]").forEach(function (el) { el.hidden = false; });
    chooser.multiple = true;
    chooser.required = false;
    var queue = [];
    var busy = false;

    function item(file) {
      var li = document.createElement("li");
      li.className = "upload-item";
      var name = document.createElement("span");
      name.className = "upload-name";
      name.textContent = file.name || "photo";
      var status = document.createElement("span");
      status.className = "upload-status";
      status.textContent = form.dataset.labelUploading;
      var bar = document.createElement("progress");
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute("aria-label", file.name || "photo");
      li.append(name, status, bar);
      list.append(li);
      return { li: li, status: status, bar: bar };
    }

    function send(entry) {
      return new Promise(function (resolve) {
        var data = new FormData();
        data.append("file", entry.file);
        var xhr = new XMLHttpRequest();
        xhr.open("POST", form.dataset.upload);
        xhr.setRequestHeader("Accept", "application/json");
        xhr.setRequestHeader("X-CSRFToken", token);
        xhr.upload.onprogress = function (event) {
          if (event.lengthComputable) { entry.view.bar.value = Math.round((event.loaded / event.total) * 100); }
        };
        xhr.onload = function () {
          var answer = null;
          try { answer = JSON.parse(xhr.responseText); } catch (e) { answer = null; }
          if (xhr.status === 201) {
            entry.view.bar.value = 100;
            entry.view.li.classList.add("done");
            entry.view.status.textContent = form.dataset.labelDone;
          } else {
            entry.view.li.classList.add("failed");
            var message = answer && answer.error ? answer.error.message : xhr.statusText;
            entry.view.status.textContent = form.dataset.labelFailed + " " + message;
          }
          resolve();
        };
        xhr.onerror = function () {
          entry.view.li.classList.add("failed");
          entry.view.status.textContent = form.dataset.labelFailed + " " + form.dataset.labelNetwork;
          resolve();
        };
        xhr.send(data);
      });
    }

    function refresh() {
      return fetch(form.dataset.refresh, { credentials: "same-origin" }).then(function (response) { return response.text(); }).then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var cards = page.querySelector("[data-deck-cards]");
        var quota = page.querySelector("[data-quota]");
        if (cards) {
          var list = document.querySelector("[data-deck-cards]");
          list.innerHTML = cards.innerHTML;
          if (window.htmx) window.htmx.process(list);  // the words' forms save in place (hx-post)
        }
        if (quota) { document.querySelector("[data-quota]").textContent = quota.textContent; }
      });
    }

    function next() {
      if (busy) { return; }
      var entry = queue.shift();
      if (!entry) {
        refresh().then(function () { form.dataset.state = "done"; });
        return;
      }
      busy = true;
      form.dataset.state = "uploading";
      send(entry).then(function () { busy = false; next(); });
    }

    function add(files) {
      Array.prototype.forEach.call(files, function (file) { queue.push({ file: file, view: item(file) }); });
      next();
    }

    [chooser, camera].forEach(function (input) {
      input.addEventListener("change", function () { add(input.files); input.value = ""; });
    });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    zone.addEventListener("dragover", function (event) { event.preventDefault(); zone.classList.add("dragging"); });
    zone.addEventListener("dragleave", function () { zone.classList.remove("dragging"); });
    zone.addEventListener("drop", function (event) {
      event.preventDefault();
      zone.classList.remove("dragging");
      if (event.dataTransfer && event.dataTransfer.files) { add(event.dataTransfer.files); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-deck-upload]").forEach(setup);
  });
})();
